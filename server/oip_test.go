package server

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestProtocolMembers: members the Open Inference Protocol's schema
// allows beside the ones it names (at the top of a request, on an input
// tensor, on a requested output) are passed over, as its OpenAPI file
// allows, though read as strictly as any value; the metadata's platform
// is in the protocol's form.
func TestProtocolMembers(t *testing.T) {
	s := newServer(t, testOptions())
	body := `{"foo":1,"id":"r1","inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[5,3,1.5,0.2],"extra":{"a":[1,2]}}],` +
		`"outputs":[{"name":"label","note":"x"}],"trace":null}`
	code, out := do(t, s, "POST", "/v2/models/iris/infer", "application/json", []byte(body))
	if code != 200 || !bytes.Contains(out, []byte(`"id":"r1"`)) || !bytes.Contains(out, []byte(`"name":"label"`)) {
		t.Errorf("infer with extra members: %d %s", code, out)
	}
	// Passed over, but read as every value is: a bad one is refused.
	code, out = do(t, s, "POST", "/v2/models/iris/infer", "application/json", []byte(`{"foo":"\xff","inputs":[]}`))
	if code != 400 {
		t.Errorf("an extra member of invalid UTF-8: %d %s", code, out)
	}
	// Passed over, but a key named twice is refused as anywhere else, and
	// a tensor's data are read as strictly whatever the order of its
	// members: values nested deeper than 32 (3 + 30 here), binary data.
	deep := strings.Repeat("[", 30) + "5,3,1.5,0.2" + strings.Repeat("]", 30)
	for _, c := range []struct{ body, msg string }{
		{`{"foo":1,"foo":2,"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[5,3,1.5,0.2]}]}`, `key \"foo\" twice`},
		{`{"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[5,3,1.5,0.2],"extra":1,"extra":2}]}`, `key \"extra\" twice`},
		{`{"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[5,3,1.5,0.2]}],"outputs":[{"name":"label","note":1,"note":2}]}`, `key \"note\" twice`},
		{`{"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":` + deep + `}]}`, "nest deeper than 32"},
		{`{"inputs":[{"data":` + deep + `,"name":"x","shape":[1,4],"datatype":"FP64"}]}`, "nest deeper than 32"},
		{`{"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","parameters":{"binary_data_size":32},"data":[5,3,1.5,0.2]}]}`, "binary tensor data"},
		{`{"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[5,3,1.5,0.2],"parameters":{"binary_data_size":32}}]}`, "binary tensor data"},
	} {
		code, out := do(t, s, "POST", "/v2/models/iris/infer", "application/json", []byte(c.body))
		if code != 400 || !bytes.Contains(out, []byte(c.msg)) {
			t.Errorf("%s: %d %s, want 400 and %q", c.body, code, out, c.msg)
		}
	}
	_, meta := do(t, s, "GET", "/v2/models/iris", "", nil)
	var m struct{ Platform string }
	if json.Unmarshal(meta, &m); m.Platform != "gendisc_json" {
		t.Errorf("platform %q, want gendisc_json", m.Platform)
	}
}

// TestFarRowsAnswered: a row far out gets finite probabilities, and a
// log-likelihood below float64's range is answered as a number (its
// largest magnitude), counted in the answer, never as a string.
func TestFarRowsAnswered(t *testing.T) {
	s := newServer(t, testOptions())
	body := `{"inputs":[{"name":"x","shape":[2,4],"datatype":"FP64","data":[1e300,3,1.5,0.2,5,3,1.5,0.2]}],` +
		`"outputs":[{"name":"proba"},{"name":"log_likelihood"}]}`
	for _, model := range []string{"iris", "iris-qda"} {
		code, out := do(t, s, "POST", "/v2/models/"+model+"/infer", "application/json", []byte(body))
		var r struct {
			Parameters map[string]int `json:"parameters"`
			Outputs    []struct {
				Name string    `json:"name"`
				Data []float64 `json:"data"`
			} `json:"outputs"`
		}
		if err := json.Unmarshal(out, &r); code != 200 || err != nil || len(r.Outputs) != 2 {
			t.Fatalf("%s: %d %s (%v)", model, code, out, err)
		}
		sum := r.Outputs[0].Data[0] + r.Outputs[0].Data[1] + r.Outputs[0].Data[2]
		if math.Abs(sum-1) > 1e-12 || r.Outputs[1].Data[0] != -math.MaxFloat64 || r.Parameters["clamped"] != 1 {
			t.Errorf("%s: probabilities summing to %v, log-likelihood %v, parameters %v", model, sum, r.Outputs[1].Data[0], r.Parameters)
		}
	}
	code, out := do(t, s, "POST", "/v1/models/iris/score", "application/json",
		[]byte(`{"instances":[{"sepallength":1e300,"sepalwidth":3,"petallength":1.5,"petalwidth":0.2}]}`))
	if code != 200 || !bytes.Contains(out, []byte(`"clamped":1`)) || bytes.Contains(out, []byte(`Inf`)) {
		t.Errorf("score of a row far out: %d %s", code, out)
	}
}
