package modelfile

import (
	"fmt"
	"math"
	"strings"
)

// Interval is a closed interval [Lo, Hi] of float64 values, the domain of
// a parameter that a kind's decoder checks (Check, CheckValue). NaN lies
// in no interval.
type Interval struct {
	Lo, Hi float64
	// Why says why a parameter must lie in the interval, for the
	// message of a refusal; it may be empty.
	Why string
}

// Common domains of parameters.
var (
	Finite      = Interval{Lo: -math.MaxFloat64, Hi: math.MaxFloat64}
	NonNegative = Interval{Lo: 0, Hi: math.MaxFloat64}
)

// Holds reports whether v lies in the interval.
func (iv Interval) Holds(v float64) bool { return iv.Lo <= v && v <= iv.Hi }

// Check returns a *FieldError naming field[i] for the first value x[i]
// outside the interval, nil when every value lies in it.
func (iv Interval) Check(field string, x []float64) error {
	for i, v := range x {
		if !iv.Holds(v) {
			return &FieldError{Field: fmt.Sprintf("%s[%d]", field, i), Value: v, Domain: iv}
		}
	}
	return nil
}

// CheckValue returns a *FieldError naming field when v lies outside the
// interval, nil otherwise.
func (iv Interval) CheckValue(field string, v float64) error {
	if !iv.Holds(v) {
		return &FieldError{Field: field, Value: v, Domain: iv}
	}
	return nil
}

// FieldError is a decoder's refusal of a value of the parameters: Value,
// of the field Field (a path such as "classes[2].mean[0]"), lies outside
// Domain, whose bounds are finite. Its message is one line,
//
//	classes[2].mean[0]: 1e308 is outside [-1e153, 1e153]: WHY
//	classes[2].mean[0]: NaN is not a finite number
//
// the second for NaN and ±Inf, and for the domain of every finite number.
type FieldError struct {
	Field  string
	Value  float64
	Domain Interval
}

func (e *FieldError) Error() string {
	lo, hi := e.Domain.Lo, e.Domain.Hi
	if math.IsNaN(e.Value) || math.IsInf(e.Value, 0) {
		return fmt.Sprintf("%s: %s is not a finite number", e.Field, short(e.Value))
	}
	want := fmt.Sprintf("outside [%s, %s]", short(lo), short(hi))
	switch {
	case lo == -math.MaxFloat64 && hi == math.MaxFloat64:
		want = "not a finite number"
	case hi == math.MaxFloat64:
		want = "not a finite number ≥ " + short(lo)
	}
	msg := fmt.Sprintf("%s: %s is %s", e.Field, short(e.Value), want)
	if e.Domain.Why != "" {
		msg += ": " + e.Domain.Why
	}
	return msg
}

// short formats x as the shortest decimal that reads back as x, with an
// exponent without a plus sign (1e150, 5e-324), or NaN, +Inf, -Inf.
func short(x float64) string {
	return strings.Replace(strings.Trim(string(appendFloat(nil, x)), `"`), "e+", "e", 1)
}
