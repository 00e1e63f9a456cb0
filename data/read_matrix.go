package data

import (
	"fmt"
	"math"
)

// FromMatrix returns a Dataset of numeric features named features, with
// rows x (row-major, len(x) = N·len(features); the Dataset uses x, it
// does not copy it) and class indices y into classes, the levels of a
// categorical target named "class". With classes nil there is no target;
// with y nil the schema has the target but Y is nil (rows to classify).
// Column.Integral is set for columns of integers, and Column.Range to the
// interval of each column's values.
//
// FromMatrix panics when the lengths do not match, a name repeats, or a
// class index is out of range: these are programming mistakes.
func FromMatrix(features []string, x []float64, classes []string, y []int) *Dataset {
	D := len(features)
	if D == 0 && len(x) > 0 || D > 0 && len(x)%D != 0 {
		panic(fmt.Sprintf("data: FromMatrix: %d values for %d features", len(x), D))
	}
	n := len(y)
	if D > 0 {
		n = len(x) / D
	}
	s := &Schema{Features: make([]Column, D)}
	seen := make(map[string]bool, D)
	for j, name := range features {
		if seen[name] {
			panic(fmt.Sprintf("data: FromMatrix: feature %q repeats", name))
		}
		seen[name] = true
		s.Features[j] = Column{Name: name, Kind: Numeric, Integral: n > 0}
	}
	for i, v := range x {
		if c := &s.Features[i%D]; v == v && v != math.Trunc(v) {
			c.Integral = false
		}
	}
	d := &Dataset{Schema: s, N: n, X: x}
	d.SetRanges()
	if classes == nil {
		if y != nil {
			panic("data: FromMatrix: class indices without classes")
		}
		return d
	}
	s.Target = &Column{Name: "class", Kind: Categorical, Levels: classes}
	if y == nil {
		return d
	}
	if len(y) != n {
		panic(fmt.Sprintf("data: FromMatrix: %d class indices for %d rows", len(y), n))
	}
	d.Y = make([]float64, n)
	for i, k := range y {
		if k < 0 || k >= len(classes) {
			panic(fmt.Sprintf("data: FromMatrix: class index %d out of range [0, %d)", k, len(classes)))
		}
		d.Y[i] = float64(k)
	}
	return d
}

// TextDataset returns a Dataset of one text column, "text", holding docs,
// without a target, from the source src.
func TextDataset(docs []string, src Provenance) *Dataset {
	s := &Schema{Features: []Column{{Name: "text", Kind: Text}}}
	x := make([]float64, len(docs))
	for i := range x {
		x[i] = math.NaN()
	}
	return &Dataset{Schema: s, N: len(docs), X: x, Text: [][]string{docs}, Source: src}
}
