package dataio

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
)

// chunkConfigs are the configurations the chunk tests read with: one
// chunk, chunks of a row or a few, several blocks per chunk.
var chunkConfigs = []readConfig{
	defaultConfig,
	{chunk: 1, blocks: 1},
	{chunk: 17, blocks: 1},
	{chunk: 64, blocks: 3},
	{chunk: 100, blocks: 1},
	{chunk: 1000, blocks: 7},
}

// readAllChunks reads src in chunks, checks that each chunk's levels
// start with those of the chunk before and that the schemas handed out
// are not changed later, and returns the chunks.
func readAllChunks(t *testing.T, in io.Reader, opt Options, cfg readConfig) ([]*data.Dataset, error) {
	t.Helper()
	var chunks []*data.Dataset
	var shown []string // the schemas as handed out
	asJSON := func(s *data.Schema) string {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for d, err := range readChunks(in, "t.csv", opt, cfg) {
		if err != nil {
			return chunks, err
		}
		if d.N == 0 || len(d.Source.Lines) != d.N || len(d.X) != d.N*d.D() {
			t.Fatalf("config %+v: chunk of %d rows, %d lines, %d cells", cfg, d.N, len(d.Source.Lines), len(d.X))
		}
		if len(chunks) > 0 {
			prev := chunks[len(chunks)-1].Schema
			for j, c := range d.Schema.Features {
				if !slices.Equal(c.Levels[:len(prev.Features[j].Levels)], prev.Features[j].Levels) {
					t.Fatalf("config %+v: levels %q after %q", cfg, c.Levels, prev.Features[j].Levels)
				}
			}
			if d.Schema == prev {
				t.Fatalf("config %+v: two chunks share a schema", cfg)
			}
		}
		chunks = append(chunks, d)
		shown = append(shown, asJSON(d.Schema))
	}
	for i, d := range chunks {
		if asJSON(d.Schema) != shown[i] {
			t.Fatalf("config %+v: schema of chunk %d changed to %+v after it was handed out", cfg, i, d.Schema)
		}
	}
	return chunks, nil
}

// joinChunks joins chunks into one Dataset encoded with the levels of
// schema s (which must hold every level of the chunks).
func joinChunks(t *testing.T, chunks []*data.Dataset, s *data.Schema) *data.Dataset {
	t.Helper()
	j := &data.Dataset{Schema: s, Source: data.Named("t.csv")}
	recode := func(v float64, c, to *data.Column) float64 {
		if v != v || c.Kind != data.Categorical {
			return v
		}
		return float64(to.Level(c.Levels[int(v)]))
	}
	for _, d := range chunks {
		for i := range d.N {
			for k, v := range d.Row(i) {
				j.X = append(j.X, recode(v, &d.Schema.Features[k], &s.Features[k]))
			}
			if d.Y != nil {
				j.Y = append(j.Y, recode(d.Y[i], d.Schema.Target, s.Target))
			}
		}
		if d.Text != nil && j.Text == nil {
			j.Text = make([][]string, d.D())
		}
		for k := range d.Text {
			if d.Text[k] != nil {
				j.Text[k] = append(j.Text[k], d.Text[k]...)
			}
		}
		j.Weight = append(j.Weight, d.Weight...)
		j.Source.Lines = append(j.Source.Lines, d.Source.Lines...)
		j.N += d.N
	}
	return j
}

// sameColumns reports whether the last chunk's schema s has the columns of
// Read's schema r: their kinds, levels in any order, and Integral.
func sameColumns(s, r *data.Schema) bool {
	same := func(a, b *data.Column) bool {
		return a.Name == b.Name && a.Kind == b.Kind && a.Integral == b.Integral &&
			slices.Equal(slices.Sorted(slices.Values(a.Levels)), slices.Sorted(slices.Values(b.Levels)))
	}
	if len(s.Features) != len(r.Features) || (s.Target == nil) != (r.Target == nil) || s.Target != nil && !same(s.Target, r.Target) {
		return false
	}
	for j := range s.Features {
		if !same(&s.Features[j], &r.Features[j]) {
			return false
		}
	}
	return true
}

// chunksMatchRead checks that the chunks of src hold the rows, values and
// lines of Read's Dataset, with the same levels (in order of appearance),
// whatever the configuration.
func chunksMatchRead(t *testing.T, src string, opt Options) {
	t.Helper()
	want, err := Read(strings.NewReader(src), "t.csv", opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, cfg := range chunkConfigs {
		chunks, err := readAllChunks(t, strings.NewReader(src), opt, cfg)
		if err != nil {
			t.Fatalf("config %+v: %v", cfg, err)
		}
		if cfg.chunk < 100 && len(chunks) < 2 {
			t.Errorf("config %+v: %d chunks", cfg, len(chunks))
		}
		if last := chunks[len(chunks)-1].Schema; !sameColumns(last, want.Schema) {
			t.Errorf("config %+v: last chunk's schema %+v, Read's %+v", cfg, last, want.Schema)
		}
		got := joinChunks(t, chunks, want.Schema)
		if diff := datasetDiff(want, got); diff != "" || !slices.Equal(got.Source.Lines, want.Source.Lines) {
			t.Errorf("config %+v (%d chunks): rows differ from Read's: %s\nlines %v\nwant  %v", cfg, len(chunks), diff, got.Source.Lines, want.Source.Lines)
		}
	}
}

// TestReadChunksFormats checks the chunks of a file against Read, with
// each delimiter: a byte order mark, blank lines, CRLF line ends, quoted
// fields holding delimiters, quotes and line ends, a class and a category
// that appear late, a text column and row weights.
func TestReadChunksFormats(t *testing.T) {
	for _, sep := range []string{",", "\t", ";"} {
		var b strings.Builder
		b.WriteString("\xef\xbb\xbf\r\n\"x\"" + sep + "colour" + sep + "note" + sep + "w" + sep + "\"the\nclass\"\r\n")
		for i := range 60 {
			class := []string{`"a, ""quoted"" one"`, "b", "\"two\r\nlines\""}[min(i/20, 2)]
			colour := []string{"red", "green", `"blue,ish"`, "\"a\tb;c\""}[i%4]
			if i >= 45 {
				colour = "violet"
			}
			note := fmt.Sprintf("\"row %d says, well, %d\"", i, i%3)
			fmt.Fprintf(&b, "%d.5%s%s%s%s%s%d%s%s\r\n", i, sep, colour, sep, note, sep, i%4, sep, class)
			if i%7 == 0 {
				b.WriteString("\r\n\n")
			}
		}
		t.Run(fmt.Sprintf("%q", sep), func(t *testing.T) {
			chunksMatchRead(t, b.String(), Options{Weight: "w"})
		})
	}
}

// TestReadChunksDatasets checks the chunks of bundled data sets against
// Read.
func TestReadChunksDatasets(t *testing.T) {
	for _, name := range []string{"iris", "wine"} {
		t.Run(name, func(t *testing.T) { chunksMatchRead(t, string(datasetBytes(t, name)), Options{}) })
	}
}

// TestReadChunksTypes checks that the first chunk fixes the types: a
// numeric column must hold numbers later, and Integral follows the
// numbers read so far; a column that turns into strings in the first
// chunk is read again when the input can seek, as Read does.
func TestReadChunksTypes(t *testing.T) {
	chunks, err := readAllChunks(t, strings.NewReader("a,b,y\n1,x,p\n2,y,q\n3.5,z,p\n4,x,p\n"), Options{}, readConfig{chunk: 8, blocks: 1})
	if err != nil {
		t.Fatal(err)
	}
	var integral []bool
	var ranges []data.Range
	for _, d := range chunks {
		integral = append(integral, d.Schema.Features[0].Integral)
		ranges = append(ranges, *d.Schema.Features[0].Range)
	}
	if !slices.Equal(integral, []bool{true, true, false, false}) {
		t.Errorf("Integral of the chunks %v", integral)
	}
	// The range of the rows read so far.
	if want := []data.Range{{Min: 1, Max: 1}, {Min: 1, Max: 2}, {Min: 1, Max: 3.5}, {Min: 1, Max: 4}}; !slices.Equal(ranges, want) {
		t.Errorf("Range of the chunks %v, want %v", ranges, want)
	}
	src := "a,b,y\n1,1.50,p\n2,z,q\n3,4,p\n"
	for _, in := range []io.Reader{strings.NewReader(src), nonSeeker{strings.NewReader(src)}} {
		chunks, err := readAllChunks(t, in, Options{}, readConfig{chunk: 16, blocks: 1})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"1.50", "z", "4"}
		if _, ok := in.(nonSeeker); ok {
			want[0] = "1.5"
		}
		if got := chunks[len(chunks)-1].Schema.Features[1].Levels; !slices.Equal(got, want) {
			t.Errorf("%T: levels %q, want %q", in, got, want)
		}
	}
}

// TestReadChunksErrors checks errors in a later chunk, positioned on the
// lines of the file, and errors before the first rows (with chunks
// smaller than the input).
func TestReadChunksErrors(t *testing.T) {
	rows := func(n int, bad string, at int) string {
		var b strings.Builder
		b.WriteString("a,b,class\n\n")
		for i := range n {
			v := fmt.Sprint(i % 7)
			if i == at {
				v = bad
			}
			fmt.Fprintf(&b, "%d,%s,%c\n", i, v, 'x'+i%2)
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, src string
		want      string
		is        error
	}{
		{"word in a numeric column", rows(100, "seven", 80), `t.csv:83:2: column "b": not a number: "seven"`, data.ErrNotNumber},
		{"infinity", rows(100, "1e999", 60), "t.csv:63:2", data.ErrInfinite},
		{"ragged row", rows(100, "1,2", 90), "t.csv:93:4: wrong number of fields: line 93 has 4 fields, the header has 3", data.ErrFieldCount},
		{"bad quote", rows(100, `1"`, 70), "t.csv:73:2", data.ErrQuote},
		{"empty", "", "t.csv: empty file", data.ErrEmpty},
		{"header only", "a,b\n\n", "t.csv:1: no data rows after the header", data.ErrNoRows},
		{"no target", rows(3, "1", 0), `column "label"`, data.ErrNoColumn},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := Options{}
			if tc.is == data.ErrNoColumn {
				opt.Target = "label"
			}
			for _, cfg := range chunkConfigs[1:5] {
				n := 0
				var err error
				for _, err = range readChunks(strings.NewReader(tc.src), "t.csv", opt, cfg) {
					n++
					if err != nil {
						break
					}
				}
				var pe *data.ParseError
				if !errors.As(err, &pe) || !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("config %+v: error %v, want %q (%v)", cfg, err, tc.want, tc.is)
				}
				if cfg.chunk == 64 && tc.is != data.ErrEmpty && tc.is != data.ErrNoRows && tc.is != data.ErrNoColumn && n < 3 {
					t.Errorf("config %+v: the error came after %d chunks", cfg, n-1)
				}
			}
		})
	}
}

// TestReadChunksBreak checks that a loop over the chunks may stop early
// and that every chunk is a Dataset of its own.
func TestReadChunksBreak(t *testing.T) {
	var b strings.Builder
	b.WriteString("a,y\n")
	for i := range 1000 {
		fmt.Fprintf(&b, "%d,%d\n", i, i%3)
	}
	var first *data.Dataset
	n := 0
	for d, err := range readChunks(strings.NewReader(b.String()), "t.csv", Options{}, readConfig{chunk: 100, blocks: 2}) {
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = d
		}
		if n++; n == 5 {
			break
		}
	}
	if first.X[0] != 0 || first.Source.Lines[0] != 2 || math.IsNaN(first.Y[0]) {
		t.Errorf("first chunk changed: X %v, Lines %v", first.X, first.Source.Lines)
	}
}

// TestReadChunksSize checks that ReadChunks reads chunks of about the
// size asked for, into arrays sized for the chunk (not for the whole
// input, whose size a strings.Reader tells).
func TestReadChunksSize(t *testing.T) {
	var b strings.Builder
	b.WriteString("a,b,y\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "%d,%d.25,c%d\n", i, i%100, i%4)
	}
	n, rows := 0, 0
	for d, err := range ReadChunks(strings.NewReader(b.String()), "t.csv", Options{}, 64<<10) {
		if err != nil {
			t.Fatal(err)
		}
		if d.N > 64<<10/8 || cap(d.X) > 2*len(d.X) || cap(d.Source.Lines) > 2*d.N {
			t.Errorf("chunk %d holds %d rows, capacity %d cells and %d lines", n, d.N, cap(d.X), cap(d.Source.Lines))
		}
		n, rows = n+1, rows+d.N
	}
	if rows != 20000 || n < b.Len()/(64<<10) {
		t.Errorf("%d rows in %d chunks", rows, n)
	}
}
