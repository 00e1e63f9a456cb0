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
// items the templates make (FitTokens), which L-BFGS can start from
// another model's weights (registry.WarmSequenceConfig, Config.Start). The function may run on several
// goroutines at once: each configuration it returns holds its own
// templates.
//
// The defaults are CRFsuite's (DefaultConfig) and DefaultTemplates;
// --max-iter 0 means no limit, as CRFsuite's.
func flags(fs *flag.FlagSet) func() (registry.Config, error) {
	def := DefaultConfig()
	features := templatesFlag(DefaultTemplates)
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
		tp, err := ParseTemplates(string(features)) // parsed again: each configuration holds its own
		if err != nil {
			return nil, err
		}
		tp.Buckets = buckets
		c := def
		c.C1, c.C2, c.Epsilon, c.Period, c.Delta = float64(c1), float64(c2), float64(epsilon), period, float64(delta)
		c.MaxIter, c.MinFreq, c.AllStates = maxIter, minFreq, *allPairs
		c.Perceptron, c.Epochs, c.Seed, c.Jobs = *perceptron, epochs, *seed, jobs
		fit := func(corpus *seq.Corpus, trace func(string)) (*Model, error) {
			return fitCorpus(corpus, tp, c, trace)
		}
		if c.Perceptron { // no warm start: the perceptron starts from 0
			return registry.SequenceFit(fit), nil
		}
		return registry.SequenceWarmFit(fit, func(corpus *seq.Corpus, from *Model, trace func(string)) (*Model, error) {
			warm := c
			warm.Start = from
			return fitCorpus(corpus, tp, warm, trace)
		}), nil
	}
}

// fitCorpus fits a CRF to the tagged sentences of corpus with the items
// of tp, tracing every L-BFGS iteration as CRFsuite logs it. Errors name
// the corpus's source and a sentence's line.
func fitCorpus(corpus *seq.Corpus, tp *Templates, c Config, trace func(string)) (*Model, error) {
	tokens := make([][]string, len(corpus.Sentences))
	tags := make([][]string, len(corpus.Sentences))
	for i, s := range corpus.Sentences {
		if len(s.Tokens) == 0 {
			return nil, fmt.Errorf("%s:%d: sentence %d has no tokens", corpus.Source, s.Line, i+1)
		}
		if !s.Tagged() {
			return nil, fmt.Errorf("%s:%d: sentence %d has no tags to train on", corpus.Source, s.Line, i+1)
		}
		tokens[i], tags[i] = s.Tokens, s.Tags
	}
	if trace != nil {
		c.Progress = func(it Iteration) {
			trace(fmt.Sprintf("L-BFGS: iteration %d: objective %.10g, ‖w‖ %.6g, ‖∇f‖ %.6g, %d line-search evaluations", it.Iter, it.Objective, it.WeightNorm, it.GradNorm, it.LinesearchCalls))
		}
	}
	m, err := FitTokens(tokens, tags, tp, c)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", corpus.Source, err)
	}
	return m, nil
}

// templatesFlag is the value of --features: a list of feature templates
// that ParseTemplates takes, checked when the flag is set, so that a bad
// template is a misuse of the flag.
type templatesFlag string

func (f *templatesFlag) String() string { return string(*f) }

func (f *templatesFlag) Set(s string) error {
	if _, err := ParseTemplates(s); err != nil {
		return err
	}
	*f = templatesFlag(s)
	return nil
}
