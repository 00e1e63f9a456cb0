package naivebayes

import (
	"math"
	"math/rand/v2"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
)

var (
	_ gendisc.ClassSampler = (*Gaussian)(nil)
	_ gendisc.Imputer      = (*Gaussian)(nil)
	_ gendisc.RandImputer  = (*Gaussian)(nil)
)

// draw writes x_j = μ_kj + σ_kj z, z standard normal, to dst[j] for every
// missing x[j]; σ²_kj = 1 / (2 h_kj). A feature left out of the model
// (h_kj = 0) stays missing (NaN).
func (g *gaussianFamily) draw(dst, x []float64, k int, rng *rand.Rand) {
	mu, h := g.mu[k*g.d:(k+1)*g.d], g.h[k*g.d:(k+1)*g.d]
	for j, v := range x[:g.d] {
		if v != v {
			if h[j] == 0 {
				dst[j] = math.NaN()
				continue
			}
			dst[j] = mu[j] + math.Sqrt(0.5/h[j])*rng.NormFloat64()
		}
	}
}

// fill writes Σ_k post_k μ_kj to dst[j] for every missing x[j], NaN for
// a feature left out of the model (h_kj = 0).
func (g *gaussianFamily) fill(dst, x, post []float64) {
	for j, v := range x[:g.d] {
		if v != v {
			if g.h[j] == 0 {
				dst[j] = math.NaN()
				continue
			}
			e := 0.0
			for k, p := range post {
				e += p * g.mu[k*g.d+j]
			}
			dst[j] = e
		}
	}
}

// Sample draws a class k with probability π_k and x_j ~ N(μ_kj, σ²_kj)
// independently for every feature j, writes x to dst (allocated when nil)
// and returns dst and k. It panics if dst is not nil and has the wrong
// length.
func (m *Gaussian) Sample(dst []float64, rng *rand.Rand) ([]float64, int) {
	return m.sample(dst, rng)
}

// SampleClass draws x_j ~ N(μ_kj, σ²_kj) independently for every feature
// j into dst (allocated when nil) and returns dst. It panics if k is not
// a class index or dst has the wrong length.
func (m *Gaussian) SampleClass(dst []float64, k int, rng *rand.Rand) []float64 {
	return m.sampleClass(dst, k, rng)
}

// Impute writes the features of d to dst, row-major, with every missing
// cell replaced by its conditional expectation given the observed cells of
// its row. The features being independent given the class, the observed
// cells matter only through the class posterior:
//
//	E[x_j | x_o] = Σ_k P(y = k | x_o) μ_kj,
//
// with the posterior 1 for the row's label when d.Y has one. A nil dst is
// allocated. It panics if d's features differ from the model's schema by
// name, kind or order, or dst has the wrong length.
func (m *Gaussian) Impute(dst []float64, d *data.Dataset) []float64 { return m.impute(dst, d) }

// ImputeRand writes the features of d to dst with every missing cell
// replaced by a draw from its conditional distribution: the class k is the
// row's label or, without one, drawn from P(y = k | x_o); then
// x_j ~ N(μ_kj, σ²_kj). The draws come from rng row by row. The
// conventions are those of Impute.
func (m *Gaussian) ImputeRand(dst []float64, d *data.Dataset, rng *rand.Rand) []float64 {
	return m.imputeRand(dst, d, rng)
}
