package dataio

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
)

// trained is the schema of a model fitted on
//
//	num,color,note,class
func trained() *data.Schema {
	return &data.Schema{
		Features: []data.Column{
			{Name: "num", Kind: data.Numeric, Integral: true},
			{Name: "color", Kind: data.Categorical, Levels: []string{"green", "red"}},
			{Name: "note", Kind: data.Text},
		},
		Target: &data.Column{Name: "class", Kind: data.Categorical, Levels: []string{"no", "yes"}},
	}
}

func TestReadWithSchemaByName(t *testing.T) {
	s := trained()
	src := "extra,class,note,color,num\nq,yes,hello world,red,1\nq,no,,green,2.5\nq,,x,,\n"
	d, err := readSchemaAll(t, src, s, SchemaOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Schema != s {
		t.Error("the schema was copied without Extend")
	}
	checkFloats(t, "X", d.X, []float64{1, 1, nan, 2.5, 0, nan, nan, nan, nan})
	checkFloats(t, "Y", d.Y, []float64{1, 0, nan})
	if !slices.Equal(d.Text[2], []string{"hello world", "", "x"}) || d.Text[0] != nil {
		t.Errorf("Text %q", d.Text)
	}
	if d.Source.Unseen != nil {
		t.Errorf("Unseen %v", d.Source.Unseen)
	}
	// Without the target column: Y nil, unless it is required.
	d, err = readSchemaAll(t, "num,color,note\n1,red,x\n", s, SchemaOptions{})
	if err != nil || d.Y != nil {
		t.Fatalf("Y %v, err %v", d.Y, err)
	}
	_, err = readSchemaAll(t, "num,color,note\n1,red,x\n", s, SchemaOptions{RequireTarget: true})
	if want := `t.csv:1: column "class": no such column; the columns are num, color, note`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	// A weight column.
	d, err = readSchemaAll(t, "num,color,note,w\n1,red,x,0.5\n", s, SchemaOptions{Weight: "w"})
	if err != nil {
		t.Fatal(err)
	}
	checkFloats(t, "Weight", d.Weight, []float64{0.5})
}

func TestReadWithSchemaUnseen(t *testing.T) {
	s := trained()
	src := "num,color,note,class\n1,blue,a,yes\n2,red,b,no\n3,blue,c,yes\n4,pink,d,no\n"
	d, err := readSchemaAll(t, src, s, SchemaOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkFloats(t, "color", []float64{d.X[1], d.X[4], d.X[7], d.X[10]}, []float64{nan, 1, nan, nan})
	if !slices.Equal(d.Source.Unseen, []int{0, 3, 0}) {
		t.Errorf("Unseen %v", d.Source.Unseen)
	}
	// An unseen class is an error: the row's true label must be known.
	_, err = readSchemaAll(t, src+"5,red,e,maybe\n", s, SchemaOptions{})
	if want := `t.csv:6:4: column "class": class not among the schema's classes: "maybe"`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	if !errors.Is(err, data.ErrUnseenClass) {
		t.Errorf("%v is not ErrUnseenClass", err)
	}

	// Extend appends the new levels and classes in order of appearance,
	// to a clone.
	d, err = readSchemaAll(t, src+"5,red,e,maybe\n", s, SchemaOptions{Extend: true})
	if err != nil {
		t.Fatal(err)
	}
	if d.Schema == s || !s.Equal(trained()) {
		t.Error("Extend changed the caller's schema")
	}
	if got := d.Schema.Features[1].Levels; !slices.Equal(got, []string{"green", "red", "blue", "pink"}) {
		t.Errorf("levels %q", got)
	}
	if got := d.Schema.Classes(); !slices.Equal(got, []string{"no", "yes", "maybe"}) {
		t.Errorf("classes %q", got)
	}
	checkFloats(t, "color", []float64{d.X[1], d.X[4], d.X[7], d.X[10], d.X[13]}, []float64{2, 1, 2, 3, 1})
	checkFloats(t, "Y", d.Y, []float64{1, 0, 1, 0, 2})
	if d.Source.Unseen != nil {
		t.Errorf("Unseen %v", d.Source.Unseen)
	}
}

func TestReadWithSchemaErrors(t *testing.T) {
	s := trained()
	for _, tc := range []struct {
		name, src string
		opt       SchemaOptions
		is        error
		msg       string
	}{
		{"missing feature", "num,note,class\n1,a,yes\n", SchemaOptions{}, data.ErrNoColumn,
			`t.csv:1: column "color": no such column; the columns are num, note, class`},
		{"not a number", "num,color,note\n1,red,a\nabc,red,a\n", SchemaOptions{}, data.ErrNotNumber,
			`t.csv:3:1: column "num": not a number: "abc"`},
		{"infinite", "num,color,note\n1e400,red,a\n", SchemaOptions{}, data.ErrInfinite,
			`t.csv:2:1: column "num": infinite or out-of-range number: "1e400"`},
		{"ragged", "num,color,note\n1,red\n", SchemaOptions{}, data.ErrFieldCount,
			`t.csv:2:3: column "note": wrong number of fields: line 2 has 2 fields, the header has 3`},
		{"header only", "num,color,note\n", SchemaOptions{}, data.ErrNoRows, `t.csv:1: no data rows after the header`},
		{"weight is a feature", "num,color,note\n1,red,a\n", SchemaOptions{Weight: "num"}, nil,
			`t.csv:1:1: column "num": named twice: as the weight and in the schema`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readSchemaAll(t, tc.src, s, tc.opt)
			if err == nil || err.Error() != tc.msg {
				t.Fatalf("error\n %v\nwant\n %s", err, tc.msg)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("%v is not %v", err, tc.is)
			}
		})
	}
}

// TestReadWithSchemaRoundTrip reads a file, then the same file with its
// inferred schema: the same Dataset.
func TestReadWithSchemaRoundTrip(t *testing.T) {
	src := "a,b,c,class\n1,x,the cat sat down,p\n2.5,y,a dog ran off,q\n,x,,p\n"
	d := mustRead(t, src, Options{})
	e, err := ReadWithSchema(strings.NewReader(src), "t.csv", d.Schema, SchemaOptions{RequireTarget: true})
	if err != nil {
		t.Fatal(err)
	}
	if diff := datasetDiff(d, e); diff != "" {
		t.Error(diff)
	}
}

// TestReadWithSchemaRange: with Extend, the ranges of the schema are
// widened by the rows read (the training range of a model after update);
// without it, the schema (a model's) is not changed.
func TestReadWithSchemaRange(t *testing.T) {
	s := &data.Schema{Features: []data.Column{{Name: "x", Kind: data.Numeric, Range: &data.Range{Min: 0, Max: 1}}},
		Target: &data.Column{Name: "y", Kind: data.Categorical, Levels: []string{"a"}}}
	d, err := ReadWithSchema(strings.NewReader("x,y\n5,a\n0.5,a\n"), "f", s, SchemaOptions{Extend: true})
	if err != nil {
		t.Fatal(err)
	}
	if r := d.Schema.Features[0].Range; *r != (data.Range{Min: 0, Max: 5}) || *s.Features[0].Range != (data.Range{Min: 0, Max: 1}) {
		t.Errorf("range %v, schema's %v; want [0, 5] and [0, 1] unchanged", *r, *s.Features[0].Range)
	}
	d, err = ReadWithSchema(strings.NewReader("x,y\n5,a\n"), "f", s, SchemaOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if *d.Schema.Features[0].Range != (data.Range{Min: 0, Max: 1}) {
		t.Errorf("range %v without Extend, want the schema's [0, 1]", *d.Schema.Features[0].Range)
	}
}
