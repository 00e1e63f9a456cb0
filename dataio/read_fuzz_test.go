package dataio

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"testing"

	"github.com/gendisc/gendisc/data"
)

// FuzzRead reads arbitrary input (every reader configuration must agree
// and nothing may panic); reads it again with the schema inferred, which
// must give the same Dataset; writes the Dataset back as CSV with
// encoding/csv, reads that again, and wants the same Dataset; reads it in
// chunks, and wants the same rows when the first chunk gave the columns
// the types that Read gives them.
func FuzzRead(f *testing.F) {
	for _, seed := range []string{
		"a,b,class\n1,x,yes\n2.5,y,no\n",
		"a;b\n1;2\n",
		"a\tb\n\"x\ty\"\t2\n",
		"\xef\xbb\xbfa,b\r\n1,\"q\"\"r\"\r\n,\r\n",
		"t,c\n\"one two three\nfour\",x\nhello there world,y\n",
		"a,b\n1,NA\n?,null\n1e3,-0\n007,x\n",
		"a,b\n1.50,p\nz,q\n",
		"a\n\n\n1\n",
		"a,b\ninf,x\n1e999,y\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := agree(t, func(cfg readConfig) (*data.Dataset, error) {
			return readInferred(bytes.NewReader(src), "fuzz", Options{}, cfg)
		})
		if err != nil {
			return
		}
		// The file read with its own schema is the same Dataset.
		s, err := ReadWithSchema(bytes.NewReader(src), "fuzz", d.Schema, SchemaOptions{RequireTarget: true})
		if err != nil {
			t.Fatalf("reading with the inferred schema: %v", err)
		}
		if diff := datasetDiff(d, s); diff != "" {
			t.Fatalf("read with the inferred schema differs: %s", diff)
		}
		out := writeCSV(t, d)
		e, err := Read(bytes.NewReader(out), "again", Options{Comma: ','})
		if err != nil {
			t.Fatalf("reading back %q: %v", out, err)
		}
		if diff := datasetDiff(d, e); diff != "" {
			t.Fatalf("read back %q differs: %s", out, diff)
		}
		chunks, err := readAllChunks(t, bytes.NewReader(src), Options{}, readConfig{chunk: 16, blocks: 2})
		if err == nil && sameColumns(chunks[len(chunks)-1].Schema, d.Schema) {
			if diff := datasetDiff(d, joinChunks(t, chunks, d.Schema)); diff != "" {
				t.Fatalf("read in %d chunks differs: %s", len(chunks), diff)
			}
		}
	})
}

// writeCSV writes d as CSV, the target last: numbers in shortest form,
// levels and text as they are, missing cells as NA.
func writeCSV(t *testing.T, d *data.Dataset) []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	cols := d.Schema.Features
	if d.Schema.Target != nil {
		cols = append(cols[:len(cols):len(cols)], *d.Schema.Target)
	}
	rec := make([]string, len(cols))
	for j, c := range cols {
		rec[j] = c.Name
	}
	w.Write(rec)
	cell := func(i, j int) float64 {
		if j < d.D() {
			return d.Row(i)[j]
		}
		return d.Y[i]
	}
	for i := range d.N {
		for j, c := range cols {
			switch x := cell(i, j); {
			case c.Kind == data.Text:
				rec[j] = d.Text[j][i]
				if rec[j] == "" {
					rec[j] = "NA"
				}
			case x != x:
				rec[j] = "NA"
			case c.Kind == data.Categorical:
				rec[j] = c.Levels[int(x)]
			default:
				rec[j] = strconv.FormatFloat(x, 'g', -1, 64)
			}
		}
		w.Write(rec)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
