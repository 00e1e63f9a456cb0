package randx

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	w := []float64{0, 2, 0, 6, 2}
	const n = 100000
	count := make([]int, len(w))
	for range n {
		count[Index(w, rng)]++
	}
	for k, v := range w {
		p := v / 10
		se := math.Sqrt(p * (1 - p) / n)
		if got := float64(count[k]) / n; math.Abs(got-p) > 4*se {
			t.Errorf("index %d: frequency %g, want %g ± %g", k, got, p, 4*se)
		}
	}
	lw := []float64{math.Inf(-1), math.Log(2) - 800, -800}
	scratch := make([]float64, 3)
	count = make([]int, 3)
	for range n {
		count[LogIndex(lw, scratch, rng)]++
	}
	if count[0] != 0 || math.Abs(float64(count[1])/n-2.0/3) > 4*math.Sqrt(2.0/9/n) {
		t.Errorf("LogIndex counts %v, want 0 and about 2:1", count)
	}
}

func TestIndexPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Index of zero weights did not panic")
		}
	}()
	Index([]float64{0, 0}, rand.New(rand.NewPCG(1, 2)))
}
