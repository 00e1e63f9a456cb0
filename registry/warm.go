package registry

import (
	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/seq"
)

// WarmStartConfig is the Config of an iterative kind whose fit can start
// from another model of the kind (a warm start): FitFrom fits d starting
// from the parameters of from, a model of the kind fitted on rows of the
// same columns, by this configuration or another (the neighbouring
// penalty of a regularisation path, package cv), and reaches the optimum
// that Fit reaches, within the optimiser's tolerance, usually in fewer
// iterations. A from that is not of the kind, or whose parameters do not
// fit d's (other classes), starts where Fit does.
type WarmStartConfig interface {
	Config
	FitFrom(d *data.Dataset, from gendisc.Model) (gendisc.Model, error)
}

// WarmFit returns the WarmStartConfig whose Fit is fit and whose FitFrom
// is fitFrom for a from of type M, fit otherwise.
func WarmFit[M gendisc.Model](fit func(d *data.Dataset) (M, error), fitFrom func(d *data.Dataset, from M) (M, error)) WarmStartConfig {
	return warmFit[M]{fit, fitFrom}
}

type warmFit[M gendisc.Model] struct {
	fit     func(d *data.Dataset) (M, error)
	fitFrom func(d *data.Dataset, from M) (M, error)
}

func (c warmFit[M]) Fit(d *data.Dataset) (gendisc.Model, error) { return modelOf(c.fit(d)) }

func (c warmFit[M]) FitFrom(d *data.Dataset, from gendisc.Model) (gendisc.Model, error) {
	if m, ok := from.(M); ok {
		return modelOf(c.fitFrom(d, m))
	}
	return modelOf(c.fit(d))
}

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
