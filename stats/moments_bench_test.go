package stats

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"time"
)

func BenchmarkAdd(b *testing.B) {
	const n, d, k = 1_000_000, 50, 10
	r := rand.New(rand.NewPCG(1, 1))
	x, y, _ := randomRows(r, n, d, k, false, false)
	b.SetBytes(int64(len(x) * 8))
	for b.Loop() {
		NewMoments(k, d).Add(x, y, nil)
	}
}

func BenchmarkClassesAdd(b *testing.B) {
	const n, d, k = 200_000, 20, 5
	r := rand.New(rand.NewPCG(1, 1))
	x, y, w := correlatedRows(r, n, d, k)
	b.SetBytes(int64(len(x) * 8))
	for b.Loop() {
		NewClasses(k, d, false).Add(x, y, w)
	}
}

// BenchmarkClassesAddGDA times Classes.Add on the shape of the LDA and QDA
// fits of bench/run (500,000 rows of 100 features in 5 classes, no
// weights), with the CPU time of the process per operation (cpu-ns/op,
// user and system, all goroutines), which a machine loaded by other work
// disturbs less than the wall time.
func BenchmarkClassesAddGDA(b *testing.B) {
	const n, d, k = 500_000, 100, 5
	r := rand.New(rand.NewPCG(1, 1))
	x, y, _ := randomRows(r, n, d, k, false, false)
	c := NewClasses(k, d, false)
	b.SetBytes(int64(len(x) * 8))
	cpu := cpuTime()
	for b.Loop() {
		c.Reset()
		c.Add(x, y, nil)
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
}

// cpuTime returns the user and system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
