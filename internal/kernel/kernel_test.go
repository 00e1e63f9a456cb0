package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestExpFloored checks the kernel in use (the assembly on amd64 with
// AVX2 and FMA) against math.Exp to 2 ulp over [ExpFloor, 0] and a little
// above, and the floor below it.
func TestExpFloored(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 100_003)
	for i := range x {
		switch i % 4 {
		case 0:
			x[i] = -rng.Float64() * 800
		case 1:
			x[i] = -rng.Float64() * 5
		case 2:
			x[i] = -rng.Float64() * 1e-6
		default:
			x[i] = rng.Float64() * 30
		}
	}
	x[0], x[1], x[2] = 0, ExpFloor, -1e300
	got := append([]float64(nil), x...)
	ExpFloored(got)
	for i, v := range x {
		want := math.Exp(max(v, ExpFloor))
		if d := math.Abs(got[i]-want) / want; d > 2*0x1p-52 {
			t.Fatalf("exp(%v) = %v, want %v (relative error %.3g)", v, got[i], want, d)
		}
	}
}

// TestKernels checks the dense kernels in use and the portable ones
// against sums taken one product at a time, for row lengths and row
// counts that exercise every tail of the assembly (n mod 8, rows mod 4).
func TestKernels(t *testing.T) {
	t.Run("in use", func(t *testing.T) { testKernels(t, DotRows2, AxpyRows2) })
	t.Run("portable", func(t *testing.T) { testKernels(t, DotRows2Go, AxpyRows2Go) })
}

func testKernels(t *testing.T, dotRows2 func(x []float64, n int, w0, w1, out []float64), axpyRows2 func(g0, g1, coef, x []float64)) {
	rng := rand.New(rand.NewPCG(3, 4))
	fill := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		return v
	}
	for n := 1; n <= 19; n++ {
		for rows := 1; rows <= 9; rows++ {
			x, w0, w1, coef := fill(rows*n), fill(n), fill(n), fill(2*rows)
			out := make([]float64, 2*rows)
			dotRows2(x, n, w0, w1, out)
			g0, g1 := fill(n), fill(n)
			want0, want1 := append([]float64(nil), g0...), append([]float64(nil), g1...)
			axpyRows2(g0, g1, coef, x)
			for r := range rows {
				var d0, d1 float64
				for j := range n {
					a := x[r*n+j]
					d0 += a * w0[j]
					d1 += a * w1[j]
					want0[j] += coef[2*r] * a
					want1[j] += coef[2*r+1] * a
				}
				if !close(out[2*r], d0) || !close(out[2*r+1], d1) {
					t.Fatalf("n=%d rows=%d: dotRows2 row %d = %v, %v, want %v, %v", n, rows, r, out[2*r], out[2*r+1], d0, d1)
				}
			}
			for j := range n {
				if !close(g0[j], want0[j]) || !close(g1[j], want1[j]) {
					t.Fatalf("n=%d rows=%d: axpyRows2 g[%d] = %v, %v, want %v, %v", n, rows, j, g0[j], g1[j], want0[j], want1[j])
				}
			}
		}
	}
}

// close reports whether a and b agree to 1e-13 relative to max(1, |b|)
// (the kernels sum in another order).
func close(a, b float64) bool { return math.Abs(a-b) <= 1e-13*max(1, math.Abs(b)) }
