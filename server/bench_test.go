package server

import (
	"bytes"
	"net/http/httptest"
	"testing"
)

// benchRequest measures the handler alone on one request body.
func benchRequest(b *testing.B, path string, body []byte, rows int) {
	s := newServer(b, testOptions())
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		r := httptest.NewRequest("POST", path, bytes.NewReader(body))
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code != 200 {
			b.Fatalf("%d %s", w.Code, w.Body)
		}
	}
	b.ReportMetric(float64(rows*b.N)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkPredictRow(b *testing.B) {
	_, d := readData(b, "iris", "iris")
	benchRequest(b, "/v1/models/iris/predict", mustJSON(b, map[string]any{"instances": instances(d, 0, 1)}), 1)
}

func BenchmarkInferRow(b *testing.B) {
	_, d := readData(b, "iris", "iris")
	benchRequest(b, "/v2/models/iris/infer", mustJSON(b, map[string]any{"inputs": columnTensors(d, 0, 1)}), 1)
}

func BenchmarkPredict1000(b *testing.B) {
	_, d := readData(b, "iris", "iris")
	var rows []map[string]any
	for len(rows) < 1000 {
		rows = append(rows, instances(d, 0, d.N)...)
	}
	benchRequest(b, "/v1/models/iris/predict", mustJSON(b, map[string]any{"instances": rows[:1000]}), 1000)
}

func BenchmarkInfer1000(b *testing.B) {
	_, d := readData(b, "iris", "iris")
	X := make([]float64, 0, 4000)
	for len(X) < 4000 {
		X = append(X, d.X...)
	}
	body := mustJSON(b, map[string]any{"inputs": []map[string]any{{"name": "x", "shape": []int{1000, 4}, "datatype": "FP64", "data": X[:4000]}}})
	benchRequest(b, "/v2/models/iris/infer", body, 1000)
}

func BenchmarkPredict1000Arrays(b *testing.B) {
	_, d := readData(b, "iris", "iris")
	rows := make([][]float64, 1000)
	for i := range rows {
		k := i % d.N
		rows[i] = d.X[k*4 : (k+1)*4]
	}
	benchRequest(b, "/v1/models/iris/predict", mustJSON(b, map[string]any{"instances": rows}), 1000)
}
