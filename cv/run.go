package cv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
)

// Runner cross-validates one model configuration. Fit is required;
// NewAccumulator, when set, takes the one-pass path (see Run).
type Runner struct {
	// Fit fits a model to the training rows of a fold.
	Fit func(d *data.Dataset) (gendisc.Model, error)
	// WarmFit, when set (and NewAccumulator is not), fits the training
	// rows of a fold starting from from, the model Fit fitted on all the
	// rows first: a warm start of an iterative kind (for logistic
	// regression, logistic.Config.FitFrom), which reaches each fold's
	// optimum in fewer iterations, within the optimiser's tolerance.
	WarmFit func(d *data.Dataset, from gendisc.Model) (gendisc.Model, error)
	// Model, when set, gives the model of fold k of repeat rep, fitted
	// elsewhere, in place of Fit, WarmFit and NewAccumulator, and its
	// report on the fold's rows when that too was made elsewhere (nil
	// for one to make here): the fold models of a regularisation path,
	// fitted fold by fold and evaluated together (Search.Run), and those
	// made of shared fold statistics, evaluated here.
	Model func(rep, k int) (gendisc.Model, Report, error)
	// NewAccumulator, for kinds whose models are sums of sufficient
	// statistics, returns an empty accumulator of the configuration that
	// Fit fits; nil to refit every fold.
	NewAccumulator func() (gendisc.Accumulator, error)
	// Evaluate, when set, evaluates a fold's model on the fold's rows in
	// place of the package's Evaluate, for every model (SequenceRunner's
	// rows are sentence numbers, its models taggers).
	Evaluate func(m gendisc.Model, test *data.Dataset) (Report, error)
	// Workers bounds the folds fitted and evaluated at once; 0 means
	// runtime.GOMAXPROCS(0).
	Workers int
	// Progress, when set, is called after every fold's model with the
	// number of folds done and the total, from one goroutine at a time
	// (a classifier's folds are then evaluated together, see Run).
	Progress func(done, total int)
}

// FoldResult is the evaluation of one fold.
type FoldResult struct {
	// Repeat is the index of the assignment among those passed to Run.
	Repeat int
	// Fold is the fold's number; Rows its rows, on which Report was
	// computed.
	Fold, Rows int
	Report     Report
}

// Result is a cross-validation: the evaluation of every fold of every
// repeat, in order, and the warnings of Check and of the fold models
// (gendisc.Warner), each naming its fold.
type Result struct {
	Folds    []FoldResult
	Warnings []string
	repeats  int
}

// Run cross-validates on d with each of the fold assignments repeats (one
// for plain k-fold, r for repeated k-fold; each checked with Check, whose
// errors and warnings name the fold, and with the repeat when there are
// several). For every fold it fits a model to the rows of the other folds
// and evaluates it on the fold's rows with Evaluate.
//
// Without NewAccumulator, the folds are refitted with Fit, up to Workers
// at once. With it, each repeat takes one pass over the rows, adding each
// row to the accumulator of its fold (gendisc.FoldAdder's AddFolds where
// the accumulators have it, else copies of the rows, span by span, for
// Add); fold i's model is that of the merge
// of the other folds' accumulators, built from prefix merges A_0 ⊕ … ⊕
// A_{i−1} and suffix merges A_{i+1} ⊕ … ⊕ A_{k−1}, so that the k models
// take O(k) merges rather than O(k²). An accumulator is copied by merging
// it into a new one, and never changed after a merge into another.
//
// Classifiers (other than language models) are evaluated once every
// fold's model is there, in one pass over the rows of d (in parallel over
// blocks of rows, each block's rows scattered into a cache-sized buffer
// per fold) in which each row is predicted by its fold's model, without
// copying a fold out of d whole; their reports are those of Evaluate on
// each fold's rows. Regressors and language models are evaluated fold
// by fold as their model comes.
//
// The results do not depend on Workers: each fold's computation is the
// same whatever runs beside it, and the results are kept in fold order.
// The first error in that order is returned, prefixed with its fold.
func (r *Runner) Run(d *data.Dataset, repeats ...Folds) (*Result, error) {
	if len(repeats) == 0 {
		return nil, fmt.Errorf("cv: no fold assignment")
	}
	res := &Result{repeats: len(repeats)}
	var y []float64
	classes := d.Schema.Classes()
	if classes != nil {
		y = d.Y
	}
	type job struct{ repeat, fold int }
	var jobs []job
	sizes := make([][]int, len(repeats))
	classifiers := make([][]gendisc.Classifier, len(repeats))
	for rep, f := range repeats {
		w, err := Check(f, d.N, classes, y)
		if err != nil {
			return nil, r.inRepeat(rep, len(repeats), err)
		}
		for _, s := range w {
			res.Warnings = append(res.Warnings, r.inRepeatText(rep, len(repeats), s))
		}
		for k := range f.K() {
			jobs = append(jobs, job{rep, k})
		}
		sizes[rep], classifiers[rep] = f.Sizes(), make([]gendisc.Classifier, f.K())
	}
	workers := r.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// With accumulators, every repeat's fold models come from one pass.
	var accs [][]gendisc.Accumulator
	if r.NewAccumulator != nil && r.Model == nil {
		accs = make([][]gendisc.Accumulator, len(repeats))
		for rep, f := range repeats {
			a, err := foldAccumulators(d, f, r.NewAccumulator, workers)
			if err != nil {
				return nil, r.inRepeat(rep, len(repeats), err)
			}
			accs[rep] = a
		}
	}
	var full gendisc.Model // the model of all the rows that WarmFit starts from
	if r.WarmFit != nil && r.Model == nil && accs == nil {
		m, err := r.Fit(d)
		if err != nil {
			return nil, fmt.Errorf("cv: fitting all the rows for the warm starts: %w", err)
		}
		full = m
	}
	res.Folds = make([]FoldResult, len(jobs))
	errs := make([]error, len(jobs))
	warnings := make([][]string, len(jobs))
	var next, done atomic.Int64
	var failed atomic.Bool
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range min(workers, len(jobs)) {
		wg.Go(func() {
			var test *data.Dataset // the fold's rows, in storage reused from fold to fold
			for {
				j := int(next.Add(1)) - 1
				if j >= len(jobs) || failed.Load() {
					return
				}
				rep, k := jobs[j].repeat, jobs[j].fold
				var m gendisc.Model
				var rp Report
				var err error
				switch {
				case r.Model != nil:
					m, rp, err = r.Model(rep, k)
				case accs != nil:
					m, err = accs[rep][k].Model()
					accs[rep][k] = nil
				default:
					train, _ := repeats[rep].Split(k)
					if full != nil {
						m, err = r.WarmFit(d.Subset(train), full)
					} else {
						m, err = r.Fit(d.Subset(train))
					}
				}
				if err == nil && rp == nil {
					if c, ok := batchEvaluable(m); ok && r.Evaluate == nil {
						classifiers[rep][k] = c // evaluated below, with the other folds
					} else {
						test = d.SubsetInto(test, repeats[rep].Rows(k))
						rp, err = r.evaluate(m, test)
					}
				}
				if err != nil {
					errs[j] = r.inRepeat(rep, len(repeats), fmt.Errorf("fold %d: %w", k, err))
					failed.Store(true)
					return
				}
				res.Folds[j] = FoldResult{Repeat: rep, Fold: k, Rows: sizes[rep][k], Report: rp}
				if w, ok := m.(gendisc.Warner); ok {
					for _, s := range w.Warnings() {
						warnings[j] = append(warnings[j], r.inRepeatText(rep, len(repeats), fmt.Sprintf("fold %d: %s", k, s)))
					}
				}
				if r.Progress != nil {
					mu.Lock()
					r.Progress(int(done.Add(1)), len(jobs))
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	for j, err := range errs {
		if err != nil {
			return nil, err
		}
		res.Warnings = append(res.Warnings, warnings[j]...)
	}
	j := 0
	for rep, f := range repeats {
		reports, errs := evaluateClassifiers([][]gendisc.Classifier{classifiers[rep]}, d, f, workers)
		if errs[0] != nil {
			return nil, r.inRepeat(rep, len(repeats), errs[0])
		}
		for k, rp := range reports[0] {
			if rp != nil {
				res.Folds[j+k].Report = rp
			}
		}
		j += f.K()
	}
	return res, nil
}

// evaluate evaluates m on the rows test with r.Evaluate, or Evaluate.
func (r *Runner) evaluate(m gendisc.Model, test *data.Dataset) (Report, error) {
	if r.Evaluate != nil {
		return r.Evaluate(m, test)
	}
	return Evaluate(m, test)
}

// inRepeat prefixes err with its repeat when there are several.
func (r *Runner) inRepeat(rep, repeats int, err error) error {
	if repeats == 1 {
		return err
	}
	return fmt.Errorf("repeat %d: %w", rep, err)
}

// inRepeatText prefixes the message s with its repeat when there are
// several.
func (r *Runner) inRepeatText(rep, repeats int, s string) string {
	if repeats == 1 {
		return s
	}
	return fmt.Sprintf("repeat %d: %s", rep, s)
}

// Summary returns the mean and standard error of every figure of the
// fold reports, over all the folds of all the repeats, as JSON objects
// with the keys of the reports (see Result.MarshalJSON).
func (r *Result) Summary() (mean, se json.Marshaler, err error) {
	m, s, err := r.summary()
	return m, s, err
}

func (r *Result) summary() (mean, se *tree, err error) {
	ts := make([]*tree, len(r.Folds))
	for i, f := range r.Folds {
		if ts[i], err = reportTree(f.Report); err != nil {
			return nil, nil, err
		}
	}
	mean, se = summarize(ts)
	if mean == nil {
		mean, se = &tree{}, &tree{}
	}
	return mean, se, nil
}

// Metric returns the mean and the standard error over the folds of the
// figure at path in the reports' JSON (for example "log_loss", or
// "macro_avg", "roc_auc"), and whether the reports have it as a number
// (the SE is NaN for one fold).
func (r *Result) Metric(path ...string) (mean, se float64, ok bool) {
	m, s, err := r.summary()
	if err != nil {
		return 0, 0, false
	}
	mean, ok = m.lookup(path)
	se, seOK := s.lookup(path)
	if !seOK {
		se = math.NaN()
	}
	return mean, se, ok
}

// MarshalJSON writes r as one object: "folds", a list with per fold its
// "repeat" (only when there are several), "fold", "rows" and the keys of
// its report (those of gendisc eval --json); "mean" and "se", the mean and
// standard error of every figure over the folds (see summarize), with the
// same keys.
func (r *Result) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"folds":[`)
	for i, f := range r.Folds {
		if i > 0 {
			b.WriteByte(',')
		}
		rep, err := json.Marshal(f.Report)
		if err != nil {
			return nil, fmt.Errorf("cv: %w", err)
		}
		b.WriteByte('{')
		if r.repeats > 1 {
			fmt.Fprintf(&b, `"repeat":%d,`, f.Repeat)
		}
		fmt.Fprintf(&b, `"fold":%d,"rows":%d`, f.Fold, f.Rows)
		if body := bytes.TrimSpace(rep[1:]); len(body) > 1 { // the report's fields, if it has any
			b.WriteByte(',')
			b.Write(body)
		} else {
			b.WriteByte('}')
		}
	}
	mean, se, err := r.summary()
	if err != nil {
		return nil, err
	}
	b.WriteString(`],"mean":`)
	mean.write(&b)
	b.WriteString(`,"se":`)
	se.write(&b)
	b.WriteByte('}')
	return b.Bytes(), nil
}
