package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRows adds weighted rows to three classes one at a time, more rows
// than a buffer holds and far from the origin, twice over with a Flush
// between (the second time about origins set by Origin, near the rows'
// mean), and checks each Flush against the two-pass statistics of the
// same rows: W, the weighted mean and the scatter about it, to 1e-12
// relative.
func TestRows(t *testing.T) {
	const k, d = 3, 21
	rng := rand.New(rand.NewPCG(3, 8))
	r := NewRows(k, d)
	for round, n := range []int{1500, 40} {
		if round == 1 {
			o := make([]float64, d)
			for j := range o {
				o[j] = 1e3*float64(j) + 0.5
			}
			for c := range k {
				r.Origin(c, o)
			}
		}
		x := make([]float64, n*d)
		cls, w := make([]int, n), make([]float64, n)
		for i := range n {
			cls[i], w[i] = rng.IntN(k), 0.05+rng.Float64()
			for j := range d {
				x[i*d+j] = 1e3*float64(j) + rng.NormFloat64()*float64(1+cls[i])
			}
			r.Add(cls[i], x[i*d:(i+1)*d], w[i])
		}
		got := r.Flush()
		for c := range k {
			W, mean := 0.0, make([]float64, d)
			for i := range n {
				if cls[i] == c {
					W += w[i]
					for j := range d {
						mean[j] += w[i] * x[i*d+j]
					}
				}
			}
			for j := range mean {
				mean[j] /= W
			}
			s := make([]float64, d*d)
			for i := range n {
				if cls[i] != c {
					continue
				}
				for j := range d {
					for l := range d {
						s[j*d+l] += w[i] * (x[i*d+j] - mean[j]) * (x[i*d+l] - mean[l])
					}
				}
			}
			g := got.Class[c]
			if math.Abs(g.W-W) > 1e-12*W {
				t.Fatalf("round %d class %d: W %v, want %v", round, c, g.W, W)
			}
			if !relClose(g.Mean, mean, 1e-12) || !relClose(g.S, s, 1e-12) {
				t.Fatalf("round %d class %d: mean or scatter differs from the two-pass statistics", round, c)
			}
		}
	}
}

// TestRowsNaN checks that Rows.Add refuses a row with a NaN.
func TestRowsNaN(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("Rows.Add of a NaN did not panic")
		}
	}()
	r := NewRows(1, 2)
	r.Add(0, []float64{1, 2}, 1)
	r.Add(0, []float64{1, math.NaN()}, 1)
}
