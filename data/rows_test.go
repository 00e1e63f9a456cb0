package data

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// rowsSchema has a feature of every kind and a categorical target.
func rowsSchema() *Schema {
	return &Schema{
		Features: []Column{
			{Name: "x", Kind: Numeric},
			{Name: "color", Kind: Categorical, Levels: []string{"blue", "red"}},
			{Name: "note", Kind: Text},
		},
		Target: &Column{Name: "class", Kind: Categorical, Levels: []string{"a", "b"}},
	}
}

func TestRows(t *testing.T) {
	nan := math.NaN()
	s := rowsSchema()
	d, err := s.Rows([]map[string]any{
		{"note": "hello world", "color": "red", "x": 1.5},             // fields in any order
		{"x": int8(-2), "class": "b", "note": "", "color": "blue"},    // the target
		{"color": "green", "x": json.Number("1e3"), "note": nil},      // an unseen level
		{"x": nil, "color": nil, "note": "x", "class": nil},           // missing cells
		{"x": uint64(7), "color": "red", "note": "NA", "class": "a"},  // NA is a word
		{"x": float32(0.25), "color": "green", "note": "z"},           // unseen again
		{"x": math.NaN(), "color": "blue", "note": "y", "class": "a"}, // NaN is missing
	})
	if err != nil {
		t.Fatal(err)
	}
	if d.Schema != s || d.N != 7 || d.D() != 3 {
		t.Fatalf("schema %p (want %p), N %d, D %d", d.Schema, s, d.N, d.D())
	}
	wantX := []float64{
		1.5, 1, nan,
		-2, 0, nan,
		1000, nan, nan,
		nan, nan, nan,
		7, 1, nan,
		0.25, nan, nan,
		nan, 0, nan,
	}
	if !sameFloats(d.X, wantX) {
		t.Errorf("X = %v, want %v", d.X, wantX)
	}
	if wantY := []float64{nan, 1, nan, nan, 0, nan, 0}; !sameFloats(d.Y, wantY) {
		t.Errorf("Y = %v, want %v", d.Y, wantY)
	}
	if len(d.Text) != 3 || d.Text[0] != nil || d.Text[1] != nil {
		t.Fatalf("Text = %q, want only column 2", d.Text)
	}
	if want := []string{"hello world", "", "", "x", "NA", "z", "y"}; !slices.Equal(d.Text[2], want) {
		t.Errorf("Text[2] = %q, want %q", d.Text[2], want)
	}
	if want := []int{0, 2, 0}; !slices.Equal(d.Source.Unseen, want) {
		t.Errorf("Unseen = %v, want %v", d.Source.Unseen, want)
	}
	if d.Weight != nil || d.Source.Lines != nil {
		t.Errorf("Weight %v, Lines %v: want nil", d.Weight, d.Source.Lines)
	}
}

// TestRowsWithoutTarget checks that Y is nil when no record has the
// target, and that a data set without rows is no error.
func TestRowsWithoutTarget(t *testing.T) {
	s := rowsSchema()
	d, err := s.Rows([]map[string]any{{"x": 1, "color": "red", "note": "n"}})
	if err != nil {
		t.Fatal(err)
	}
	if d.Y != nil || d.Source.Unseen != nil {
		t.Errorf("Y = %v, Unseen = %v, want nil", d.Y, d.Source.Unseen)
	}
	d, err = s.Rows(nil)
	if err != nil || d.N != 0 || len(d.X) != 0 {
		t.Errorf("Rows(nil) = %+v, %v; want an empty data set", d, err)
	}
}

// TestRowsNumericTarget reads the target of a regression.
func TestRowsNumericTarget(t *testing.T) {
	s := &Schema{Features: []Column{{Name: "x", Kind: Numeric}}, Target: &Column{Name: "y", Kind: Numeric}}
	d, err := s.Rows([]map[string]any{{"x": 1}, {"x": 2, "y": 3.5}, {"y": int64(-1), "x": 0}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{math.NaN(), 3.5, -1}; !sameFloats(d.Y, want) {
		t.Errorf("Y = %v, want %v", d.Y, want)
	}
}

func TestRowsErrors(t *testing.T) {
	ok := map[string]any{"x": 1.0, "color": "red", "note": "n"}
	with := func(kv ...any) map[string]any {
		r := map[string]any{}
		for k, v := range ok {
			r[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == "delete" {
				delete(r, kv[i].(string))
			} else {
				r[kv[i].(string)] = kv[i+1]
			}
		}
		return r
	}
	noTarget := &Schema{Features: rowsSchema().Features}
	for _, c := range []struct {
		name    string
		schema  *Schema
		records []map[string]any
		row     int
		field   string
		err     error
		text    string
	}{
		{"missing feature", nil, []map[string]any{ok, with("color", "delete")}, 1, "color", ErrMissingField,
			`record 1: field "color": missing field`},
		{"first missing in schema order", nil, []map[string]any{with("x", "delete", "note", "delete")}, 0, "x", ErrMissingField, ""},
		{"unknown field", nil, []map[string]any{ok, ok, with("colour", "red")}, 2, "colour", ErrUnknownField,
			`record 2: field "colour": unknown field`},
		{"first unknown in sorted order", nil, []map[string]any{with("zz", 1, "aa", 2, "mm", 3)}, 0, "aa", ErrUnknownField, ""},
		{"target of a schema without one", noTarget, []map[string]any{with("class", "a")}, 0, "class", ErrUnknownField, ""},
		{"string for a number", nil, []map[string]any{with("x", "5.1")}, 0, "x", ErrFieldType,
			`record 0: field "x": wrong type: the string "5.1", want a number (the column is numeric)`},
		{"bool for a number", nil, []map[string]any{with("x", true)}, 0, "x", ErrFieldType,
			`record 0: field "x": wrong type: bool true, want a number (the column is numeric)`},
		{"bad json.Number", nil, []map[string]any{with("x", json.Number("1,5"))}, 0, "x", ErrFieldType, ""},
		{"number for a level", nil, []map[string]any{with("color", 3)}, 0, "color", ErrFieldType,
			`record 0: field "color": wrong type: int 3, want a string (the column is categorical)`},
		{"number for text", nil, []map[string]any{with("note", 2.5)}, 0, "note", ErrFieldType, ""},
		{"number for a class", nil, []map[string]any{with("class", 1)}, 0, "class", ErrFieldType, ""},
		{"infinite number", nil, []map[string]any{with("x", math.Inf(-1))}, 0, "x", ErrInfinite, ""},
		{"json.Number out of range", nil, []map[string]any{with("x", json.Number("1e999"))}, 0, "x", ErrInfinite, ""},
		{"unseen class", nil, []map[string]any{with("class", "c")}, 0, "class", ErrUnseenClass,
			`record 0: field "class": class not among the schema's classes: "c"`},
		{"mistyped before unknown", nil, []map[string]any{with("x", "a", "other", 1)}, 0, "x", ErrFieldType, ""},
	} {
		s := c.schema
		if s == nil {
			s = rowsSchema()
		}
		d, err := s.Rows(c.records)
		var fe *FieldError
		if !errors.As(err, &fe) {
			t.Errorf("%s: Rows = %v, %v; want a *FieldError", c.name, d, err)
			continue
		}
		if d != nil || fe.Row != c.row || fe.Field != c.field || !errors.Is(err, c.err) {
			t.Errorf("%s: got record %d field %q error %v (data set %v); want record %d field %q error %v",
				c.name, fe.Row, fe.Field, err, d, c.row, c.field, c.err)
		}
		if c.text != "" && err.Error() != c.text {
			t.Errorf("%s: error %q, want %q", c.name, err, c.text)
		}
		if strings.Contains(err.Error(), "--") {
			t.Errorf("%s: error %q names a flag", c.name, err)
		}
	}
}

// sameFloats reports whether a and b hold the same bits, NaN equal to NaN.
func sameFloats(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool {
		return math.Float64bits(x) == math.Float64bits(y) || x != x && y != y
	})
}
