package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gendisc/gendisc/data"
)

// The fuzz targets of the request decoders run over their seeds in go
// test; to search further:
//
//	go test -fuzz FuzzScanner -fuzztime 60s ./server
//	go test -fuzz FuzzInstances -fuzztime 60s ./server
//	go test -fuzz FuzzInfer -fuzztime 60s ./server

// bodySeeds are request bodies, good and bad, for the fuzz targets.
var bodySeeds = []string{
	`{"instances":[[1,2,3,4],[3.5,-4e-3,0,1E2]]}`,
	`{"instances":[{"sepallength":1,"sepalwidth":2,"petallength":3,"petalwidth":4}]}`,
	` {"instances" : [ { "petalwidth" : 1 , "sepalwidth" : 2, "petallength": 3, "sepallength": 4 } ] }` + "\n",
	`{"instances":[{"handicapped-infants":"y","crime":null}]}`,
	`{"instances":[["free entry \u00e9 \ud83d\ude00"]]}`,
	`{"instances":[]}`, `{"instances":null}`, `{}`, `[]`, `{"instances":[1,2]}`, `{"instances":[[1,2,3]]}`,
	`{"instances":[{"sepallength":1,"sepallength":2}]}`, `{"instances":[[1,2,3,1e400]]}`, `{"instances":[["a",2,3,4]]}`,
	`{"instances":[[1,2,3,4]],"x":1}`, `{"instances":[[1,2,3,4]]}x`, `{"instances":[[01,2,3,4]]}`, `{"instances":[[1.,2,3,4]]}`,
	`{"instances":[[[[[[1]]]]]]}`, "{\"instances\":[[\"\xff\"]]}", `{"instances":[["\ud800"]]}`, `{"instances":[[true,false,null,1]]}`,
	`{"inputs":[{"name":"x","shape":[2,4],"datatype":"FP64","data":[1,2,3,4,5,6,7,8]}]}`,
	` { "id" : "a-1" , "inputs" : [ { "data" : [ [ 1.5e3 , -0.25 , 0 , 4E-2 ] , [5,6,7,8] ] , "shape" : [ 2 , 4 ] , "name" : "x", "datatype" : "FP64" } ] } `,
	`{"inputs":[{"name":"sepallength","shape":[2],"datatype":"FP64","data":[1,2]},{"name":"sepalwidth","shape":[2],"datatype":"INT64","data":[3,4]},` +
		`{"name":"petallength","shape":[2,1],"datatype":"FP32","data":[[3],[4]]},{"name":"petalwidth","shape":[2],"datatype":"BOOL","data":[true,false]}]}`,
	`{"inputs":[{"name":"crime","shape":[1],"datatype":"BYTES","data":["y"]}],"outputs":[{"name":"proba"}],"parameters":{"a":[1,{"b":null}]}}`,
	`{"inputs":[{"name":"x","shape":[80000000000,4],"datatype":"FP64","data":[1,2,3,4]}]}`,
	`{"inputs":[{"name":"x","shape":[1,3],"datatype":"FP64","data":[1,2,3]}]}`,
	`{"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[1,2,3,4],"parameters":{"binary_data_size":16}}]}`,
	`{"inputs":[{"name":"x","name":"y","shape":[1,4],"datatype":"FP64","data":[1,2,3,4]}]}`,
	`{"inputs":[{"name":"x","shape":[1.0,4],"datatype":"FP64","data":[1,2,3,4]}]}`,
	`{"inputs":[{"name":"x","shape":[-1,4],"datatype":"FP64","data":[1,2,3,4]}]}`,
	`{"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[1,2,3,"a"]}]}`,
	`{"parameters":{"a":1,"\u0061":2}}`, `{"id":"\u00e9\n\"","inputs":[]}`, `"x"`, `1`, `null`, `{"a":`, `[1,2`,
}

// FuzzScanner checks the scanner against encoding/json: what it takes is
// JSON (json.Valid), and JSON it refuses is only JSON that it refuses on
// purpose: invalid UTF-8, lone surrogates, a key twice in an object,
// values nested deeper than maxDepth, an object of more than maxMembers
// keys.
func FuzzScanner(f *testing.F) {
	for _, b := range bodySeeds {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s := &scanner{b: b}
		s.skip()
		s.end()
		valid := json.Valid(b)
		if s.err == nil && !valid {
			t.Fatalf("%q: taken, but not JSON", b)
		}
		if s.err != nil && valid && strictJSON(b) {
			t.Fatalf("%q: refused (%v), but JSON", b, s.err)
		}
		if _, ok := s.err.(*jsonError); s.err != nil && !ok {
			t.Fatalf("%q: %T %v, want a *jsonError", b, s.err, s.err)
		}
	})
}

// strictJSON reports whether the JSON b has none of what the scanner
// refuses on purpose: invalid UTF-8 or an escaped surrogate, a key twice
// in an object, nesting deeper than maxDepth, more than maxMembers keys.
func strictJSON(b []byte) bool {
	if !utf8.Valid(b) || bytes.Contains(bytes.ToLower(b), []byte(`\ud`)) {
		return false // escapes of surrogates, paired or not, are left out
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	type frame struct {
		object bool
		keys   map[string]bool
		key    bool // the next string is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return true
		}
		if err != nil || len(stack) > maxDepth {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			if top != nil && top.object {
				top.key = true
			}
			stack = append(stack, &frame{object: tok == json.Delim('{'), keys: map[string]bool{}, key: true})
			if len(stack) > maxDepth {
				return false
			}
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1].object {
				stack[len(stack)-1].key = true
			}
			continue
		}
		if top != nil && top.object {
			if top.key {
				k := tok.(string)
				if top.keys[k] || len(top.keys) == maxMembers {
					return false
				}
				top.keys[k] = true
			}
			top.key = !top.key
		}
	}
}

// fuzzSchemas are the schemas the fuzz targets read rows with: numeric
// (iris), categorical (votes) and text (sms).
func fuzzSchemas(f *testing.F) []*data.Schema {
	s := newServer(f, testOptions())
	var out []*data.Schema
	for _, name := range []string{"iris", "votes", "sms"} {
		out = append(out, s.model(name).model.Schema())
	}
	return out
}

// FuzzInstances checks the rows endpoint's decoder against encoding/json
// and data.Schema.Rows, the oracle: the rows it reads are the oracle's,
// bit for bit; it never panics, and the rows it makes room for take at
// most four times the body (8 bytes a cell, each taking two bytes or
// more of the body).
func FuzzInstances(f *testing.F) {
	for _, b := range bodySeeds {
		f.Add([]byte(b))
	}
	schemas := fuzzSchemas(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, schema := range schemas {
			tab := newTable(schema, false)
			err := tab.instances(b, 1000)
			if D := len(schema.Features); cap(tab.d.X) > len(b)/2+D {
				t.Fatalf("%q: room for %d cells of %d features, a body of %d bytes", b, cap(tab.d.X), D, len(b))
			}
			if err != nil {
				continue
			}
			want, err := oracleInstances(b, schema)
			if err != nil {
				t.Fatalf("%q: read, but the oracle says %v", b, err)
			}
			if !sameRows(&tab.d, want) {
				t.Fatalf("%q: %+v, the oracle %+v", b, tab.d, *want)
			}
		}
	})
}

// oracleInstances reads {"instances": [...]} as the server did before its
// scanner: encoding/json, then data.Schema.Rows of the records.
func oracleInstances(b []byte, schema *data.Schema) (*data.Dataset, error) {
	var req struct {
		Instances []any `json:"instances"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(&req); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more after the object")
	}
	recs := make([]map[string]any, len(req.Instances))
	for i, inst := range req.Instances {
		switch v := inst.(type) {
		case map[string]any:
			recs[i] = v
		case []any:
			if len(v) != len(schema.Features) {
				return nil, errors.New("an array of another length")
			}
			recs[i] = map[string]any{}
			for j, x := range v {
				recs[i][schema.Features[j].Name] = x
			}
		default:
			return nil, errors.New("neither an object nor an array")
		}
	}
	return schema.Rows(recs)
}

// sameRows reports whether two data sets hold the same rows, bit for bit.
func sameRows(a, b *data.Dataset) bool {
	same := func(x, y []float64) bool {
		return slices.EqualFunc(x, y, func(u, v float64) bool { return math.Float64bits(u) == math.Float64bits(v) })
	}
	text := func(t [][]string, j int) []string {
		if t == nil {
			return nil
		}
		return t[j]
	}
	for j := range a.Schema.Features {
		if !slices.Equal(text(a.Text, j), text(b.Text, j)) && a.N > 0 {
			return false
		}
	}
	unseen := func(u []int) []int {
		if slices.ContainsFunc(u, func(n int) bool { return n > 0 }) {
			return u
		}
		return nil
	}
	return a.N == b.N && same(a.X, b.X) && same(a.Y, b.Y) && slices.Equal(unseen(a.Source.Unseen), unseen(b.Source.Unseen))
}

// FuzzInfer checks the v2 decoder: it never panics, it takes only JSON,
// the rows it makes room for take at most four times the body, and the
// numbers of a request of numeric tensors are encoding/json's.
func FuzzInfer(f *testing.F) {
	for _, b := range bodySeeds {
		f.Add([]byte(b))
	}
	opt := testOptions()
	opt.MaxRows = 1000
	s := newServer(f, opt)
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, name := range []string{"iris", "votes", "sms"} {
			e := s.model(name)
			D := len(e.model.Schema().Features)
			_, d, err := s.readInfer(b, e)
			if err != nil {
				continue
			}
			if !json.Valid(b) {
				t.Fatalf("%q: read, but not JSON", b)
			}
			if cap(d.X) > len(b)/2+D {
				t.Fatalf("%q: room for %d cells of %d features, a body of %d bytes", b, cap(d.X), D, len(b))
			}
			if want, ok := oracleNumbers(b, d); ok && !sameRows(d, want) {
				t.Fatalf("%q: %v, encoding/json reads %v", b, d.X, want.X)
			}
		}
	})
}

// oracleNumbers reads the numbers of a request of FP64 tensors with
// encoding/json into the rows of d's schema, as the tensors lay them
// out: false for another request.
func oracleNumbers(b []byte, d *data.Dataset) (*data.Dataset, bool) {
	var req struct {
		Inputs []struct {
			Name     string
			Shape    []int
			Datatype string
			Data     []float64
		}
	}
	if json.Unmarshal(b, &req) != nil || len(req.Inputs) == 0 {
		return nil, false
	}
	D := len(d.Schema.Features)
	want := &data.Dataset{Schema: d.Schema, N: d.N, X: make([]float64, d.N*D), Text: d.Text, Source: data.Provenance{Unseen: d.Source.Unseen}}
	for _, in := range req.Inputs {
		if in.Datatype != "FP64" {
			return nil, false
		}
		if j := d.Schema.Feature(in.Name); j >= 0 && (len(in.Shape) == 1 || D == 1) {
			for i, x := range in.Data {
				want.X[i*D+j] = x
			}
		} else {
			copy(want.X, in.Data)
		}
	}
	return want, true
}

// TestExactFloat checks that the fast reading of numbers reads every
// number as strconv.ParseFloat does, bit for bit.
func TestExactFloat(t *testing.T) {
	nums := []string{"0", "-0", "0.0", "-0.0", "1", "-1", "5.1", "0.05", "100", "1e22", "1e23", "1E-22", "1e-23",
		"123456789012345", "1234567890123456", "0.000000000000000000001", "9007199254740993", "4.35", "1.7976931348623157e308",
		"5e-324", "1e400", "2.5E+3", "0e5", "3.14159265358979", "0.1", "0.2", "0.3"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		x := math.Float64frombits(r.Uint64())
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		nums = append(nums, strconv.FormatFloat(x, 'g', -1, 64), strconv.FormatFloat(x, 'f', r.IntN(8), 64),
			strconv.FormatFloat(r.NormFloat64()*math.Pow(10, float64(r.IntN(30)-15)), 'g', r.IntN(17)+1, 64))
	}
	for _, n := range nums {
		s := &scanner{b: []byte(n)}
		num, _ := s.number()
		s.end()
		want, _ := strconv.ParseFloat(n, 64)
		if got, ok := exactFloat(num); s.err != nil || ok && math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("%s: %v %v, want %v", n, got, s.err, want)
		}
	}
}

// TestScannerRefuses checks the scanner's errors on JSON that
// encoding/json takes and on JSON that it does not.
func TestScannerRefuses(t *testing.T) {
	for _, c := range []struct{ in, msg string }{
		{`{"a":1,"a":2}`, `the key "a" twice`},
		{`{"a":{"b":1,"c":2,"b":3}}`, `the key "b" twice`},
		{"\"\xff\"", "invalid UTF-8"},
		{`"\ud800x"`, "lone UTF-16 surrogate"},
		{`"\udc00\ud800"`, "lone UTF-16 surrogate"},
		{strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1), "nest deeper"},
		{`{"a":1,}`, `'}' where a string should be`},
		{`[1,]`, `']' where a value should be`},
		{`[01]`, `'1' where ',' should be`},
		{`[1.]`, "digits after its point"},
		{`[1e]`, "digits of its exponent"},
		{`"\x"`, `the escape \x`},
		{`"\u12"`, `short \u escape`},
		{"\"a\tb\"", "control character"},
		{`[1] 2`, "more after"},
		{`[tru]`, "where a value should be"},
		{`"abc`, "without its end"},
	} {
		s := &scanner{b: []byte(c.in)}
		s.skip()
		s.end()
		if s.err == nil || !strings.Contains(s.err.Error(), c.msg) {
			t.Errorf("%s: %v, want an error with %q", c.in, s.err, c.msg)
		}
	}
	s := &scanner{b: []byte(`["\u00e9\ud83d\ude00\n\"\/", {"a": [true, false, null, -0.5e+3]}]`)}
	s.skip()
	s.end()
	if s.err != nil {
		t.Errorf("valid JSON: %v", s.err)
	}
}

// BenchmarkDecode measures the decoders on the request bodies of 1,000
// iris rows: a v2 tensor [1000, 4], object rows and array rows.
func BenchmarkDecode(b *testing.B) {
	_, d := readData(b, "iris", "iris")
	X := make([]float64, 0, 4000)
	for len(X) < 4000 {
		X = append(X, d.X...)
	}
	s := newServer(b, testOptions())
	e := s.model("iris")
	tensor := mustJSON(b, map[string]any{"inputs": []map[string]any{{"name": "x", "shape": []int{1000, 4}, "datatype": "FP64", "data": X[:4000]}}})
	var rows []map[string]any
	for len(rows) < 1000 {
		rows = append(rows, instances(d, 0, d.N)...)
	}
	objects := mustJSON(b, map[string]any{"instances": rows[:1000]})
	b.Run("infer", func(b *testing.B) {
		b.SetBytes(int64(len(tensor)))
		for b.Loop() {
			if _, _, err := s.readInfer(tensor, e); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("objects", func(b *testing.B) {
		b.SetBytes(int64(len(objects)))
		for b.Loop() {
			if err := newTable(d.Schema, false).instances(objects, 1000); err != nil {
				b.Fatal(err)
			}
		}
	})
}
