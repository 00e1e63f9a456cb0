package cv

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/metrics"
	"github.com/gendisc/gendisc/ngram"
)

// Report is the evaluation of a model on held-out rows, one of
// *metrics.Report (a classifier), *metrics.RegressionReport (a regressor)
// and *metrics.LanguageModelReport (a language model): the report of
// gendisc eval for the model's kind. It marshals to JSON as eval --json
// writes it.
type Report interface {
	Text(w io.Writer) error
}

// Evaluate evaluates m on the rows d, which must follow m's schema, as
// gendisc eval does: a language model (ngram.LanguageModel) with
// metrics.EvaluateLanguageModel, a classifier with metrics.Evaluate and a
// regressor with metrics.Regression of its predictions. A row without its
// target is an error positioned at the row; so is a prediction that is
// not finite. A model of another kind (a clustering) is an error.
func Evaluate(m gendisc.Model, d *data.Dataset) (Report, error) {
	if lm, ok := m.(ngram.LanguageModel); ok {
		return metrics.EvaluateLanguageModel(lm, d)
	}
	if c, ok := m.(gendisc.Classifier); ok {
		return metrics.Evaluate(c, d)
	}
	r, ok := m.(gendisc.Regressor)
	if _, clusters := m.(gendisc.Clusterer); !ok || clusters {
		return nil, fmt.Errorf("cv: a %s model neither classifies nor predicts a number: it has no held-out metrics", m.Kind())
	}
	if d.Y == nil {
		return nil, fmt.Errorf("cv: %s: no target column", d.Source)
	}
	for i, y := range d.Y {
		if math.IsNaN(y) {
			return nil, d.RowError(i, "%w: cross-validation needs the true value of every row", data.ErrMissingTarget)
		}
	}
	rep, err := metrics.Regression(d.Y, r.Predict(nil, d), d.Weight)
	var re *metrics.RowError
	if errors.As(err, &re) {
		return nil, d.RowError(re.Row, "%w", re.Err)
	}
	return rep, err
}

// evalBlock is how many rows a worker of evaluateClassifiers takes at a
// time: it copies each fold's rows of the block into a buffer of the fold
// (scatterRows; a few hundred rows per fold for ten folds, in cache) and
// predicts them there with the fold's model.
const evalBlock = 4096

// scatterRows copies the rows [lo, hi) of d, in order, into the buffers of
// their folds under f, bufs[f[i]] (their features, text cells and source
// lines, as d.SubsetInto would; nil for a fold that is not predicted,
// whose rows are skipped), and sets each
// buffer's N and first[fold], the fold's first row among them. The rows
// are read once, in order, which the processor's prefetching follows, and
// written to a few sequential buffers: a gather of each fold's rows apart
// (d.SubsetInto of the fold's row indices) reads the block once per fold,
// at scattered rows, and took about 10% more of a 10-fold
// cross-validation's time.
func scatterRows(bufs []*data.Dataset, first []int, d *data.Dataset, f Folds, lo, hi int) {
	D := d.D()
	for _, buf := range bufs {
		if buf == nil {
			continue
		}
		buf.N, buf.X = 0, buf.X[:0]
		if d.Source.Lines != nil {
			buf.Source.Lines = buf.Source.Lines[:0]
		}
		if d.Text != nil && buf.Text == nil {
			buf.Text = make([][]string, len(d.Text))
		}
		for j := range buf.Text {
			buf.Text[j] = buf.Text[j][:0]
		}
	}
	for i := lo; i < hi; i++ {
		buf := bufs[f[i]]
		if buf == nil {
			continue
		}
		if buf.N == 0 {
			first[f[i]] = i
		}
		buf.N++
		buf.X = append(buf.X, d.X[i*D:(i+1)*D]...)
		if d.Source.Lines != nil {
			buf.Source.Lines = append(buf.Source.Lines, d.Source.Lines[i])
		}
		for j, col := range d.Text {
			if col != nil {
				buf.Text[j] = append(buf.Text[j], col[i])
			}
		}
	}
	for _, buf := range bufs {
		if buf == nil {
			continue
		}
		for j, col := range d.Text {
			if col == nil {
				buf.Text[j] = nil
			}
		}
	}
}

// batchEvaluable reports whether evaluateClassifiers evaluates m: a
// classifier that is not a language model (those are evaluated by
// Evaluate, fold by fold).
func batchEvaluable(m gendisc.Model) (gendisc.Classifier, bool) {
	if _, ok := m.(ngram.LanguageModel); ok {
		return nil, false
	}
	c, ok := m.(gendisc.Classifier)
	return c, ok
}

// evaluateClassifiers evaluates sets[s][k] on the rows of fold k of f for
// every set s (the fold models of one configuration; several for the
// settings of a regularisation path, Search.Run) and every fold k whose
// model is not nil, giving the reports Evaluate gives on each fold's rows
// (the same probabilities, row by row, in the same order), without
// copying a fold out of d whole: one pass over the rows of d, in blocks
// of evalBlock rows taken by up to workers goroutines, in which the
// block's rows are scattered into a cache-sized buffer per fold
// (scatterRows; once for all the sets) and predicted there by the fold's
// model of every set, their probabilities written at the rows' places
// among their fold's rows; then the metrics of each set's folds
// (metrics.Classification), in parallel. reports[s] are set s's, and
// errs[s] why its evaluation failed (its first fold's error in fold order,
// naming the fold; a row without a valid target is an error positioned
// at the row), nil when it did not.
func evaluateClassifiers(sets [][]gendisc.Classifier, d *data.Dataset, f Folds, workers int) (reports [][]Report, errs []error) {
	k := len(f.Sizes())
	reports, errs = make([][]Report, len(sets)), make([]error, len(sets))
	for s := range sets {
		reports[s] = make([]Report, k)
	}
	var classes []string
	from := 0 // the fold whose model gave classes
	for _, models := range sets {
		for fold, m := range models {
			if m != nil && classes == nil {
				classes, from = m.Classes(), fold
			}
		}
	}
	if classes == nil {
		return reports, errs
	}
	// evaluated[fold] is whether some set has a model of the fold.
	evaluated := make([]bool, k)
	for s, models := range sets {
		for fold, m := range models {
			if m == nil {
				continue
			}
			if !slices.Equal(m.Classes(), classes) {
				errs[s] = fmt.Errorf("fold %d: the model's classes %q differ from fold %d's %q", fold, m.Classes(), from, classes)
				break
			}
			evaluated[fold] = true
		}
	}
	y, err := metrics.ClassTargets(classes, d)
	if err != nil {
		for s := range sets {
			errs[s] = cmp.Or(errs[s], err)
		}
		return reports, errs
	}
	// place[i] is row i's index among the rows of its fold.
	K := len(classes)
	place := make([]int, d.N)
	sizes := make([]int, k)
	for i, fold := range f {
		place[i] = sizes[fold]
		sizes[fold]++
	}
	ys := make([][]int, k)
	var weights [][]float64
	if d.Weight != nil {
		weights = make([][]float64, k)
	}
	for fold, ok := range evaluated {
		if !ok {
			continue
		}
		ys[fold] = make([]int, sizes[fold])
		if weights != nil {
			weights[fold] = make([]float64, sizes[fold])
		}
	}
	for i, fold := range f {
		if evaluated[fold] {
			ys[fold][place[i]] = y[i]
			if weights != nil {
				weights[fold][place[i]] = d.Weight[i]
			}
		}
	}
	proba := make([][][]float64, len(sets))
	for s, models := range sets {
		proba[s] = make([][]float64, k)
		for fold, m := range models {
			if m != nil && errs[s] == nil {
				proba[s][fold] = make([]float64, sizes[fold]*K)
			}
		}
	}
	var next atomic.Int64
	blocks := (d.N + evalBlock - 1) / evalBlock
	var wg sync.WaitGroup
	for range min(workers, blocks) {
		wg.Go(func() {
			bufs := make([]*data.Dataset, k)
			for fold, ok := range evaluated {
				if ok {
					p := &d.Source
					bufs[fold] = &data.Dataset{Schema: d.Schema, Source: data.Provenance{Name: p.Name, Columns: p.Columns, RowGroups: p.RowGroups}}
				}
			}
			first := make([]int, k)
			for {
				b := int(next.Add(1)) - 1
				if b >= blocks {
					return
				}
				lo, hi := b*evalBlock, min((b+1)*evalBlock, d.N)
				scatterRows(bufs, first, d, f, lo, hi)
				for fold, buf := range bufs {
					if buf == nil || buf.N == 0 {
						continue
					}
					// The block's rows of the fold are consecutive among the
					// fold's rows: their probabilities go in one piece.
					at := place[first[fold]]
					for s, models := range sets {
						if m := models[fold]; m != nil && errs[s] == nil {
							metrics.Proba(m, proba[s][fold][at*K:(at+buf.N)*K], buf)
						}
					}
				}
			}
		})
	}
	wg.Wait()
	// The metrics of every set's folds, a (set, fold) pair at a time.
	foldErrs := make([][]error, len(sets))
	for s := range sets {
		foldErrs[s] = make([]error, k)
	}
	var nextPair atomic.Int64
	for range min(workers, len(sets)*k) {
		wg.Go(func() {
			for {
				j := int(nextPair.Add(1)) - 1
				if j >= len(sets)*k {
					return
				}
				s, fold := j/k, j%k
				if sets[s][fold] == nil || errs[s] != nil {
					continue
				}
				var w []float64
				if weights != nil {
					w = weights[fold]
				}
				rp, err := metrics.Classification(classes, ys[fold], proba[s][fold], w)
				if re, ok := errors.AsType[*metrics.RowError](err); ok {
					err = d.RowError(f.Rows(fold)[re.Row], "%w", re.Err)
				}
				if err != nil {
					foldErrs[s][fold] = fmt.Errorf("fold %d: %w", fold, err)
					continue
				}
				reports[s][fold] = rp
			}
		})
	}
	wg.Wait()
	for s := range sets {
		if errs[s] == nil {
			errs[s] = cmp.Or(foldErrs[s]...)
		}
	}
	return reports, errs
}
