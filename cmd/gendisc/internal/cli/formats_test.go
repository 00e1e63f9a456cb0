package cli

import (
	"bytes"
	"compress/gzip"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
)

// TestFormatsAsANewUser exports bundled data sets as CSV, gzip-compressed
// CSV, Parquet and JSON lines; a model fitted from each is the same file,
// its predictions written as Parquet read back as those written as CSV;
// score, sample, balance and impute write Parquet that reads back as
// their CSV output.
func TestFormatsAsANewUser(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	for _, f := range []string{"iris.csv", "iris.parquet", "iris.jsonl"} {
		mustRun(t, "datasets", "export", "iris", "--out", p(f))
	}
	mustRun(t, "datasets", "export", "iris", "--format", "parquet", "--out", p("iris.bin"))
	csvText, err := os.ReadFile(p("iris.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(csvText)
	zw.Close()
	if err := os.WriteFile(p("iris.csv.gz"), gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var first []byte
	for _, f := range []string{"iris.csv", "iris.csv.gz", "iris.parquet", "iris.bin", "iris.jsonl"} {
		mustRun(t, "fit", "--data", p(f), "--model", "gaussian-nb", "--out", p(f+".json"))
		m, err := os.ReadFile(p(f + ".json"))
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = m
		} else if !bytes.Equal(m, first) {
			t.Errorf("the model fitted from %s differs from the one fitted from iris.csv", f)
		}
	}
	model := p("iris.csv.json")
	for _, c := range [][]string{
		{"predict", "--model", model, "--data", p("iris.parquet")},
		{"score", "--model", model, "--data", p("iris.jsonl")},
		{"sample", "--model", model, "-n", "50", "--seed", "3"},
		{"balance", "--kind", "nb", "--data", p("iris.csv.gz"), "--ratio", "1", "--seed", "3"},
		{"impute", "--kind", "gaussian-nb", "--data", p("iris.parquet")},
	} {
		mustRun(t, append(c, "--out", p(c[0]+".csv"))...)
		mustRun(t, append(c, "--out", p(c[0]+".parquet"))...)
		want, err := dataio.ReadFile(p(c[0]+".csv"), dataio.Options{NoTarget: true})
		if err != nil {
			t.Fatal(err)
		}
		got, err := dataio.ReadFile(p(c[0]+".parquet"), dataio.Options{NoTarget: true})
		if err != nil {
			t.Fatal(err)
		}
		if !got.Schema.Equal(want.Schema) || got.N != want.N || !sameBits(got.X, want.X) {
			t.Errorf("%s: the Parquet output differs from the CSV output", c[0])
		}
		if c[0] == "predict" && got.Schema.Features[0].Kind != data.Categorical {
			t.Errorf("predict: the prediction column read back as %v", got.Schema.Features[0].Kind)
		}
	}
}

func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && (a[i] == a[i] || b[i] == b[i]) {
			return false
		}
	}
	return true
}

// TestBinaryInput: a file that gendisc cannot read is named for what it
// looks like; split reads compressed CSV and refuses Parquet.
func TestBinaryInput(t *testing.T) {
	dir := t.TempDir()
	zip := filepath.Join(dir, "book.xlsx")
	if err := os.WriteFile(zip, []byte("PK\x03\x04\x14\x00\x06\x00\x08\x00[Content_Types].xml xl/workbook.xml"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "", "fit", "--data", zip, "--model", "nb")
	if r.code != 1 || !strings.Contains(r.stderr, "looks like an Excel workbook") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	pq := filepath.Join(dir, "iris.parquet")
	mustRun(t, "datasets", "export", "iris", "--out", pq)
	r = runCLI(t, "", "split", "--data", pq, "--train", filepath.Join(dir, "a.csv"), "--test-out", filepath.Join(dir, "b.csv"))
	if r.code != 1 || !strings.Contains(r.stderr, "a Parquet file: split reads CSV") {
		t.Errorf("split of Parquet: exit %d, stderr %q", r.code, r.stderr)
	}
	r = runCLI(t, "", "datasets", "export", "nosuch", "--out", pq)
	if r.code != 2 {
		t.Errorf("export of an unknown data set: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestFormatFlag: --format parquet writes Parquet to standard output and
// to a file of any name; --format csv writes CSV to a .parquet file; a
// bad --format is a misuse.
func TestFormatFlag(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	mustRun(t, "fit", "--data", "iris", "--model", "gaussian-nb", "--out", model)
	for _, c := range [][]string{
		{"predict", "--model", model, "--data", "iris"},
		{"sample", "--model", model, "-n", "20"},
	} {
		out := mustRun(t, append(c, "--format", "parquet")...)
		if !strings.HasPrefix(out, "PAR1") || !strings.HasSuffix(out, "PAR1") {
			t.Errorf("%s --format parquet: %q...", c[0], out[:min(20, len(out))])
		}
		if _, err := dataio.Read(strings.NewReader(out), "stdout", dataio.Options{NoTarget: true}); err != nil {
			t.Errorf("%s --format parquet: %v", c[0], err)
		}
		path := filepath.Join(dir, c[0]+".parquet")
		mustRun(t, append(c, "--format", "csv", "--out", path)...)
		if b, _ := os.ReadFile(path); bytes.HasPrefix(b, []byte("PAR1")) {
			t.Errorf("%s --format csv --out x.parquet wrote Parquet", c[0])
		}
	}
	if r := runCLI(t, "", "predict", "--model", model, "--data", "iris", "--format", "xlsx"); r.code != 2 {
		t.Errorf("--format xlsx: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestOutputExtensions: predict, sample, split and datasets export
// write the format their file's extension names, compressed by .gz and
// .zst (each file read back holds the cells of the CSV output), and
// refuse an extension they do not know, or a compressed Parquet file, as
// a misuse that writes nothing.
func TestOutputExtensions(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	mustRun(t, "fit", "--data", "iris", "--model", "gaussian-nb", "--out", model)
	path := func(name string) string { return filepath.Join(dir, name) }
	cases := [][]string{
		{"predict", "--model", model, "--data", "iris", "--out"},
		{"sample", "--model", model, "-n", "30", "--seed", "2", "--out"},
		{"datasets", "export", "wine", "--out"},
	}
	for _, c := range cases {
		base := path(c[0] + ".csv")
		mustRun(t, append(c, base)...)
		want, err := dataio.ReadFile(base, dataio.Options{NoTarget: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, ext := range []string{".tsv", ".jsonl", ".json", ".parquet", ".csv.gz", ".tsv.zst", ".jsonl.gz", ""} {
			p := path(c[0] + "-x" + ext)
			mustRun(t, append(c, p)...)
			got, err := dataio.ReadFile(p, dataio.Options{NoTarget: true})
			if err != nil {
				t.Errorf("%s to %s: %v", c[0], ext, err)
				continue
			}
			if got.N != want.N || len(got.Schema.Features) != len(want.Schema.Features) {
				t.Errorf("%s to %q: %d rows of %d columns, want %d of %d", c[0], ext, got.N, len(got.Schema.Features), want.N, len(want.Schema.Features))
				continue
			}
			for i := range want.N {
				for j, col := range want.Schema.Features {
					if g, w := cellText(got, i, j), cellText(want, i, j); g != w {
						t.Fatalf("%s to %q: row %d, column %s: %q, want %q", c[0], ext, i, col.Name, g, w)
					}
				}
			}
			b, _ := os.ReadFile(p)
			compressed := bytes.HasPrefix(b, []byte{0x1f, 0x8b}) || bytes.HasPrefix(b, []byte{0x28, 0xb5, 0x2f, 0xfd})
			if compressed != (strings.HasSuffix(ext, ".gz") || strings.HasSuffix(ext, ".zst")) {
				t.Errorf("%s to %q: compressed %v", c[0], ext, compressed)
			}
		}
		for _, bad := range []string{"x.xlsx", "x.txt", "x.parquet.gz"} {
			if r := runCLI(t, "", append(c, path(bad))...); r.code != 2 || !strings.Contains(r.stderr, ".csv, .tsv") && !strings.Contains(r.stderr, "compressed inside") {
				t.Errorf("%s --out %s: exit %d, stderr %q", c[0], bad, r.code, r.stderr)
			}
			if _, err := os.Stat(path(bad)); err == nil {
				t.Errorf("%s --out %s wrote the file", c[0], bad)
			}
		}
	}
	mustRun(t, "split", "--data", "iris", "--test", "0.2", "--train", path("tr.tsv.gz"), "--test-out", path("te.parquet"))
	tr, err := dataio.ReadFile(path("tr.tsv.gz"), dataio.Options{})
	if err != nil || tr.N != 120 {
		t.Errorf("split to .tsv.gz: %v", err)
	}
	if r := runCLI(t, "", "split", "--data", "iris", "--test", "0.2", "--train", path("tr.xlsx"), "--test-out", path("te.csv")); r.code != 2 {
		t.Errorf("split --train tr.xlsx: exit %d", r.code)
	}
}

// cellText returns the cell of row i and feature j of d as text: a
// category's level, a number in its shortest form, "" for a missing cell.
func cellText(d *data.Dataset, i, j int) string {
	c := d.Schema.Features[j]
	switch c.Kind {
	case data.Text:
		return d.Text[j][i]
	case data.Categorical:
		if v := d.Row(i)[j]; !math.IsNaN(v) {
			return c.Levels[int(v)]
		}
		return ""
	}
	if v := d.Row(i)[j]; !math.IsNaN(v) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return ""
}
