package data

import (
	"fmt"
	"math"
)

// ValidWeight reports whether w can weigh a row: a finite number ≥ 0.
func ValidWeight(w float64) bool { return w >= 0 && !math.IsInf(w, 1) }

// CheckClassRows checks what fitting a classifier needs of d's rows: a
// categorical target (ErrNotClassification), labels that are missing
// (NaN) or class indices, and weights that ValidWeight accepts
// (ErrWeight), each error positioned at its row. It panics, with pkg as
// the prefix, when the lengths of d's slices do not follow d.N: the data
// set was built wrong, a programming mistake.
func (d *Dataset) CheckClassRows(pkg string) error {
	s := d.Schema
	if s.Target == nil || s.Target.Kind != Categorical || d.Y == nil {
		return &ParseError{File: d.Source.Name, Err: ErrNotClassification}
	}
	if len(d.Y) != d.N || len(d.X) != d.N*d.D() || (d.Weight != nil && len(d.Weight) != d.N) {
		panic(fmt.Sprintf("%s: data set of %d rows with %d cells, %d labels, %d weights",
			pkg, d.N, len(d.X), len(d.Y), len(d.Weight)))
	}
	k := float64(len(s.Classes()))
	for i, y := range d.Y {
		if y == y && (y < 0 || y >= k || y != math.Trunc(y)) {
			return d.RowError(i, "class index %v out of range [0, %v)", y, k)
		}
	}
	for i, w := range d.Weight {
		if !ValidWeight(w) {
			return d.RowError(i, "%w: %v", ErrWeight, w)
		}
	}
	return nil
}
