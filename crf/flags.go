package crf

import (
	"flag"
	"fmt"

	"github.com/gendisc/gendisc/modelflags"
	"github.com/gendisc/gendisc/registry"
	"github.com/gendisc/gendisc/seq"
)

// flags defines the command-line flags of Config and of the feature
// templates (kind crf) on fs and returns the function that gives the
// configuration once they are parsed: a fit of tagged sentences whose
// items the templates make (FitTokens), or of sentences given as
// attributes (CRFsuite's data format), which have theirs: then
// --features and --hash-features are refused. L-BFGS can start from
// another model's weights (registry.WarmSequenceConfig, Config.Start);
// the perceptron ignores them and starts from zero. The function may run on several
// goroutines at once: each configuration it returns holds its own
// templates.
//
// The defaults are CRFsuite's (DefaultConfig) and DefaultTemplates;
// --max-iter 0 means no limit, as CRFsuite's.
func flags(fs *flag.FlagSet) func() (registry.Config, error) {
	def := DefaultConfig()
	features := templatesFlag{spec: DefaultTemplates}
	fs.Var(&features, "features", "the feature `templates`, comma-separated: bias, word, lower, prefix:N, suffix:N (affixes of 1…N characters), shape, cap, digit, hyphen, each optionally @OFFSET (-2…+2) to read a neighbouring token")
	c2 := modelflags.NonNegative(def.C2)
	fs.Var(&c2, "c2", "L2 coefficient `c2`: the penalty c2·‖w‖² on the sum over the sentences (CRFsuite's)")
	var c1 modelflags.NonNegative
	fs.Var(&c1, "c1", "L1 coefficient `c1`: with c1 > 0, OWL-QN minimises the objective + c1·‖w‖₁, a sparse model")
	epsilon := modelflags.NonNegative(def.Epsilon)
	fs.Var(&epsilon, "epsilon", "converged when ‖∇f‖ / max(1, ‖w‖) ≤ `ε`")
	period := def.Period
	fs.Var(modelflags.AtLeast(&period, 0), "period", "stop when the objective fell by less than --delta over the last `n` iterations (0: no such test)")
	delta := modelflags.NonNegative(def.Delta)
	fs.Var(&delta, "delta", "the relative fall `δ` of the objective over --period iterations below which the fit stops")
	maxIter := def.MaxIter
	fs.Var(modelflags.AtLeast(&maxIter, 0), "max-iter", "at most `n` L-BFGS iterations, with a warning when reached (0: no limit)")
	minFreq := 0
	fs.Var(modelflags.AtLeast(&minFreq, 0), "min-freq", "drop the attributes that occur in fewer than `n` tokens of the training data")
	buckets := 0
	fs.Var(modelflags.AtLeast(&buckets, 0), "hash-features", "hash the attributes into `N` buckets, a bounded feature space (0: no hashing)")
	allPairs := fs.Bool("all-pairs", false, "a state feature for every attribute–tag pair, not only those seen in training")
	perceptron := fs.Bool("perceptron", false, "train by the averaged perceptron (fast, a little less accurate) instead of L-BFGS")
	epochs := def.Epochs
	fs.Var(modelflags.AtLeast(&epochs, 1), "epochs", "with --perceptron, at most `n` passes over the sentences")
	seed := fs.Uint64("seed", 1, "with --perceptron, `seed` of the order of the sentences in each pass")
	jobs := 0
	fs.Var(modelflags.AtLeast(&jobs, 0), "jobs", "run the gradient pass on `n` goroutines (0: every core); the model does not depend on it")

	return func() (registry.Config, error) {
		tp, err := ParseTemplates(features.spec) // parsed again: each configuration holds its own
		if err != nil {
			return nil, err
		}
		tp.Buckets = buckets
		c := def
		c.C1, c.C2, c.Epsilon, c.Period, c.Delta = float64(c1), float64(c2), float64(epsilon), period, float64(delta)
		c.MaxIter, c.MinFreq, c.AllStates = maxIter, minFreq, *allPairs
		c.Perceptron, c.Epochs, c.Seed, c.Jobs = *perceptron, epochs, *seed, jobs
		fit := func(corpus *seq.Corpus, c Config, trace func(string)) (*Model, error) {
			if !corpus.GivenAttributes() {
				return fitCorpus(corpus, tp, c, trace)
			}
			if features.set || buckets > 0 {
				return nil, fmt.Errorf("%s: sentences given as attributes (CRFsuite's data format) have their attributes: feature templates, hashed or not, make those of words", corpus.Source)
			}
			return fitCorpus(corpus, nil, c, trace)
		}
		warm := registry.SequenceWarmFit(func(corpus *seq.Corpus, trace func(string)) (*Model, error) {
			return fit(corpus, c, trace)
		}, func(corpus *seq.Corpus, from *Model, trace func(string)) (*Model, error) {
			start := c
			if !c.Perceptron {
				start.Start = from
			}
			return fit(corpus, start, trace)
		})
		return attributeConfig{warm, tp}, nil
	}
}

// fitCorpus fits a CRF to the tagged sentences of corpus, their items
// made by tp from their words, or given as attributes when tp is nil,
// tracing every L-BFGS iteration as CRFsuite logs it. Errors name the
// corpus's source and a sentence's line.
func fitCorpus(corpus *seq.Corpus, tp *Templates, c Config, trace func(string)) (*Model, error) {
	var tokens, tags [][]string
	var seqs []Sequence // of given attributes, without tp
	for i, s := range corpus.Sentences {
		switch {
		case s.Len() == 0:
			return nil, fmt.Errorf("%s:%d: sentence %d has no tokens", corpus.Source, s.Line, i+1)
		case !s.Tagged():
			return nil, fmt.Errorf("%s:%d: sentence %d has no tags to train on", corpus.Source, s.Line, i+1)
		case (s.Attributes != nil) != (tp == nil):
			return nil, fmt.Errorf("%s:%d: sentence %d: sentences of words and sentences given as attributes mixed", corpus.Source, s.Line, i+1)
		case tp == nil:
			seqs = append(seqs, Sequence{Items: itemsOf(s.Attributes), Labels: s.Tags})
		default:
			tokens, tags = append(tokens, s.Tokens), append(tags, s.Tags)
		}
	}
	if trace != nil {
		c.Progress = func(it Iteration) {
			trace(fmt.Sprintf("L-BFGS: iteration %d: objective %.10g, ‖w‖ %.6g, ‖∇f‖ %.6g, %d line-search evaluations", it.Iter, it.Objective, it.WeightNorm, it.GradNorm, it.LinesearchCalls))
		}
	}
	var m *Model
	var err error
	if tp == nil {
		m, err = Fit(seqs, c)
	} else {
		m, err = FitTokens(tokens, tags, tp, c)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", corpus.Source, err)
	}
	return m, nil
}

// attributeConfig is the configuration of a fit with the templates tp
// (registry.AttributeConfig).
type attributeConfig struct {
	registry.WarmSequenceConfig
	tp *Templates
}

// Attributes returns the attributes that the templates make of tokens.
func (c attributeConfig) Attributes(tokens []string) [][]seq.Attribute {
	return c.tp.Attributes(tokens)
}

// templatesFlag is the value of --features: a list of feature templates
// that ParseTemplates takes, checked when the flag is set, so that a bad
// template is a misuse of the flag; set records that it was.
type templatesFlag struct {
	spec string
	set  bool
}

func (f *templatesFlag) String() string { return f.spec }

func (f *templatesFlag) Set(s string) error {
	if _, err := ParseTemplates(s); err != nil {
		return err
	}
	f.spec, f.set = s, true
	return nil
}
