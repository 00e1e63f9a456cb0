package registry

import (
	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/seq"
)

// WarmSequenceConfig is the SequenceConfig of an iterative sequence kind
// that can start its fit from another model's parameters:
// FitSequencesFrom is FitSequences started from from, a model of the same
// kind and configuration fitted to other sentences (those of all the
// folds, for the fold fits of a cross-validation), each parameter of from
// that the new fit has taken as its starting value and the others at the
// fit's usual start. A convex fit reaches the same optimum, within its
// stopping rule, in fewer iterations. A from of another kind is ignored.
type WarmSequenceConfig interface {
	SequenceConfig
	FitSequencesFrom(c *seq.Corpus, from gendisc.Model, trace func(line string)) (gendisc.Model, error)
}

// SequenceWarmFit returns the WarmSequenceConfig whose FitSequences is fit
// and whose FitSequencesFrom is fitFrom.
func SequenceWarmFit[M gendisc.Model](fit func(c *seq.Corpus, trace func(line string)) (M, error), fitFrom func(c *seq.Corpus, from M, trace func(line string)) (M, error)) WarmSequenceConfig {
	return sequenceWarmFit[M]{sequenceConfig[M]{fit}, fitFrom}
}

type sequenceWarmFit[M gendisc.Model] struct {
	sequenceConfig[M]
	fitFrom func(c *seq.Corpus, from M, trace func(line string)) (M, error)
}

func (c sequenceWarmFit[M]) FitSequencesFrom(corpus *seq.Corpus, from gendisc.Model, trace func(line string)) (gendisc.Model, error) {
	start, ok := from.(M)
	if !ok {
		return c.FitSequences(corpus, trace)
	}
	return modelOf(c.fitFrom(corpus, start, trace))
}
