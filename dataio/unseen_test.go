package dataio

import (
	"errors"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
)

// TestBooleanLevel: true and false stand for the levels of a boolean pair
// in any spelling and case, and for nothing else.
func TestBooleanLevel(t *testing.T) {
	for _, tc := range []struct {
		levels      []string
		true, false int
	}{
		{[]string{"f", "t"}, 1, 0},
		{[]string{"no", "yes"}, 1, 0},
		{[]string{"Y", "N"}, 0, 1},
		{[]string{"0", "1"}, 1, 0},
		{[]string{"FALSE", "TRUE"}, 1, 0},
		{[]string{"a", "b"}, -1, -1},
		{[]string{"t", "f", "x"}, -1, -1},
		{[]string{"t", "n"}, -1, -1},
	} {
		c := &data.Column{Kind: data.Categorical, Levels: tc.levels}
		if got := [2]int{c.BooleanLevel("true"), c.BooleanLevel("FALSE")}; got != [2]int{tc.true, tc.false} {
			t.Errorf("%q: true, false → %v, want %d, %d", tc.levels, got, tc.true, tc.false)
		}
		if c.BooleanLevel("t") != -1 || c.BooleanLevel("") != -1 {
			t.Errorf("%q: a value other than true or false stands for a level", tc.levels)
		}
	}
}

// TestUnseenLevels reads DuckDB's types.parquet (a BOOLEAN column flag)
// and a CSV with a schema whose flag levels are f and t and whose colors
// lack blue: true and false are read as t and f and counted, blue is
// missing, counted, and kept as an example; with UnseenError it is an
// error naming the row and column.
func TestUnseenLevels(t *testing.T) {
	d, err := ReadFile("testdata/duckdb/types.parquet", Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := d.Schema.Clone()
	flag, color := slices.IndexFunc(s.Features, func(c data.Column) bool { return c.Name == "flag" }), slices.IndexFunc(s.Features, func(c data.Column) bool { return c.Name == "color" })
	s.Features[flag].Levels = []string{"f", "t"}
	s.Features[color].Levels = []string{"green", "red"}
	readParquet := func(opt SchemaOptions) (*data.Dataset, error) {
		f, err := os.Open("testdata/duckdb/types.parquet")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		return ReadWithSchema(f, "types.parquet", s, opt)
	}
	got, err := readParquet(SchemaOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantBool, wantBlue := 0, 0
	for i := range d.N {
		if v := d.Row(i)[flag]; !math.IsNaN(v) {
			wantBool++
			// types.parquet's levels are false, true: the same indices.
			if g := got.Row(i)[flag]; g != v {
				t.Fatalf("row %d: flag %v, want %v", i, g, v)
			}
		}
		if v := d.Row(i)[color]; !math.IsNaN(v) && d.Schema.Features[color].Levels[int(v)] == "blue" {
			wantBlue++
			if !math.IsNaN(got.Row(i)[color]) {
				t.Fatalf("row %d: blue read as %v", i, got.Row(i)[color])
			}
		}
	}
	if got.Source.Booleans[flag] != wantBool || got.Source.Unseen[color] != wantBlue || !slices.Equal(got.Source.UnseenValues[color], []string{"blue"}) {
		t.Errorf("booleans %v (want %d), unseen %v (want %d) %q", got.Source.Booleans, wantBool, got.Source.Unseen, wantBlue, got.Source.UnseenValues)
	}
	_, err = readParquet(SchemaOptions{UnseenError: true})
	var pe *data.ParseError
	if !errors.As(err, &pe) || !errors.Is(err, data.ErrUnseenLevel) || pe.ColumnName != "color" || !strings.Contains(err.Error(), `"blue"`) {
		t.Errorf("UnseenError: %v", err)
	}
	csv := "x,flag\n1,TRUE\n2,maybe\n3,maybe\n4,perhaps\n5,f\n"
	cs := &data.Schema{Features: []data.Column{{Name: "x", Kind: data.Numeric}, {Name: "flag", Kind: data.Categorical, Levels: []string{"f", "t"}}}}
	c, err := ReadWithSchema(strings.NewReader(csv), "c.csv", cs, SchemaOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Row(0)[1] != 1 || c.Source.Booleans[1] != 1 || c.Source.Unseen[1] != 3 || !slices.Equal(c.Source.UnseenValues[1], []string{"maybe", "perhaps"}) {
		t.Errorf("csv: rows %v, booleans %v, unseen %v %q", c.X, c.Source.Booleans, c.Source.Unseen, c.Source.UnseenValues)
	}
	_, err = ReadWithSchema(strings.NewReader(csv), "c.csv", cs, SchemaOptions{UnseenError: true})
	if !errors.As(err, &pe) || pe.Line != 3 || pe.Column != 2 {
		t.Errorf("csv, UnseenError: %v", err)
	}
}
