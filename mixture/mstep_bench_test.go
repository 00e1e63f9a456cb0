package mixture

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkMStepAdd adds a block of blockRows centred rows (D = 20) with
// responsibilities to the M-step statistics of a full-covariance
// component, as the E-step does for every component and block; nb rows
// of the block are kept (the others packed away as negligible).
func BenchmarkMStepAdd(b *testing.B) {
	for _, c := range []struct {
		name string
		cov  Covariance
		nb   int
	}{{"Full128", Full, 128}, {"Full16", Full, 16}, {"Diag128", Diag, 128}} {
		b.Run(c.name, func(b *testing.B) {
			const d = 20
			rng := rand.New(rand.NewPCG(1, 2))
			src := make([]float64, d*blockRows)
			for i := range src {
				src[i] = rng.NormFloat64()
			}
			r := make([]float64, c.nb)
			for i := range r {
				r[i] = rng.Float64()
			}
			ct, rr := make([]float64, len(src)), make([]float64, c.nb)
			st := newStats(c.cov, 1, d)
			sr, rc := 0.0, make([]float64, c.nb)
			for _, v := range r {
				sr += v
			}
			for b.Loop() {
				copy(ct, src)
				copy(rr, r)
				mstepAdd(st, ct, rr, sr, rc)
			}
		})
	}
}

func mstepAdd(st *stats, ct, r []float64, _ float64, _ []float64) { st.add(0, ct, r) }
