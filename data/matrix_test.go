package data

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestFromMatrix checks the schema, targets and refusals of FromMatrix.
func TestFromMatrix(t *testing.T) {
	d := FromMatrix([]string{"a", "b"}, []float64{1, 2.5, 3, 4}, []string{"n", "y"}, []int{1, 0})
	if d.N != 2 || d.D() != 2 || d.Source.Lines != nil || d.Line(1) != 0 {
		t.Errorf("N %d D %d Lines %v", d.N, d.D(), d.Source.Lines)
	}
	want := &Schema{
		Features: []Column{{Name: "a", Kind: Numeric, Integral: true, Range: &Range{Min: 1, Max: 3}},
			{Name: "b", Kind: Numeric, Range: &Range{Min: 2.5, Max: 4}}},
		Target: &Column{Name: "class", Kind: Categorical, Levels: []string{"n", "y"}},
	}
	if !d.Schema.Equal(want) {
		t.Errorf("schema %+v %+v", d.Schema.Features, d.Schema.Target)
	}
	if !sameFloats(d.Y, []float64{1, 0}) {
		t.Errorf("Y = %v, want [1 0]", d.Y)
	}
	if d := FromMatrix([]string{"a"}, []float64{1}, nil, nil); d.Schema.Target != nil || d.Y != nil {
		t.Error("no classes: want no target")
	}
	if d := FromMatrix([]string{"a"}, []float64{1}, []string{"p"}, nil); d.Schema.Target == nil || d.Y != nil {
		t.Error("classes without y: want a target and Y nil")
	}
	for name, f := range map[string]func(){
		"ragged":       func() { FromMatrix([]string{"a", "b"}, []float64{1, 2, 3}, nil, nil) },
		"y length":     func() { FromMatrix([]string{"a"}, []float64{1, 2}, []string{"p"}, []int{0}) },
		"class range":  func() { FromMatrix([]string{"a"}, []float64{1}, []string{"p"}, []int{1}) },
		"repeat":       func() { FromMatrix([]string{"a", "a"}, []float64{1, 2}, nil, nil) },
		"y no classes": func() { FromMatrix([]string{"a"}, []float64{1}, nil, []int{0}) },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.HasPrefix(r.(string), "data: ") {
					t.Errorf("%s: panic %v", name, r)
				}
			}()
			f()
		}()
	}
}

// TestRangeJSON: a range is written as [min, max] and read back; other
// arrays are refused.
func TestRangeJSON(t *testing.T) {
	c := Column{Name: "x", Kind: Numeric, Range: &Range{Min: -1.5, Max: 2}}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"name":"x","kind":"numeric","range":[-1.5,2]}`; string(b) != want {
		t.Errorf("%s, want %s", b, want)
	}
	var back Column
	if err := json.Unmarshal(b, &back); err != nil || *back.Range != *c.Range {
		t.Errorf("read back %+v, %v", back.Range, err)
	}
	for _, in := range []string{`[1]`, `[2,1]`, `[1,2,3]`, `{"min":1}`} {
		if err := json.Unmarshal([]byte(`{"name":"x","kind":"numeric","range":`+in+`}`), &back); err == nil {
			t.Errorf("range %s read without an error", in)
		}
	}
}
