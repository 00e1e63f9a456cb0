package data

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestCheckClassRows: a categorical target, class indices or NaN, valid
// weights; each failure positioned at its line.
func TestCheckClassRows(t *testing.T) {
	classes := &Column{Name: "y", Kind: Categorical, Levels: []string{"a", "b"}}
	set := func(target *Column, y, w []float64) *Dataset {
		return &Dataset{Schema: &Schema{Features: []Column{{Name: "x", Kind: Numeric}}, Target: target},
			N: 3, X: []float64{1, 2, 3}, Y: y, Weight: w, Source: Provenance{Name: "t.csv", Lines: []int{2, 3, 4}}}
	}
	for _, tc := range []struct {
		name string
		d    *Dataset
		err  error
		msg  string
	}{
		{"ok", set(classes, []float64{0, math.NaN(), 1}, []float64{1, 0, 2.5}), nil, ""},
		{"numeric target", set(&Column{Name: "y", Kind: Numeric}, []float64{0, 1, 1}, nil), ErrNotClassification, ""},
		{"no labels", set(classes, nil, nil), ErrNotClassification, ""},
		{"label out of range", set(classes, []float64{0, 2, 1}, nil), nil, "t.csv:3: class index 2 out of range [0, 2)"},
		{"fractional label", set(classes, []float64{0.5, 1, 1}, nil), nil, "t.csv:2: class index 0.5"},
		{"negative weight", set(classes, []float64{0, 1, 1}, []float64{1, 1, -1}), ErrWeight, "t.csv:4: weight must be a finite number >= 0: -1"},
		{"NaN weight", set(classes, []float64{0, 1, 1}, []float64{math.NaN(), 1, 1}), ErrWeight, "t.csv:2"},
		{"infinite weight", set(classes, []float64{0, 1, 1}, []float64{1, math.Inf(1), 1}), ErrWeight, "t.csv:3"},
	} {
		err := tc.d.CheckClassRows("test")
		switch {
		case tc.err == nil && tc.msg == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.err != nil && !errors.Is(err, tc.err), tc.msg != "" && (err == nil || !strings.Contains(err.Error(), tc.msg)):
			t.Errorf("%s: error %v, want %v containing %q", tc.name, err, tc.err, tc.msg)
		}
	}
	defer func() {
		if r := recover(); r == nil || !strings.HasPrefix(r.(string), "test: ") {
			t.Errorf("short labels: panic %v", r)
		}
	}()
	set(classes, []float64{0, 1}, nil).CheckClassRows("test")
}
