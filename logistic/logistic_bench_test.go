package logistic

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/mathx"
	"github.com/gendisc/gendisc/internal/testsupport/refdata"
)

var benchRows = flag.Int("logistic.rows", 500_000, "rows of the synthetic logistic benchmarks (50,000 with -short)")

// benchData returns N × 100 synthetic features and labels of K classes:
// correlated Gaussian features with unequal means and scales (so that the
// standardisation matters), labels drawn from a softmax (K > 2) or sigmoid
// model with random weights. Deterministic for given N and K.
func benchData(N, K int) *data.Dataset {
	const D = 100
	rng := rand.New(rand.NewPCG(20261122, uint64(K)))
	mean, scale := make([]float64, D), make([]float64, D)
	for j := range D {
		mean[j] = rng.NormFloat64() * 5
		scale[j] = math.Exp(rng.NormFloat64())
	}
	k := K
	if K == 2 {
		k = 1
	}
	w := make([]float64, k*D)
	for i := range w {
		w[i] = rng.NormFloat64() * 0.3
	}
	x := make([]float64, N*D)
	y := make([]int, N)
	s := make([]float64, K)
	for i := range N {
		row := x[i*D : (i+1)*D]
		common := rng.NormFloat64()
		for j := range D {
			row[j] = 0.5*common + rng.NormFloat64()
		}
		for c := range k {
			s[c] = 0
			for j := range D {
				s[c] += w[c*D+j] * row[j]
			}
		}
		if K == 2 {
			if rng.Float64() < sigmoid(s[0]) {
				y[i] = 1
			}
		} else {
			y[i] = drawClass(rng, s[:k])
		}
		for j := range D {
			row[j] = mean[j] + scale[j]*row[j]
		}
	}
	features := make([]string, D)
	for j := range features {
		features[j] = fmt.Sprintf("x%d", j)
	}
	classes := make([]string, K)
	for c := range classes {
		classes[c] = fmt.Sprint(c)
	}
	return data.FromMatrix(features, x, classes, y)
}

// drawClass returns a class drawn from the softmax of the scores s.
func drawClass(rng *rand.Rand, s []float64) int {
	m, lse := mathx.MaxLogSumExp(s)
	u, acc := rng.Float64(), 0.0
	for c := range s {
		acc += math.Exp(s[c] - m - lse)
		if u < acc {
			return c
		}
	}
	return len(s) - 1
}

func benchFit(b *testing.B, K int, solver Solver) {
	N := *benchRows
	if testing.Short() {
		N = 50_000
	}
	d := benchData(N, K)
	cfg := Config{L2: 1, Solver: solver} // default Tol 1e-6, like scikit-learn's run
	b.ResetTimer()
	var m *Model
	cpu0 := cpuSeconds()
	for b.Loop() {
		var err error
		if m, err = cfg.Fit(d); err != nil {
			b.Fatal(err)
		}
	}
	// CPU time of the process (both cores), less sensitive than wall time
	// to other work on a shared machine.
	b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N), "cpu-s/op")
	diag := m.Diagnostics()
	b.ReportMetric(float64(diag.Iterations), "iters")
	b.ReportMetric(float64(diag.Evaluations), "evals")
	if ref, ok := sklearnObjective(b, K, N); ok {
		// Negative: the fit went below scikit-learn's final objective.
		b.ReportMetric((-diag.Objective-ref)/ref, "relJ_vs_sklearn")
	}
}

// sklearnObjective returns scikit-learn's final objective on the same data,
// from testdata/bench_sklearn.json (written by testdata/bench_sklearn.py),
// when it was computed for N rows.
func sklearnObjective(b *testing.B, K, N int) (float64, bool) {
	var ref map[string]struct {
		Rows      int
		Objective float64
	}
	refdata.ReadJSON(b, "testdata/bench_sklearn.json", &ref)
	r, ok := ref[fmt.Sprint(K)]
	return r.Objective, ok && r.Rows == N
}

// cpuSeconds returns the user and system CPU time of the process.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func BenchmarkFitBinary(b *testing.B)       { benchFit(b, 2, Auto) }
func BenchmarkFitMultinomial5(b *testing.B) { benchFit(b, 5, Auto) }

var benchExport = flag.String("logistic.export", "", "write the benchmark data sets to this directory (for testdata/bench_sklearn.py) and stop")

// TestExportBenchData writes the data of the benchmarks as raw
// little-endian float64 files X_K.bin (N × 100) and y_K.bin (labels as
// float64), K = 2 and 5, when -logistic.export is set.
func TestExportBenchData(t *testing.T) {
	if *benchExport == "" {
		t.Skip("no -logistic.export directory")
	}
	for _, K := range []int{2, 5} {
		d := benchData(*benchRows, K)
		for name, v := range map[string][]float64{"X": d.X, "y": d.Y} {
			path := filepath.Join(*benchExport, fmt.Sprintf("%s_%d.bin", name, K))
			b := make([]byte, 8*len(v))
			for i, x := range v {
				binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
