package metrics

import (
	"math/rand/v2"
	"testing"
)

func BenchmarkClassification(b *testing.B) {
	for _, K := range []int{2, 10} {
		rng := rand.New(rand.NewPCG(5, 6))
		const n = 100_000
		y, proba, _ := randomInput(rng, n, K)
		classes := make([]string, K)
		for k := range classes {
			classes[k] = string(rune('a' + k))
		}
		b.Run(classes[K-1], func(b *testing.B) {
			b.SetBytes(int64(8 * len(proba)))
			for b.Loop() {
				if _, err := Classification(classes, y, proba, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkRegression(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 100_000
	y, pred := make([]float64, n), make([]float64, n)
	for i := range y {
		y[i] = rng.NormFloat64()
		pred[i] = y[i] + rng.NormFloat64()
	}
	b.SetBytes(16 * n)
	for b.Loop() {
		if _, err := Regression(y, pred, nil); err != nil {
			b.Fatal(err)
		}
	}
}
