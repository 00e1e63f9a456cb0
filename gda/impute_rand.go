package gda

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

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
	fill := newFiller(m)
	chol := map[*pattern]*factor{}
	w := make([]float64, len(m.prior))
	z := make([]float64, p)
	for i := range d.N {
		x := d.Row(i)
		if !mathx.HasNaN(x) {
			continue
		}
		y := label(d, i)
		if y < 0 {
			fill.marg.row(fill.post, x)
			m.normalise(fill.post)
			y = randx.LogIndex(fill.post, w, rng)
		}
		pat, err := fill.e.pattern(m.comp[y], x)
		if err != nil {
			panic("gda: principal submatrix of a positive definite matrix not positive definite")
		}
		f := chol[pat]
		if f == nil {
			var ok bool
			if f, _, ok = factorize(pat.cond, len(pat.mis), nil, false); !ok {
				panic("gda: conditional covariance of a positive definite matrix not positive definite")
			}
			chol[pat] = f
		}
		row := dst[i*p : (i+1)*p]
		pat.complete(row, x, m.means[y])
		nm := len(pat.mis)
		for b := range nm {
			z[b] = rng.NormFloat64()
		}
		blas64.Trmv(blas.Trans, f.u, blas64.Vector{N: nm, Inc: 1, Data: z[:nm]})
		for b, j := range pat.mis {
			row[j] += z[b]
		}
	}
	return dst
}

// ImputeRand writes the features of d to dst, row-major, with every
// missing cell replaced by a draw from its conditional distribution given
// the observed cells of its row and its class k,
//
//	x_m | x_o, y = k ~ N(μ_km + Σ_mo Σ_oo⁻¹ (x_o − μ_ko), Σ_mm − Σ_mo Σ_oo⁻¹ Σ_om),
//
// drawn as the conditional mean plus Uᵀz, z standard normal and UᵀU the
// Cholesky factorisation of the conditional covariance (the Schur
// complement). A row without a label first draws its class from the
// posterior P(y = k | x_o). A nil dst is allocated. The draws come from
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
