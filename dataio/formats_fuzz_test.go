package dataio

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
)

// FuzzParquet reads arbitrary bytes as Parquet, seeded with files that
// WriteParquet and DuckDB wrote: an error or a Dataset, never a panic; a
// Dataset read is read again the same with its own schema. A date or
// time column named neither numeric nor categorical is named numeric,
// and the next one categorical, and so on, so that both readings run.
func FuzzParquet(f *testing.F) {
	d, err := Read(bytes.NewReader([]byte("a,b,t,class\n1,x,one two three,p\n2.5,,four five six,q\n,y,,p\n")), "seed", Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(encodings["parquet"](f, d))
	for _, name := range []string{"types", "refused", "chunks", "lz4", "logical"} {
		b, err := os.ReadFile("testdata/duckdb/" + name + ".parquet")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) < 4 || string(src[:4]) != "PAR1" {
			src = append([]byte("PAR1"), src...)
		}
		var opt Options
		d, err := Read(bytes.NewReader(src), "fuzz", opt)
		for k := 0; err != nil && k < 16; k++ {
			// A date or time named neither way: named numeric and
			// categorical in turn.
			var pe *data.ParseError
			if !errors.As(err, &pe) || !strings.HasSuffix(err.Error(), namedRemedy) {
				return
			}
			if k%2 == 0 {
				opt.Numeric = append(opt.Numeric, pe.ColumnName)
			} else {
				opt.Categorical = append(opt.Categorical, pe.ColumnName)
			}
			d, err = Read(bytes.NewReader(src), "fuzz", opt)
		}
		if err != nil {
			return
		}
		s, err := ReadWithSchema(bytes.NewReader(src), "fuzz", d.Schema, SchemaOptions{RequireTarget: true})
		if err != nil {
			t.Fatalf("reading with the inferred schema: %v", err)
		}
		if diff := datasetDiff(d, s); diff != "" {
			t.Fatalf("read with the inferred schema differs: %s", diff)
		}
	})
}

// FuzzJSONLines reads arbitrary JSON lines: an error or a Dataset, never a
// panic; a Dataset read is written as JSON lines and read back the same.
func FuzzJSONLines(f *testing.F) {
	for _, seed := range []string{
		`{"a":1,"b":"x","class":"p"}` + "\n" + `{"a":2.5,"b":null,"class":"q"}` + "\n",
		`{"a":1}` + "\n\n" + `{"b":true,"a":"NA"}` + "\r\n",
		`{"a":1e400,"c":"one two three four"}`,
		`{"a":[1],"b":{}}`,
		`{"a":1,"a":2}`,
		"\xef\xbb\xbf{\"x\":\"\\u00e9\",\"y\":-0}\n{\"x\":\"z\",\"y\":7}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := Read(bytes.NewReader(src), "fuzz", Options{})
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteJSONLines(&out, d, ""); err != nil {
			t.Fatal(err)
		}
		e, err := Read(bytes.NewReader(out.Bytes()), "again", Options{})
		if err != nil {
			t.Fatalf("reading back %q: %v", out.Bytes(), err)
		}
		if diff := datasetDiff(d, e); diff != "" && d.Text == nil {
			t.Fatalf("read back %q differs: %s", out.Bytes(), diff)
		}
	})
}

// FuzzOpen tells the format of arbitrary bytes and reads what it
// decompresses: an error or bytes, never a panic.
func FuzzOpen(f *testing.F) {
	text := []byte("a,b\n1,2\n")
	for _, z := range compressions {
		f.Add(z(f, text))
	}
	bz, err := os.ReadFile("testdata/iris.csv.bz2")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(bz)
	f.Add([]byte("PK\x03\x04xl/"))
	f.Add([]byte("{\"a\":1}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		in, err := Open(bytes.NewReader(src), "fuzz")
		if err != nil {
			return
		}
		io.Copy(io.Discard, io.LimitReader(in, 1<<24))
	})
}
