package server

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/models"
)

// allocated returns the bytes allocated while f runs (all goroutines).
func allocated(f func()) uint64 {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// repeat returns head, n copies of item separated by sep, and tail.
func repeat(head, item, sep, tail string, n int) string {
	return head + strings.Repeat(item+sep, n-1) + item + tail
}

// hostile holds request bodies that once took memory out of proportion
// to their size, or kill the process: each is answered with its status,
// allocating at most decodeFactor·MaxBodyBytes.
func hostile(maxBody int) []struct {
	name, path, ctype, body string
	status                  int
	msg                     string
} {
	fill := func(head, item, sep, tail string) string {
		return repeat(head, item, sep, tail, (maxBody-len(head)-len(tail))/(len(item)+len(sep)))
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("sepallength,sepalwidth,petallength,petalwidth\n"))
	for range 20000 {
		zw.Write([]byte(strings.Repeat("1,2,3,4\n", 1000)))
	}
	zw.Close()
	tensor := func(shape, dt, data string) string {
		return `{"inputs":[{"name":"x","shape":` + shape + `,"datatype":"` + dt + `","data":` + data + `}]}`
	}
	return []struct {
		name, path, ctype, body string
		status                  int
		msg                     string
	}{
		{"huge shape FP64", "/v2/models/iris/infer", "", tensor("[80000000000,4]", "FP64", "[1,2,3,4]"), 413, "more than the limit"},
		{"huge shape FP32", "/v2/models/iris/infer", "", tensor("[80000000000,4]", "FP32", "[1,2,3,4]"), 413, "more than the limit"},
		{"huge shape BOOL", "/v2/models/iris/infer", "", tensor("[80000000000,4]", "BOOL", "[true,false,true,true]"), 413, "more than the limit"},
		{"huge shape BYTES", "/v2/models/votes/infer", "", `{"inputs":[{"name":"crime","shape":[80000000000],"datatype":"BYTES","data":["y"]}]}`, 413, "more than the limit"},
		{"shape of 10^9", "/v2/models/iris/infer", "", `{"inputs":[{"name":"sepallength","shape":[1000000000],"datatype":"FP64","data":[1]}]}`, 413, "more than the limit"},
		{"shape of 5·10^6", "/v2/models/iris/infer", "", `{"inputs":[{"name":"sepallength","shape":[5000000],"datatype":"FP64","data":[1]}]}`, 413, "more than the limit"},
		{"shape within the rows, beyond the body", "/v2/models/iris/infer", "", tensor("[9000,4]", "FP64", "[1,2,3,4]"), 400, "more than a request"},
		{"a shape of arrays", "/v2/models/iris/infer", "", tensor("[[1,2]]", "FP64", "[1,2,3,4]"), 400, "malformed JSON"},
		{"shape of many dimensions", "/v2/models/iris/infer", "", tensor(fill(`[`, "1", ",", `]`)[:maxBody/2]+"]", "FP64", "[1]"), 400, "dimensions"},
		{"empty objects", "/v1/models/iris/predict", "application/json", fill(`{"instances":[`, "{}", ",", "]}"), 422, "missing field"},
		{"empty arrays", "/v1/models/iris/predict", "application/json", fill(`{"instances":[`, "[]", ",", "]}"), 422, "an array of 0 values"},
		{"nulls of votes", "/v1/models/votes/predict", "application/json", fill(`{"instances":[`, "[null]", ",", "]}"), 422, "an array of 1 values"},
		{"rows past the limit", "/v1/models/iris/predict", "application/json", fill(`{"instances":[`, "[1,2,3,4]", ",", "]}"), 413, "more than the limit"},
		{"object rows past the limit", "/v1/models/iris/predict", "application/json",
			fill(`{"instances":[`, `{"sepallength":1,"sepalwidth":2,"petallength":3,"petalwidth":4}`, ",", "]}"), 413, "more than the limit"},
		{"a flood of braces", "/v1/models/iris/predict", "application/json",
			`{"instances":[{"sepallength":1,"sepalwidth":2,"petallength":3,"petalwidth":4},"` + strings.Repeat("{", maxBody-100) + `"]}`, 422, "neither"},
		{"deep nesting", "/v1/models/iris/predict", "application/json", fill(`{"instances":`, "[", "", ""), 400, "nest deeper"},
		{"deep nesting v2", "/v2/models/iris/infer", "application/json", (`{"parameters":` + fill(`{"a":`, `{"a":`, "", ""))[:maxBody], 400, "nest deeper"},
		{"many parameters", "/v2/models/iris/infer", "", fill(`{"parameters":{`, `"p":0`, ",", `}}`), 400, "more than 1000 keys"},
		{"many distinct parameters", "/v2/models/iris/infer", "", func() string {
			var b strings.Builder
			b.WriteString(`{"parameters":{`)
			for i := 0; b.Len() < maxBody-100; i++ {
				fmt.Fprintf(&b, `"%x":0,`, i)
			}
			b.WriteString(`"x":0}}`)
			return b.String()
		}(), 400, "more than 1000 keys"},
		{"many outputs", "/v2/models/iris/infer", "", fill(`{"outputs":[`, `{"name":"proba"}`, ",", `]}`), 400, "more than 16 outputs"},
		{"a long id", "/v2/models/iris/infer", "", `{"id":"` + strings.Repeat("a", maxBody-100) + `","inputs":[]}`, 400, "no inputs"},
		{"many strings", "/v2/models/votes/infer", "", fill(`{"inputs":[{"name":"crime","shape":[5000],"datatype":"BYTES","data":[`, `"y"`, ",", `]}]}`), 400, "more values than shape"},
		{"a gzip body", "/v1/models/iris/predict", "text/csv", gz.String(), 415, "not plain CSV"},
		{"CSV rows past the limit", "/v1/models/iris/predict", "text/csv", fill("sepallength,sepalwidth,petallength,petalwidth\n", "1,2,3,4", "\n", "\n"), 413, "more than the limit"},
	}
}

// TestHostileBodies sends the bodies of hostile: each is answered with
// its status and error, allocating at most decodeFactor·MaxBodyBytes
// (runtime.MemStats.TotalAlloc, which counts every allocation, freed or
// not), and the server answers a good request after them.
func TestHostileBodies(t *testing.T) {
	const maxBody = 1 << 20
	opt := testOptions()
	opt.MaxBodyBytes = maxBody
	opt.MaxRows = 10_000
	s := newServer(t, opt)
	for _, c := range hostile(maxBody) {
		if len(c.body) > maxBody {
			t.Fatalf("%s: a body of %d bytes", c.name, len(c.body))
		}
		var code int
		var body []byte
		n := allocated(func() { code, body = do(t, s, "POST", c.path, c.ctype, []byte(c.body)) })
		if code != c.status || !bytes.Contains(body, []byte(c.msg)) {
			t.Errorf("%s: %d %.300s, want %d and %q", c.name, code, body, c.status, c.msg)
		}
		if n > decodeFactor*maxBody && !raceDetector {
			t.Errorf("%s: %d bytes allocated, %.1f times the body limit, more than %d", c.name, n, float64(n)/maxBody, decodeFactor)
		}
		t.Logf("%-40s %d %6.2f × max-body", c.name, code, float64(n)/maxBody)
	}
	if code, body := do(t, s, "POST", "/v1/models/iris/predict", "", []byte(`{"instances":[[5.1,3.5,1.4,0.2]]}`)); code != 200 {
		t.Errorf("a good request after: %d %s", code, body)
	}
}

// TestLargestRequests sends the largest good requests of each form,
// bodies of nearly MaxBodyBytes: each is answered 200, and reading and
// decoding it, chunked (without a Content-Length, the most costly),
// allocates at most decodeFactor·MaxBodyBytes. It logs what the whole
// request allocates, predictions and answer included (and the test's
// recorder of the answer).
func TestLargestRequests(t *testing.T) {
	const maxBody = 1 << 20
	opt := testOptions()
	opt.MaxBodyBytes = maxBody
	opt.MaxRows = 1 << 20
	s := newServer(t, opt)
	fill := func(head, item, sep, tail string) string {
		return repeat(head, item, sep, tail, (maxBody-len(head)-len(tail))/(len(item)+len(sep)))
	}
	for _, c := range []struct{ name, path, ctype, body string }{
		{"array rows", "/v1/models/iris/predict", "", fill(`{"instances":[`, "[1,2,3,4]", ",", "]}")},
		{"object rows", "/v1/models/iris/predict", "", fill(`{"instances":[`, `{"sepallength":1,"sepalwidth":2,"petallength":3,"petalwidth":4}`, ",", "]}")},
		{"CSV rows", "/v1/models/iris/predict", "text/csv", fill("sepallength,sepalwidth,petallength,petalwidth\n", "1,2,3,4", "\n", "\n")},
		{"scores", "/v1/models/iris/score", "", fill(`{"instances":[`, "[1,2,3,4]", ",", "]}")},
		{"a tensor", "/v2/models/iris/infer", "", func() string {
			n := (maxBody - 100) / 8
			return `{"inputs":[{"name":"x","shape":[` + fmt.Sprint(n) + `,4],"datatype":"FP64","data":[` + repeat("", "1,2,3,4", ",", "", n) + `]}]}`
		}()},
		{"text rows", "/v1/models/sms/predict", "", fill(`{"instances":[`, `["a b"]`, ",", "]}")},
		{"a long text", "/v2/models/sms/infer", "", `{"inputs":[{"name":"text","shape":[1],"datatype":"BYTES","data":["` + strings.Repeat("a ", maxBody/2-100) + `"]}]}`},
		{"CSV of missing cells", "/v1/models/iris/predict", "text/csv", fill("sepallength,sepalwidth,petallength,petalwidth\n", "NA,NA,NA,NA", "\n", "\n")},
		{"categorical rows", "/v1/models/votes/predict", "", fill(`{"instances":[`, `["y","n","y","n","y","n","y","n","y","n","y","n","y","n","y","n"]`, ",", "]}")},
	} {
		var code int
		var body []byte
		n := allocated(func() { code, body = do(t, s, "POST", c.path, c.ctype, []byte(c.body)) })
		if code != 200 {
			t.Errorf("%s: %d %.300s", c.name, code, body)
		}
		// Decoding alone: the body read into a buffer, and its rows.
		model := strings.Split(c.path, "/")[3]
		e := s.model(model)
		var err error
		// The body comes chunked, without a Content-Length: the worst.
		r := httptest.NewRequest("POST", c.path, io.MultiReader(strings.NewReader(c.body)))
		dec := allocated(func() {
			buf := new(bytes.Buffer)
			s.readBody(&call{w: httptest.NewRecorder(), r: r}, buf)
			switch {
			case c.ctype == "text/csv":
				_, err = readCSV(buf.Bytes(), e.model.Schema(), s.rowLimit(e), maxBody)
			case strings.HasPrefix(c.path, "/v2"):
				_, _, err = s.readInfer(buf.Bytes(), e)
			default:
				err = newTable(e.model.Schema(), false).instances(buf.Bytes(), s.rowLimit(e))
			}
		})
		if err != nil || dec > decodeFactor*maxBody && !raceDetector {
			t.Errorf("%s: decoding: %v, %d bytes allocated, %.2f times the body limit", c.name, err, dec, float64(dec)/maxBody)
		}
		t.Logf("%-20s %d bytes in, %d out: decoding %5.2f × max-body, all %5.2f", c.name, len(c.body), len(body), float64(dec)/maxBody, float64(n)/maxBody)
	}
}

// TestCSVCells checks that a CSV body of more cells (rows × features)
// than half the body limit is refused before it is read: the rows of
// empty cells that take a byte each: 40,000 rows of the 16 columns of
// votes are 640,000 cells, more than 2^19.
func TestCSVCells(t *testing.T) {
	opt := testOptions()
	opt.MaxBodyBytes = 1 << 20
	opt.MaxRows = 1 << 20
	s := newServer(t, opt)
	var names []string
	for _, c := range s.model("votes").model.Schema().Features {
		names = append(names, c.Name)
	}
	body := repeat(strings.Join(names, ",")+"\n", strings.Repeat(",", 15), "\n", "\n", 40_000)
	var code int
	var ans []byte
	n := allocated(func() { code, ans = do(t, s, "POST", "/v1/models/votes/predict", "text/csv", []byte(body)) })
	if code != 413 || !bytes.Contains(ans, []byte("cells")) || n > 2*uint64(opt.MaxBodyBytes) && !raceDetector {
		t.Errorf("%d %.200s, %d bytes allocated", code, ans, n)
	}
}

// TestRowLimitOfClasses checks that a model of K classes takes at most
// MaxBodyBytes/(2(K+1)) rows: sms, 2 classes, at most 170 rows of a
// body limit of 1 KiB.
func TestRowLimitOfClasses(t *testing.T) {
	opt := testOptions()
	opt.MaxBodyBytes = 1024
	s := newServer(t, opt)
	for rows, want := range map[int]int{170: 200, 171: 413} {
		body := repeat(`{"instances":[`, `[""]`, ",", "]}", rows)
		if code, ans := do(t, s, "POST", "/v1/models/sms/predict", "", []byte(body)); code != want {
			t.Errorf("%d rows: %d %.200s, want %d", rows, code, ans, want)
		}
	}
}

// TestExpectContinue checks that a request announcing a body over the
// limit, waiting for 100 Continue, is answered 413 at once instead.
func TestExpectContinue(t *testing.T) {
	srv := httptest.NewServer(newServer(t, testOptions()))
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /v1/models/iris/predict HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\nExpect: 100-continue\r\n\r\n")
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 413 || !bytes.Contains(b, []byte("larger than the limit")) {
		t.Errorf("%d %s, want 413 before the body", resp.StatusCode, b)
	}
}

// TestInflightLimit holds MaxInflight requests in flight, their bodies
// coming slowly: one more is answered 503 with Retry-After, the health
// checks and the metadata still 200, and once the bodies end every
// request in flight is answered.
func TestInflightLimit(t *testing.T) {
	opt := testOptions()
	opt.MaxInflight = 2
	srv := httptest.NewServer(newServer(t, opt))
	defer srv.Close()
	url := srv.URL + "/v1/models/iris/predict"
	var writers []*io.PipeWriter
	answers := make(chan int, opt.MaxInflight)
	for range opt.MaxInflight {
		pr, pw := io.Pipe()
		writers = append(writers, pw)
		go func() {
			resp, err := http.Post(url, "application/json", pr)
			if err != nil {
				answers <- 0
				return
			}
			resp.Body.Close()
			answers <- resp.StatusCode
		}()
		io.WriteString(pw, `{"instances":[[5.1,3.5,`)
	}
	time.Sleep(200 * time.Millisecond) // both in their handlers
	start := time.Now()
	resp, err := http.Post(url, "application/json", strings.NewReader(`{"instances":[[5.1,3.5,1.4,0.2]]}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" || !bytes.Contains(b, []byte("its limit: retry later")) {
		t.Errorf("one request more: %d %q %s, want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"), b)
	}
	if waited := time.Since(start); waited < inflightWait/2 {
		t.Errorf("answered 503 after %v, without waiting for a place", waited)
	}
	for _, path := range []string{"/v2/health/ready", "/v2/models/iris", "/metrics"} {
		if resp, err := http.Get(srv.URL + path); err != nil || resp.StatusCode != 200 {
			t.Errorf("GET %s while full: %v %v", path, resp, err)
		} else {
			resp.Body.Close()
		}
	}
	for _, pw := range writers {
		io.WriteString(pw, `1.4,0.2]]}`)
		pw.Close()
	}
	for range opt.MaxInflight {
		if code := <-answers; code != 200 {
			t.Errorf("a request in flight: %d", code)
		}
	}
}

// TestStrictJSON checks what the decoders refuse that encoding/json
// takes: invalid UTF-8 in a string and a key named twice, in every
// object of every endpoint, and the error naming the key.
func TestStrictJSON(t *testing.T) {
	s := newServer(t, testOptions())
	row := `"sepallength":5.1,"sepalwidth":3.5,"petallength":1.4,"petalwidth":0.2`
	for _, c := range []struct{ name, path, body, msg string }{
		{"UTF-8 in a key", "/v1/models/iris/predict", `{"instances":[{"sepal` + "\xff" + `length":5.1}]}`, "invalid UTF-8"},
		{"UTF-8 in a category", "/v1/models/votes/predict", `{"instances":[{"crime":"` + "\xc3\x28" + `"}]}`, "invalid UTF-8"},
		{"UTF-8 in a text", "/v2/models/sms/infer", `{"inputs":[{"name":"text","shape":[1],"datatype":"BYTES","data":["caf` + "\xe9" + `"]}]}`, "invalid UTF-8"},
		{"UTF-8 in an escaped string", "/v2/models/sms/infer", `{"inputs":[{"name":"text","shape":[1],"datatype":"BYTES","data":["\n` + "\xed\xa0\x80" + `"]}]}`, "invalid UTF-8"},
		{"a lone surrogate", "/v2/models/sms/infer", `{"inputs":[{"name":"text","shape":[1],"datatype":"BYTES","data":["\ud800"]}]}`, "surrogate"},
		{"UTF-8 in an id", "/v2/models/iris/infer", `{"id":"` + "\x80" + `","inputs":[]}`, "invalid UTF-8"},
		{"UTF-8 in a parameter", "/v2/models/iris/infer", `{"parameters":{"a":["` + "\xff" + `"]},"inputs":[]}`, "invalid UTF-8"},
		{"a field twice in a row", "/v1/models/iris/predict", `{"instances":[{` + row + `,"sepalwidth":1}]}`, `the key "sepalwidth" twice`},
		{"instances twice", "/v1/models/iris/predict", `{"instances":[[1,2,3,4]],"instances":[[1,2,3,4]]}`, `the key "instances" twice`},
		{"inputs twice", "/v2/models/iris/infer", `{"inputs":[],"inputs":[]}`, `the key "inputs" twice`},
		{"a tensor's name twice", "/v2/models/iris/infer", `{"inputs":[{"name":"x","name":"y","shape":[1,4],"datatype":"FP64","data":[1,2,3,4]}]}`, `the key "name" twice`},
		{"a parameter twice", "/v2/models/iris/infer", `{"parameters":{"a":1,"b":{"c":1,"c":2}},"inputs":[]}`, `the key "c" twice`},
		{"an escaped key twice", "/v2/models/iris/infer", `{"parameters":{"a":1,"\u0061":2},"inputs":[]}`, `the key "a" twice`},
		{"an output's name twice", "/v2/models/iris/infer", `{"outputs":[{"name":"proba","name":"label"}],"inputs":[]}`, `the key "name" twice`},
	} {
		code, body := do(t, s, "POST", c.path, "application/json", []byte(c.body))
		var e struct{ Error string }
		if code != 400 || json.Unmarshal(body, &e) != nil || !strings.Contains(e.Error, c.msg) {
			t.Errorf("%s: %d %.200s, want 400 and %q", c.name, code, body, c.msg)
		}
	}
	// Valid UTF-8, escapes and all, is read as it is.
	code, body := do(t, s, "POST", "/v1/models/votes/predict", "application/json", []byte(`{"instances":[{"crime":"\u00e9t\u00e9 \ud83d\ude00 été"}]}`))
	if code != 422 || !bytes.Contains(body, []byte("missing field")) {
		t.Errorf("valid UTF-8: %d %s", code, body)
	}
}

// TestShapeMessage checks the error of a tensor [n, d] whose d is not the
// model's number of features.
func TestShapeMessage(t *testing.T) {
	s := newServer(t, testOptions())
	code, body := do(t, s, "POST", "/v2/models/iris/infer", "", []byte(`{"inputs":[{"name":"x","shape":[1,3],"datatype":"FP64","data":[1,2,3]}]}`))
	if code != 400 || !bytes.Contains(body, []byte("shape [1 3] does not match the model's 4 features")) {
		t.Errorf("%d %s", code, body)
	}
}

// TestStreamedAnswer checks an answer longer than answerChunk, sent as it
// is written: the CSV is gendisc predict's byte for byte, the JSON holds
// every row, and neither has a Content-Length.
func TestStreamedAnswer(t *testing.T) {
	s := newServer(t, testOptions())
	_, d := readData(t, "iris", "iris")
	const n = 20_000
	rows := make([][]float64, n)
	for i := range rows {
		k := i % d.N
		rows[i] = d.X[k*4 : (k+1)*4]
	}
	body := mustJSON(t, map[string]any{"instances": rows})
	X := make([]float64, 0, n*4)
	for _, r := range rows {
		X = append(X, r...)
	}
	p, err := models.Predict(s.model("iris").model, &data.Dataset{Schema: d.Schema, N: n, X: X})
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	p.WriteCSV(&want)
	for _, accept := range []string{"text/csv", "application/json"} {
		r := httptest.NewRequest("POST", "/v1/models/iris/predict", bytes.NewReader(body))
		r.Header.Set("Accept", accept)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code != 200 || w.Body.Len() < answerChunk || w.Header().Get("Content-Length") != "" {
			t.Fatalf("%s: %d, %d bytes, Content-Length %q", accept, w.Code, w.Body.Len(), w.Header().Get("Content-Length"))
		}
		if accept == "text/csv" && !bytes.Equal(w.Body.Bytes(), want.Bytes()) {
			t.Errorf("the streamed CSV differs from gendisc predict's")
		}
		var ans struct{ Predictions []map[string]any }
		if accept != "text/csv" && (json.Unmarshal(w.Body.Bytes(), &ans) != nil || len(ans.Predictions) != n) {
			t.Errorf("the streamed JSON: %d predictions", len(ans.Predictions))
		}
	}
}

// TestReadBody checks what reading a body allocates: once its size with a
// Content-Length, at most 1.7 times the limit without (a chunked body), and
// that a body over the limit is refused either way.
func TestReadBody(t *testing.T) {
	const maxBody = 1 << 20
	opt := testOptions()
	opt.MaxBodyBytes = maxBody
	s := newServer(t, opt)
	text := strings.Repeat("x", maxBody-10)
	for _, c := range []struct {
		name   string
		body   io.Reader
		most   uint64
		status int
	}{
		{"Content-Length", strings.NewReader(text), maxBody + maxBody/8, 0},
		{"chunked", io.MultiReader(strings.NewReader(text)), 17 * maxBody / 10, 0},
		{"over the limit", strings.NewReader(text + text), 17 * maxBody / 10, 413},
		{"chunked over the limit", io.MultiReader(strings.NewReader(text + text)), 17 * maxBody / 10, 413},
	} {
		r := httptest.NewRequest("POST", "/v1/models/iris/predict", c.body)
		w := httptest.NewRecorder()
		var buf bytes.Buffer
		ok := false
		n := allocated(func() { ok = s.readBody(&call{w: w, r: r}, &buf) })
		if ok != (c.status == 0) || !ok && w.Code != c.status || ok && buf.String() != text {
			t.Errorf("%s: %v, status %d, %d bytes read", c.name, ok, w.Code, buf.Len())
		}
		if n > c.most && !raceDetector {
			t.Errorf("%s: %d bytes allocated, %.2f times the limit", c.name, n, float64(n)/maxBody)
		}
	}
}
