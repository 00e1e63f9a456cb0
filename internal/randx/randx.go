package randx

import (
	"math"
	"math/rand/v2"
)

// Index draws an index k with probability w_k / Σ_l w_l from the
// non-negative weights w, by inversion of one uniform draw: the first k
// with u·Σ_l w_l < Σ_{l≤k} w_l. An index of weight 0 is never drawn. It
// panics if no weight is positive.
func Index(w []float64, rng *rand.Rand) int {
	total := 0.0
	for _, v := range w {
		total += v
	}
	if !(total > 0) {
		panic("randx: Index needs a positive weight")
	}
	u, last := rng.Float64()*total, -1
	for k, v := range w {
		if v <= 0 {
			continue
		}
		if u < v {
			return k
		}
		u -= v
		last = k
	}
	return last // u ≥ the sum only through rounding
}

// LogIndex is Index for log-weights: it draws k with probability
// exp(lw_k) / Σ_l exp(lw_l), using w (len(lw)) as scratch.
func LogIndex(lw, w []float64, rng *rand.Rand) int {
	m := math.Inf(-1)
	for _, v := range lw {
		m = max(m, v)
	}
	for k, v := range lw {
		w[k] = math.Exp(v - m)
	}
	return Index(w, rng)
}
