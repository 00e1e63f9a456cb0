package gda

import (
	"fmt"
	"math"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/gauss"
	"github.com/gendisc/gendisc/internal/mathx"
	"github.com/gendisc/gendisc/internal/parallel"
)

// impute writes the features of d to dst (allocated when nil) with every
// missing cell replaced by its conditional expectation given the observed
// cells of its row (see LDA.Impute).
func (m *model) impute(dst []float64, d *data.Dataset) []float64 {
	p := m.stats.D
	dst = m.rowsDst(dst, d, p, "features")
	parallel.For(d.N, 2*chunkRows, func(_, lo, hi int) {
		copy(dst[lo*p:hi*p], d.X[lo*p:hi*p])
		var fill *filler
		for i := lo; i < hi; i++ {
			if !mathx.HasNaN(d.Row(i)) {
				continue
			}
			if fill == nil {
				fill = newFiller(m)
			}
			fill.row(dst[i*p:(i+1)*p], d.Row(i), label(d, i))
		}
	})
	return dst
}

// rowsDst checks that d has the model's features and returns dst for n
// values per row of d, allocated when nil; what names the values in the
// panic on a wrong length ("features", "components").
func (m *model) rowsDst(dst []float64, d *data.Dataset, n int, what string) []float64 {
	m.checkFeatures(d)
	if dst == nil {
		dst = make([]float64, d.N*n)
	}
	if len(dst) != d.N*n {
		panic(fmt.Sprintf("gda: dst has length %d, want %d rows × %d %s", len(dst), d.N, n, what))
	}
	return dst
}

// label returns the class index of row i of d, or -1 when the row has no
// label (d.Y nil or NaN).
func label(d *data.Dataset, i int) int {
	if d.Y != nil && d.Y[i] == d.Y[i] {
		return int(d.Y[i])
	}
	return -1
}

// Impute writes the features of d to dst, row-major, with every missing
// cell replaced by its conditional expectation given the observed cells of
// its row and, when the row has a label (d.Y not NaN), its class k:
//
//	E[x_m | x_o, y = k] = μ_km + Σ_mo Σ_oo⁻¹ (x_o − μ_ko)
//
// and without a label the mixture of these by the posterior,
// E[x_m | x_o] = Σ_k P(y = k | x_o) E[x_m | x_o, y = k]. A nil dst is
// allocated. It panics if d's features differ from the model's schema by
// name, kind or order, or dst has the wrong length.
func (m *LDA) Impute(dst []float64, d *data.Dataset) []float64 { return m.m.impute(dst, d) }

// Impute writes the features of d to dst with every missing cell replaced
// by its conditional expectation under the model, as LDA.Impute does with
// each class's own covariance matrix.
func (m *QDA) Impute(dst []float64, d *data.Dataset) []float64 { return m.m.impute(dst, d) }

// filler replaces the missing cells of rows by their conditional
// expectations under a model (see LDA.Impute), by the gauss.Pattern of
// each row under each covariance matrix. One filler serves one goroutine.
type filler struct {
	m    *model
	marg *marginals
	post []float64
	xhat []float64
}

func newFiller(m *model) *filler {
	return &filler{m: m, marg: newMarginals(m), post: make([]float64, len(m.prior)), xhat: make([]float64, m.stats.D)}
}

// pattern returns the pattern of missing cells of x under the covariance
// matrix of class k.
func (m *model) pattern(k int, x []float64) *gauss.Pattern {
	pat, err := m.comps[m.comp[k]].f.g.PatternOf(x)
	if err != nil {
		panic("gda: principal submatrix of a positive definite matrix not positive definite")
	}
	return pat
}

// row writes to dst the row x with its missing cells filled, given its
// class y, or by the posterior over the classes when y < 0.
func (f *filler) row(dst, x []float64, y int) {
	if y >= 0 {
		for k := range f.post {
			f.post[k] = math.Inf(-1)
		}
		f.post[y] = 0
	} else {
		f.marg.row(f.post, x)
		f.m.normalise(f.post)
	}
	for j, v := range x {
		dst[j] = v
		if v != v {
			dst[j] = 0
		}
	}
	for k, lp := range f.post {
		if math.IsInf(lp, -1) {
			continue
		}
		pat := f.m.pattern(k, x)
		pat.CondMean(f.xhat, x, f.m.means[k])
		pk := math.Exp(lp)
		for _, j := range pat.Mis {
			dst[j] += pk * f.xhat[j]
		}
	}
}
