package gda

import (
	"fmt"
	"math/rand/v2"
)

// sampleClass draws x ~ N(μ_c, Σ_c) into dst (allocated when nil) as
//
//	x = μ_c + L z,  z ~ N(0, I),  Σ_c = L Lᵀ
//
// (gauss.Cov.Rand).
func (m *model) sampleClass(dst []float64, c int, rng *rand.Rand) []float64 {
	p := m.stats.D
	if c < 0 || c >= len(m.prior) {
		panic(fmt.Sprintf("gda: SampleClass of class %d, the model has %d", c, len(m.prior)))
	}
	if dst == nil {
		dst = make([]float64, p)
	}
	if len(dst) != p {
		panic(fmt.Sprintf("gda: dst has length %d, want %d features", len(dst), p))
	}
	return m.comps[m.comp[c]].f.g.Rand(dst, m.means[c], rng)
}

// sample draws a class c with probability π_c and x from its Gaussian.
func (m *model) sample(dst []float64, rng *rand.Rand) ([]float64, int) {
	u, c := rng.Float64(), len(m.prior)-1
	for k, p := range m.prior[:c] {
		if u < p {
			c = k
			break
		}
		u -= p
	}
	return m.sampleClass(dst, c, rng), c
}

// Sample draws a class c with probability π_c and x ~ N(μ_c, Σ), writes x
// to dst (allocated when nil) and returns dst and c. It panics if dst is
// not nil and has the wrong length.
func (m *LDA) Sample(dst []float64, rng *rand.Rand) ([]float64, int) { return m.m.sample(dst, rng) }

// SampleClass draws x ~ N(μ_c, Σ) into dst (allocated when nil) and
// returns dst. It panics if c is not a class index or dst has the wrong
// length.
func (m *LDA) SampleClass(dst []float64, c int, rng *rand.Rand) []float64 {
	return m.m.sampleClass(dst, c, rng)
}

// Sample draws a class c with probability π_c and x ~ N(μ_c, Σ_c), writes
// x to dst (allocated when nil) and returns dst and c. It panics if dst is
// not nil and has the wrong length.
func (m *QDA) Sample(dst []float64, rng *rand.Rand) ([]float64, int) { return m.m.sample(dst, rng) }

// SampleClass draws x ~ N(μ_c, Σ_c) into dst (allocated when nil) and
// returns dst. It panics if c is not a class index or dst has the wrong
// length.
func (m *QDA) SampleClass(dst []float64, c int, rng *rand.Rand) []float64 {
	return m.m.sampleClass(dst, c, rng)
}
