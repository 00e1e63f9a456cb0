package metrics

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestUnweightedAUCEqualsRows checks that the Mann–Whitney path for rows
// without weights gives rocAUC's value to the last bit, with many ties
// (scores on a grid of 7 values) and without, and NaN for one class.
func TestUnweightedAUCEqualsRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		n, K := 1+rng.IntN(300), 2+rng.IntN(3)
		y := make([]int, n)
		proba := make([]float64, n*K)
		for i := range y {
			y[i] = rng.IntN(K)
			for k := range K {
				if trial%2 == 0 {
					proba[i*K+k] = float64(rng.IntN(7)) / 6
				} else {
					proba[i*K+k] = rng.Float64()
				}
			}
		}
		a := newAUC(y, nil)
		for k := range K {
			got, ok := a.unweighted(proba, K, k)
			for i, yi := range y {
				a.buf[i] = scored{score: proba[i*K+k], w: 1, pos: yi == k}
			}
			want := rocAUC(a.buf)
			if !ok || got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Fatalf("trial %d class %d: %v (%v), rows %v", trial, k, got, ok, want)
			}
		}
	}
}
