package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
//	go test -fuzz FuzzDecode -fuzztime 60s ./server

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
	`{"a":1,"a":2,"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[1,2,3,4]}]}`,
	`{"inputs":[{"data":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1,2,3,4]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],"name":"x","shape":[1,4],"datatype":"FP64"}]}`,
	`{"inputs":[{"data":[1,2,3,4],"name":"x","shape":[1,4],"datatype":"FP64","parameters":{"binary_data_size":16}}]}`,
	`{"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[1,2,3,4]}],"outputs":[{"name":"proba","q":1,"\u0071":2}]}`,
	`{"instances":[["\ud83d\ude00x"]]}`, `{"instances":[["\\ud800"]]}`, `{"instances":[["\ud800\ud800\udc00"]]}`,
	`{"instances":[["a\b\f\n\r\t\/\\\"\u0041"]]}`, `{"instances":[["\u00zz"]]}`,
	`{"parameters":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"a":10},"inputs":[]}`,
	`{"inputs":[{"name":"crime","shape":[2],"datatype":"BOOL","data":[true,null]}],"outputs":[{"name":null}]}`,
}

// FuzzScanner checks the scanner against encoding/json: it takes what
// encoding/json takes, but for what it refuses on purpose (strictJSON),
// and nothing else; its errors are *jsonError.
func FuzzScanner(f *testing.F) {
	for _, b := range bodySeeds {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s := &scanner{b: b}
		s.skip()
		s.end()
		want := strictJSON(b)
		if (s.err == nil) != (want == nil) {
			t.Fatalf("%q: the scanner says %v, encoding/json %v", b, s.err, want)
		}
		if _, ok := s.err.(*jsonError); s.err != nil && !ok {
			t.Fatalf("%q: %T %v, want a *jsonError", b, s.err, s.err)
		}
	})
}

// The JSON that encoding/json takes and the scanner refuses on purpose.
var (
	errNotJSON   = errors.New("not JSON (json.Valid)")
	errNotUTF8   = errors.New("a string of invalid UTF-8")
	errSurrogate = errors.New("a lone UTF-16 surrogate escaped in a string")
	errTwice     = errors.New("a key twice in an object")
	errDeep      = errors.New("values nested deeper than maxDepth")
	errManyKeys  = errors.New("an object of more than maxMembers keys")
)

// strictJSON returns nil for JSON that the scanner takes, else why not:
// it is not JSON (errNotJSON), or JSON that encoding/json reads and the
// scanner refuses: a string of invalid UTF-8 or a lone surrogate (which
// encoding/json reads as U+FFFD), a key twice in an object (the last
// wins), nesting deeper than maxDepth, an object of more than maxMembers
// keys (errManyKeys; the decoders take more in an object whose keys they
// know, such as a row of more than maxMembers features).
func strictJSON(b []byte) error {
	if !json.Valid(b) {
		return errNotJSON
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // 1e400 is JSON
	type frame struct {
		object bool
		keys   map[string]bool
		key    bool // the next string is a key
	}
	var stack []*frame
	for {
		at := dec.InputOffset()
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return errNotJSON
		}
		if str, ok := tok.(string); ok {
			raw := b[at:dec.InputOffset()]
			raw = raw[bytes.IndexByte(raw, '"'):]
			switch {
			case !utf8.Valid(raw):
				return errNotUTF8
			case loneSurrogate(raw):
				return errSurrogate
			}
			_ = str
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
				return errDeep
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
				switch {
				case top.keys[k]:
					return errTwice
				case len(top.keys) == maxMembers:
					return errManyKeys
				}
				top.keys[k] = true
			}
			top.key = !top.key
		}
	}
}

// loneSurrogate reports whether the JSON string raw (with its quotes)
// escapes a UTF-16 surrogate that is not the first of a pair \uD800-\uDBFF
// followed at once by \uDC00-\uDFFF, the second.
func loneSurrogate(raw []byte) bool {
	unit := func(i int) rune { // the code unit of a \u escape at i, or -1
		if i+6 > len(raw) || raw[i] != '\\' || raw[i+1] != 'u' {
			return -1
		}
		v, err := strconv.ParseUint(string(raw[i+2:i+6]), 16, 16)
		if err != nil {
			return -1
		}
		return rune(v)
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' {
			continue
		}
		r := unit(i)
		switch {
		case r < 0: // another escape, of two bytes
			i++
		case 0xd800 <= r && r < 0xdc00:
			if r2 := unit(i + 6); r2 < 0xdc00 || r2 >= 0xe000 {
				return true
			}
			i += 11
		case 0xdc00 <= r && r < 0xe000:
			return true
		default:
			i += 5
		}
	}
	return false
}

// FuzzDecode checks the decoder of JSON request bodies, both grammars
// (the rows of /v1/.../predict and score, the v2 inference request),
// against a reference decoding with encoding/json for the schemas of a
// numeric (iris), a categorical (votes) and a text (sms) model: the body
// decoded into any (json.Number for numbers), then read into the
// model's columns by data.Schema.Rows, as the server read it before its
// scanner (oracleRows, oracleInfer). For every body both refuse, or both
// take it with the same rows bit for bit (X, Y, Text, Unseen) and, for an
// inference request, the same id, outputs and binary_data_output. The
// server is stricter on purpose (strictJSON: invalid UTF-8, lone
// surrogates, a key twice, nesting deeper than maxDepth): it refuses
// those bodies; a body with an object of more than maxMembers keys is
// left out (the decoders take a row of more than maxMembers features).
// The rows are at most 3 a request (Options.MaxRows), so that the limit
// is met, and the decoder never makes room for more cells than the body
// can hold, half its bytes (a cell and its comma take two or more).
func FuzzDecode(f *testing.F) {
	for _, b := range bodySeeds {
		f.Add([]byte(b))
	}
	opt := testOptions()
	opt.MaxRows = 3
	s := newServer(f, opt)
	f.Fuzz(func(t *testing.T, b []byte) {
		strict := strictJSON(b)
		if errors.Is(strict, errManyKeys) {
			return
		}
		var body any
		if strict == nil {
			dec := json.NewDecoder(bytes.NewReader(b))
			dec.UseNumber()
			if err := dec.Decode(&body); err != nil {
				t.Fatalf("%q: valid JSON, but %v", b, err)
			}
		}
		for _, name := range []string{"iris", "votes", "sms"} {
			e := s.model(name)
			schema := e.model.Schema()
			limit := s.rowLimit(e)
			room := len(b)/2 + len(schema.Features)

			tab := newTable(schema, false)
			err := tab.instances(b, limit)
			var want *data.Dataset
			werr := strict
			if werr == nil {
				want, werr = oracleRows(body, schema, limit)
			}
			switch {
			case cap(tab.d.X) > room:
				t.Fatalf("%q, rows of %s: room for %d cells, a body of %d bytes", b, name, cap(tab.d.X), len(b))
			case (err == nil) != (werr == nil):
				t.Fatalf("%q, rows of %s: the decoder says %v, encoding/json %v", b, name, err, werr)
			case err == nil && !sameRows(&tab.d, want):
				t.Fatalf("%q, rows of %s: %+v, encoding/json %+v", b, name, tab.d, *want)
			}

			req, d, err := s.readInfer(b, e)
			var wreq *inferRequest
			werr = strict
			if werr == nil {
				wreq, want, werr = oracleInfer(body, e, limit, len(b))
			}
			switch {
			case (err == nil) != (werr == nil):
				t.Fatalf("%q, inference of %s: the decoder says %v, encoding/json %v", b, name, err, werr)
			case err != nil:
			case cap(d.X) > room:
				t.Fatalf("%q, inference of %s: room for %d cells, a body of %d bytes", b, name, cap(d.X), len(b))
			case !sameRows(d, want):
				t.Fatalf("%q, inference of %s: %+v, encoding/json %+v", b, name, *d, *want)
			case req.id != wreq.id || req.binaryOutput != wreq.binaryOutput || outputNames(req.outputs) != outputNames(wreq.outputs):
				t.Fatalf("%q, inference of %s: %+v, encoding/json %+v", b, name, *req, *wreq)
			}
		}
	})
}

// oracleRows reads the body {"instances": [...]}, decoded by
// encoding/json, into rows of the schema, at most limit of them: each
// instance an object of the columns by name, or an array of the features
// in the schema's order, read by data.Schema.Rows. The body may have no
// other member; "instances" may be null (no rows).
func oracleRows(body any, schema *data.Schema, limit int) (*data.Dataset, error) {
	top, ok := body.(map[string]any)
	if !ok {
		return nil, errors.New("not an object")
	}
	for k := range top {
		if k != "instances" {
			return nil, fmt.Errorf("unknown field %q", k)
		}
	}
	if top["instances"] == nil {
		return schema.Rows(nil)
	}
	rows, ok := top["instances"].([]any)
	switch {
	case !ok:
		return nil, errors.New("instances: not an array")
	case len(rows) > limit:
		return nil, errors.New("too many rows")
	}
	recs := make([]map[string]any, len(rows))
	for i, row := range rows {
		switch v := row.(type) {
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

// oracleInfer reads a v2 inference request, decoded by encoding/json, for
// e's model as README says the server reads it: an optional id (a
// string), parameters (an object; binary_data_output given, but not
// false, asks for binary outputs), outputs (at most maxOutputs, each of
// a name among the model's outputs and without binary_data); and inputs:
// one tensor [n] or [n, 1] per feature, or first and alone one tensor
// [n, D] of every feature, all numeric, in the schema's order; each of a
// name, a shape of at most maxShape integers, a datatype that suits its
// column(s), data (an array, nested or not, of as many values as the
// shape holds) and no binary_data_size. The rows are at most limit and
// the values at most half the request's size in bytes. The cells are read
// by data.Schema.Rows, a boolean as 1 or 0 in a numeric column and as
// the string "true" or "false" in a categorical one.
func oracleInfer(body any, e *entry, limit, size int) (*inferRequest, *data.Dataset, error) {
	top, ok := body.(map[string]any)
	if !ok {
		return nil, nil, errors.New("not an object")
	}
	req := &inferRequest{}
	var err error
	if req.id, err = oracleString(top, "id", true); err != nil {
		return nil, nil, err
	}
	if req.binaryOutput, err = oracleBinary(top, "binary_data_output"); err != nil {
		return nil, nil, err
	}
	if v := top["outputs"]; v != nil {
		outs, ok := v.([]any)
		if !ok || len(outs) > maxOutputs {
			return nil, nil, errors.New("outputs: not an array of at most maxOutputs")
		}
		avail := outputs(e)
		for _, o := range outs {
			m, ok := o.(map[string]any)
			if !ok {
				return nil, nil, errors.New("an output not an object")
			}
			name, err := oracleString(m, "name", true)
			if err != nil {
				return nil, nil, err
			}
			binary, err := oracleBinary(m, "binary_data")
			k := slices.IndexFunc(avail, func(o output) bool { return o.Name == name })
			if err != nil || binary || k < 0 {
				return nil, nil, fmt.Errorf("output %q: binary or unknown", name)
			}
			req.outputs = append(req.outputs, avail[k])
		}
	}
	inputs, ok := top["inputs"].([]any)
	if !ok || len(inputs) == 0 {
		return nil, nil, errors.New("no inputs")
	}
	schema := e.model.Schema()
	D := len(schema.Features)
	var recs []map[string]any
	whole := false
	seen := make([]bool, D)
	for count, in := range inputs {
		t, ok := in.(map[string]any)
		if !ok {
			return nil, nil, errors.New("an input not an object")
		}
		name, err := oracleString(t, "name", false)
		if err != nil {
			return nil, nil, err
		}
		datatype, err := oracleString(t, "datatype", false)
		if err != nil {
			return nil, nil, err
		}
		binary, err := oracleBinary(t, "binary_data_size")
		if err != nil || binary {
			return nil, nil, errors.New("binary data")
		}
		shape, err := oracleShape(t)
		if err != nil {
			return nil, nil, err
		}
		values, ok := t["data"].([]any)
		if !ok {
			return nil, nil, errors.New("no data, or not an array")
		}
		values = flatten(values)
		j := schema.Feature(name)
		cols := []int{j}
		switch {
		case count == 0 && len(shape) == 2 && shape[1] == D && (D > 1 || j < 0):
			whole, cols = true, make([]int, D)
			for jj := range cols {
				cols[jj] = jj
			}
		case whole, j < 0, seen[j], len(shape) != 1 && (len(shape) != 2 || shape[1] != 1):
			return nil, nil, fmt.Errorf("input %q of shape %v: not one of the model's", name, shape)
		}
		n := shape[0]
		switch {
		case n <= 0 || n > limit || recs != nil && n != len(recs):
			return nil, nil, fmt.Errorf("input %q: %d rows", name, n)
		case n*D > (size+1)/2:
			return nil, nil, fmt.Errorf("input %q: more values than the body holds", name)
		case len(values) != n*len(cols):
			return nil, nil, fmt.Errorf("input %q: %d values for shape %v", name, len(values), shape)
		}
		for _, jj := range cols {
			if !suits(datatype, &schema.Features[jj]) || whole && schema.Features[jj].Kind != data.Numeric {
				return nil, nil, fmt.Errorf("input %q: datatype %s", name, datatype)
			}
			seen[jj] = true
		}
		if recs == nil {
			recs = make([]map[string]any, n)
			for i := range recs {
				recs[i] = map[string]any{}
			}
		}
		for k, v := range values {
			c := &schema.Features[cols[k%len(cols)]]
			switch b, ok := v.(bool); {
			case ok && c.Kind == data.Numeric && b:
				v = json.Number("1")
			case ok && c.Kind == data.Numeric:
				v = json.Number("0")
			case ok && c.Kind == data.Categorical:
				v = strconv.FormatBool(b)
			}
			recs[k/len(cols)][c.Name] = v
		}
	}
	if slices.Contains(seen, false) {
		return nil, nil, errors.New("an input missing")
	}
	d, err := schema.Rows(recs)
	return req, d, err
}

// oracleString returns the string member key of m: "" when it is
// absent, or null and nullable.
func oracleString(m map[string]any, key string, nullable bool) (string, error) {
	v, ok := m[key]
	if !ok || v == nil && nullable {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s: not a string", key)
	}
	return s, nil
}

// oracleBinary reports whether the parameters of m (absent, null or an
// object) give key with any value but false.
func oracleBinary(m map[string]any, key string) (bool, error) {
	v := m["parameters"]
	if v == nil {
		return false, nil
	}
	p, ok := v.(map[string]any)
	if !ok {
		return false, errors.New("parameters: not an object")
	}
	x, ok := p[key]
	return ok && x != false, nil
}

// oracleShape returns the shape of the tensor m: nil when absent, else an
// array of at most maxShape integers of 64 bits, written without a point
// or an exponent.
func oracleShape(m map[string]any) ([]int, error) {
	v, ok := m["shape"]
	if !ok {
		return nil, nil
	}
	sizes, ok := v.([]any)
	if !ok || len(sizes) > maxShape {
		return nil, errors.New("shape: not an array of at most maxShape")
	}
	shape := make([]int, len(sizes))
	for i, x := range sizes {
		num, ok := x.(json.Number)
		n, err := strconv.Atoi(string(num))
		if !ok || err != nil {
			return nil, fmt.Errorf("shape: the size %v", x)
		}
		shape[i] = n
	}
	return shape, nil
}

// flatten returns the values of v, an array of values and arrays nested
// to any depth, in order.
func flatten(v []any) []any {
	var out []any
	for _, x := range v {
		if a, ok := x.([]any); ok {
			out = append(out, flatten(a)...)
		} else {
			out = append(out, x)
		}
	}
	return out
}

// suits reports whether a tensor of the datatype suits the column c: a
// number's for a numeric column, BOOL for a numeric column or a
// categorical one of the level "true", BYTES for a categorical or text
// one.
func suits(datatype string, c *data.Column) bool {
	switch datatype {
	case "FP64", "FP32", "FP16", "INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64":
		return c.Kind == data.Numeric
	case "BOOL":
		return c.Kind == data.Numeric || c.Kind == data.Categorical && slices.Contains(c.Levels, "true")
	case "BYTES":
		return c.Kind != data.Numeric
	}
	return false
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
