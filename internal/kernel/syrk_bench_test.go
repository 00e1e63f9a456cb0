//go:build unix

package kernel

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkSyrk times Syrk's blocking with every micro-kernel of
// syrkKernels (the one in use, the portable one, the assembly ones) and
// gonum's blas64.Syrk (pure Go; OpenBLAS's dsyrk in
// the openblas build: go test -tags openblas) on the shapes the models
// run: a block of 256 rows of 100 features (LDA and QDA fit), of 128 rows
// of 20 (a mixture's M-step), and one product of 20,000 rows of 100 (the
// cores shared). It reports GFLOP/s counting d(d+1)·n flops, per second
// of wall time and per second of the process's CPU time (user + system,
// all threads: on a machine loaded by other work, the figure the load
// moves least).
func BenchmarkSyrk(b *testing.B) {
	type impl struct {
		name string
		f    func(d, n int, a []float64, lda int, c []float64, ldc int)
	}
	impls := []impl{{"blas64", syrkBLAS64}}
	kernels := syrkKernels()
	for _, name := range slices.Sorted(maps.Keys(kernels)) {
		tile := kernels[name]
		impls = append(impls, impl{strings.ReplaceAll(name, " ", "_"), func(d, n int, a []float64, lda int, c []float64, ldc int) {
			syrk(tile, d, n, a, lda, c, ldc)
		}})
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for _, sz := range []struct{ d, n int }{{100, 256}, {20, 128}, {100, 20000}} {
		a := make([]float64, sz.d*sz.n)
		for i := range a {
			a[i] = rng.NormFloat64()
		}
		c := make([]float64, sz.d*sz.d)
		for _, im := range impls {
			b.Run(fmt.Sprintf("%dx%d/%s", sz.d, sz.n, im.name), func(b *testing.B) {
				cpu := cpuSeconds()
				for b.Loop() {
					im.f(sz.d, sz.n, a, sz.n, c, sz.d)
				}
				flops := float64(sz.d*(sz.d+1)*sz.n) * float64(b.N)
				b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
				b.ReportMetric(flops/(cpuSeconds()-cpu)/1e9, "GFLOP/cpu-s")
			})
		}
	}
}

// cpuSeconds returns the user and system CPU time of the process so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// BenchmarkSyrkNarrow times the Hessian of a two-class logistic
// regression's Newton step on 20 features (d = 21 with the intercept):
// SyrkPacked on chunks of n rows already packed (the logistic package
// writes its scaled rows in the packed layout), padded to 32, against
// gonum's blas64.Syrk on the same chunk row-major (d × n). GFLOP/s counts
// the d(d+1)·n flops the triangle needs, not the padding's.
//
//	go test ./internal/kernel -run NONE -bench SyrkNarrow
func BenchmarkSyrkNarrow(b *testing.B) {
	const d = 21
	rng := rand.New(rand.NewPCG(2, 2))
	for _, n := range []int{64, 256, 1024} {
		a := make([]float64, d*n)
		for i := range a {
			a[i] = rng.NormFloat64()
		}
		gs := groupRows * n
		p := make([]float64, 2*gs)
		for i := range d {
			for k := range n {
				p[i/groupRows*gs+k*groupRows+i%groupRows] = a[i*n+k]
			}
		}
		c := make([]float64, d*d)
		for _, im := range []struct {
			name string
			f    func()
		}{
			{"packed", func() { SyrkPacked(d, n, p, gs, c, d) }},
			{"blas64", func() { syrkBLAS64(d, n, a, n, c, d) }},
		} {
			b.Run(fmt.Sprintf("%dx%d/%s", d, n, im.name), func(b *testing.B) {
				for b.Loop() {
					im.f()
				}
				b.ReportMetric(float64(d*(d+1)*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
