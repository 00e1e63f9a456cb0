package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCentredAVX2 runs TestCentred with the AVX2 kernel forced, then
// checks that the kernel in use and the AVX2 one give the same bits, and
// that a row's scores do not depend on its place (paired or alone): for
// k = 4 to 11 classes, n = 1 to 2·8 + 3 features and 100, 1 to 7 rows
// against each row scored alone.
func TestCentredAVX2(t *testing.T) {
	if !centredAsm {
		t.Skip("no AVX2 and FMA")
	}
	in := centred512
	defer func() { centred512 = in }()
	centred512 = false
	t.Run("AVX2", TestCentred)
	rng := rand.New(rand.NewPCG(17, 18))
	for k := 4; k <= 11; k++ {
		for _, n := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 100} {
			const rows = 7
			w, c, x := make([]float64, k*n), make([]float64, n), make([]float64, rows*n)
			for i := range w {
				w[i] = rng.NormFloat64()
			}
			for i := range c {
				c[i] = 10 + rng.NormFloat64()
			}
			for i := range x {
				x[i] = c[i%n] + rng.NormFloat64()
			}
			p := NewCentred(w, k, n, c)
			for m := 1; m <= rows; m++ {
				for _, use512 := range []bool{false, in} {
					centred512 = use512
					out := make([]float64, m*k)
					p.Dots(out, x[:m*n])
					for r := range m {
						one := make([]float64, k)
						centred512 = false
						p.Dots(one, x[r*n:(r+1)*n])
						for j, v := range one {
							if g := out[r*k+j]; math.Float64bits(g) != math.Float64bits(v) {
								t.Fatalf("k=%d n=%d rows=%d (AVX-512 %v): row %d class %d: %v, alone in AVX2 %v", k, n, m, use512, r, j, g, v)
							}
						}
					}
				}
			}
		}
	}
}
