package kernel

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/gendisc/gendisc/internal/mathx"
)

// BenchmarkSoftmaxRows times SoftmaxRows on a chunk of 256 rows of 10
// joint log-likelihoods a few units apart around −70 (naive Bayes on 50
// features, 10 classes), in cache.
func BenchmarkSoftmaxRows(b *testing.B) {
	const rows, k = 256, 10
	rng := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, rows*k)
	for i := range x {
		x[i] = -70 + 3*rng.NormFloat64()
	}
	y, e := make([]float64, len(x)), make([]float64, len(x)+3)
	start := cpuTime()
	for b.Loop() {
		copy(y, x)
		SoftmaxRows(y, k, e, nil)
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N*rows), "cpu-ns/row")
}

// BenchmarkSoftmaxRowsMathx is BenchmarkSoftmaxRows with mathx.Softmax on
// each row, the portable one-row softmax: the side-by-side measure of
// why SoftmaxRows, hand-written, is kept for the batch paths
//
//	go test ./internal/kernel -run '^$' -bench 'SoftmaxRows' -count 3
func BenchmarkSoftmaxRowsMathx(b *testing.B) {
	const rows, k = 256, 10
	rng := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, rows*k)
	for i := range x {
		x[i] = -70 + 3*rng.NormFloat64()
	}
	y := make([]float64, len(x))
	start := cpuTime()
	for b.Loop() {
		copy(y, x)
		for r := 0; r < len(y); r += k {
			mathx.Softmax(y[r : r+k])
		}
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N*rows), "cpu-ns/row")
}

// cpuTime returns the user and system time of the process so far, which
// a machine shared with other work disturbs less than the wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
