package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCentred checks Centred.Dots against the scores taken one product at
// a time, to 1e-13 relative to the sum of the terms' magnitudes, for k = 1
// to 11 classes (groups of four, the last overlapping; below 4 there is
// no kernel) and n = 1 to 2·8 + 3 features and 100, over 1 to 5 rows with
// a centre far from 0 (the terms cancel). It reports which path ran.
func TestCentred(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	ran := false
	for k := 1; k <= 11; k++ {
		for _, n := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 100} {
			for rows := 1; rows <= 5; rows++ {
				w, c, x := make([]float64, k*n), make([]float64, n), make([]float64, rows*n)
				for i := range w {
					w[i] = rng.NormFloat64()
				}
				for i := range c {
					c[i] = 1000 + rng.NormFloat64()
				}
				for i := range x {
					x[i] = c[i%n] + rng.NormFloat64()
				}
				out := make([]float64, rows*k+1)
				out[rows*k] = 12345
				if !NewCentred(w, k, n, c).Dots(out[:rows*k], x) {
					if centredAsm && k >= 4 {
						t.Fatalf("k=%d n=%d: no kernel", k, n)
					}
					continue
				}
				ran = true
				for r := range rows {
					for j := range k {
						s, a := 0.0, 0.0
						for i := range n {
							v := (x[r*n+i] - c[i]) * w[j*n+i]
							s += v
							a += math.Abs(v)
						}
						if g := out[r*k+j]; math.Abs(g-s) > 1e-13*a {
							t.Fatalf("k=%d n=%d rows=%d: row %d class %d: %v, want %v", k, n, rows, r, j, g, s)
						}
					}
				}
				if out[rows*k] != 12345 {
					t.Fatalf("k=%d n=%d rows=%d: wrote past the scores", k, n, rows)
				}
			}
		}
	}
	t.Logf("assembly kernel ran: %v", ran)
}
