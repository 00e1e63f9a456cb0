package cv

import (
	"fmt"
	"math"
)

// Check returns an error wrapping ErrFolds, naming the fold, when f cannot
// cross-validate n rows of classes y (class indices into classes; nil y
// for a numeric target or none): f does not have n entries, a fold has no
// rows, or a class has all its rows in one fold, so that the fold's
// training part lacks it. Rows whose class is NaN are not counted.
//
// It returns warnings, each naming its fold, for a fold with fewer rows
// than the data has classes (its per-class figures are then partly
// undefined), except for leave-one-out (as many folds as rows), where
// every fold has one row by design.
func Check(f Folds, n int, classes []string, y []float64) (warnings []string, err error) {
	if len(f) != n {
		return nil, fmt.Errorf("cv: %w: %d fold numbers for %d rows", ErrFolds, len(f), n)
	}
	k := f.K()
	if err := checkK(k, n); err != nil {
		return nil, err
	}
	sizes := f.Sizes()
	for fold, s := range sizes {
		if s == 0 {
			return nil, fmt.Errorf("cv: %w: fold %d has no rows (the folds are numbered 0 to %d)", ErrFolds, fold, k-1)
		}
	}
	if y == nil {
		return nil, nil
	}
	// perFold[c][fold] counts the rows of class c in each fold.
	perFold := make([][]int, len(classes))
	total := make([]int, len(classes))
	for i, v := range y {
		if math.IsNaN(v) {
			continue
		}
		c := int(v)
		if perFold[c] == nil {
			perFold[c] = make([]int, k)
		}
		perFold[c][f[i]]++
		total[c]++
	}
	present := 0
	for c, counts := range perFold {
		if total[c] == 0 {
			continue
		}
		present++
		for fold, m := range counts {
			if m == total[c] {
				return nil, fmt.Errorf("cv: %w: fold %d holds every row of class %q (%d), so its training part has none; use fewer folds or drop the class",
					ErrFolds, fold, classes[c], m)
			}
		}
	}
	if k == n { // leave-one-out: every fold is one row, by design
		return nil, nil
	}
	for fold, s := range sizes {
		if s < present {
			warnings = append(warnings, fmt.Sprintf("fold %d has %d rows for %d classes: some of its per-class figures are undefined", fold, s, present))
		}
	}
	return warnings, nil
}
