package cv

import (
	"fmt"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/linear"
	"github.com/gendisc/gendisc/naivebayes"
)

// LeaveOneOutDowndate cross-validates leave-one-out without refits when
// settings, a family's configuration (registry.Settings of a kind's
// Config), is one that a downdate covers: linear.Config
// (LeaveOneOutLinear), naivebayes.GaussianConfig (LeaveOneOutGaussianNB),
// gda.LDAConfig (LeaveOneOutLDA) or gda.QDAConfig (LeaveOneOutQDA). The
// result is that of Runner.Run with LeaveOneOut(d.N) folds: fold i is row
// i, evaluated (Evaluate) with the predictions of the model fitted to the
// other rows, equal to a refit's to 1e-12 relative.
//
// The folds are checked first (Check), with Run's errors. Other settings,
// and configurations or data the downdate does not cover, are errors
// wrapping ErrDowndate, for the caller to refit instead.
func LeaveOneOutDowndate(settings any, d *data.Dataset) (*Result, error) {
	folds := LeaveOneOut(d.N)
	var y []float64
	classes := d.Schema.Classes()
	if classes != nil {
		y = d.Y
	}
	if _, err := Check(folds, d.N, classes, y); err != nil {
		return nil, err
	}
	var (
		pred []float64 // per row: the predicted value, or the K log-probabilities
		err  error
	)
	switch cfg := settings.(type) {
	case linear.Config:
		pred, err = LeaveOneOutLinear(cfg, d)
	case naivebayes.GaussianConfig:
		pred, err = LeaveOneOutGaussianNB(cfg, d)
	case gda.LDAConfig:
		pred, err = LeaveOneOutLDA(cfg, d)
	case gda.QDAConfig:
		pred, err = LeaveOneOutQDA(cfg, d)
	default:
		return nil, fmt.Errorf("cv: %w: no downdate for a %T", ErrDowndate, settings)
	}
	if err != nil {
		return nil, err
	}
	width := len(pred) / max(d.N, 1) // 1 for a regression, K for classes
	if len(pred) != d.N*width || classes != nil && width != len(classes) {
		return nil, fmt.Errorf("cv: %w: %d predictions for %d rows", ErrDowndate, len(pred), d.N)
	}
	res := &Result{repeats: 1, Folds: make([]FoldResult, d.N)}
	var test *data.Dataset
	for i := range d.N {
		test = d.SubsetInto(test, []int{i})
		row := pred[i*width : (i+1)*width]
		var m gendisc.Model
		if classes != nil {
			m = &heldOutClasses{schema: d.Schema, classes: classes, logProba: row}
		} else {
			m = &heldOutValue{schema: d.Schema, value: row[0]}
		}
		rp, err := Evaluate(m, test)
		if err != nil {
			return nil, fmt.Errorf("fold %d: %w", i, err)
		}
		res.Folds[i] = FoldResult{Fold: i, Rows: 1, Report: rp}
	}
	return res, nil
}

// heldOutClasses is a classifier that gives every row the log-probabilities
// logProba: those of the row held out.
type heldOutClasses struct {
	schema   *data.Schema
	classes  []string
	logProba []float64
}

func (m *heldOutClasses) Kind() string         { return "leave-one-out" }
func (m *heldOutClasses) Schema() *data.Schema { return m.schema }
func (m *heldOutClasses) Classes() []string    { return m.classes }

func (m *heldOutClasses) LogProba(dst []float64, d *data.Dataset) []float64 {
	if dst == nil {
		dst = make([]float64, d.N*len(m.classes))
	}
	for i := range d.N {
		copy(dst[i*len(m.classes):], m.logProba)
	}
	return dst
}

// heldOutValue is a regressor that predicts value for every row: the
// prediction for the row held out.
type heldOutValue struct {
	schema *data.Schema
	value  float64
}

func (m *heldOutValue) Kind() string         { return "leave-one-out" }
func (m *heldOutValue) Schema() *data.Schema { return m.schema }

func (m *heldOutValue) Predict(dst []float64, d *data.Dataset) []float64 {
	if dst == nil {
		dst = make([]float64, d.N)
	}
	for i := range d.N {
		dst[i] = m.value
	}
	return dst
}
