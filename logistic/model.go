package logistic

import (
	"fmt"
	"math"
	"weak"

	"gonum.org/v1/gonum/floats"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/design"
	"github.com/gendisc/gendisc/internal/hugepage"
	"github.com/gendisc/gendisc/internal/kernel"
	"github.com/gendisc/gendisc/internal/mathx"
	"github.com/gendisc/gendisc/internal/parallel"
)

// Kind is the model kind of logistic regression in model files.
const Kind = "logistic"

// Diagnostics reports how a fit went. Sums over rows are weighted by the
// row weights v_i (sample weight × class weight). Its JSON form has
// snake_case keys and floats that read back bit for bit.
type Diagnostics struct {
	// Solver is the method that ran (Auto resolved).
	Solver Solver
	// Iterations counts the iterations (epochs for sgd).
	Iterations int
	// Evaluations counts the passes over the data that computed the
	// objective and its gradient (lbfgs's warm-up on a subsample of the
	// rows counts in whole passes' worth, rounded up).
	Evaluations int
	// Objective is the maximised objective at the returned weights,
	// F = Σ_i v_i log P(y_i | x_i) − (λ/2) Σ_c ‖w_c‖².
	Objective float64
	// LogLikelihood is Σ_i v_i log P(y_i | x_i).
	LogLikelihood float64
	// GradNorm is max_j |∂F/∂θ_j| / Σ_i v_i, the gradient of the mean
	// objective (the quantity Newton and L-BFGS compare with Tol).
	GradNorm float64
	// Converged reports that the stopping criterion was met, or that
	// Newton or L-BFGS stopped because float64 rounding hides any further
	// decrease of the objective once GradNorm is under √ε ≈ 1.5e-8.
	Converged bool
	// Separable reports that an unpenalised fit stopped because its
	// weights grow without bound (separable or quasi-separable data).
	Separable bool
	// Warning explains an early stop; empty when the fit converged.
	Warning string
}

// Model is a fitted logistic regression. It implements gendisc.Classifier
// and is immutable and safe for concurrent use.
//
// With K = 2 classes it holds one weight vector, for the second class:
//
//	P(y = classes[1] | x) = σ(wᵀz + b),  σ(t) = 1/(1 + e⁻ᵗ)
//
// and with K > 2 one per class (softmax):
//
//	P(y = c | x) = exp(w_cᵀz + b_c) / Σ_l exp(w_lᵀz + b_l)
//
// where z is the design row of x: standardised numeric columns, one-hot
// indicators and term counts (package internal/design). The weights sum to zero
// over the classes, component by component, and so do the intercepts.
type Model struct {
	schema *data.Schema
	enc    *design.Encoder
	k      int       // weight vectors
	theta  []float64 // k × (P+1): w_c then b_c
	lambda float64
	impute bool // fitted with Config.Impute: missing cells take the training means
	// classWeight is Config.ClassWeight of the fit, when known (model
	// files written before it was kept lack it).
	classWeight      ClassWeight
	classWeightKnown bool
	diag             Diagnostics
	// hessian is the Hessian of the log-likelihood part of the objective
	// per unit of row weight, at the last iterate where Newton computed
	// it (dim × dim), for FitFrom's first step; nil for other solvers and
	// for a model read from a file.
	hessian []float64
	// last is the fit's last evaluation, for FitFrom on the same rows;
	// nil for a model read from a file.
	last *lastEvaluation
}

// lastEvaluation is the log-likelihood part of the objective and its
// gradient at a model's parameters, as its fit evaluated them last, and
// what they were evaluated on: FitFrom of the same rows (the same
// *data.Dataset, still alive) with the same design and class weights
// starts from them, and from the model's design, instead of a pass over
// the rows for each.
type lastEvaluation struct {
	rows   weak.Pointer[data.Dataset]
	fitted fitKey
	nll    float64
	wrong  int
	grad   []float64 // ∂(−log-likelihood)/∂θ, without the penalty
	// The rows' classes, the classes' total weights and the rows'
	// weights of the fit (classes, rowWeights), which a fit of the same
	// rows and fitKey takes rather than reading the rows again.
	y         []int32
	classW, v []float64
}

// Kind returns "logistic".
func (m *Model) Kind() string { return Kind }

// Schema returns the schema of the training data.
func (m *Model) Schema() *data.Schema { return m.schema }

// Classes returns the class names, the order of LogProba's columns.
func (m *Model) Classes() []string { return m.schema.Classes() }

// L2 returns the λ of the fit.
func (m *Model) L2() float64 { return m.lambda }

// ClassWeight returns how the fit weighed the rows by class
// (Config.ClassWeight); known is false for a model read from a file
// written before the setting was kept.
func (m *Model) ClassWeight() (w ClassWeight, known bool) { return m.classWeight, m.classWeightKnown }

// Diagnostics returns the report of the fit.
func (m *Model) Diagnostics() Diagnostics { return m.diag }

// Terms returns the names of the design columns, the order of the
// coefficients: a numeric feature's name, "feature=level" for an
// indicator, "feature:term" for a term count of a text column.
func (m *Model) Terms() []string { return terms(m.enc) }

// terms returns the names of enc's design columns.
func terms(enc *design.Encoder) []string {
	names := make([]string, enc.P()+enc.V())
	for t := range names {
		names[t] = enc.Name(t)
	}
	return names
}

// Coefficients returns the weights and intercepts on the standardised
// scale, the scale the penalty applies to: w[c][t] for design column t,
// one row (the second class against the first) for a binary model and
// one per class otherwise.
func (m *Model) Coefficients() (w [][]float64, b []float64) {
	p := m.enc.P() + m.enc.V()
	q := p + 1
	w, b = make([][]float64, m.k), make([]float64, m.k)
	for c := range m.k {
		w[c] = append([]float64(nil), m.theta[c*q:c*q+p]...)
		b[c] = m.theta[c*q+p]
	}
	return w, b
}

// Standardized reports whether the weights of some numeric feature are
// on the standardised scale, z = (x − mean)/sd: false for a model fitted
// with Config.NoStandardize (or without numeric features), whose
// Coefficients and OriginalCoefficients are then the same.
func (m *Model) Standardized() bool { return m.enc.Standardized() }

// OriginalCoefficients returns the coefficients in the units of the
// original features: for a numeric column standardised as
// z = (x − m)/s, the weight w/s, and the intercept b − Σ w m/s over
// numeric columns; indicator weights are unchanged.
func (m *Model) OriginalCoefficients() (w [][]float64, b []float64) {
	w, b = m.Coefficients()
	for t, term := range m.enc.Terms() {
		if term.Level >= 0 {
			continue
		}
		for c := range w {
			w[c][t] /= term.Scale
			b[c] -= w[c][t] * term.Center
		}
	}
	return w, b
}

// LogProba writes log P(y = c | x_i) to dst[i*K+c] (see
// gendisc.Classifier), computed stably: the log-sigmoid
// log σ(t) = −log(1 + e⁻ᵗ), or the log-softmax s_c − log Σ_l exp(s_l)
// with the largest score factored out. A category never seen in training
// takes its design column's training mean, and so does a missing cell in
// a model fitted with Config.Impute; a model fitted without it takes
// complete rows only, as its fit did: CheckMissing returns the error for
// the first missing cell, which LogProba, unchecked, would fill with the
// mean. A term outside the training vocabulary is left out. It panics if dst has the
// wrong length or d's features differ from the model's schema by name,
// kind or order.
func (m *Model) LogProba(dst []float64, d *data.Dataset) []float64 {
	return m.logProba(dst, d, false)
}

// Proba writes P(y = c | x_i) to dst[i*K+c], bit for bit the exponential
// of what LogProba writes (gendisc.BatchProba), with its conventions:
// each block of rows exponentiated by kernel.Exp while it is in cache,
// four lanes at a time, rather than by a math.Exp per value.
func (m *Model) Proba(dst []float64, d *data.Dataset) []float64 {
	return m.logProba(dst, d, true)
}

// logProba is LogProba, and Proba when exp is set.
func (m *Model) logProba(dst []float64, d *data.Dataset, exp bool) []float64 {
	K := len(m.Classes())
	if dst == nil {
		dst = hugepage.Make[float64](d.N*K, d.N*K)
	}
	if len(dst) != d.N*K {
		panic("logistic: LogProba: dst has the wrong length")
	}
	if err := m.schema.SameFeatures(d.Schema); err != nil {
		panic("logistic: LogProba: " + err.Error())
	}
	pd, p := m.enc.P(), m.enc.P()+m.enc.V()
	q := p + 1
	// The scores of the term counts, N × k, from one sparse product.
	var sparse []float64
	if sp := m.enc.EncodeText(d); sp != nil {
		sparse = sp.MulTo(nil, sparseWeights(m.theta, m.k, pd, p), m.k)
	}
	parallel.For(d.N, 1024, func(_, lo, hi int) {
		z := make([]float64, pd)
		// For two classes, −|t_i| of the block's scores, then their
		// exponentials, taken at once by kernel.Exp (bit for bit
		// math.Exp); NaN marks a row far out, done by farRow.
		var u []float64
		if m.k == 1 {
			u = make([]float64, hi-lo)
		}
		for i := lo; i < hi; i++ {
			m.enc.EncodeRow(z, d.Row(i))
			out := dst[i*K : (i+1)*K]
			for c := range m.k {
				th := m.theta[c*q : (c+1)*q]
				out[c] = floats.Dot(z, th[:pd]) + th[p]
				if sparse != nil {
					out[c] += sparse[i*m.k+c]
				}
			}
			if !finite(out[:m.k]) {
				var sp []float64
				if sparse != nil {
					sp = sparse[i*m.k : (i+1)*m.k]
				}
				m.farRow(out, d.Row(i), sp)
				if u != nil {
					u[i-lo] = math.NaN()
				}
				continue
			}
			if m.k == 1 {
				u[i-lo] = -math.Abs(out[0])
				continue
			}
			mx, lse := mathx.MaxLogSumExp(out)
			for c := range out {
				out[c] -= mx + lse
			}
		}
		if u != nil {
			kernel.Exp(u)
			for r, e := range u {
				if e == e {
					out := dst[(lo+r)*K:]
					out[0], out[1] = binaryLogProba(out[0], e)
				}
			}
		}
		if exp {
			kernel.Exp(dst[lo*K : hi*K])
		}
	})
	return dst
}

// finite reports whether every s_c is finite.
func finite(s []float64) bool {
	for _, v := range s {
		if math.IsInf(v, 0) || v != v {
			return false
		}
	}
	return true
}

// farRow writes log P(y = c | x) to out for the row x whose scores
// overflowed (a cell so large that its standardised value or its product
// with a weight is beyond float64), sp holding its text columns' scores
// (nil without). The design row is split as C·z̃ + z_d
// (design.Encoder.EncodeRowScaled, C = mathx.RowScale(x).C), so that each
// score is C·θ_cᵀz̃ + (θ_cᵀz_d + b_c) and the classes compare first by
// θ_cᵀz̃, the direction in which the row is far (the class whose score
// grows fastest that way wins), then by the rest (mathx.NormalizeLogScaled).
// A binary model's scores are 0 and t for classes 0 and 1. It allocates:
// such rows are rare.
func (m *Model) farRow(out, x, sp []float64) {
	pd, q := m.enc.P(), m.enc.P()+m.enc.V()+1
	scale := mathx.RowScale(x)
	zs, zw := make([]float64, pd), make([]float64, pd)
	m.enc.EncodeRowScaled(zs, zw, x, scale)
	s := make([]mathx.Scaled, len(out))
	first := len(out) - m.k // the binary model's class 0 scores 0
	for c := range m.k {
		th := m.theta[c*q : (c+1)*q]
		s[first+c] = mathx.Scaled{Lin: floats.Dot(zs, th[:pd]), Const: floats.Dot(zw, th[:pd]) + th[q-1]}
		if sp != nil {
			s[first+c].Const += sp[c]
		}
	}
	mathx.NormalizeLogScaled(out, s, scale.C)
}

// checkFinite guards the promise that a fit never returns NaN or Inf, nor
// a weight beyond design.Bound, which no fit of data in sensible units
// reaches and a model file may not hold.
func (m *Model) checkFinite() error {
	for _, v := range m.theta {
		if !design.CoefficientDomain.Holds(v) {
			return fmt.Errorf("logistic: the fit produced the weight %v, not a finite number within ±%g (numerical failure)", v, design.Bound)
		}
	}
	return nil
}

// sparseWeights returns the weights of the sparse columns j = pd..p−1 of
// the k vectors of theta (laid out as θ, q = p+1 apart) as one k × (p−pd)
// matrix, the layout of text.CSR.MulTo: theta's own slice when k = 1,
// else a copy.
func sparseWeights(theta []float64, k, pd, p int) []float64 {
	if k == 1 {
		return theta[pd:p]
	}
	V, q := p-pd, p+1
	w := make([]float64, k*V)
	for c := range k {
		copy(w[c*V:(c+1)*V], theta[c*q+pd:c*q+p])
	}
	return w
}
