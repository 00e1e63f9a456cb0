package dataio

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
)

func extendSchemas() (*data.Schema, *data.Schema) {
	s := &data.Schema{
		Features: []data.Column{
			{Name: "x", Kind: data.Numeric, Integral: true},
			{Name: "c", Kind: data.Categorical, Levels: []string{"a", "b"}},
			{Name: "t", Kind: data.Text},
		},
		Target: &data.Column{Name: "y", Kind: data.Categorical, Levels: []string{"no", "yes"}},
	}
	t := &data.Schema{
		Features: []data.Column{
			{Name: "x", Kind: data.Numeric},
			{Name: "c", Kind: data.Categorical, Levels: []string{"b", "c"}},
			{Name: "t", Kind: data.Text},
		},
		Target: &data.Column{Name: "y", Kind: data.Categorical, Levels: []string{"maybe", "yes"}},
	}
	return s, t
}

func TestExtendUnion(t *testing.T) {
	s, u := extendSchemas()
	before := s.Clone()
	got, r, err := s.Extend(u)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Equal(before) {
		t.Error("Extend changed its receiver")
	}
	if want := []string{"a", "b", "c"}; !slices.Equal(got.Features[1].Levels, want) {
		t.Errorf("levels %q, want %q", got.Features[1].Levels, want)
	}
	if want := []string{"no", "yes", "maybe"}; !slices.Equal(got.Classes(), want) {
		t.Errorf("classes %q, want %q", got.Classes(), want)
	}
	if got.Features[0].Integral {
		t.Error("x is integral in one schema only, and integral in the union")
	}
	if !slices.Equal(r.Features[1], []int{1, 2}) || r.Features[0] != nil || !slices.Equal(r.Target, []int{2, 1}) {
		t.Errorf("remap %v, target %v", r.Features, r.Target)
	}
	nan := math.NaN()
	d := &data.Dataset{Schema: u, N: 2, X: []float64{1, 0, nan, 2, nan, nan}, Y: []float64{0, nan}, Text: [][]string{nil, nil, {"a", "b"}}}
	e := r.Apply(d, got)
	if e.Schema != got || !same(e.X, []float64{1, 1, nan, 2, nan, nan}) || !same(e.Y, []float64{2, nan}) {
		t.Errorf("Apply: X %v, Y %v", e.X, e.Y)
	}
	if d.X[1] != 0 || d.Y[0] != 0 {
		t.Error("Apply changed its argument")
	}
}

// TestExtendRange checks that the range of a numeric feature is the union
// of both, and nil when one side lacks it (a model file from before ranges
// were kept).
func TestExtendRange(t *testing.T) {
	a := &data.Schema{Features: []data.Column{{Name: "x", Kind: data.Numeric, Range: &data.Range{Min: -1, Max: 2}}}}
	b := &data.Schema{Features: []data.Column{{Name: "x", Kind: data.Numeric, Range: &data.Range{Min: 0, Max: 5}}}}
	got, _, err := a.Extend(b)
	if err != nil {
		t.Fatal(err)
	}
	if r := got.Features[0].Range; r == nil || *r != (data.Range{Min: -1, Max: 5}) {
		t.Errorf("range %v, want {-1 5}", r)
	}
	if a.Features[0].Range.Max != 2 {
		t.Error("Extend changed its receiver's range")
	}
	b.Features[0].Range = nil
	if got, _, _ = a.Extend(b); got.Features[0].Range != nil {
		t.Errorf("range %v with one side unknown, want nil", *got.Features[0].Range)
	}
}

func same(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return x == y || x != x && y != y })
}

func TestExtendPrefixIsIdentity(t *testing.T) {
	s, _ := extendSchemas()
	u := s.Clone()
	u.Features[1].Levels = append(u.Features[1].Levels, "z")
	u.Target.Levels = u.Target.Levels[:1]
	got, r, err := s.Extend(u)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Identity() {
		t.Errorf("remap %+v, want the identity", r)
	}
	if want := []string{"a", "b", "z"}; !slices.Equal(got.Features[1].Levels, want) {
		t.Errorf("levels %q, want %q", got.Features[1].Levels, want)
	}
	d := &data.Dataset{Schema: u, N: 1, X: []float64{1, 2, math.NaN()}}
	if e := r.Apply(d, got); &e.X[0] != &d.X[0] || e.Schema != got {
		t.Error("Apply of the identity copied the rows or kept the old schema")
	}
}

func TestExtendErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*data.Schema)
		want   string
	}{
		{"feature count", func(u *data.Schema) { u.Features = u.Features[:2] }, "schemas do not match: 2 features, want 3"},
		{"name", func(u *data.Schema) { u.Features[0].Name = "z" }, `schemas do not match: feature "z": feature 1 is "z", want "x"`},
		{"kind", func(u *data.Schema) { u.Features[2].Kind = data.Categorical }, `schemas do not match: feature "t": categorical, want text`},
		{"target name", func(u *data.Schema) { u.Target.Name = "label" }, `schemas do not match: target "label": want "y"`},
		{"no target", func(u *data.Schema) { u.Target = nil }, `schemas do not match: target "y": present in one schema only`},
		{"target kind", func(u *data.Schema) { u.Target.Kind = data.Numeric; u.Target.Levels = nil }, `schemas do not match: target "y": numeric, want categorical`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := extendSchemas()
			u := s.Clone()
			tc.change(u)
			_, _, err := s.Extend(u)
			var se *data.SchemaError
			if !errors.As(err, &se) || !errors.Is(err, data.ErrSchema) || err.Error() != tc.want {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestRangeEmpty: a numeric column without a value has the empty range,
// written [], which a later chunk's values widen; it differs from an
// unknown range (nil).
func TestRangeEmpty(t *testing.T) {
	chunks, err := readAllChunks(t, strings.NewReader("a,b,y\n,1,p\n,2,q\n3,4,p\n4,5,p\n"), Options{Numeric: []string{"a"}}, readConfig{chunk: 8, blocks: 1})
	if err != nil {
		t.Fatal(err)
	}
	first, last := chunks[0].Schema.Features[0].Range, chunks[len(chunks)-1].Schema.Features[0].Range
	if first == nil || !first.Empty() || last == nil || *last != (data.Range{Min: 3, Max: 4}) {
		t.Errorf("ranges of a, first and last chunk: %v, %v; want empty and [3 4]", first, last)
	}
	b, _ := json.Marshal(data.Column{Name: "a", Kind: data.Numeric, Range: first})
	if want := `{"name":"a","kind":"numeric","range":[]}`; string(b) != want {
		t.Errorf("%s, want %s", b, want)
	}
	var back data.Column
	if err := json.Unmarshal(b, &back); err != nil || back.Range == nil || !back.Range.Empty() {
		t.Errorf("empty range read back as %v, %v", back.Range, err)
	}
	u, _, err := chunks[0].Schema.Extend(chunks[len(chunks)-1].Schema)
	if err != nil || *u.Features[0].Range != (data.Range{Min: 3, Max: 4}) {
		t.Errorf("empty ∪ [3 4] = %v, %v", u.Features[0].Range, err)
	}
}
