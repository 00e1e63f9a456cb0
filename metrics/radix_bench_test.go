package metrics

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// BenchmarkSortFloats compares sortFloats with slices.Sort on the 10⁵
// probabilities of a fold: go test -run XXX -bench SortFloats ./metrics
func BenchmarkSortFloats(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := make([]float64, 100_000)
	for i := range s {
		s[i] = rng.Float64()
	}
	work := make([]float64, len(s))
	var scratch []uint64
	b.Run("radix", func(b *testing.B) {
		for b.Loop() {
			copy(work, s)
			scratch = sortFloats(work, scratch)
		}
	})
	b.Run("pdq", func(b *testing.B) {
		for b.Loop() {
			copy(work, s)
			slices.Sort(work)
		}
	})
}
