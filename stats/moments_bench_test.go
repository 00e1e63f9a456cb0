package stats

import (
	"math/rand/v2"
	"testing"
)

func BenchmarkAdd(b *testing.B) {
	const n, d, k = 1_000_000, 50, 10
	r := rand.New(rand.NewPCG(1, 1))
	x, y, _ := randomRows(r, n, d, k, false, false)
	b.SetBytes(int64(len(x) * 8))
	for b.Loop() {
		NewMoments(k, d).Add(x, y, nil)
	}
}

func BenchmarkClassesAdd(b *testing.B) {
	const n, d, k = 200_000, 20, 5
	r := rand.New(rand.NewPCG(1, 1))
	x, y, w := correlatedRows(r, n, d, k)
	b.SetBytes(int64(len(x) * 8))
	for b.Loop() {
		NewClasses(k, d, false).Add(x, y, w)
	}
}
