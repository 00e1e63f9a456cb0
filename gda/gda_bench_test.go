package gda

import (
	"math/rand/v2"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gendisc/gendisc/data"
)

// The benchmarks run on the synthetic shape: 500,000 rows, 100
// features, 5 classes (50,000 rows with -short):
//
//	go test -run '^$' -bench . -benchtime 3x ./gda
//	go test -tags openblas -run '^$' -bench . -benchtime 3x ./gda
//
// Besides the wall time they report the CPU time of the process per
// operation (cpu-ns/op, user and system, all goroutines), which a machine
// shared with other work disturbs less.
//
// Each class has its own mean and a banded covariance
// (x_j = z_j + ½ z_{j−1} + μ_kj, z standard normal).
const (
	benchRows     = 500_000
	benchFeatures = 100
	benchClasses  = 5
)

var bench = sync.OnceValue(func() *data.Dataset {
	n := benchRows
	if testing.Short() {
		n /= 10
	}
	p, K := benchFeatures, benchClasses
	rng := rand.New(rand.NewPCG(1, 2))
	classes := make([]string, K)
	mu := make([]float64, K*p)
	for k := range classes {
		classes[k] = "c" + strconv.Itoa(k)
		for j := range p {
			mu[k*p+j] = rng.NormFloat64()
		}
	}
	d := &data.Dataset{Schema: &data.Schema{Target: &data.Column{Name: "class", Kind: data.Categorical, Levels: classes}},
		N: n, X: make([]float64, n*p), Y: make([]float64, n), Source: data.Named("bench")}
	for j := range p {
		d.Schema.Features = append(d.Schema.Features, data.Column{Name: "x" + strconv.Itoa(j), Kind: data.Numeric})
	}
	z := make([]float64, p)
	for i := range n {
		k := rng.IntN(K)
		d.Y[i] = float64(k)
		for j := range z {
			z[j] = rng.NormFloat64()
		}
		row := d.X[i*p : (i+1)*p]
		for j := range row {
			row[j] = z[j] + mu[k*p+j]
			if j > 0 {
				row[j] += z[j-1] / 2
			}
		}
	}
	return d
})

// cpuTime returns the user and system time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// measure runs op b.N times and reports its CPU time per operation.
func measure(b *testing.B, op func()) {
	b.ResetTimer()
	start := cpuTime()
	for b.Loop() {
		op()
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

func BenchmarkLDAFit(b *testing.B) {
	d := bench()
	measure(b, func() {
		if _, err := (LDAConfig{}).Fit(d); err != nil {
			b.Fatal(err)
		}
	})
}

func BenchmarkQDAFit(b *testing.B) {
	d := bench()
	measure(b, func() {
		if _, err := (QDAConfig{}).Fit(d); err != nil {
			b.Fatal(err)
		}
	})
}

func BenchmarkLDAPredict(b *testing.B) {
	d := bench()
	m, err := LDAConfig{}.Fit(d)
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]float64, d.N*benchClasses)
	measure(b, func() { m.LogProba(dst, d) })
}

func BenchmarkQDAPredict(b *testing.B) {
	d := bench()
	m, err := QDAConfig{}.Fit(d)
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]float64, d.N*benchClasses)
	measure(b, func() { m.LogProba(dst, d) })
}

// BenchmarkSolver times the squared distances of 256 rows to one class of
// the benchmark's QDA (p = 100), on one core: the kernel of QDA's
// prediction, with BLAS Trsm and with the lane solver (kernel.SolveLanes).
func BenchmarkSolver(b *testing.B) {
	d := bench()
	m, err := QDAConfig{}.Fit(d.Subset(seq(0, 2000)))
	if err != nil {
		b.Fatal(err)
	}
	c, p, rows := m.m.comps[0], d.D(), chunkRows
	x := d.X[:rows*p]
	q := make([]float64, rows)
	z := make([]float64, rows*p)
	flops := func(b *testing.B) {
		b.ReportMetric(float64(rows*p*p)/(float64(b.Elapsed().Nanoseconds())/float64(b.N)), "GFLOP/s")
	}
	b.Run("trsm", func(b *testing.B) {
		for b.Loop() {
			for i := range z {
				z[i] = x[i] - c.centre[i%p]
			}
			trsmRows(c.f, z, rows)
		}
		flops(b)
	})
	b.Run("lanes", func(b *testing.B) {
		xt := make([]float64, rows*p)
		for b.Loop() {
			transposeRows(xt, x, p)
			c.ls.distances(q, z, xt, p, rows, c.centre)
		}
		flops(b)
	})
}
