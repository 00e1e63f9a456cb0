package gda

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/gauss"
	"github.com/gendisc/gendisc/internal/classprior"
	"github.com/gendisc/gendisc/internal/hugepage"
	"github.com/gendisc/gendisc/internal/kernel"
	"github.com/gendisc/gendisc/internal/mathx"
	"github.com/gendisc/gendisc/internal/parallel"
	"github.com/gendisc/gendisc/stats"
)

// Kinds of the fitted models.
const (
	KindLDA = "lda"
	KindQDA = "qda"
)

// component is one covariance matrix of a model with the classes that
// share it: LDA has one component for all classes, QDA one per class. For
// the rows of a block it solves Uᵀz = x − c once and gets each class's
// squared Mahalanobis distance as ‖z − ν_k‖², ν_k = U⁻ᵀ(μ_k − c):
//
//	(x − μ_k)ᵀ Σ⁻¹ (x − μ_k) = ‖U⁻ᵀ(x − c) − U⁻ᵀ(μ_k − c)‖²
//
// with the centre c the mean of the training rows (LDA) or μ_k (QDA,
// where ν_k = 0).
type component struct {
	cov     []float64 // Σ, p×p
	f       *factor
	ls      *laneSolver
	centre  []float64
	classes []int
	nu      [][]float64 // per entry of classes
}

// model is what LDA and QDA share: the statistics they were derived from
// and everything derived from them.
type model struct {
	schema *data.Schema
	cfg    Config
	stats  *stats.Classes
	iters  int // EM iterations of the fit, 0 without missing cells
	// complete holds the statistics of the complete training rows and
	// inc the rows with missing cells, when there were any (nil and
	// empty otherwise): what Accumulator starts from.
	complete *stats.Classes
	inc      rows

	prior    []float64 // π_k
	logPrior []float64
	means    [][]float64 // μ_k
	comps    []component
	// konst[k] = log π_k − ½ log|Σ_k| − (p/2) log 2π
	konst []float64
	comp  []int // the component of each class
	// For LDA, the centred linear form of the posterior (linear): row k
	// of the K×p matrix lin is Σ⁻¹(μ_k − c), and linB[k] =
	// log π_k − ½ ‖ν_k‖² (see posteriorChunk).
	lin, linB []float64
	cen       *kernel.Centred // lin and c packed for kernel.Centred.Dots
}

// shrinkages returns the shrinkage intensity of each class (intensity).
func (m *model) shrinkages() []float64 {
	r := make([]float64, len(m.stats.Class))
	for k, c := range m.stats.Class {
		r[k] = intensity(m.cfg, c)
	}
	return r
}

// newModel derives a model from its statistics: priors, means, covariance
// matrices and their factorisations. source names the data in errors.
func newModel(kind string, cfg Config, schema *data.Schema, s *stats.Classes, source string) (*model, error) {
	if err := checkStats(kind, cfg, schema, s, source); err != nil {
		return nil, err
	}
	classes := schema.Classes()
	w := make([]float64, s.K())
	for k, c := range s.Class {
		w[k] = c.W
	}
	prior, err := classprior.Estimate(cfg.PriorAlpha, cfg.ClassPrior, classes, w)
	if err != nil {
		return nil, fmt.Errorf("gda: %w", err)
	}
	m := &model{schema: schema, cfg: cfg, stats: s, prior: prior,
		logPrior: make([]float64, s.K()), means: make([][]float64, s.K()),
		konst: make([]float64, s.K()), comp: make([]int, s.K())}
	for k, c := range s.Class {
		m.logPrior[k] = math.Log(prior[k])
		m.means[k] = c.Mean
	}
	p := s.D
	for ci, cov := range covariances(kind, cfg, s) {
		if !finite(cov) {
			return nil, tooLarge(source, "a covariance matrix (the scatter matrices divided by the weights) overflows")
		}
		f, zero, ok := factorize(cov, p, true)
		if !ok {
			return nil, singularError(kind, schema, ci, zero, source)
		}
		c := component{cov: cov, f: f}
		if kind == KindLDA {
			c.centre = s.Total().Mean
			c.classes = make([]int, s.K())
			for k := range c.classes {
				c.classes[k] = k
			}
		} else {
			c.centre = m.means[ci]
			c.classes = []int{ci}
		}
		c.nu = make([][]float64, len(c.classes))
		for a, k := range c.classes {
			nu := make([]float64, p)
			for j := range nu {
				nu[j] = m.means[k][j] - c.centre[j]
			}
			f.solve(nu)
			c.nu[a] = nu
			m.comp[k] = ci
			m.konst[k] = m.logPrior[k] - f.logDet/2 - float64(p)/2*gauss.Log2Pi
		}
		if !finite(m.konst) || !finite(slices.Concat(c.nu...)) {
			return nil, tooLarge(source, "the distances of the class means relative to the covariance overflow")
		}
		c.ls = newLaneSolver(f, c.nu)
		m.comps = append(m.comps, c)
	}
	if kind == KindLDA {
		m.linearForm()
		if !finite(m.lin) || !finite(m.linB) {
			return nil, tooLarge(source, "the linear form of the posterior overflows")
		}
	}
	return m, nil
}

// tooLarge returns the ErrTooLarge error of a model whose statistics give
// the quantity what (a sentence) that overflows float64: statistics no
// fit of data gives, as checkMagnitudes refuses data whose squares
// overflow, but a model file may hold.
func tooLarge(source, what string) error {
	return &data.ParseError{File: source, Err: fmt.Errorf("%w: %s", ErrTooLarge, what)}
}

// finite reports whether every value of x is finite.
func finite(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// linearForm computes the centred linear form of an LDA's posterior.
// With z = U⁻ᵀ(x − c) and ν_k = U⁻ᵀ(μ_k − c), ‖z − ν_k‖² = ‖z‖² − 2 zᵀν_k +
// ‖ν_k‖², and ‖z‖² is the same for every class, so
//
//	log P(y = k | x) = (x − c)ᵀ Σ⁻¹(μ_k − c) + log π_k − ½ ‖ν_k‖² − log Σ_l (…)
//
// p·K operations per row instead of the p²/2 of a triangular solve.
// Centring at the mean c of the training rows keeps the terms small.
func (m *model) linearForm() {
	c, p, K := m.comps[0], m.stats.D, len(m.prior)
	m.lin, m.linB = make([]float64, K*p), make([]float64, K)
	for a, k := range c.classes {
		w := m.lin[k*p : (k+1)*p]
		copy(w, c.nu[a])
		blas64.Trsv(blas.NoTrans, c.f.u, blas64.Vector{N: p, Inc: 1, Data: w})
		m.linB[k] = m.logPrior[k] - sumSq(c.nu[a])/2
	}
	m.cen = kernel.NewCentred(m.lin, K, p, c.centre)
}

// posteriorChunk writes the unnormalised log-posteriors of the linear form
// (linearForm) of the rows of x to out: in one pass over the rows with
// kernel.Centred.Dots where it runs, otherwise using z (chunkRows·(p + 2)
// values) as scratch: the rows centred at c, then the scores of two
// classes at a time (kernel.DotRows2, the last class paired with itself
// when K is odd). Rows with a missing cell get NaN, left for the marginal
// path. Each row is summed on its own, in the same order whatever the
// other rows, so that its result does not depend on them.
func (m *model) posteriorChunk(out, x, z []float64) {
	K, p := len(m.logPrior), m.stats.D
	rows := len(x) / p
	if m.cen.Dots(out[:rows*K], x) {
		for r := range rows {
			for k, b := range m.linB {
				out[r*K+k] += b
			}
		}
		return
	}
	c, pair := m.comps[0].centre, z[chunkRows*p:]
	z = z[:rows*p]
	for r := range rows {
		floats.SubTo(z[r*p:(r+1)*p], x[r*p:(r+1)*p], c)
	}
	for k := 0; k < K; k += 2 {
		k1 := min(k+1, K-1)
		kernel.DotRows2(z, p, m.lin[k*p:(k+1)*p], m.lin[k1*p:(k1+1)*p], pair)
		for r := range rows {
			out[r*K+k], out[r*K+k1] = m.linB[k]+pair[2*r], m.linB[k1]+pair[2*r+1]
		}
	}
}

// singularError describes the failure to factor covariance matrix ci.
func singularError(kind string, schema *data.Schema, ci, zero int, source string) error {
	e := &SingularError{Kind: kind}
	if kind == KindQDA {
		e.Class = schema.Classes()[ci]
	}
	if zero < 0 {
		return &data.ParseError{File: source, Err: e}
	}
	e.Feature = schema.Features[zero].Name
	return &data.ParseError{File: source, ColumnName: e.Feature, Err: e}
}

// checkFeatures panics unless d's features are the model's by name, kind
// and order (data.Schema.SameFeatures); once per call, not per row.
func (m *model) checkFeatures(d *data.Dataset) {
	if err := m.schema.SameFeatures(d.Schema); err != nil {
		panic("gda: " + err.Error())
	}
}

// chunkRows is the number of rows whose log-likelihoods are computed
// together: one transposition, then the solves of every component.
const chunkRows = 256

// streamValues is the size of the outputs, 16 MB, that joint computes
// chunk by chunk in a buffer and copies to dst with kernel.StreamCopy:
// beyond the caches, where a plain store would first read each line of
// dst from memory (and the classes' columns of a chunk are written one
// class after the other). A variable so that the tests can stream small
// outputs.
var streamValues = 2 << 20

// output is what joint writes for a row and class.
type output int

const (
	jointOut    output = iota // log p(x, y = k)
	logProbaOut               // log P(y = k | x)
	probaOut                  // P(y = k | x)
)

// joint writes log p(x_i, y = k), log P(y = k | x_i) or P(y = k | x_i)
// (output) to dst[i·K + k], allocating dst when nil, each chunk of rows
// in a buffer when dst is large (streamValues). The posteriors come
// from the joint of a chunk of rows while it is in cache (normaliseChunk,
// probaChunk). When jointDst is not nil (of dst's length; QDA's
// posteriors only, which come from the joint), the joint log-likelihoods
// are written to it too, as for jointOut. When best is not nil (of
// length d.N; probaOut only), best[i] is set to the class of row i,
// gendisc.ArgmaxRows of its log-posteriors (LogProba's), taken as the
// chunk is normalised (kernel.ProbaRows). It panics if d's features
// differ from the model's schema by name, kind or order, or dst or best
// has the wrong length.
func (m *model) joint(dst, jointDst []float64, best []int, d *data.Dataset, o output) []float64 {
	K, p := len(m.logPrior), m.stats.D
	m.checkFeatures(d)
	if dst == nil {
		dst = hugepage.Make[float64](d.N*K, d.N*K)
	}
	if len(dst) != d.N*K {
		panic(fmt.Sprintf("gda: dst has length %d, want %d rows × %d classes", len(dst), d.N, K))
	}
	if best != nil && len(best) != d.N {
		panic(fmt.Sprintf("gda: best has length %d, want %d rows", len(best), d.N))
	}
	stream := len(dst) >= streamValues
	parallel.For(d.N, 2*chunkRows, func(_, lo, hi int) {
		z := make([]float64, chunkRows*(p+len(m.logPrior))+lanes*p) // rows, distances, solves
		var marg *marginals
		var out, x, buf []float64
		if stream {
			buf = make([]float64, chunkRows*K)
		}
		// far scores again a row of out whose joint is not finite for
		// any class (farPosterior), from its cells in x.
		far := func(row []float64) {
			r := (cap(out) - cap(row)) / K
			m.farPosterior(row, x[r*p:(r+1)*p])
		}
		for a := lo; a < hi; a += chunkRows {
			b := min(hi, a+chunkRows)
			out, x = dst[a*K:b*K], d.X[a*p:b*p]
			if stream {
				out = buf[:len(out)]
			}
			if o != jointOut && m.lin != nil {
				m.posteriorChunk(out, x, z)
			} else {
				m.chunk(out, x, z)
			}
			// A missing cell makes every score of its row NaN (a NaN
			// stays NaN through the solves and sums), so only the rows
			// with a NaN score are looked at; so does an overflow in
			// the solves of a row far out (+Inf − Inf), whose joint is
			// then that of its scaled scores (farJoint).
			for r := range b - a {
				row := d.X[(a+r)*p : (a+r+1)*p]
				switch {
				case out[r*K] == out[r*K]:
				case mathx.HasNaN(row):
					if marg == nil {
						marg = newMarginals(m)
					}
					marg.row(out[r*K:(r+1)*K], row)
				case o == jointOut:
					m.farJointValues(out[r*K:(r+1)*K], row)
				}
			}
			if jointDst != nil {
				// The joint before it is normalised, the rows far out
				// as jointOut has them.
				jd := jointDst[a*K : b*K]
				copy(jd, out)
				for r := range b - a {
					if row := d.X[(a+r)*p : (a+r+1)*p]; jd[r*K] != jd[r*K] && !mathx.HasNaN(row) {
						m.farJointValues(jd[r*K:(r+1)*K], row)
					}
				}
			}
			switch o {
			case logProbaOut:
				kernel.NormalizeLogRows(out, K, z, far)
			case probaOut:
				var bb []int
				if best != nil {
					bb = best[a:b]
				}
				kernel.ProbaRows(out, K, z, far, bb)
			}
			if stream {
				kernel.StreamCopy(dst[a*K:b*K], out)
			}
		}
	})
	return dst
}

// chunk writes the joint log-likelihoods of the rows x (row-major, p
// columns) to out, using z as scratch (chunkRows·(p + K) + lanes·p
// values): the rows transposed once into groups of lanes, then every
// component's solves. Rows with a missing cell get meaningless values,
// left for the marginal path.
func (m *model) chunk(out, x, z []float64) {
	K, p := len(m.logPrior), m.stats.D
	rows := len(x) / p
	xt, q, zs := z[:chunkRows*p], z[chunkRows*p:chunkRows*(p+K)], z[chunkRows*(p+K):]
	transposeRows(xt, x, p)
	for _, c := range m.comps {
		c.ls.distances(q, zs, xt, p, rows, c.centre)
		for r := range rows {
			for a, k := range c.classes {
				out[r*K+k] = m.konst[k] - q[a*rows+r]/2
			}
		}
	}
}

// normalise turns the joint log-likelihoods of one row into
// log-posteriors. A row whose joint is not finite for any class (an
// overflow of the squared distances) gets the prior: never NaN. (The
// predictions score such rows again: farPosterior.)
func (m *model) normalise(row []float64) {
	mathx.NormalizeLog(row)
	if row[0] != row[0] {
		copy(row, m.logPrior)
	}
}

// farPosterior writes to out the log-posteriors log P(y = k | x) of the
// row x (for logProbaOut and probaOut, whose exponentials joint takes
// after), a row so far out that its joint log-likelihoods
// are −Inf for every class: the quadratic forms overflow. It scores the
// row again with the scaled log-densities of the Gaussian core
// (gauss.Pattern.LogPdfScaled, the row's missing cells marginalised as by
// marginals), whose differences float64 holds, and normalises them with
// mathx.NormalizeLogScaled. Far out along a
// direction x̃ the class of least ‖L_k⁻¹x̃‖² wins (the covariance under
// which the row is least unlikely); classes tied there (LDA's, which
// share Σ) by the linear term, xᵀΣ⁻¹μ_k; then by the rest. It allocates:
// such rows are rare.
func (m *model) farPosterior(out, x []float64) {
	s, c := m.farJoint(x)
	mathx.NormalizeLogScaled(out, s, c)
}

// farJointValues writes to dst the joint log-likelihoods of the row x, a
// row far out, as float64 values: farJoint's, −Inf where they are below
// float64's range.
func (m *model) farJointValues(dst, x []float64) {
	s, c := m.farJoint(x)
	for k, v := range s {
		dst[k] = v.Value(c)
	}
}

// farJoint returns the joint log-likelihoods log π_k + log N(x_o; μ_ko,
// Σ_k,oo) of the row x as scaled numbers of the row's scale (whose C it
// returns): gauss.Pattern.LogPdfScaled, the missing cells marginalised
// as by marginals. Their Values are the joint, −Inf where it is below
// float64's range.
func (m *model) farJoint(x []float64) ([]mathx.Scaled, float64) {
	scale := mathx.RowScale(x)
	s := make([]mathx.Scaled, len(m.logPrior))
	work := make([]float64, 2*m.stats.D)
	for _, comp := range m.comps {
		pat, err := comp.f.g.PatternOf(x)
		if err != nil {
			panic("gda: principal submatrix of a positive definite matrix not positive definite")
		}
		for _, k := range comp.classes {
			s[k] = pat.LogPdfScaled(x, m.means[k], scale, work)
			s[k].Const += m.logPrior[k]
		}
	}
	return s, scale.C
}

// marginals computes the joint log-likelihood of rows with missing cells:
// the Gaussian of each class over the observed coordinates o,
//
//	log p(x_o, y = k) = log π_k + log N(x_o; μ_ko, Σ_oo)
//
// by the gauss.Pattern of the row under each covariance matrix (cached by
// pattern of missing cells). One marginals serves one goroutine.
type marginals struct {
	m *model
	v []float64
}

func newMarginals(m *model) *marginals {
	return &marginals{m: m, v: make([]float64, m.stats.D)}
}

// row writes the joint log-likelihoods of row x to out.
func (c *marginals) row(out, x []float64) {
	for _, comp := range c.m.comps {
		pat, err := comp.f.g.PatternOf(x)
		if err != nil {
			panic("gda: principal submatrix of a positive definite matrix not positive definite")
		}
		for _, k := range comp.classes {
			out[k] = c.m.logPrior[k] + pat.LogPdf(x, c.m.means[k], c.v)
		}
	}
}

// meansCopy returns copies of the class means.
func (m *model) meansCopy() [][]float64 {
	out := make([][]float64, len(m.means))
	for k, mu := range m.means {
		out[k] = slices.Clone(mu)
	}
	return out
}

// classWeights returns W_k, the total weight of the training rows of each
// class.
func (m *model) classWeights() []float64 {
	w := make([]float64, m.stats.K())
	for k, c := range m.stats.Class {
		w[k] = c.W
	}
	return w
}

// logDets returns log|Σ| of each covariance matrix.
func (m *model) logDets() []float64 {
	out := make([]float64, len(m.comps))
	for i, c := range m.comps {
		out[i] = c.f.logDet
	}
	return out
}
