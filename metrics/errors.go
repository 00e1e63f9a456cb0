package metrics

import (
	"errors"
	"fmt"
	"math"
)

// Errors of Classification and Regression, wrapped in their error values.
var (
	ErrNoRows      = errors.New("no rows")
	ErrLength      = errors.New("lengths differ")
	ErrClasses     = errors.New("fewer than two classes")
	ErrClass       = errors.New("class index out of range")
	ErrProbability = errors.New("bad probability")
	ErrValue       = errors.New("value not finite")
	ErrWeight      = errors.New("bad weight")
)

// RowError is a problem in one row of the input. Row counts from 0, in the
// order of the slices passed in; a caller that read the rows from a file
// maps it to a line (data.Dataset.RowError).
type RowError struct {
	Row int
	Err error
}

func (e *RowError) Error() string { return fmt.Sprintf("metrics: row %d: %v", e.Row, e.Err) }

func (e *RowError) Unwrap() error { return e.Err }

// rowErr returns a *RowError for row i wrapping sentinel with a message.
func rowErr(i int, sentinel error, format string, args ...any) error {
	return &RowError{Row: i, Err: fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)}
}

// checkWeights validates weight (nil, or one finite non-negative value per
// row of n) and returns the total weight.
func checkWeights(weight []float64, n int) (float64, error) {
	if weight == nil {
		return float64(n), nil
	}
	if len(weight) != n {
		return 0, fmt.Errorf("metrics: %w: %d weights for %d rows", ErrLength, len(weight), n)
	}
	total := 0.0
	for i, w := range weight {
		if !(w >= 0) || math.IsInf(w, 1) {
			return 0, rowErr(i, ErrWeight, "%v", w)
		}
		total += w
	}
	if !(total > 0) || math.IsInf(total, 1) {
		return 0, fmt.Errorf("metrics: %w: total weight %v", ErrWeight, total)
	}
	return total, nil
}

// weightOf returns the weight of row i, 1 when weight is nil.
func weightOf(weight []float64, i int) float64 {
	if weight == nil {
		return 1
	}
	return weight[i]
}
