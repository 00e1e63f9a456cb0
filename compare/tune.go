package compare

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/cv"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/registry"
)

// DefaultTuneFolds is the number of inner folds of a Tuning.
const DefaultTuneFolds = 5

// TuneGrids are the grids that a Tuning searches, by flag: those of
// them that a kind has are its regularisation (TuneParams). Each is small,
// so that tuning costs a few dozen fits per training set:
//
//	l2             1e-4 .. 1e2, 7 values, log-spaced  (logistic regression's λ)
//	alpha          1e-3 .. 1e1, 5 values, log-spaced  (naive Bayes' pseudo-count α)
//	var-smoothing  1e-12 .. 1e-3, 4 values, log-spaced (Gaussian naive Bayes)
//	shrinkage      0 .. 1, 5 values, linear            (LDA and QDA)
var TuneGrids = []cv.Param{
	{Name: "l2", Lo: 1e-4, Hi: 1e2, N: 7, Log: true},
	{Name: "alpha", Lo: 1e-3, Hi: 1e1, N: 5, Log: true},
	{Name: "var-smoothing", Lo: 1e-12, Hi: 1e-3, N: 4, Log: true},
	{Name: "shrinkage", Lo: 0, Hi: 1, N: 5},
}

// TuneParams returns the grids of TuneGrids for the flags that kind k
// has, in the order of TuneGrids; none when k has none of them. A kind
// with several (mixed naive Bayes has alpha, for its categorical and
// count columns, and var-smoothing, for its Gaussian ones) is tuned on
// the grid of their combinations.
func TuneParams(k *registry.Kind) []cv.Param {
	if k.Flags == nil {
		return nil
	}
	fs := flag.NewFlagSet(k.Name, flag.ContinueOnError)
	k.Flags(fs)
	var ps []cv.Param
	for _, p := range TuneGrids {
		if fs.Lookup(p.Name) != nil {
			ps = append(ps, p)
		}
	}
	return ps
}

// Tuning fits a kind with its regularisation chosen, on every training
// set it is given, by an inner stratified cross-validation of those rows
// alone (cv.Search): the rows it is not given, such as compare's test
// rows, take no part in the choice.
type Tuning struct {
	// Kind is the kind fitted; Base its other flags, set in every fit.
	Kind *registry.Kind
	Base cv.Setting
	// Params are the flags searched and their values (TuneParams): every
	// combination of their values is cross-validated.
	Params []cv.Param
	// Folds is the number of inner folds, DefaultTuneFolds when 0. A
	// training set whose smallest class has fewer rows than Folds is cut
	// into as many folds as that class has rows, so that every fold has
	// every class; one with fewer than 2 rows of some class is fitted
	// with Base alone, its default setting (TunedModel.Default).
	Folds int
	// Metric is what the inner cross-validation minimises (cv.MetricNamed;
	// compare's command line defaults to log-loss). A setting that fails
	// to fit some inner fold is left out (cv.Search.SkipFailed); of equal
	// means the first in the grid is chosen, so a flag that does not
	// change the model on the data (alpha on numeric columns only) reads
	// its grid's first value.
	Metric cv.Metric
	// Seed seeds the inner folds: they depend only on Seed and the rows
	// given, so the choice is the same whatever the order or the
	// goroutine in which training sets are fitted.
	Seed uint64
}

// TunedModel is a model fitted by a Tuning: the classifier fitted on all
// the training rows with the chosen values of the flags searched.
type TunedModel struct {
	gendisc.Classifier
	// Values are the values chosen, one per Tuning.Params, in their
	// order; NaN with Default.
	Values []float64
	// Folds is the number of inner folds used; Default is true when the
	// training set was too small to cross-validate and the default
	// setting was fitted.
	Folds   int
	Default bool
}

// Unwrap returns the fitted classifier.
func (m *TunedModel) Unwrap() gendisc.Classifier { return m.Classifier }

// Warnings returns the fitted classifier's warnings (gendisc.Warner).
func (m *TunedModel) Warnings() []string {
	if w, ok := m.Classifier.(gendisc.Warner); ok {
		return w.Warnings()
	}
	return nil
}

// unwrap returns the classifier inside a TunedModel, or c itself.
func unwrap(c gendisc.Classifier) gendisc.Classifier {
	if t, ok := c.(*TunedModel); ok {
		return t.Classifier
	}
	return c
}

// Fit chooses the value of t.Param by inner cross-validation on d and fits
// it on all of d, returning a *TunedModel.
func (t *Tuning) Fit(d *data.Dataset) (gendisc.Model, error) {
	k := t.Folds
	if k <= 0 {
		k = DefaultTuneFolds
	}
	// The inner folds take the labelled rows (Plan's probe rows may
	// hold rows without a class, which the final fit leaves to the kind).
	inner := d
	var labelled []int
	for i, y := range d.Y {
		if !math.IsNaN(y) {
			labelled = append(labelled, i)
		}
	}
	if len(labelled) < d.N {
		inner = d.Subset(labelled)
	}
	smallest := inner.N
	counts := map[float64]int{}
	for _, y := range inner.Y {
		counts[y]++
	}
	for _, n := range counts {
		smallest = min(smallest, n)
	}
	k = min(k, smallest)
	if k < 2 {
		return t.fit(d, nil, 0)
	}
	folds, err := cv.Stratified(inner.Y, k, t.Seed)
	if err != nil {
		return nil, err
	}
	s := &cv.Search{Kind: t.Kind, Base: t.Base, Params: t.Params, Metric: t.Metric, SkipFailed: true, Workers: 1}
	r, err := s.Run(inner, folds)
	if err != nil {
		return nil, err
	}
	return t.fit(d, r.Trials[r.Chosen].Setting, k)
}

// fit fits d with t.Base and set (nil: the default setting), and wraps
// the model with the values of set.
func (t *Tuning) fit(d *data.Dataset, set cv.Setting, folds int) (gendisc.Model, error) {
	vs := make([]float64, len(t.Params))
	for i := range vs {
		vs[i] = math.NaN()
		if set != nil {
			v, err := strconv.ParseFloat(set[i].Value, 64)
			if err != nil {
				return nil, fmt.Errorf("compare: tuning %s: the value %q is not a number", set[i].Name, set[i].Value)
			}
			vs[i] = v
		}
	}
	c, err := cv.Config(t.Kind, t.Base, set)
	if err != nil {
		return nil, err
	}
	m, err := c.Fit(d)
	if err != nil {
		return nil, err
	}
	cl, ok := m.(gendisc.Classifier)
	if !ok {
		return nil, fmt.Errorf("compare: a %s model does not classify", m.Kind())
	}
	return &TunedModel{Classifier: cl, Values: vs, Folds: folds, Default: set == nil}, nil
}

// TunedSummary is the values a Tuning chose for one flag at one size,
// over the splits.
type TunedSummary struct {
	// Name is the flag's.
	Name string
	// Median, Min and Max are over the splits that were tuned; NaN when
	// none was.
	Median, Min, Max float64
	// Defaults counts the splits not tuned: those whose training set was
	// too small to cross-validate, fitted with the default setting, and
	// those whose fit failed (Point.Fallbacks).
	Defaults int
}

// summariseTuned summarises the chosen values vs (NaN for a split fitted
// with the default setting).
func summariseTuned(name string, vs []float64) TunedSummary {
	var tuned []float64
	s := TunedSummary{Name: name, Median: math.NaN(), Min: math.NaN(), Max: math.NaN()}
	for _, v := range vs {
		if math.IsNaN(v) {
			s.Defaults++
		} else {
			tuned = append(tuned, v)
		}
	}
	if n := len(tuned); n > 0 {
		slices.Sort(tuned)
		s.Min, s.Max = tuned[0], tuned[n-1]
		s.Median = (tuned[(n-1)/2] + tuned[n/2]) / 2
	}
	return s
}
