package mixture

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"gonum.org/v1/gonum/stat/distmv"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/gauss"
	"github.com/gendisc/gendisc/internal/kernel"
	"github.com/gendisc/gendisc/internal/mathx"
)

// Kind is the model kind of a GMM in model files.
const Kind = "gmm"

// GMM is a fitted Gaussian mixture,
//
//	p(x) = Σ_k π_k N(x; μ_k, Σ_k).
//
// It is immutable and safe for concurrent use. It implements gonum's
// distmv.LogProber; Rander adds distmv.Rander.
type GMM struct {
	schema *data.Schema
	m      *model
	covs   []*gauss.Cov // every Σ_k in the Gaussian core
	full   []marginal   // every component over all coordinates
	all    []int
	tris   []*kernel.Tri // the factors of Σ_k for kernel.SolveLanes
	info   fitInfo
	// engines holds engines (with their scratch space) for reuse by
	// eval, so that a call on a few rows, such as LogProb, allocates
	// little.
	engines sync.Pool
}

var (
	_ distmv.LogProber     = (*GMM)(nil)
	_ distmv.RandLogProber = Rander{}
)

// fitInfo is what a fit records besides the parameters.
type fitInfo struct {
	n         float64   // Σ_i w_i over the training rows
	trace     []float64 // log-likelihood of every iteration's parameters, then the final one
	restarts  []float64 // final log-likelihood of every restart
	warnings  []string
	converged bool
	iters     int
	// candidates are the figures of every number of components SelectK
	// tried, nil for a model that Fit returned.
	candidates []Candidate
	// settings are those of the fit, nil for a model read from a file
	// written before models kept them.
	settings *Settings
}

// newGMM returns the fitted model with parameters m.
func newGMM(schema *data.Schema, m *model, info fitInfo) (*GMM, error) {
	g := &GMM{schema: schema, m: m, info: info}
	eng := newEngine(m)
	if c := eng.setModel(m); c >= 0 {
		return nil, fmt.Errorf("mixture: covariance of component %d: %w", c, errNotPD)
	}
	g.covs, g.full, g.all, g.tris = eng.covs, eng.full, eng.all, eng.tris
	return g, nil
}

// Kind returns "gmm".
func (g *GMM) Kind() string { return Kind }

// Schema returns the features the model was fitted on (no target).
func (g *GMM) Schema() *data.Schema { return g.schema }

// Components returns the number of components K.
func (g *GMM) Components() int { return g.m.k }

// Dim returns the number of features D.
func (g *GMM) Dim() int { return g.m.d }

// CovarianceType returns the form of the covariances.
func (g *GMM) CovarianceType() Covariance { return g.m.cov }

// Weights returns a copy of the mixing weights π_k.
func (g *GMM) Weights() []float64 { return slices.Clone(g.m.weights) }

// Means returns a copy of the means, K×D row-major.
func (g *GMM) Means() []float64 { return slices.Clone(g.m.means) }

// Covariances returns a copy of the covariance matrices Σ_k in full form,
// K×D×D row-major, whatever the covariance type.
func (g *GMM) Covariances() []float64 { return slices.Clone(g.m.sigma) }

// Params returns a copy of the parameters in the compact layout of the
// covariance type.
func (g *GMM) Params() Params { return g.m.params() }

// LogLikelihoodTrace returns the training log-likelihood Σ_i w_i log p(x_i)
// of the parameters entering every EM iteration of the kept run, followed
// by that of the final parameters: Iterations()+1 values, never
// decreasing beyond rounding (unless a warning reports a re-seeded
// component).
func (g *GMM) LogLikelihoodTrace() []float64 { return slices.Clone(g.info.trace) }

// LogLikelihood returns the training log-likelihood of the final
// parameters.
func (g *GMM) LogLikelihood() float64 { return g.info.trace[len(g.info.trace)-1] }

// RestartLogLikelihoods returns the final training log-likelihood of
// every restart, in order.
func (g *GMM) RestartLogLikelihoods() []float64 { return slices.Clone(g.info.restarts) }

// Candidates returns the figures of every number of components tried when
// SelectK chose this model, nil when Fit fitted it.
func (g *GMM) Candidates() []Candidate { return slices.Clone(g.info.candidates) }

// Converged reports whether the kept run stopped by the tolerance.
func (g *GMM) Converged() bool { return g.info.converged }

// Iterations returns the number of EM iterations of the kept run.
func (g *GMM) Iterations() int { return g.info.iters }

// Warnings returns what went wrong in the kept run without stopping it:
// re-seeded components, no convergence.
func (g *GMM) Warnings() []string { return slices.Clone(g.info.warnings) }

// NumRows returns the number of training rows n (Σ_i w_i with weights).
func (g *GMM) NumRows() float64 { return g.info.n }

// NumParams returns the number of free parameters, as scikit-learn's
// GaussianMixture counts them: K·D means, K − 1 weights, and
//
//	Full: K·D(D+1)/2   Tied: D(D+1)/2   Diag: K·D   Spherical: K   Identity: 0
func (g *GMM) NumParams() int { return g.m.cov.numParams(g.m.k, g.m.d) }

// BIC returns the Bayesian information criterion on the training data,
//
//	BIC = −2 ℓ + p log n,
//
// with ℓ = LogLikelihood(), p = NumParams(), n = NumRows().
func (g *GMM) BIC() float64 {
	return -2*g.LogLikelihood() + float64(g.NumParams())*math.Log(g.info.n)
}

// AIC returns the Akaike information criterion on the training data,
//
//	AIC = −2 ℓ + 2p.
func (g *GMM) AIC() float64 {
	return -2*g.LogLikelihood() + 2*float64(g.NumParams())
}

// eval runs fn over the blocks of rows of d. It panics if d's features
// differ from the model's schema by name, kind or order.
func (g *GMM) eval(d *data.Dataset, fn func(s *scratch, rows []int)) {
	checkFeatures(g.schema, d)
	eng, _ := g.engines.Get().(*engine)
	if eng == nil {
		eng = &engine{m: g.m, covs: g.covs, tris: g.tris, zero: make([]float64, g.m.d), full: g.full, all: g.all}
	}
	defer g.engines.Put(eng)
	lay := newLayout(d.X, nil, d.N, d.D())
	if _, err := eng.run(lay, fn); err != nil {
		// A principal submatrix of a positive definite Σ_k, which
		// newGMM checked, is positive definite.
		panic("mixture: marginal covariance: " + err.Error())
	}
}

// ScoreSamples writes the log density log p(x_i) of every row of d to
// dst[i] and returns dst; a nil dst is allocated, otherwise len(dst) must
// be d.N. A row with missing cells gets the density of its observed
// coordinates (the others marginalised out); a row with none observed
// gets 0. A row so far out that its density is below float64's range
// (about −1e600 at 1e300) gets −Inf (see farScaled). It panics if d's
// features differ from the model's schema by name, kind or order.
func (g *GMM) ScoreSamples(dst []float64, d *data.Dataset) []float64 {
	dst = dstLen(dst, d.N)
	g.eval(d, func(s *scratch, rows []int) {
		for i, row := range rows {
			dst[row] = s.ll[i]
			if dst[row] != dst[row] { // an overflow in the solves, +Inf − Inf
				ll, _, c := g.farScaled(make([]float64, g.m.k), d.Row(row))
				dst[row] = ll.Value(c)
			}
		}
	})
	return dst
}

// farScaled returns log p(x) of the row x as a scaled number of the
// row's scale (mathx.RowScale, whose C it returns too): the log-sum-exp
// (mathx.LogSumExpScaled) of the components' scaled log-densities,
//
//	log π_k + log N(x_O; μ_kO, Σ_kOO)  (gauss.Pattern.LogPdfScaled)
//
// for a row whose every component's log-density overflowed to −Inf
// (logProbs gives it inv_i = 0), or to NaN where the solves met +Inf − Inf. The responsibilities of such a row are
// those of mathx.SoftmaxScaled of h, which it leaves with the components'
// scaled scores (K values).
func (g *GMM) farScaled(h []float64, x []float64) (ll mathx.Scaled, comps []mathx.Scaled, c float64) {
	scale := mathx.RowScale(x)
	comps = make([]mathx.Scaled, g.m.k)
	work := make([]float64, 2*g.m.d)
	for k, cov := range g.covs {
		pat, err := cov.PatternOf(x)
		if err != nil {
			panic("mixture: marginal covariance: " + err.Error())
		}
		comps[k] = pat.LogPdfScaled(x, g.m.mean(k), scale, work)
		comps[k].Const += math.Log(g.m.weights[k])
	}
	return mathx.LogSumExpScaled(h, comps, scale.C), comps, scale.C
}

// Predict writes the responsibilities
//
//	P(k | x_i) = π_k N(x_i; μ_k, Σ_k) / p(x_i)
//
// of every row i of d to dst[i·K+k] and returns dst; a nil dst is
// allocated, otherwise len(dst) must be d.N·K. Missing cells are
// marginalised as in ScoreSamples. Clusters turns the result into labels.
// A row whose every component's density is below float64's range is
// scored again as a scaled number (mathx.SoftmaxScaled): far out along a
// direction x̃ the component of least ‖L_k⁻¹x̃‖², the widest that way,
// takes it, so that the responsibilities are finite and sum to 1 for
// any finite row.
func (g *GMM) Predict(dst []float64, d *data.Dataset) []float64 {
	k := g.m.k
	dst = dstLen(dst, d.N*k)
	g.eval(d, func(s *scratch, rows []int) {
		for c := range k {
			rs := s.rs[c*blockRows:]
			for i, row := range rows {
				dst[row*k+c] = rs[i] * s.inv[i]
			}
		}
		for i, row := range rows {
			if !(s.inv[i] > 0) { // 0, or NaN from an overflow in the solves

				out := dst[row*k : (row+1)*k]
				_, comps, c := g.farScaled(out, d.Row(row))
				mathx.SoftmaxScaled(out, comps, c)
			}
		}
	})
	return dst
}

// Clusters writes argmax_k resp[i·K+k], the first on ties, to dst[i] for
// the responsibilities resp of Predict and returns dst; a nil dst is
// allocated, otherwise len(dst) must be len(resp)/K.
func (g *GMM) Clusters(dst []int, resp []float64) []int {
	k := g.m.k
	n := len(resp) / k
	if dst == nil {
		dst = make([]int, n)
	}
	if len(dst) != n || len(resp) != n*k {
		panic(fmt.Sprintf("mixture: Clusters of %d responsibilities into %d labels for %d components", len(resp), len(dst), k))
	}
	for i := range dst {
		r := resp[i*k : (i+1)*k]
		best := 0
		for c, v := range r {
			if v > r[best] {
				best = c
			}
		}
		dst[i] = best
	}
	return dst
}

// LogProb returns log p(x), marginalising the missing (NaN) coordinates of
// x, −Inf where it is below float64's range (ScoreSamples). It implements
// distmv.LogProber and panics if len(x) is not Dim().
func (g *GMM) LogProb(x []float64) float64 {
	d := g.m.d
	if len(x) != d {
		panic(fmt.Sprintf("mixture: LogProb of %d values for %d features", len(x), d))
	}
	return g.ScoreSamples(nil, &data.Dataset{Schema: g.schema, N: 1, X: x})[0]
}

// Sample draws a component k with probability π_k and x ~ N(μ_k, Σ_k),
// x = μ_k + L_k z with z standard normal and L_k L_kᵀ = Σ_k, using rng. It
// writes x to dst and returns dst and k; a nil dst is allocated,
// otherwise len(dst) must be Dim().
func (g *GMM) Sample(dst []float64, rng *rand.Rand) ([]float64, int) {
	d := g.m.d
	dst = dstLen(dst, d)
	u, k := rng.Float64(), g.m.k-1
	for c, w := range g.m.weights[:k] {
		if u < w {
			k = c
			break
		}
		u -= w
	}
	return g.covs[k].Rand(dst, g.m.mean(k), rng), k
}

// Rander pairs a GMM with a random source so that it implements gonum's
// distmv.Rander (and, through the embedded GMM, distmv.RandLogProber).
type Rander struct {
	*GMM
	Src *rand.Rand
}

// Rand returns a draw of Sample with r.Src.
func (r Rander) Rand(x []float64) []float64 {
	x, _ = r.Sample(x, r.Src)
	return x
}

// dstLen returns dst, or a new slice of n values when dst is nil; it
// panics if dst has another length.
func dstLen(dst []float64, n int) []float64 {
	if dst == nil {
		return make([]float64, n)
	}
	if len(dst) != n {
		panic(fmt.Sprintf("mixture: destination of length %d, need %d", len(dst), n))
	}
	return dst
}
