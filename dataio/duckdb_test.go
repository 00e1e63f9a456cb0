package dataio

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// TestDuckDB reads testdata/duckdb/types.parquet, written by DuckDB (see
// make.mjs there): every supported type, nulls, dictionary pages and
// three row groups, each cell checked against the values make.mjs wrote.
func TestDuckDB(t *testing.T) {
	const path = "testdata/duckdb/types.parquet"
	checkDictionary(t, path, "color")
	d, err := ReadFile(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, c := range d.Schema.Features {
		kinds = append(kinds, fmt.Sprintf("%s:%v:%v", c.Name, c.Kind, c.Integral))
	}
	wantKinds := "dbl:numeric:false flt:numeric:false i32:numeric:true i64:numeric:true i8:numeric:true u8:numeric:true " +
		"flag:categorical:false color:categorical:false note:text:false"
	if got := strings.Join(kinds, " "); got != wantKinds {
		t.Fatalf("columns %s\nwant %s", got, wantKinds)
	}
	if d.N != 5000 || !slices.Equal(d.Source.RowGroups, []int{1, 2049, 4097}) || d.Source.Lines[4999] != 5000 {
		t.Fatalf("%d rows, row groups %v", d.N, d.Source.RowGroups)
	}
	if got := d.Schema.Features[7].Levels; !slices.Equal(got, []string{"blue", "green", "red"}) {
		t.Errorf("color levels %q", got)
	}
	first := [][]float64{
		{1.5, 1.25, 7, 1e10, 3, 200, 1, 2},
		{nan, -0.5, nan, -2, nan, 1, 0, 1},
		{2.25, nan, 9, 5, 1, nan, nan, nan},
		{-1e300, 0.1, -3, 0, 2, 7, 1, 2},
	}
	for i, want := range first {
		if got := d.Row(i)[:8]; !sameFloats(got, want) {
			t.Errorf("row %d: %v, want %v", i, got, want)
		}
	}
	if d.Text[8][0] != "the quick brown fox jumps" || d.Text[8][3] != "" {
		t.Errorf("note: %q", d.Text[8][:4])
	}
	checkDuckDBFormulas(t, d, 10)
	// A column forced to another type, a weight and a numeric target.
	e, err := ReadFile(path, Options{Target: "i32", NumericTarget: true, Categorical: []string{"i8"}, Text: []string{"color"}, Weight: "u8", Ignore: []string{"note", "class"}})
	if err != nil {
		t.Fatal(err)
	}
	if e.Schema.Target.Name != "i32" || e.Y[0] != 7 || e.Weight[0] != 200 || e.Schema.Features[3].Kind != data.Categorical ||
		e.Schema.Features[3].Levels[int(e.X[3])] != "3" || e.Text[5][0] != "red" {
		t.Errorf("forced types: schema %+v, row 0 %v", e.Schema, e.Row(0))
	}
	// An error in the third row group names it.
	_, err = ReadFile(path, Options{Numeric: []string{"color"}})
	var pe *data.ParseError
	if !errors.As(err, &pe) || !errors.Is(err, data.ErrNotNumber) || pe.Line != 1 || pe.RowGroup != 1 || pe.ColumnName != "color" {
		t.Errorf("color as numbers: %v", err)
	}
	if want := path + `: row group 1, row 1: column "color": not a number: "red"`; err == nil || err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	for _, w := range []string{"flt", "i64"} {
		_, err = ReadFile(path, Options{Weight: w})
		if !errors.As(err, &pe) || !errors.Is(err, data.ErrWeight) || pe.Line != 2 || pe.ColumnName != w {
			t.Errorf("negative weight in %s: %v", w, err)
		}
	}
}

// checkDuckDBFormulas checks rows from to d.N of d, read from a file of
// make.mjs, against the formulas that made them.
func checkDuckDBFormulas(t *testing.T, d *data.Dataset, from int) {
	t.Helper()
	orNaN := func(null bool, v float64) float64 {
		if null {
			return nan
		}
		return v
	}
	color := map[int]float64{0: 2, 1: 1, 2: 0} // red, green, blue as level indices
	for i := from; i < d.N; i++ {
		want := []float64{
			orNaN(i%11 == 0, float64(i)/4),
			float64(i%8) / 2,
			orNaN(i%13 == 0, float64(i)),
			float64(i) * 1000000007,
			float64(i % 100),
			float64(i % 256),
			orNaN(i%17 == 0, float64(1-i%2)),
			orNaN(i%19 == 0, color[i%3]),
			nan,
		}
		if got := d.Row(i); !sameFloats(got, want) {
			t.Fatalf("row %d: %v, want %v", i, got, want)
		}
		if note := fmt.Sprintf("row number %d of the text", i); d.Text[8][i] != note || d.Y[i] != float64(i%2) {
			t.Fatalf("row %d: note %q, class %v", i, d.Text[8][i], d.Y[i])
		}
	}
}

// TestDuckDBLZ4 reads testdata/duckdb/lz4.parquet, 10,000 rows that
// DuckDB wrote LZ4_RAW-compressed (pages that parquet-go v0.32.0 alone
// decodes wrongly: see parquet_lz4.go): the first 5,000 rows as
// types.parquet reads them, the others by make.mjs's formulas.
func TestDuckDBLZ4(t *testing.T) {
	want, err := ReadFile("testdata/duckdb/types.parquet", Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := ReadFile("testdata/duckdb/lz4.parquet", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.N != 10000 {
		t.Fatalf("%d rows, want 10000", d.N)
	}
	for i := range want.N {
		if !sameFloats(d.Row(i), want.Row(i)) || d.Text[8][i] != want.Text[8][i] || d.Y[i] != want.Y[i] {
			t.Fatalf("row %d: %v %q %v, want %v %q %v", i, d.Row(i), d.Text[8][i], d.Y[i], want.Row(i), want.Text[8][i], want.Y[i])
		}
	}
	checkDuckDBFormulas(t, d, want.N)
}

// checkDictionary fails unless column name of the Parquet file at path is
// dictionary-encoded in every row group.
func checkDictionary(t *testing.T, path, name string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := parquet.OpenFile(strings.NewReader(string(b)), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	for g, rg := range f.Metadata().RowGroups {
		for _, c := range rg.Columns {
			// PLAIN_DICTIONARY (as DuckDB writes) or RLE_DICTIONARY.
			dict := slices.ContainsFunc(c.MetaData.Encoding, func(e format.Encoding) bool { return strings.HasSuffix(e.String(), "_DICTIONARY") })
			if c.MetaData.PathInSchema[0] == name && !dict {
				t.Errorf("row group %d: column %s is not dictionary-encoded: %v", g, name, c.MetaData.Encoding)
			}
		}
	}
}

// TestDuckDBRefused: lists and structs are refused by name unless
// ignored, and so are a date and a timestamp named neither numeric nor
// categorical; a decimal is read.
func TestDuckDBRefused(t *testing.T) {
	const path = "testdata/duckdb/refused.parquet"
	ignore := []string{"day", "ts", "list", "rec"}
	for k, name := range ignore {
		_, err := ReadFile(path, Options{Ignore: slices.Delete(slices.Clone(ignore), k, k+1)})
		var pe *data.ParseError
		if !errors.As(err, &pe) || pe.ColumnName != name || !errors.Is(err, ErrParquetType) {
			t.Errorf("%s: %v", name, err)
		}
	}
	d, err := ReadFile(path, Options{Ignore: ignore})
	if err != nil || d.N != 1 || !slices.Equal(d.X, []float64{1, 12.34}) {
		t.Errorf("with the others ignored: %v", err)
	}
	d, err = ReadFile(path, Options{Ignore: ignore[2:], Numeric: []string{"day"}, Categorical: []string{"ts", "price"}})
	if err != nil || d.X[1] != 19724 || d.Schema.Features[2].Levels[0] != "2024-01-02T03:04:05" || d.Schema.Features[3].Levels[0] != "12.34" {
		t.Errorf("day numeric, ts and price categorical: %v", err)
	}
}

// TestDuckDBChunks reads a DuckDB file in chunks: one per row group, the
// rows of Read.
func TestDuckDBChunks(t *testing.T) {
	f, err := os.Open("testdata/duckdb/chunks.parquet")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var n int
	for d, err := range ReadChunks(f, "chunks", Options{}, 0) {
		if err != nil {
			t.Fatal(err)
		}
		for k := range d.N {
			i := n + k
			if d.X[2*k] != float64(i)/8 || d.X[2*k+1] != float64(i%7) || d.Schema.Target.Levels[int(d.Y[k])] != map[bool]string{true: "p", false: "q"}[i%3 == 0] || d.Source.Lines[k] != i+1 {
				t.Fatalf("row %d: %v %v", i, d.Row(k), d.Y[k])
			}
		}
		n += d.N
	}
	if n != 2500 {
		t.Errorf("%d rows", n)
	}
}
