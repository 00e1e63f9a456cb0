package dataio

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"
	"github.com/ulikunitz/xz"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/datasets"
)

// compressions compress b as each compression that Open removes, but
// bzip2, which Go cannot write (testdata/iris.csv.bz2 covers it).
var compressions = map[string]func(t testing.TB, b []byte) []byte{
	"gzip": func(t testing.TB, b []byte) []byte {
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		w.Write(b)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	},
	"zstd": func(t testing.TB, b []byte) []byte {
		w, err := zstd.NewWriter(nil)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		return w.EncodeAll(b, nil)
	},
	"xz": func(t testing.TB, b []byte) []byte {
		var buf bytes.Buffer
		w, err := xz.NewWriter(&buf)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(b)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	},
}

// encodings write d in each format that the readers read.
var encodings = map[string]func(t testing.TB, d *data.Dataset) []byte{
	"parquet": func(t testing.TB, d *data.Dataset) []byte {
		var buf bytes.Buffer
		if err := WriteParquet(&buf, d, ""); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	},
	"jsonl": func(t testing.TB, d *data.Dataset) []byte {
		var buf bytes.Buffer
		if err := WriteJSONLines(&buf, d, ""); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	},
}

// TestFormatsRoundTrip writes every bundled data set as Parquet and as
// JSON lines, and compresses its CSV text: each read back is the Dataset
// of the CSV, bit for bit, with the same schema; read with the CSV's
// schema as well, and in chunks.
func TestFormatsRoundTrip(t *testing.T) {
	for _, name := range datasets.Names() {
		t.Run(name, func(t *testing.T) {
			text := datasetBytes(t, name)
			want, err := Read(bytes.NewReader(text), name, Options{})
			if err != nil {
				t.Fatal(err)
			}
			inputs := map[string][]byte{}
			for format, enc := range encodings {
				inputs[format] = enc(t, want)
			}
			for comp, z := range compressions {
				inputs["csv."+comp] = z(t, text)
			}
			inputs["parquet.gzip"] = compressions["gzip"](t, inputs["parquet"])
			for what, b := range inputs {
				got, err := Read(bytes.NewReader(b), name, Options{})
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				if diff := datasetDiff(want, got); diff != "" {
					t.Fatalf("%s: %s", what, diff)
				}
				if len(got.Source.Warnings) != len(want.Source.Warnings) {
					t.Errorf("%s: warnings %v, want %v", what, got.Source.Warnings, want.Source.Warnings)
				}
				got, err = ReadWithSchema(bytes.NewReader(b), name, want.Schema, SchemaOptions{RequireTarget: true})
				if err != nil {
					t.Fatalf("%s with the schema: %v", what, err)
				}
				if diff := datasetDiff(want, got); diff != "" {
					t.Fatalf("%s with the schema: %s", what, diff)
				}
			}
		})
	}
}

// TestParquetChunks reads a Parquet file of several row groups with
// ReadChunks: one chunk per row group, positioned by row, together the
// Dataset of Read.
func TestParquetChunks(t *testing.T) {
	want, err := Read(bytes.NewReader(datasetBytes(t, "adult")), "adult", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func(n int) { parquetRowGroup = n }(parquetRowGroup)
	parquetRowGroup = 10000
	b := encodings["parquet"](t, want)
	chunks, err := readAllChunks(t, bytes.NewReader(b), Options{}, defaultConfig)
	if err != nil {
		t.Fatal(err)
	}
	if n := (want.N + parquetRowGroup - 1) / parquetRowGroup; len(chunks) != n {
		t.Fatalf("%d chunks, want %d (one per row group)", len(chunks), n)
	}
	got := joinChunks(t, chunks, chunks[len(chunks)-1].Schema)
	// The levels of later chunks are appended: compare by name.
	for i := range want.N {
		for j, c := range want.Schema.Features {
			a, b := want.X[i*want.D()+j], got.X[i*got.D()+j]
			if c.Kind == data.Categorical && a == a && b == b {
				if c.Levels[int(a)] != got.Schema.Features[j].Levels[int(b)] {
					t.Fatalf("row %d column %s: %s vs %s", i, c.Name, c.Levels[int(a)], got.Schema.Features[j].Levels[int(b)])
				}
			} else if !sameFloats([]float64{a}, []float64{b}) {
				t.Fatalf("row %d column %s: %v vs %v", i, c.Name, a, b)
			}
		}
	}
	if chunks[1].Source.Lines[0] != parquetRowGroup+1 || chunks[1].Source.RowGroups[1] != parquetRowGroup+1 {
		t.Errorf("second chunk: first row %d, row groups %v", chunks[1].Source.Lines[0], chunks[1].Source.RowGroups)
	}
	err = chunks[1].CellError(0, 0, errors.New("bad"))
	if want := `t.csv: row group 2, row 10001: column "age": bad`; err.Error() != want {
		t.Errorf("CellError = %q, want %q", err, want)
	}
}

// TestBzip2 reads a bzip2-compressed CSV file (made with bzip2 -9).
func TestBzip2(t *testing.T) {
	want, err := Read(bytes.NewReader(datasetBytes(t, "iris")), "iris", Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(filepath.Join("testdata", "iris.csv.bz2"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := datasetDiff(want, got); diff != "" {
		t.Fatal(diff)
	}
}

// TestCompressedErrors: errors in compressed text are positioned in the
// decompressed text; corrupt compressed data is an error.
func TestCompressedErrors(t *testing.T) {
	src := []byte("a,b,class\n1,2,x\n3,4,y\n5,\"6,z\n")
	for comp, z := range compressions {
		_, err := Read(bytes.NewReader(z(t, src)), "f", Options{})
		var pe *data.ParseError
		if !errors.As(err, &pe) || pe.Line != 4 || pe.Column != 2 || !errors.Is(err, data.ErrQuote) {
			t.Errorf("%s: error %v, want a bad quote at line 4, column 2", comp, err)
		}
		b := z(t, bytes.Repeat([]byte("a,b,class\n1,2,x\n"), 100))
		b[len(b)/2] ^= 0xff
		if _, err := Read(bytes.NewReader(b), "f", Options{}); err == nil {
			t.Errorf("%s: corrupt input read without error", comp)
		}
	}
}

// TestOpenFormats: what Open tells from the first bytes, and the message
// for binary files.
func TestOpenFormats(t *testing.T) {
	for _, c := range []struct {
		in, format, err string
	}{
		{"a,b\n1,2\n", "CSV", ""},
		{"\xef\xbb\xbf \n{\"a\":1}\n", "JSON lines", ""},
		{"PK\x03\x04\x14\x00\x06\x00[Content_Types].xml...xl/workbook.xml", "", "looks like an Excel workbook (.xlsx)"},
		{"PK\x03\x04\x14\x00\x00\x00a.csv", "", "looks like a ZIP archive"},
		{"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00", "", "an Excel .xls workbook"},
		{"%PDF-1.7\n", "", "looks like a PDF document"},
		{"ARROW1\x00\x00", "", "an Arrow IPC (Feather) file"},
		{"a,b\n1,\x00\n", "", "binary data of an unknown format"},
		{"\x04\x22\x4d\x18", "", "LZ4-compressed data"},
		{"PAR1", "", "not a readable Parquet file"},
	} {
		in, err := Open(strings.NewReader(c.in), "f")
		if err == nil && in.Format == Parquet {
			_, err = Read(strings.NewReader(c.in), "f", Options{})
		}
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%q: %v", c.in, err)
		case c.err == "" && in.Format.String() != c.format:
			t.Errorf("%q: format %v, want %s", c.in, in.Format, c.format)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: error %v, want one saying %q", c.in, err, c.err)
		case c.err != "" && c.format == "" && !strings.Contains(c.err, "Parquet") && !errors.Is(err, ErrFormat):
			t.Errorf("%q: error %v does not wrap ErrFormat", c.in, err)
		}
	}
	// A nested compression is refused.
	gz := compressions["gzip"]
	if _, err := Open(bytes.NewReader(gz(t, gz(t, []byte("a\n1\n")))), "f"); !errors.Is(err, ErrFormat) {
		t.Errorf("gzip in gzip: %v", err)
	}
}

// TestOpenSeeks: a file keeps its offset and its ability to seek, so that
// Read can read it again (numbers turned text).
func TestOpenSeeks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.csv")
	src := "a,class\n1.50,x\nz,y\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := ReadFile(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Schema.Features[0].Levels; got[0] != "1.50" {
		t.Errorf("levels %q, want 1.50 as written", got)
	}
	f, _ := os.Open(path)
	defer f.Close()
	in, err := Open(f, "f")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(in); string(b) != src {
		t.Errorf("read %q after Open", b)
	}
}

// TestCompressedSizing: a compressed file's decompressed size is
// estimated from the ratio so far (Input.expectedSize), to within a few
// percent once estimateAfter compressed bytes are read, so that the
// arrays are allocated once for the whole file (capacity at most 5% over
// the rows, where growing by a quarter at a time would leave up to 25%).
// Not xz: its Go writer takes a minute on these 20 MB, and the estimate
// does not depend on the compression.
func TestCompressedSizing(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("a,b,c,d,e,y\n")
	seed := uint64(1)
	for b.Len() < 5*estimateAfter {
		for j := range 6 {
			seed = seed*6364136223846793005 + 1442695040888963407
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatUint(seed>>40, 10))
		}
		b.WriteByte('\n')
	}
	raw := b.Bytes()
	for _, name := range []string{"gzip", "zstd"} {
		t.Run(name, func(t *testing.T) {
			z := compressions[name](t, raw)
			if 2*len(z)/3 < estimateAfter {
				t.Fatalf("%d compressed bytes, want at least %d", len(z), 3*estimateAfter/2)
			}
			in, err := Open(bytes.NewReader(z), "x")
			if err != nil {
				t.Fatal(err)
			}
			if got := in.expectedSize(); got != -1 {
				t.Errorf("expectedSize at the start = %d, want -1", got)
			}
			// Read two thirds of the text, then estimate the whole.
			if _, err := io.ReadFull(in, make([]byte, 2*len(raw)/3)); err != nil {
				t.Fatal(err)
			}
			if got := in.expectedSize(); math.Abs(float64(got)/float64(len(raw))-1) > 0.02 {
				t.Errorf("expectedSize = %d, want %d within 2%%", got, len(raw))
			}
			path := filepath.Join(t.TempDir(), "x.csv."+name)
			if err := os.WriteFile(path, z, 0o644); err != nil {
				t.Fatal(err)
			}
			d, err := ReadFile(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if over := float64(cap(d.X)) / float64(len(d.X)); over > 1.05 {
				t.Errorf("capacity of X is %.3f times its length, want at most 1.05", over)
			}
		})
	}
}

// TestParquetPlainNumbers reads required DOUBLE, INT64 and INT32 columns
// (their pages copied as they lie, not value by value) and an optional
// DOUBLE with nulls, over several row groups and pages: the Dataset is
// that of the same cells as CSV, a NaN and a null read as missing; an
// infinite number is refused naming its column and row.
func TestParquetPlainNumbers(t *testing.T) {
	type row struct {
		A float64  `parquet:"a"`
		B int64    `parquet:"b"`
		C int32    `parquet:"c"`
		D *float64 `parquet:"d,optional"`
		Y string   `parquet:"y"`
	}
	write := func(rows []row) []byte {
		var buf bytes.Buffer
		w := parquet.NewGenericWriter[row](&buf, parquet.MaxRowsPerRowGroup(700), parquet.PageBufferSize(512))
		if _, err := w.Write(rows); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	var rows []row
	var csv strings.Builder
	csv.WriteString("a,b,c,d,y\n")
	for i := range 2000 {
		r := row{A: float64(i)/7 - 100, B: int64(i)*1_000_003 - 5, C: int32(i%97) - 40, Y: []string{"p", "q"}[i%3%2]}
		a, d := strconv.FormatFloat(r.A, 'g', -1, 64), ""
		if i%13 == 5 {
			r.A, a = math.NaN(), ""
		}
		if i%11 != 3 {
			v := float64(i) * 0.25
			r.D, d = &v, strconv.FormatFloat(v, 'g', -1, 64)
		}
		rows = append(rows, r)
		fmt.Fprintf(&csv, "%s,%d,%d,%s,%s\n", a, r.B, r.C, d, r.Y)
	}
	opt := Options{Target: "y"}
	want, err := Read(strings.NewReader(csv.String()), "x.csv", opt)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Read(bytes.NewReader(write(rows)), "x.parquet", opt)
	if err != nil {
		t.Fatal(err)
	}
	if diff := datasetDiff(want, got); diff != "" {
		t.Fatal(diff)
	}
	rows[1234].A = math.Inf(-1)
	_, err = Read(bytes.NewReader(write(rows)), "x.parquet", opt)
	var pe *data.ParseError
	if !errors.As(err, &pe) || !errors.Is(err, data.ErrInfinite) || pe.ColumnName != "a" || pe.Line != 1235 {
		t.Fatalf("an infinite number: %v, want ErrInfinite at column a, row 1235", err)
	}
}
