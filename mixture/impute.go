package mixture

import (
	"math"
	"math/rand/v2"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/gauss"
	"github.com/gendisc/gendisc/internal/mathx"
	"github.com/gendisc/gendisc/internal/randx"
)

var (
	_ gendisc.Sampler      = (*GMM)(nil)
	_ gendisc.ClassSampler = (*MDA)(nil)
	_ gendisc.Imputer      = (*GMM)(nil)
	_ gendisc.Imputer      = (*MDA)(nil)
	_ gendisc.RandImputer  = (*GMM)(nil)
	_ gendisc.RandImputer  = (*MDA)(nil)
)

// filler computes the conditional distribution of the missing cells of a
// row given its observed ones under each component of a mixture (the
// gauss.Pattern of its component's covariance), and fills the cells with
// its mean or a draw from it. One filler serves one goroutine.
type filler struct {
	g        *GMM
	obs, mis []int
	mean     []float64 // E[x_M | x_O] of the last component, at the cells M
}

func newFiller(g *GMM) *filler {
	return &filler{g: g, mean: make([]float64, g.m.d)}
}

// setRow records the observed and missing coordinates of x.
func (f *filler) setRow(x []float64) {
	f.obs, f.mis = f.obs[:0], f.mis[:0]
	for j, v := range x {
		if v == v {
			f.obs = append(f.obs, j)
		} else {
			f.mis = append(f.mis, j)
		}
	}
}

// pattern returns component k's gauss.Pattern of the row of the last
// setRow.
func (f *filler) pattern(k int) *gauss.Pattern {
	pat, err := f.g.covs[k].Pattern(f.obs)
	if err != nil {
		// A principal submatrix of a positive definite Σ_k, which
		// newGMM checked, is positive definite.
		panic("mixture: conditional covariance: " + err.Error())
	}
	return pat
}

// addMean adds w·Σ_k resp_k E_k[x_M | x_O] to the missing cells of dst,
// for the row x of the last setRow and the responsibilities resp of the
// components, E_k[x_M | x_O] = μ_kM + A_k (x_O − μ_kO).
func (f *filler) addMean(dst, x, resp []float64, w float64) {
	for k, r := range resp {
		if r == 0 {
			continue
		}
		f.pattern(k).CondMean(f.mean, x, f.g.m.mean(k))
		for _, j := range f.mis {
			dst[j] += w * r * f.mean[j]
		}
	}
}

// draw writes to the missing cells of dst a draw from component k's
// conditional distribution of x_M given x_O, the row x of the last
// setRow: E[x_M | x_O] + L z, z standard normal, L Lᵀ = Cov[x_M | x_O]
// (gauss.Pattern.CondRand).
func (f *filler) draw(dst, x []float64, k int, rng *rand.Rand) {
	f.pattern(k).CondRand(dst, x, f.g.m.mean(k), rng)
}

// incomplete copies the features of d to dst (allocated when nil) and
// returns it with d's rows that have a missing cell, as indices and as a
// data set. It panics if d's features are not those of s (checkFeatures)
// or dst has the wrong length.
func incomplete(dst []float64, d *data.Dataset, s *data.Schema) ([]float64, []int, *data.Dataset) {
	checkFeatures(s, d)
	dst = dstLen(dst, len(d.X))
	copy(dst, d.X)
	var idx []int
	for i := range d.N {
		if mathx.HasNaN(d.Row(i)) {
			idx = append(idx, i)
		}
	}
	return dst, idx, d.Subset(idx)
}

// Impute writes the features of d to dst, row-major, with every missing
// cell replaced by its conditional expectation given the observed cells
// of its row,
//
//	E[x_M | x_O] = Σ_k P(k | x_O) (μ_kM + Σ_kMO Σ_kOO⁻¹ (x_kO − μ_kO)),
//
// the responsibilities P(k | x_O) those of Predict (the density of the
// observed cells). A nil dst is allocated, otherwise len(dst) must be
// len(d.X). It panics if d's features differ from the model's schema by name, kind or order.
func (g *GMM) Impute(dst []float64, d *data.Dataset) []float64 {
	dst, idx, sub := incomplete(dst, d, g.schema)
	resp := g.Predict(nil, sub)
	f, K, D := newFiller(g), g.m.k, g.m.d
	for a, i := range idx {
		x := sub.Row(a)
		f.setRow(x)
		row := dst[i*D : (i+1)*D]
		for _, j := range f.mis {
			row[j] = 0
		}
		f.addMean(row, x, resp[a*K:(a+1)*K], 1)
	}
	return dst
}

// ImputeRand writes the features of d to dst with every missing cell
// replaced by a draw from its conditional distribution given the observed
// cells of its row: a component k drawn with probability P(k | x_O), then
//
//	x_M ~ N(μ_kM + Σ_kMO Σ_kOO⁻¹ (x_kO − μ_kO), Σ_kMM − Σ_kMO Σ_kOO⁻¹ Σ_kOM),
//
// with the conventions of Impute. The draws come from rng row by row.
func (g *GMM) ImputeRand(dst []float64, d *data.Dataset, rng *rand.Rand) []float64 {
	dst, idx, sub := incomplete(dst, d, g.schema)
	resp := g.Predict(nil, sub)
	f, K, D := newFiller(g), g.m.k, g.m.d
	for a, i := range idx {
		x := sub.Row(a)
		f.setRow(x)
		f.draw(dst[i*D:(i+1)*D], x, randx.Index(resp[a*K:(a+1)*K], rng), rng)
	}
	return dst
}

// mdaFill is what MDA's imputations share: the rows of d with a missing
// cell, the posterior of their class and, per class, the
// responsibilities of its components and a filler.
type mdaFill struct {
	idx     []int
	sub     *data.Dataset
	post    []float64 // P(c | x_O), row-major
	resp    [][]float64
	fillers []*filler
}

func (m *MDA) prepareFill(dst []float64, d *data.Dataset) ([]float64, *mdaFill) {
	dst, idx, sub := incomplete(dst, d, m.schema)
	mf := &mdaFill{idx: idx, sub: sub, post: m.LogProba(nil, sub),
		resp: make([][]float64, len(m.mix)), fillers: make([]*filler, len(m.mix))}
	for i, v := range mf.post {
		mf.post[i] = math.Exp(v)
	}
	for c, g := range m.mix {
		if g != nil {
			mf.resp[c], mf.fillers[c] = g.Predict(nil, sub), newFiller(g)
		}
	}
	if sub.Y != nil { // a label known: posterior 1 for it
		nc := len(m.mix)
		for a, y := range sub.Y {
			if y == y && m.mix[int(y)] != nil {
				p := mf.post[a*nc : (a+1)*nc]
				clear(p)
				p[int(y)] = 1
			}
		}
	}
	return dst, mf
}

// Impute writes the features of d to dst with every missing cell replaced
// by its conditional expectation given the observed cells of its row and
// its class c when d.Y has it,
//
//	E[x_M | x_O, y = c] = Σ_k P(k | x_O, c) E_ck[x_M | x_O]
//
// (GMM.Impute with class c's mixture), and for a row without a label the
// mixture of these by the class posterior P(c | x_O). A nil dst is
// allocated, otherwise len(dst) must be len(d.X). It panics if d does not
// have the model's features.
func (m *MDA) Impute(dst []float64, d *data.Dataset) []float64 {
	dst, mf := m.prepareFill(dst, d)
	nc, D := len(m.mix), d.D()
	for a, i := range mf.idx {
		x, row := mf.sub.Row(a), dst[i*D:(i+1)*D]
		for j, v := range x {
			if v != v {
				row[j] = 0
			}
		}
		for c, w := range mf.post[a*nc : (a+1)*nc] {
			if w == 0 {
				continue
			}
			f, K := mf.fillers[c], m.mix[c].Components()
			f.setRow(x)
			f.addMean(row, x, mf.resp[c][a*K:(a+1)*K], w)
		}
	}
	return dst
}

// ImputeRand writes the features of d to dst with every missing cell
// replaced by a draw from its conditional distribution given the observed
// cells of its row: the class c is the row's label or, without one, drawn
// from P(c | x_O); then a component and the cells are drawn as
// GMM.ImputeRand does with class c's mixture. The draws come from rng row
// by row.
func (m *MDA) ImputeRand(dst []float64, d *data.Dataset, rng *rand.Rand) []float64 {
	dst, mf := m.prepareFill(dst, d)
	nc, D := len(m.mix), d.D()
	for a, i := range mf.idx {
		x := mf.sub.Row(a)
		c := randx.Index(mf.post[a*nc:(a+1)*nc], rng)
		f, K := mf.fillers[c], m.mix[c].Components()
		f.setRow(x)
		f.draw(dst[i*D:(i+1)*D], x, randx.Index(mf.resp[c][a*K:(a+1)*K], rng), rng)
	}
	return dst
}
