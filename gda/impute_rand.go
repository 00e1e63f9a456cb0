package gda

import (
	"math/rand/v2"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/mathx"
	"github.com/gendisc/gendisc/internal/randx"
)

var (
	_ gendisc.ClassSampler = (*LDA)(nil)
	_ gendisc.ClassSampler = (*QDA)(nil)
	_ gendisc.Imputer      = (*LDA)(nil)
	_ gendisc.Imputer      = (*QDA)(nil)
	_ gendisc.RandImputer  = (*LDA)(nil)
	_ gendisc.RandImputer  = (*QDA)(nil)
)

// imputeRand writes the features of d to dst (allocated when nil) with
// every missing cell replaced by a random draw from its conditional
// distribution (see LDA.ImputeRand). It runs on one goroutine, so that
// the draws follow the rows in order.
func (m *model) imputeRand(dst []float64, d *data.Dataset, rng *rand.Rand) []float64 {
	p := m.stats.D
	dst = m.rowsDst(dst, d, p, "features")
	copy(dst, d.X)
	marg := newMarginals(m)
	post := make([]float64, len(m.prior))
	w := make([]float64, len(m.prior))
	for i := range d.N {
		x := d.Row(i)
		if !mathx.HasNaN(x) {
			continue
		}
		y := label(d, i)
		if y < 0 {
			marg.row(post, x)
			m.normalise(post)
			y = randx.LogIndex(post, w, rng)
		}
		m.pattern(y, x).CondRand(dst[i*p:(i+1)*p], x, m.means[y], rng)
	}
	return dst
}

// ImputeRand writes the features of d to dst, row-major, with every
// missing cell replaced by a draw from its conditional distribution given
// the observed cells of its row and its class k,
//
//	x_m | x_o, y = k ~ N(μ_km + Σ_mo Σ_oo⁻¹ (x_o − μ_ko), Σ_mm − Σ_mo Σ_oo⁻¹ Σ_om),
//
// drawn as the conditional mean plus L z, z standard normal and L Lᵀ the
// Cholesky factorisation of the conditional covariance (the Schur
// complement; gauss.Pattern.CondRand). A row without a label first draws
// its class from the posterior P(y = k | x_o). A nil dst is allocated. The draws come from
// rng row by row. It panics if d's features differ from the model's
// schema by name, kind or order, or dst has the wrong length.
func (m *LDA) ImputeRand(dst []float64, d *data.Dataset, rng *rand.Rand) []float64 {
	return m.m.imputeRand(dst, d, rng)
}

// ImputeRand replaces every missing cell of d by a draw from its
// conditional distribution, as LDA.ImputeRand does with each class's own
// covariance matrix.
func (m *QDA) ImputeRand(dst []float64, d *data.Dataset, rng *rand.Rand) []float64 {
	return m.m.imputeRand(dst, d, rng)
}
