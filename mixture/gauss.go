package mixture

import (
	"errors"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// log2Pi is log(2π).
var log2Pi = math.Log(2 * math.Pi)

// errNotPD is returned when a covariance matrix is not positive definite.
var errNotPD = errors.New("covariance matrix not positive definite")

// model holds the parameters of a mixture of K Gaussians in D dimensions
// with every covariance expanded to a full D×D matrix (diagonal for the
// diagonal types, one matrix repeated for Tied), so that the marginal of
// any subset of coordinates is read the same way whatever the type.
type model struct {
	cov     Covariance
	k, d    int
	weights []float64 // K
	means   []float64 // K×D
	sigma   []float64 // K×D×D
}

func newModel(cov Covariance, k, d int) *model {
	return &model{cov: cov, k: k, d: d,
		weights: make([]float64, k), means: make([]float64, k*d), sigma: make([]float64, k*d*d)}
}

func (m *model) clone() *model {
	return &model{cov: m.cov, k: m.k, d: m.d,
		weights: slices.Clone(m.weights), means: slices.Clone(m.means), sigma: slices.Clone(m.sigma)}
}

func (m *model) mean(k int) []float64 { return m.means[k*m.d : (k+1)*m.d] }

func (m *model) cov1(k int) []float64 { return m.sigma[k*m.d*m.d : (k+1)*m.d*m.d] }

// marginal is component k's Gaussian restricted to the observed
// coordinates O of a row, and what the M-step needs about the missing
// ones M. With Σ_OO = L Lᵀ (Cholesky),
//
//	log π_k + log N(x_O; μ_O, Σ_OO) = logc − ½ ‖L⁻¹(x_O − μ_O)‖²
//	logc = log π_k − ½ log|Σ_OO| − ½ |O| log 2π,  log|Σ_OO| = 2 Σ_j log L_jj
//	E[x_M | x_O]   = μ_M + A (x_O − μ_O),  A = Σ_MO Σ_OO⁻¹
//	Cov[x_M | x_O] = C = Σ_MM − Σ_MO Σ_OO⁻¹ Σ_OM
//
// For diagonal covariances L⁻¹ is diagonal, A = 0 and C = diag(Σ_MM).
type marginal struct {
	logc float64
	// linv holds L⁻¹, |O|×|O| row-major lower triangular, or for a
	// diagonal covariance the |O| values 1/σ_j.
	linv []float64
	// a holds A, |M|×|O| row-major (unused for diagonal covariances).
	a []float64
	// c holds C, |M|×|M| row-major, or its diagonal for a diagonal
	// covariance.
	c []float64
}

// newMarginals returns k marginals with room for d dimensions.
func newMarginals(k, d int) []marginal {
	ms := make([]marginal, k)
	for i := range ms {
		ms[i] = marginal{linv: make([]float64, d*d), a: make([]float64, d*d), c: make([]float64, d*d)}
	}
	return ms
}

// marginal computes component k's marginal over the coordinates obs into
// g, with mis the other coordinates. It returns errNotPD when Σ_OO is not
// numerically positive definite, and does not allocate.
func (m *model) marginal(g *marginal, k int, obs, mis []int) error {
	d, p, q := m.d, len(obs), len(mis)
	s := m.cov1(k)
	logDet := 0.0
	if m.cov.diagonal() {
		for i, o := range obs {
			v := s[o*d+o]
			if !(v > 0) || math.IsInf(v, 0) {
				return errNotPD
			}
			g.linv[i] = 1 / math.Sqrt(v)
			logDet += math.Log(v)
		}
		for i, o := range mis {
			g.c[i] = s[o*d+o]
		}
	} else {
		l := g.linv[:p*p]
		for i, oi := range obs {
			for j, oj := range obs[:i+1] {
				l[i*p+j] = s[oi*d+oj]
			}
		}
		if p > 0 {
			t, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Lower, N: p, Stride: p, Data: l})
			if !ok {
				return errNotPD
			}
			for i := range p {
				logDet += 2 * math.Log(l[i*p+i])
			}
			if !lapack64.Trtri(blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: p, Stride: p, Data: t.Data}) {
				return errNotPD
			}
			for i := range p {
				clear(l[i*p+i+1 : (i+1)*p])
			}
		}
		if q > 0 {
			m.conditional(g, s, obs, mis)
		}
	}
	if math.IsNaN(logDet) || math.IsInf(logDet, 0) {
		return errNotPD
	}
	g.logc = math.Log(m.weights[k]) - 0.5*logDet - 0.5*float64(p)*log2Pi
	return nil
}

// conditional fills g.a and g.c from g.linv = L⁻¹ and the full covariance
// s: with G = L⁻¹ Σ_OM (|O|×|M|),
//
//	A = Σ_MO Σ_OO⁻¹ = Gᵀ L⁻¹,   C = Σ_MM − Gᵀ G.
func (m *model) conditional(g *marginal, s []float64, obs, mis []int) {
	d, p, q := m.d, len(obs), len(mis)
	linv := g.linv[:p*p]
	a, c := g.a[:q*p], g.c[:q*q]
	// Row j of A is gⱼᵀ L⁻¹ where gⱼ = L⁻¹ Σ_{O,mⱼ} is column j of G.
	// C_jl = Σ_{mⱼ,mₗ} − gⱼ·gₗ. Column gⱼ is stored in row j of a
	// temporarily (|O| values), then replaced by row j of A once all
	// products gⱼ·gₗ are taken.
	for j, mj := range mis {
		gj := a[j*p : (j+1)*p]
		for i := range p {
			v := 0.0
			for l, ol := range obs[:i+1] {
				v += linv[i*p+l] * s[ol*d+mj]
			}
			gj[i] = v
		}
	}
	for j, mj := range mis {
		gj := a[j*p : (j+1)*p]
		for l, ml := range mis[:j+1] {
			v := s[mj*d+ml]
			gl := a[l*p : (l+1)*p]
			for i := range p {
				v -= gj[i] * gl[i]
			}
			c[j*q+l], c[l*q+j] = v, v
		}
	}
	// A_j = gⱼᵀ L⁻¹: (A_j)_l = Σ_{i≥l} g_ji L⁻¹_il, computed for l
	// ascending so that g_jl is read before it is overwritten.
	for j := range mis {
		gj := a[j*p : (j+1)*p]
		for l := range p {
			v := 0.0
			for i := l; i < p; i++ {
				v += gj[i] * linv[i*p+l]
			}
			gj[l] = v
		}
	}
}
