package metrics

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestUnweightedAUCEqualsRows checks that the Mann–Whitney path for rows
// without weights gives rocAUC's value to the last bit, with many ties
// (scores on a grid of 7 values) and without, and NaN for one class, for
// fewer rows than radixMin and more.
func TestUnweightedAUCEqualsRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		n, K := 1+rng.IntN(300), 2+rng.IntN(3)
		if trial%10 == 0 {
			n = radixMin + rng.IntN(3000) // sortFloats' radix sort
		}
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

// TestSortFloats checks the radix sort against slices.Sort on slices long
// enough to take it, with both signs, ties, zeros of both signs, infinities
// and subnormals, and on probabilities whose leading digits agree (the
// skipped passes).
func TestSortFloats(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), 5e-324, -5e-324, math.MaxFloat64, -math.MaxFloat64}
	var scratch []uint64
	for trial := range 20 {
		n := radixMin + rng.IntN(5000)
		s := make([]float64, n)
		for i := range s {
			switch {
			case trial%2 == 0:
				s[i] = rng.Float64()
			case rng.IntN(10) == 0:
				s[i] = special[rng.IntN(len(special))]
			case rng.IntN(3) == 0:
				s[i] = float64(rng.IntN(9) - 4)
			default:
				s[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
			}
		}
		want := slices.Clone(s)
		slices.Sort(want)
		scratch = sortFloats(s, scratch)
		for i := range s {
			if s[i] != want[i] || (i > 0 && s[i-1] > s[i]) {
				t.Fatalf("trial %d: position %d holds %v, want %v", trial, i, s[i], want[i])
			}
		}
	}
}
