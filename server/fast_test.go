package server

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/gendisc/gendisc/data"
)

// slowInfer decodes an inference request as the handler does without the
// fast path.
func slowInfer(b []byte) (inferRequest, error) {
	var req inferRequest
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return req, dec.Decode(&req)
}

// TestFastInfer checks that the fast path reads what encoding/json and
// readFloats read, and leaves every body outside its subset to them.
func TestFastInfer(t *testing.T) {
	for _, tc := range []struct {
		body string
		fast bool
	}{
		{`{"inputs":[{"name":"x","shape":[2,4],"datatype":"FP64","data":[1,2,3,4,5,6,7,8]}]}`, true},
		{` { "id" : "a-1" , "inputs" : [ { "data" : [ [ 1.5e3 , -0.25 , 0 , 4E-2 ] , [5,6,7,8] ] , "shape" : [ 2 , 4 ] , "name" : "x", "datatype" : "FP64" } ] } ` + "\n", true},
		{`{"inputs":[{"name":"a","shape":[2],"datatype":"FP64","data":[1,2]},{"name":"b","shape":[2],"datatype":"INT64","data":[3,4]}]}`, true},
		{`{"inputs":[]}`, true},
		{`{"inputs":[{"name":"x","shape":[0,4],"datatype":"FP64","data":[]}]}`, true},
		{`{"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[1,2,3,"a"]}]}`, false},
		{`{"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[1,2,3,null]}]}`, false},
		{`{"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[1,2,3,1e999]}]}`, false},
		{`{"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[1,2,3,01]}]}`, false},
		{`{"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[1,2,3,1.]}]}`, false},
		{`{"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[1,2,3,.5]}]}`, false},
		{`{"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[1,2,3,4,]}]}`, false},
		{`{"inputs":[{"name":"x","shape":[1.0,4],"datatype":"FP64","data":[1,2,3,4]}]}`, false},
		{`{"inputs":[{"name":"x\u0041","shape":[1,4],"datatype":"FP64","data":[1,2,3,4]}]}`, false},
		{`{"inputs":[{"name":"x","name":"y","shape":[1,4],"datatype":"FP64","data":[1,2,3,4]}]}`, false},
		{`{"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[1,2,3,4],"parameters":{}}]}`, false},
		{`{"Inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[1,2,3,4]}]}`, false},
		{`{"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[1,2,3,4]}]} {}`, false},
		{`{"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[1,2,3,4]}]`, false},
		{`{"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[[1,2],[3,4]]}]}`, false},
		{`{"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64"}]}`, false},
	} {
		var req inferRequest
		fast := fastInfer([]byte(tc.body), &req, 4)
		if fast != tc.fast {
			t.Errorf("%s: fast path %v, want %v", tc.body, fast, tc.fast)
			continue
		}
		if !fast {
			continue
		}
		want, err := slowInfer([]byte(tc.body))
		if err != nil {
			t.Fatalf("%s: %v", tc.body, err)
		}
		if req.ID != want.ID || len(req.Inputs) != len(want.Inputs) {
			t.Fatalf("%s: %+v, want %+v", tc.body, req, want)
		}
		for k, got := range req.Inputs {
			w := want.Inputs[k]
			if got.Name != w.Name || got.Datatype != w.Datatype || !slices.Equal(got.Shape, w.Shape) || !bytes.Equal(got.Data, w.Data) {
				t.Errorf("%s: input %d %+v, want %+v", tc.body, k, got, w)
			}
			n := 1
			if got.rowLen != 0 {
				n = got.rowLen
			}
			x, ok := scanFloats(w.Data, nil, n, false)
			if !ok || !slices.Equal(got.floats, x) {
				t.Errorf("%s: input %d numbers %v, want %v", tc.body, k, got.floats, x)
			}
		}
	}
}

// TestFastInstances checks that the fast path reads the rows that
// data.Schema.Rows reads, and leaves every body outside its subset to
// the slow path.
func TestFastInstances(t *testing.T) {
	schema := &data.Schema{Features: []data.Column{{Name: "a", Kind: data.Numeric}, {Name: "b", Kind: data.Numeric}}}
	for _, tc := range []struct {
		body string
		fast bool
	}{
		{`{"instances":[[1,2],[3.5,-4e-3]]}`, true},
		{`{"instances":[{"a":1,"b":2},{"b":-4e-3,"a":3.5}]}`, true},
		{` {"instances" : [ { "a" : 1 , "b" : 2 } ] }` + "\n", true},
		{`{"instances":[]}`, false},
		{`{"instances":[1,2]}`, false},
		{`{"instances":[[1,2,3]]}`, false},
		{`{"instances":[{"a":1}]}`, false},
		{`{"instances":[{"a":1,"b":2,"c":3}]}`, false},
		{`{"instances":[{"a":1,"a":2,"b":3}]}`, false},
		{`{"instances":[{"a":1,"b":null}]}`, false},
		{`{"instances":[{"a":1,"b":"2"}]}`, false},
		{`{"instances":[{"a":1,"b":1e400}]}`, false},
		{`{"instances":[[1,2]],"x":1}`, false},
		{`{"instances":[[1,2]]}x`, false},
		{`{}`, false},
	} {
		d, fast := fastInstances([]byte(tc.body), schema)
		if fast != tc.fast {
			t.Errorf("%s: fast path %v, want %v", tc.body, fast, tc.fast)
			continue
		}
		if !fast {
			continue
		}
		var req struct{ Instances []any }
		dec := json.NewDecoder(bytes.NewReader([]byte(tc.body)))
		dec.UseNumber()
		if err := dec.Decode(&req); err != nil {
			t.Fatal(err)
		}
		want, err := records(schema, req.Instances)
		if err != nil {
			t.Fatalf("%s: %v", tc.body, err)
		}
		if d.N != want.N || !slices.EqualFunc(d.X, want.X, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }) || d.Y != nil || d.Unseen != nil || d.Text != nil || d.Schema != schema {
			t.Errorf("%s: %+v, want %+v", tc.body, d, want)
		}
	}
}

// BenchmarkDecode compares the fast path with encoding/json on the
// request bodies of 1,000 iris rows: a v2 tensor [1000, 4] and v1 object
// rows.
func BenchmarkDecode(b *testing.B) {
	_, d := readData(b, "iris", "iris")
	X := make([]float64, 0, 4000)
	for len(X) < 4000 {
		X = append(X, d.X...)
	}
	tensor := mustJSON(b, map[string]any{"inputs": []map[string]any{{"name": "x", "shape": []int{1000, 4}, "datatype": "FP64", "data": X[:4000]}}})
	var rows []map[string]any
	for len(rows) < 1000 {
		rows = append(rows, instances(d, 0, d.N)...)
	}
	objects := mustJSON(b, map[string]any{"instances": rows[:1000]})
	b.Run("infer/encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(tensor)))
		for b.Loop() {
			req, err := slowInfer(tensor)
			if err != nil || !readFloats(req.Inputs[0].Data, make([]float64, 4000), 4) {
				b.Fatal("not read")
			}
		}
	})
	b.Run("infer/fast", func(b *testing.B) {
		b.SetBytes(int64(len(tensor)))
		for b.Loop() {
			var req inferRequest
			if !fastInfer(tensor, &req, 4) || !tensorFloats(&req.Inputs[0], make([]float64, 4000), 4) {
				b.Fatal("not read")
			}
		}
	})
	b.Run("objects/encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(objects)))
		for b.Loop() {
			var req struct{ Instances []any }
			dec := json.NewDecoder(bytes.NewReader(objects))
			dec.UseNumber()
			if err := dec.Decode(&req); err != nil {
				b.Fatal(err)
			}
			if _, err := records(d.Schema, req.Instances); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("objects/fast", func(b *testing.B) {
		b.SetBytes(int64(len(objects)))
		for b.Loop() {
			if _, ok := fastInstances(objects, d.Schema); !ok {
				b.Fatal("not read")
			}
		}
	})
}

// TestExactFloat checks that the fast path reads every number as
// strconv.ParseFloat does, bit for bit.
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
		got, ok := s.float()
		want, err := strconv.ParseFloat(n, 64)
		if ok != (err == nil) || ok && math.Float64bits(got) != math.Float64bits(want) || !s.end() {
			t.Errorf("%s: %v %v, want %v %v", n, got, ok, want, err)
		}
	}
}
