package hmm

import (
	"flag"
	"fmt"
	"math"
	"strconv"

	"github.com/gendisc/gendisc/modelflags"
	"github.com/gendisc/gendisc/registry"
	"github.com/gendisc/gendisc/seq"
)

// flags defines the command-line flags of Config and EM (kind hmm) on fs
// and returns the function that gives the configuration once they are
// parsed: a one-pass configuration that counts tagged sentences, or with
// --em one that fits by Baum–Welch. The function may run on several
// goroutines at once: it completes copies.
//
// The flags' zero values that Config gives a meaning of its own are
// spelled out: --context 0 and --beam 0 turn the context emissions and
// the beam off (NoContext, NoBeam).
func flags(fs *flag.FlagSet) func() (registry.Config, error) {
	order := "2"
	fs.Var(modelflags.OneOf(&order, "order", "1", "2"), "order", "the number of previous tags a tag depends on: `n` = 1 (bigram HMM) or 2 (trigram HMM, as TnT)")
	smoothing := Interpolated.String()
	fs.Var(modelflags.OneOf(&smoothing, "smoothing", Interpolated.String(), AddAlpha.String()), "smoothing",
		"smoothing of the transitions: `method` interpolated (TnT's deleted interpolation) or add-alpha (--alpha)")
	alpha := modelflags.NonNegative(0.1)
	fs.Var(&alpha, "alpha", "with --smoothing add-alpha, pseudo-count `α` added to every transition count (0: maximum likelihood)")
	var emissionAlpha modelflags.NonNegative
	fs.Var(&emissionAlpha, "emission-alpha", "pseudo-count `α` added to every emission count of a known word (0: maximum likelihood, as TnT)")
	unknown := Suffixes.String()
	fs.Var(modelflags.OneOf(&unknown, "unknown-word model", Suffixes.String(), Uniform.String()), "unknown",
		"the model of new words: `model` suffixes (TnT's suffix tries by capitalisation and digits) or uniform (add-α's count of zero, as NLTK)")
	maxSuffix := 10
	fs.Var(modelflags.AtLeast(&maxSuffix, 1), "suffix-max-len", "the suffix model's longest suffix, in `letters`")
	rare := 10
	fs.Var(modelflags.AtLeast(&rare, 1), "rare", "the suffix model learns from the words seen at most `n` times")
	theta := modelflags.Positive(10)
	fs.Var(&theta, "theta-factor", "multiply θ of the suffix model's smoothing by `f` (TnT: 1)")
	noCap := fs.Bool("no-capitalization", false, "leave out TnT's capitalisation flag of the states")
	context := modelflags.NonNegative(1000)
	fs.Var(&context, "context", "order 2: `κ` of the emissions that depend on the previous tag too (as HunPos); 0 leaves them out")
	noEnd := fs.Bool("no-end", false, "leave out the transition to the end of the sentence (as NLTK)")
	beam := modelflags.NonNegative(math.Log(1000))
	fs.Var(&beam, "beam", "order 2: prune the Viterbi states whose log score is more than `b` below the best (TnT: ln 1000); 0 keeps every state")

	em := fs.Bool("em", false, "fit by Baum–Welch (EM) on the untagged sentences beside the tagged ones (needs --smoothing add-alpha, --context 0 for order 2, and --emission-alpha > 0 for words the tagged sentences lack)")
	labeled := fraction(1)
	fs.Var(&labeled, "labeled", "with --em, keep the tags of this `fraction` of the tagged sentences (drawn by --seed) and drop the others'")
	restarts := 1
	fs.Var(modelflags.AtLeast(&restarts, 1), "restarts", "with --em, run Baum–Welch from `n` starts and keep the highest objective")
	maxIter := 50
	fs.Var(modelflags.AtLeast(&maxIter, 1), "max-iter", "with --em, at most `n` iterations per start")
	tol := modelflags.Positive(1e-7)
	fs.Var(&tol, "tol", "with --em, stop when an iteration raises the objective by less than `t` times its magnitude")
	seed := fs.Uint64("seed", 1, "with --em, `seed` of the random starts and of --labeled's draw")
	var tagset modelflags.List
	fs.Var(&tagset, "tagset", "with --em, the `tags` of untagged data, comma-separated (needed when no sentence is tagged)")

	return func() (registry.Config, error) {
		c := Config{
			Order:            int(order[0] - '0'),
			Alpha:            float64(alpha),
			EmissionAlpha:    float64(emissionAlpha),
			MaxSuffix:        maxSuffix,
			Rare:             rare,
			ThetaFactor:      float64(theta),
			NoCapitalization: *noCap,
			Context:          float64(context),
			NoEnd:            *noEnd,
			Beam:             float64(beam),
		}
		var err error
		if c.Transitions, err = ParseSmoothing(smoothing); err != nil {
			return nil, err
		}
		if c.Unknown, err = ParseUnknown(unknown); err != nil {
			return nil, err
		}
		if c.Transitions != AddAlpha {
			c.Alpha = 0 // unused, and the model file records it
		}
		if c.Context == 0 {
			c.Context = NoContext
		}
		if c.Beam == 0 {
			c.Beam = NoBeam
		}
		if !*em {
			return registry.SequenceOnePass(func(corpus *seq.Corpus, _ func(string)) (*Model, error) {
				return inSource(corpus)(c.Fit(corpus.Sentences))
			}, c.NewAccumulator), nil
		}
		if c.Transitions != AddAlpha || (c.Order == 2 && c.Context != NoContext) {
			return nil, ErrEMConfig
		}
		opt := EM{Iterations: maxIter, Tolerance: float64(tol), Restarts: restarts, Seed: *seed, Tags: tagset}
		fraction := float64(labeled)
		return registry.SequenceFit(func(corpus *seq.Corpus, trace func(string)) (*Model, error) {
			tagged, untagged, err := SplitLabeled(corpus.Sentences, fraction, opt.Seed)
			if err != nil {
				return nil, err
			}
			em := opt
			if trace != nil {
				em.Progress = func(it Iteration) {
					trace(fmt.Sprintf("Baum–Welch: start %d, iteration %d: log-likelihood %.10g, objective %.10g", it.Restart+1, it.Iteration, it.LogLikelihood, it.Objective))
				}
			}
			return inSource(corpus)(c.FitEM(tagged, untagged, em))
		}), nil
	}
}

// inSource returns the function that names corpus's file in the error of
// a fit of its sentences (whose own errors name the sentence and line).
func inSource(corpus *seq.Corpus) func(*Model, error) (*Model, error) {
	return func(m *Model, err error) (*Model, error) {
		if err != nil && corpus.Source != "" {
			return nil, fmt.Errorf("%s: %w", corpus.Source, err)
		}
		return m, err
	}
}

// fraction is a flag of a number from 0 to 1.
type fraction float64

func (f *fraction) String() string { return strconv.FormatFloat(float64(*f), 'g', -1, 64) }

func (f *fraction) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v >= 0 && v <= 1) {
		return ErrFraction
	}
	*f = fraction(v)
	return nil
}
