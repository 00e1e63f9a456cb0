package server

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/models"
)

// The model files of testdata (written by gendisc fit and cluster) and the
// bundled data set of each.
var testModels = []struct{ name, dataset string }{
	{"iris", "iris"},           // gaussian-nb
	{"iris-shared", "iris"},    // gaussian-nb, one variance
	{"iris-qda", "iris"},       // qda
	{"iris-logistic", "iris"},  // logistic
	{"iris-gmm", "iris"},       // gmm, no target
	{"wine-linear", "wine"},    // linear regression of alcohol
	{"votes", "house_votes84"}, // nb of categorical columns with missing cells
	{"sms", "sms_spam"},        // multinomial-nb of a text column
}

func testOptions() Options {
	opt := Options{Models: map[string]string{}}
	for _, m := range testModels {
		opt.Models[m.name] = filepath.Join("testdata", m.name+".json")
	}
	return opt
}

func newServer(t testing.TB, opt Options) *Server {
	t.Helper()
	s, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// do sends a request to h and returns the status and the body.
func do(t testing.TB, h http.Handler, method, path, contentType string, body []byte, header ...string) (int, []byte) {
	t.Helper()
	r := httptest.NewRequest(method, path, bytes.NewReader(body))
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Code, w.Body.Bytes()
}

// readData returns the CSV text of a bundled data set and its rows read
// with the schema of the model file.
func readData(t testing.TB, dataset, model string) ([]byte, *data.Dataset) {
	t.Helper()
	rc, err := datasets.Open(dataset)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	text, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	if testing.Short() { // the first rows, for the race detector's sake
		text = firstRows(t, text, 400)
	}
	m, err := models.Load(filepath.Join("testdata", model+".json"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := dataio.ReadWithSchema(bytes.NewReader(text), dataset, m.Schema(), dataio.SchemaOptions{UnseenClassMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	return text, d
}

// firstRows returns the CSV text with its header and its first n rows.
func firstRows(t testing.TB, text []byte, n int) []byte {
	recs, err := csv.NewReader(bytes.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.WriteAll(recs[:min(len(recs), n+1)])
	return b.Bytes()
}

// instances returns the rows of d from row lo to hi as the JSON objects
// of the row endpoint, keyed by feature.
func instances(d *data.Dataset, lo, hi int) []map[string]any {
	D := len(d.Schema.Features)
	var out []map[string]any
	for i := lo; i < hi; i++ {
		rec := map[string]any{}
		for j, c := range d.Schema.Features {
			x := d.X[i*D+j]
			switch {
			case c.Kind == data.Text:
				rec[c.Name] = d.Text[j][i]
			case math.IsNaN(x):
				rec[c.Name] = nil
			case c.Kind == data.Categorical:
				rec[c.Name] = c.Levels[int(x)]
			default:
				rec[c.Name] = json.Number(strconv.FormatFloat(x, 'g', -1, 64))
			}
		}
		out = append(out, rec)
	}
	return out
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRowEndpointMatchesPredict checks that the row endpoint answers every
// row of the bundled data sets with the CSV of the prediction table that
// gendisc predict writes, byte for byte, whether the rows come as CSV or
// as JSON objects, and that the JSON answer carries the same numbers.
func TestRowEndpointMatchesPredict(t *testing.T) {
	s := newServer(t, testOptions())
	for _, tm := range testModels {
		t.Run(tm.name, func(t *testing.T) {
			text, d := readData(t, tm.dataset, tm.name)
			p, err := models.Predict(s.model(tm.name).model, d)
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			p.WriteCSV(&want)
			path := "/v1/models/" + tm.name + "/predict"
			code, got := do(t, s, "POST", path, "text/csv", text, "Accept", "text/csv")
			if code != 200 || !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("CSV rows: status %d, body differs from the predictions (%d bytes, want %d): %.200s", code, len(got), want.Len(), got)
			}
			body := mustJSON(t, map[string]any{"instances": instances(d, 0, d.N)})
			code, got = do(t, s, "POST", path, "application/json", body, "Accept", "text/csv")
			if code != 200 || !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("JSON rows: status %d, body differs from the predictions: %.200s", code, got)
			}
			if !slices.ContainsFunc(d.Schema.Features, func(c data.Column) bool { return c.Kind != data.Numeric }) { // rows as arrays
				D := len(d.Schema.Features)
				rows := make([][]float64, d.N)
				for i := range rows {
					rows[i] = d.X[i*D : (i+1)*D]
				}
				code, got = do(t, s, "POST", path, "application/json", mustJSON(t, map[string]any{"instances": rows}), "Accept", "text/csv")
				if code != 200 || !bytes.Equal(got, want.Bytes()) {
					t.Fatalf("JSON arrays: status %d, body differs from the predictions: %.200s", code, got)
				}
			}
			// The JSON answer: the same digits.
			code, got = do(t, s, "POST", path, "application/json", body)
			if code != 200 {
				t.Fatalf("status %d: %s", code, got)
			}
			var ans struct {
				Columns     []string                     `json:"columns"`
				Predictions []map[string]json.RawMessage `json:"predictions"`
			}
			if err := json.Unmarshal(got, &ans); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(want.String(), "\n"), "\n")
			if strings.Join(ans.Columns, ",") != lines[0] || len(ans.Predictions) != d.N {
				t.Fatalf("columns %q and %d rows, want %s and %d", ans.Columns, len(ans.Predictions), lines[0], d.N)
			}
			for i, row := range ans.Predictions {
				var fields []string
				for _, c := range ans.Columns {
					v := string(row[c])
					if uq, err := strconv.Unquote(v); err == nil {
						v = uq
					}
					fields = append(fields, v)
				}
				if got := strings.Join(fields, ","); got != lines[i+1] && !strings.Contains(lines[i+1], `"`) {
					t.Fatalf("row %d: %s, want %s", i, got, lines[i+1])
				}
			}
		})
	}
}

// TestScore checks the score endpoint against the density of the model,
// and its CSV against models.WriteScores (gendisc score's).
func TestScore(t *testing.T) {
	s := newServer(t, testOptions())
	for _, tm := range testModels {
		t.Run(tm.name, func(t *testing.T) {
			text, d := readData(t, tm.dataset, tm.name)
			path := "/v1/models/" + tm.name + "/score"
			density, ok := models.Density(s.model(tm.name).model)
			code, got := do(t, s, "POST", path, "text/csv", text, "Accept", "text/csv")
			if !ok {
				if code != 400 || !bytes.Contains(got, []byte("not generative")) {
					t.Fatalf("a model without a density: status %d, %s", code, got)
				}
				return
			}
			var want bytes.Buffer
			models.WriteScores(&want, density(d))
			if code != 200 || !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("status %d, scores differ: %.200s", code, got)
			}
			code, got = do(t, s, "POST", path, "application/json", mustJSON(t, map[string]any{"instances": instances(d, 0, 3)}))
			var ans struct {
				Scores []struct {
					Nats float64 `json:"log_p_nats"`
					Bits float64 `json:"log_p_bits"`
				} `json:"scores"`
			}
			if code != 200 || json.Unmarshal(got, &ans) != nil || len(ans.Scores) != 3 {
				t.Fatalf("status %d: %s", code, got)
			}
			for i, sc := range ans.Scores {
				if want := density(d)[i]; sc.Nats != want || sc.Bits != want/math.Ln2 {
					t.Errorf("row %d: log p %v, want %v", i, sc.Nats, want)
				}
			}
		})
	}
}

type inferAnswer struct {
	ModelName    string `json:"model_name"`
	ModelVersion string `json:"model_version"`
	ID           string `json:"id"`
	Parameters   map[string]any
	Outputs      []struct {
		Name     string            `json:"name"`
		Datatype string            `json:"datatype"`
		Shape    []int             `json:"shape"`
		Data     []json.RawMessage `json:"data"`
	} `json:"outputs"`
}

// columnTensors returns the v2 inputs of rows lo to hi of d, one tensor per
// feature.
func columnTensors(d *data.Dataset, lo, hi int) []map[string]any {
	rows := instances(d, lo, hi)
	var out []map[string]any
	for _, c := range d.Schema.Features {
		vals := make([]any, len(rows))
		for i, r := range rows {
			vals[i] = r[c.Name]
		}
		out = append(out, map[string]any{"name": c.Name, "shape": []int{len(rows)}, "datatype": datatype(&c), "data": vals})
	}
	return out
}

// TestInfer checks the v2 inference of every model, with one tensor per
// column and, for the numeric ones, one tensor [n, d]: the outputs, their
// shapes and values against the model's, and the request id echoed.
func TestInfer(t *testing.T) {
	s := newServer(t, testOptions())
	for _, tm := range testModels {
		t.Run(tm.name, func(t *testing.T) {
			_, d := readData(t, tm.dataset, tm.name)
			e := s.model(tm.name)
			p, _ := models.Predict(e.model, d)
			n := min(d.N, 20)
			reqs := [][]byte{mustJSON(t, map[string]any{"id": "req-7", "inputs": columnTensors(d, 0, n)})}
			numeric := true
			for _, c := range d.Schema.Features {
				numeric = numeric && c.Kind == data.Numeric
			}
			if numeric {
				D := len(d.Schema.Features)
				reqs = append(reqs, mustJSON(t, map[string]any{"id": "req-7", "inputs": []map[string]any{
					{"name": "input-0", "shape": []int{n, D}, "datatype": "FP64", "data": d.X[:n*D]}}}))
			}
			for _, body := range reqs {
				code, got := do(t, s, "POST", "/v2/models/"+tm.name+"/infer", "application/json", body)
				var ans inferAnswer
				if code != 200 || json.Unmarshal(got, &ans) != nil {
					t.Fatalf("status %d: %s", code, got)
				}
				if ans.ID != "req-7" || ans.ModelName != tm.name || ans.ModelVersion != e.version {
					t.Errorf("id %q, model %q version %q", ans.ID, ans.ModelName, ans.ModelVersion)
				}
				names := map[string]bool{}
				for _, o := range ans.Outputs {
					names[o.Name] = true
					var want []string
					switch o.Name {
					case "label":
						for _, b := range p.Best[:n] {
							want = append(want, strconv.Quote(p.Labels[b]))
						}
					case "component":
						for _, b := range p.Best[:n] {
							want = append(want, strconv.Itoa(b))
						}
					case "proba":
						for _, v := range p.Values[:n*len(p.Labels)] {
							want = append(want, strconv.FormatFloat(v, 'g', -1, 64))
						}
					case "prediction":
						for _, v := range p.Values[:n] {
							want = append(want, strconv.FormatFloat(v, 'g', -1, 64))
						}
					case "log_likelihood":
						for _, v := range e.density(d)[:n] {
							want = append(want, string(appendNumber(nil, v)))
						}
					}
					var got []string
					for _, v := range o.Data {
						got = append(got, string(v))
					}
					if strings.Join(got, ",") != strings.Join(want, ",") {
						t.Errorf("output %s: %.200s, want %.200s", o.Name, strings.Join(got, ","), strings.Join(want, ","))
					}
					if o.Shape[0] != n {
						t.Errorf("output %s: shape %v", o.Name, o.Shape)
					}
				}
				switch {
				case e.first == "cluster":
					if !names["component"] || !names["log_likelihood"] || len(names) != 2 {
						t.Errorf("mixture outputs %v", names)
					}
				case e.labels == nil:
					if !names["prediction"] || len(names) != 1 {
						t.Errorf("regression outputs %v", names)
					}
				default:
					if !names["label"] || !names["proba"] || len(names) != 2 {
						t.Errorf("classifier outputs %v", names)
					}
				}
			}
			// An output asked for by name.
			if e.density != nil {
				body := mustJSON(t, map[string]any{"inputs": columnTensors(d, 0, 2), "outputs": []map[string]any{{"name": "log_likelihood"}}})
				code, got := do(t, s, "POST", "/v2/models/"+tm.name+"/infer", "application/json", body)
				var ans inferAnswer
				if code != 200 || json.Unmarshal(got, &ans) != nil || len(ans.Outputs) != 1 || ans.Outputs[0].Name != "log_likelihood" {
					t.Errorf("log_likelihood alone: status %d, %s", code, got)
				}
			}
		})
	}
}

// TestMetadataAndHealth checks the v2 metadata and health endpoints, the
// model list and the metrics.
func TestMetadataAndHealth(t *testing.T) {
	s := newServer(t, testOptions())
	for _, path := range []string{"/v2/health/live", "/v2/health/ready", "/v2", "/v1/models", "/v2/models/iris/ready"} {
		if code, body := do(t, s, "GET", path, "", nil); code != 200 {
			t.Errorf("GET %s: %d %s", path, code, body)
		}
	}
	code, body := do(t, s, "GET", "/v2/models/votes", "", nil)
	var meta struct {
		Name     string       `json:"name"`
		Versions []string     `json:"versions"`
		Inputs   []tensorMeta `json:"inputs"`
		Outputs  []tensorMeta `json:"outputs"`
		Classes  []string     `json:"classes"`
		Kind     string       `json:"kind"`
	}
	if code != 200 || json.Unmarshal(body, &meta) != nil {
		t.Fatalf("metadata: %d %s", code, body)
	}
	e := s.model("votes")
	if meta.Name != "votes" || len(meta.Versions) != 1 || meta.Versions[0] != e.version || meta.Kind != "nb" ||
		len(meta.Inputs) != 16 || meta.Inputs[0].Datatype != "BYTES" || strings.Join(meta.Classes, ",") != "democrat,republican" ||
		meta.Outputs[1].Name != "proba" || meta.Outputs[1].Shape[1] != 2 {
		t.Errorf("metadata %+v", meta)
	}
	if code, _ := do(t, s, "GET", "/v2/models/votes/versions/"+e.version, "", nil); code != 200 {
		t.Errorf("metadata of the version served: %d", code)
	}
	if code, _ := do(t, s, "GET", "/v2/models/votes/versions/sha256:00", "", nil); code != 404 {
		t.Errorf("metadata of another version: %d", code)
	}
	do(t, s, "POST", "/v1/models/iris/predict", "application/json", []byte(`{"instances":[[1,2,3,4]]}`))
	code, body = do(t, s, "GET", "/metrics", "", nil)
	for _, want := range []string{`gendisc_requests_total{code="200",endpoint="predict",model="iris"} 1`,
		`gendisc_model_info{kind="multinomial-nb",model="sms",version="` + s.model("sms").version + `"} 1`,
		`gendisc_request_rows_bucket{endpoint="predict",le="1"} 1`, `gendisc_model_reloads_total{result="failure"} 0`,
		"gendisc_request_duration_seconds_bucket", "gendisc_model_load_timestamp_seconds{model=\"iris\"}", "go_goroutines"} {
		if code != 200 || !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// TestBadRequests sends each bad request of the table while good requests
// run concurrently: each is answered with its status and an error naming
// the problem, and every good request succeeds.
func TestBadRequests(t *testing.T) {
	opt := testOptions()
	opt.MaxBodyBytes = 4096
	opt.MaxRows = 5
	s := newServer(t, opt)
	srv := httptest.NewServer(s)
	defer srv.Close()
	good := []byte(`{"instances":[{"sepallength":5.1,"sepalwidth":3.5,"petallength":1.4,"petalwidth":0.2}]}`)
	_, wantGood := do(t, s, "POST", "/v1/models/iris/predict", "application/json", good)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var served, failed atomic.Int64
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				resp, err := srv.Client().Post(srv.URL+"/v1/models/iris/predict", "application/json", bytes.NewReader(good))
				if err != nil {
					failed.Add(1)
					continue
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 || !bytes.Equal(b, wantGood) {
					failed.Add(1)
				}
				served.Add(1)
			}
		})
	}
	row := `"sepallength":5.1,"sepalwidth":3.5,"petallength":1.4`
	big := `{"instances":[` + strings.Repeat(`{`+row+`,"petalwidth":0.2},`, 100) + `{` + row + `,"petalwidth":0.2}]}`
	cases := []struct {
		name, method, path, ctype, body string
		status                          int
		msg                             string
	}{
		{"malformed JSON", "POST", "/v1/models/iris/predict", "application/json", `{"instances":[{`, 400, "malformed JSON"},
		{"not an object", "POST", "/v1/models/iris/predict", "application/json", `[1,2]`, 400, "malformed JSON"},
		{"trailing data", "POST", "/v1/models/iris/predict", "application/json", `{"instances":[]} x`, 400, "more after"},
		{"unknown top field", "POST", "/v1/models/iris/predict", "application/json", `{"rows":[]}`, 400, `unknown field "rows"`},
		{"no rows", "POST", "/v1/models/iris/predict", "application/json", `{"instances":[]}`, 400, "no rows"},
		{"wrong content type", "POST", "/v1/models/iris/predict", "text/plain", `x`, 415, "text/plain"},
		{"form content type", "POST", "/v2/models/iris/infer", "application/x-www-form-urlencoded", `x`, 415, "application/json"},
		{"unknown model", "POST", "/v1/models/nope/predict", "application/json", string(good), 404, `no model named "nope"`},
		{"unknown model v2", "POST", "/v2/models/nope/infer", "application/json", `{}`, 404, `no model named "nope"`},
		{"unknown endpoint", "GET", "/v3/x", "", ``, 404, "no such endpoint"},
		{"wrong method", "GET", "/v1/models/iris/predict", "", ``, 405, "use POST"},
		{"missing column", "POST", "/v1/models/iris/predict", "application/json", `{"instances":[{` + row + `}]}`, 422, `"petalwidth": missing field`},
		{"unknown column", "POST", "/v1/models/iris/predict", "application/json", `{"instances":[{` + row + `,"petalwidth":1,"colour":"red"}]}`, 422, `"colour": unknown field`},
		{"wrong type", "POST", "/v1/models/iris/predict", "application/json", `{"instances":[{` + row + `,"petalwidth":"wide"}]}`, 422, `"petalwidth": wrong type`},
		{"NaN", "POST", "/v1/models/iris/predict", "application/json", `{"instances":[{` + row + `,"petalwidth":NaN}]}`, 400, "malformed JSON"},
		{"NaN as a string", "POST", "/v1/models/iris/predict", "application/json", `{"instances":[{` + row + `,"petalwidth":"NaN"}]}`, 422, "wrong type"},
		{"infinite", "POST", "/v1/models/iris/predict", "application/json", `{"instances":[{` + row + `,"petalwidth":1e999}]}`, 422, "infinite"},
		{"short array", "POST", "/v1/models/iris/predict", "application/json", `{"instances":[[1,2,3]]}`, 422, "an array of 3 values"},
		{"too many rows", "POST", "/v1/models/iris/predict", "application/json", `{"instances":[[1,2,3,4],[1,2,3,4],[1,2,3,4],[1,2,3,4],[1,2,3,4],[1,2,3,4]]}`, 413, "more than the limit of 5 rows"},
		{"body over the limit", "POST", "/v1/models/iris/predict", "application/json", big, 413, "larger than the limit of 4096 bytes"},
		{"CSV missing column", "POST", "/v1/models/iris/predict", "text/csv", "sepallength,sepalwidth\n1,2\n", 422, "petallength"},
		{"CSV infinite", "POST", "/v1/models/iris/predict", "text/csv", "sepallength,sepalwidth,petallength,petalwidth\n1,2,3,1e999\n", 422, "infinite"},
		{"score of a discriminative model", "POST", "/v1/models/iris-logistic/score", "application/json", string(good), 400, "not generative"},
		{"v2 malformed", "POST", "/v2/models/iris/infer", "application/json", `{"inputs":`, 400, "malformed JSON"},
		{"v2 no inputs", "POST", "/v2/models/iris/infer", "application/json", `{"inputs":[]}`, 400, "no inputs"},
		{"v2 unknown input", "POST", "/v2/models/iris/infer", "application/json", `{"inputs":[{"name":"x","shape":[1],"datatype":"FP64","data":[1]}]}`, 400, `input "x": the model has no feature`},
		{"v2 missing input", "POST", "/v2/models/iris/infer", "application/json", `{"inputs":[{"name":"sepallength","shape":[1],"datatype":"FP64","data":[1]}]}`, 400, `input "sepalwidth" is missing`},
		{"v2 wrong datatype", "POST", "/v2/models/votes/infer", "application/json", `{"inputs":[{"name":"handicapped-infants","shape":[1],"datatype":"FP64","data":[1]}]}`, 400, `datatype "FP64", want BYTES`},
		{"v2 shape and data", "POST", "/v2/models/iris/infer", "application/json", `{"inputs":[{"name":"x","shape":[2,4],"datatype":"FP64","data":[1,2,3,4]}]}`, 400, "4 values, but shape [2 4] holds 8"},
		{"v2 wrong value type", "POST", "/v2/models/iris/infer", "application/json", `{"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[1,2,3,"a"]}]}`, 400, "wrong type"},
		{"v2 unknown output", "POST", "/v2/models/iris/infer", "application/json", `{"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[1,2,3,4]}],"outputs":[{"name":"logits"}]}`, 400, `no output "logits"`},
		{"v2 binary output", "POST", "/v2/models/iris/infer", "application/json", `{"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[1,2,3,4]}],"outputs":[{"name":"proba","parameters":{"binary_data":true}}]}`, 400, "binary"},
		{"v2 too many rows", "POST", "/v2/models/iris/infer", "application/json", `{"inputs":[{"name":"x","shape":[6,4],"datatype":"FP64","data":[1,2,3,4,1,2,3,4,1,2,3,4,1,2,3,4,1,2,3,4,1,2,3,4]}]}`, 413, "more than the limit"},
		{"v2 wrong version", "POST", "/v2/models/iris/versions/1/infer", "application/json", `{}`, 404, `no version "1"`},
	}
	// Three rounds over HTTP, the good requests running meanwhile.
	for round := range 3 {
		for _, c := range cases {
			req, err := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader(c.body))
			if err != nil {
				t.Fatal(err)
			}
			if c.ctype != "" {
				req.Header.Set("Content-Type", c.ctype)
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			var e struct {
				Error string `json:"error"`
			}
			if err := json.Unmarshal(body, &e); err != nil || resp.StatusCode != c.status || !strings.Contains(e.Error, c.msg) {
				t.Errorf("round %d: %s: status %d, %s; want %d and an error with %q", round, c.name, resp.StatusCode, body, c.status, c.msg)
			}
		}
	}
	code, body := do(t, s, "POST", "/v1/models/votes/predict", "application/json", []byte(`{"instances":[{"handicapped-infants":"maybe"}]}`))
	if code != 422 {
		t.Errorf("a row without every column: %d %s", code, body)
	}
	close(stop)
	wg.Wait()
	if failed.Load() != 0 || served.Load() == 0 {
		t.Errorf("%d good requests of %d failed", failed.Load(), served.Load())
	}
}

// TestUnseen checks that a category never seen in training is read as
// missing and counted in both answers.
func TestUnseen(t *testing.T) {
	s := newServer(t, testOptions())
	_, d := readData(t, "house_votes84", "votes")
	rows := instances(d, 0, 2)
	rows[0]["crime"] = "maybe"
	rows[1]["crime"] = "perhaps"
	code, body := do(t, s, "POST", "/v1/models/votes/predict", "application/json", mustJSON(t, map[string]any{"instances": rows}))
	if code != 200 || !bytes.Contains(body, []byte(`"unseen":{"crime":2}`)) {
		t.Errorf("row endpoint: %d %s", code, body)
	}
	tensors := columnTensors(d, 0, 2)
	for _, tn := range tensors {
		if tn["name"] == "crime" {
			tn["data"] = []any{"maybe", nil}
		}
	}
	code, body = do(t, s, "POST", "/v2/models/votes/infer", "", mustJSON(t, map[string]any{"inputs": tensors}))
	if code != 200 || !bytes.Contains(body, []byte(`"parameters":{"unseen":1}`)) {
		t.Errorf("infer: %d %s", code, body)
	}
	if _, m := do(t, s, "GET", "/metrics", "", nil); !bytes.Contains(m, []byte(`gendisc_unseen_categories_total{model="votes"} 3`)) {
		t.Errorf("unseen categories not counted: %s", grep(m, "unseen"))
	}
}

// TestPanicRecovered checks that a panic in a handler is answered with
// 500, counted, and that the server keeps serving.
func TestPanicRecovered(t *testing.T) {
	s := newServer(t, testOptions())
	w := httptest.NewRecorder()
	s.serve(w, httptest.NewRequest("GET", "/boom", nil), "GET", "boom", func(*Server, *call) { panic("boom") }, true)
	if w.Code != 500 || !strings.Contains(w.Body.String(), `"error":"internal error"`) {
		t.Errorf("panic: %d %s", w.Code, w.Body)
	}
	code, body := do(t, s, "GET", "/metrics", "", nil)
	if code != 200 || !strings.Contains(string(body), "gendisc_panics_total 1") ||
		!strings.Contains(string(body), `gendisc_requests_total{code="500",endpoint="boom",model=""} 1`) {
		t.Errorf("the panic is not counted")
	}
}

// TestToken checks the bearer token: required everywhere but the health
// checks, compared exactly.
func TestToken(t *testing.T) {
	opt := testOptions()
	opt.Token = "s3cret"
	s := newServer(t, opt)
	for _, c := range []struct {
		path, auth string
		status     int
	}{
		{"/v2/health/ready", "", 200},
		{"/v2/models/iris", "", 401},
		{"/v2/models/iris", "Bearer s3cre", 401},
		{"/v2/models/iris", "Bearer s3cret!", 401},
		{"/v2/models/iris", "s3cret", 401},
		{"/v2/models/iris", "Bearer s3cret", 200},
		{"/v2/models/iris", "bearer s3cret", 200}, // the scheme is case-insensitive (RFC 7235)
		{"/v2/models/iris", "BEARER  s3cret", 200},
		{"/v2/models/iris", "Basic s3cret", 401},
		{"/v2/models/iris", "Bearers3cret", 401},
		{"/metrics", "", 401},
	} {
		if code, body := do(t, s, "GET", c.path, "", nil, "Authorization", c.auth); code != c.status {
			t.Errorf("GET %s with %q: %d %s, want %d", c.path, c.auth, code, body, c.status)
		}
	}
}

// writeAtomic writes b to path as gendisc does: a hidden temporary file
// renamed over path.
func writeAtomic(t testing.TB, path string, b []byte) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp")
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// TestReloadUnderLoad replaces a model 50 times, by SIGHUP's Reload and by
// the watcher, while clients send requests: no request fails, and every
// answer is the whole answer of either model.
func TestReloadUnderLoad(t *testing.T) {
	dir := t.TempDir()
	a, _ := os.ReadFile("testdata/iris.json")
	b, _ := os.ReadFile("testdata/iris-shared.json")
	path := filepath.Join(dir, "m.json")
	writeAtomic(t, path, a)
	_, d := readData(t, "iris", "iris")
	body := mustJSON(t, map[string]any{"inputs": columnTensors(d, 0, d.N)})
	answer := func(file string) []byte {
		s := newServer(t, Options{Models: map[string]string{"m": file}})
		code, ans := do(t, s, "POST", "/v2/models/m/infer", "", body)
		if code != 200 {
			t.Fatalf("%d %s", code, ans)
		}
		return ans
	}
	wantA, wantB := answer("testdata/iris.json"), answer("testdata/iris-shared.json")
	if bytes.Equal(wantA, wantB) {
		t.Fatal("the two models answer alike")
	}
	s := newServer(t, Options{Models: map[string]string{"m": path}, WatchDelay: time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	watching := make(chan error, 1)
	go func() { watching <- s.Watch(ctx) }()
	srv := httptest.NewServer(s)
	defer srv.Close()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var nA, nB, bad atomic.Int64
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				resp, err := srv.Client().Post(srv.URL+"/v2/models/m/infer", "application/json", bytes.NewReader(body))
				if err != nil {
					bad.Add(1)
					continue
				}
				got, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				switch {
				case resp.StatusCode == 200 && bytes.Equal(got, wantA):
					nA.Add(1)
				case resp.StatusCode == 200 && bytes.Equal(got, wantB):
					nB.Add(1)
				default:
					bad.Add(1)
				}
			}
		})
	}
	version := func() string { return s.model("m").version }
	for i := range 50 {
		next := a
		if i%2 == 0 {
			next = b
		}
		writeAtomic(t, path, next)
		if i%3 == 0 {
			if err := s.Reload(); err != nil {
				t.Fatal(err)
			}
		}
		// Wait for the new model (the watcher's reload), then let the
		// clients use it.
		for deadline := time.Now().Add(5 * time.Second); ; {
			if e := s.model("m"); e != nil && strings.Contains(string(next), e.version) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("replacement %d: the model was not reloaded (serving %s)", i, version())
			}
			time.Sleep(time.Millisecond)
		}
		time.Sleep(5 * time.Millisecond)
	}
	// A bad file is refused and the old model keeps serving.
	before := version()
	writeAtomic(t, path, []byte(`{"format":"gendisc-model"`))
	if err := s.Reload(); err == nil {
		t.Error("a bad model file was not refused")
	}
	time.Sleep(20 * time.Millisecond)
	if version() != before {
		t.Error("a bad model file replaced the model")
	}
	close(stop)
	wg.Wait()
	cancel()
	if err := <-watching; err != nil {
		t.Error(err)
	}
	if bad.Load() != 0 || nA.Load() == 0 || nB.Load() == 0 {
		t.Errorf("%d answers of model A, %d of model B, %d failed or mixed", nA.Load(), nB.Load(), bad.Load())
	}
	code, m := do(t, s, "GET", "/metrics", "", nil)
	if code != 200 || !strings.Contains(string(m), `gendisc_model_reloads_total{result="success"} 50`) {
		t.Errorf("reloads not counted: %s", grep(m, "reloads"))
	}
}

func grep(b []byte, s string) string {
	var out []string
	for l := range strings.SplitSeq(string(b), "\n") {
		if strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestRepository checks that a model file added to a model repository is
// served and that one removed is no longer.
func TestRepository(t *testing.T) {
	dir := t.TempDir()
	iris, _ := os.ReadFile("testdata/iris.json")
	writeAtomic(t, filepath.Join(dir, "a.json"), iris)
	s := newServer(t, Options{Dirs: []string{dir}, WatchDelay: time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Watch(ctx)
	time.Sleep(50 * time.Millisecond) // the watch started
	writeAtomic(t, filepath.Join(dir, "b.json"), iris)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644)
	waitFor(t, func() bool { return strings.Join(s.Models(), ",") == "a,b" })
	os.Remove(filepath.Join(dir, "a.json"))
	waitFor(t, func() bool { return strings.Join(s.Models(), ",") == "b" })
	if code, _ := do(t, s, "GET", "/v2/models/a", "", nil); code != 404 {
		t.Errorf("a removed model answers %d", code)
	}
	writeAtomic(t, filepath.Join(dir, "c.json"), []byte("not a model"))
	if err := s.Reload(); err == nil || strings.Join(s.Models(), ",") != "b" {
		t.Errorf("a bad new file: %v, models %v", err, s.Models())
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !ok(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
	}
}

// TestShutdownDrains checks that Serve, told to stop, answers the request
// in flight before it returns, and accepts no new connection.
func TestShutdownDrains(t *testing.T) {
	s := newServer(t, testOptions())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln, "", "") }()
	url := "http://" + ln.Addr().String() + "/v1/models/iris/predict"
	// A request whose body comes slowly: in flight when the server stops.
	pr, pw := io.Pipe()
	answered := make(chan string, 1)
	go func() {
		resp, err := http.Post(url, "application/json", pr)
		if err != nil {
			answered <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		answered <- fmt.Sprint(resp.StatusCode, " ", string(b))
	}()
	io.WriteString(pw, `{"instances":[[5.1,3.5,`)
	time.Sleep(100 * time.Millisecond)
	cancel()
	time.Sleep(100 * time.Millisecond)
	select {
	case err := <-served:
		t.Fatalf("Serve returned before the request in flight was answered: %v", err)
	default:
	}
	io.WriteString(pw, `1.4,0.2]]}`)
	pw.Close()
	if got := <-answered; !strings.HasPrefix(got, "200 ") || !strings.Contains(got, "Iris-setosa") {
		t.Errorf("the request in flight: %s", got)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if _, err := http.Get("http://" + ln.Addr().String() + "/v2/health/live"); err == nil {
		t.Error("a new request was answered after the shutdown")
	} else if !errors.Is(err, os.ErrDeadlineExceeded) && !strings.Contains(err.Error(), "refused") {
		t.Logf("after the shutdown: %v", err)
	}
}
