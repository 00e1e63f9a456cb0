package kernel

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// TestSolveLanes checks every SolveLanes of the build (the portable one and
// each assembly one the processor runs) against a forward substitution
// done one lane at a time on the unpacked factor, to 1e-13 relative: for
// every p from 1 to 2·4 + 3 (the features' blocks of four, the last
// p mod 4 one at a time) and every n from 1 to 2·32 + 3 (the lanes'
// blocks), with row strides of the lanes rounded up plus an odd number,
// and p = 100 (the benchmarks' QDA) for some n. The padding between the
// lanes and the stride must stay untouched, and a NaN cell must stay in
// its lane.
func TestSolveLanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	type shape struct{ p, n int }
	var shapes []shape
	for p := 1; p <= 2*4+3; p++ {
		for n := 1; n <= 2*LaneBlock+3; n++ {
			shapes = append(shapes, shape{p, n})
		}
	}
	for _, n := range []int{1, 31, 32, 33, 100} {
		shapes = append(shapes, shape{100, n}, shape{21, n})
	}
	for name, solve := range solveLanesKernels() {
		for _, s := range shapes {
			p, n := s.p, s.n
			ld := roundLanes(n) + 1 + 2*(n%3)
			l := make([]float64, p*p)
			for j := range p {
				for i := range j {
					l[j*p+i] = rng.NormFloat64() / math.Sqrt(float64(p)) // the growth of a covariance's factor
				}
				l[j*p+j] = 0.5 + rng.Float64()
				for i := j + 1; i < p; i++ {
					l[j*p+i] = math.NaN() // never read
				}
			}
			x, c := make([]float64, p*ld), make([]float64, p)
			for i := range x {
				x[i] = rng.NormFloat64()
			}
			for j := range c {
				c[j] = rng.NormFloat64()
			}
			nanLane := -1
			if n > 2 {
				nanLane = n / 2
				x[(p/2)*ld+nanLane] = math.NaN()
			}
			const guard = 12345.5
			z, q := make([]float64, p*ld), make([]float64, ld)
			for i := range z {
				z[i] = guard
			}
			for i := range q {
				q[i] = guard
			}
			solve(NewTri(l, p), z, q, x, ld, c, n)
			want := make([]float64, p)
			for lane := range roundLanes(n) {
				wq := 0.0
				for j := range p {
					v := x[j*ld+lane] - c[j]
					for i := range j {
						v -= l[j*p+i] * want[i]
					}
					want[j] = v / l[j*p+j]
					wq += want[j] * want[j]
				}
				if lane == nanLane {
					if !math.IsNaN(q[lane]) {
						t.Fatalf("%s p=%d n=%d: q of the lane with a NaN is %v", name, p, n, q[lane])
					}
					continue
				}
				for j, w := range want {
					if g := z[j*ld+lane]; math.Abs(g-w) > 1e-13*max(1, math.Abs(w)) {
						t.Fatalf("%s p=%d n=%d ld=%d: z[%d][%d] = %v, want %v", name, p, n, ld, j, lane, g, w)
					}
				}
				if math.Abs(q[lane]-wq) > 1e-13*max(1, wq) {
					t.Fatalf("%s p=%d n=%d ld=%d: q[%d] = %v, want %v", name, p, n, ld, lane, q[lane], wq)
				}
			}
			for j := range p {
				for lane := roundLanes(n); lane < ld; lane++ {
					if z[j*ld+lane] != guard {
						t.Fatalf("%s p=%d n=%d ld=%d: z[%d][%d] written", name, p, n, ld, j, lane)
					}
				}
			}
			for lane := roundLanes(n); lane < ld; lane++ {
				if q[lane] != guard {
					t.Fatalf("%s p=%d n=%d ld=%d: q[%d] written", name, p, n, ld, lane)
				}
			}
		}
	}
}

// BenchmarkSolveLanes times each kernel on 32 lanes of p = 100 (QDA's
// benchmark shape) and p = 20 on 128 lanes (the mixtures'), on one core.
func BenchmarkSolveLanes(b *testing.B) {
	for _, s := range []struct{ p, n int }{{100, 32}, {20, 128}} {
		l := make([]float64, s.p*s.p)
		for j := range s.p {
			l[j*s.p+j] = 1
			for i := range j {
				l[j*s.p+i] = 0.01
			}
		}
		tri := NewTri(l, s.p)
		x, z, q, c := make([]float64, s.p*s.n), make([]float64, s.p*s.n), make([]float64, s.n), make([]float64, s.p)
		for name, solve := range solveLanesKernels() {
			b.Run(name+"/p="+strconv.Itoa(s.p), func(b *testing.B) {
				for b.Loop() {
					solve(tri, z, q, x, s.n, c, s.n)
				}
				b.ReportMetric(float64(s.p*s.p*s.n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}

// TestTriSet checks that Set, reusing a Tri of another size, packs what
// NewTri packs.
func TestTriSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var tri Tri
	for _, p := range []int{9, 3, 11, 1, 11} {
		l := make([]float64, p*p)
		for i := range l {
			l[i] = 0.5 + rng.Float64()
		}
		tri.Set(l, p)
		want := NewTri(l, p)
		if tri.Dim() != p || !slices.Equal(tri.pk, want.pk) {
			t.Fatalf("p=%d: Set packed %v, NewTri %v", p, tri.pk, want.pk)
		}
	}
}
