package naivebayes

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestQuadRowsAVX512 checks the AVX-512 kernel where the processor has it:
// against sums taken one product at a time (testQuadRows, every tail and
// group shape), and bit for bit against the AVX2 kernel, whose lanes it
// runs two classes to a vector.
func TestQuadRowsAVX512(t *testing.T) {
	if !quad512 {
		t.Skip("no AVX-512")
	}
	testQuadRows(t, quadRowsAsm)
	rng := rand.New(rand.NewPCG(9, 10))
	const rows = 7
	for d := 1; d <= 19; d++ {
		for k := 1; k <= 11; k++ {
			mean, variance, x := make([]float64, k*d), make([]float64, k*d), make([]float64, rows*d)
			for i := range mean {
				mean[i], variance[i] = rng.NormFloat64(), 0.1+rng.Float64()
			}
			for i := range x {
				x[i] = 2 * rng.NormFloat64()
			}
			g := newGaussianFamily(k, d, mean, variance)
			got, want := make([]float64, rows*g.stride), make([]float64, rows*g.stride)
			quadRowsAsm(got, x, g)
			quad512 = false
			quadRowsAsm(want, x, g)
			quad512 = true
			for i, w := range want {
				if math.Float64bits(got[i]) != math.Float64bits(w) {
					t.Fatalf("d=%d k=%d: form %d is %v, AVX2 %v", d, k, i, got[i], w)
				}
			}
		}
	}
}

// BenchmarkQuadRowsAVX2 is BenchmarkQuadRows with the AVX2 kernel forced,
// beside which the AVX-512 one in use is measured.
func BenchmarkQuadRowsAVX2(b *testing.B) {
	in := quad512
	quad512 = false
	defer func() { quad512 = in }()
	BenchmarkQuadRows(b)
}
