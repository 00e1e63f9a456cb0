package metrics

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
)

// Evaluate applies the classifier c to d and evaluates its probabilities
// against the true classes in d.Y (indices into c.Classes()) with
// Classification, weighting the rows by d.Weight.
//
// Data problems are errors: d without a target, a target whose classes
// differ from the model's, and every problem of one row, which is
// positioned at the row's source line (a *data.ParseError): a missing
// target (wrapping data.ErrMissingTarget), a non-integral one (ErrClass),
// and the row errors of Classification (wrapping their sentinels). d must
// follow c's schema, as for c.LogProba.
func Evaluate(c gendisc.Classifier, d *data.Dataset) (*Report, error) {
	classes := c.Classes()
	y, err := ClassTargets(classes, d)
	if err != nil {
		return nil, err
	}
	r, err := Classification(classes, y, Proba(c, nil, d), d.Weight)
	var re *RowError
	if errors.As(err, &re) {
		return nil, d.RowError(re.Row, "%w", re.Err)
	}
	return r, err
}

// ClassTargets returns the true classes of the rows of d, d.Y as indices
// into classes, the classes of a model that is to be evaluated on d, with
// Evaluate's errors: d without a target, a target whose classes differ
// from classes, and a row whose target is missing or not integral,
// positioned at the row's source line.
func ClassTargets(classes []string, d *data.Dataset) ([]int, error) {
	if d.Y == nil {
		return nil, fmt.Errorf("metrics: %s: no target column", d.Source)
	}
	if dc := d.Schema.Classes(); dc != nil && !slices.Equal(dc, classes) {
		return nil, fmt.Errorf("metrics: %s: the data's classes %q differ from the model's %q", d.Source, dc, classes)
	}
	y := make([]int, d.N)
	for i, v := range d.Y {
		switch {
		case math.IsNaN(v):
			return nil, d.RowError(i, "%w: eval needs the true class of every row", data.ErrMissingTarget)
		case v != math.Trunc(v) || math.IsInf(v, 0):
			return nil, d.RowError(i, "%w: target %v", ErrClass, v)
		}
		y[i] = int(v)
	}
	return y, nil
}

// Proba writes c's probabilities P(y = k | x_i) of the rows of d to
// dst[i·K + k] and returns dst (allocated when nil, else of length d.N·K):
// through gendisc.BatchProba when c has it, else as the exponentials of
// c.LogProba, the same values bit for bit.
func Proba(c gendisc.Classifier, dst []float64, d *data.Dataset) []float64 {
	if b, ok := c.(gendisc.BatchProba); ok {
		return b.Proba(dst, d)
	}
	dst = c.LogProba(dst, d)
	for i, v := range dst {
		dst[i] = math.Exp(v)
	}
	return dst
}
