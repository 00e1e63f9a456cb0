package mixture

import (
	"errors"
	"math"

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
// For full covariances and missing coordinates the marginal comes from the
// precision matrix of the complete one (see fromPrecision), and linv is
// not used.
type marginal struct {
	logc float64
	// logDet is log|Σ_OO|.
	logDet float64
	// prec holds the precision matrix Σ⁻¹ = L⁻ᵀ L⁻¹, D×D, for the
	// marginal over all coordinates of a full covariance; nil otherwise.
	prec []float64
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
		ms[i] = marginal{linv: make([]float64, d*d), a: make([]float64, d*d), c: make([]float64, d*d),
			prec: make([]float64, d*d)}
	}
	return ms
}

// marginal computes component k's marginal over the coordinates obs into
// g, with mis the other coordinates; full is the component's marginal
// over all coordinates, which a full covariance with missing coordinates
// starts from (see fromPrecision). It returns errNotPD when Σ_OO is not
// numerically positive definite, and does not allocate.
func (m *model) marginal(g *marginal, k int, obs, mis []int, full *marginal) error {
	if len(mis) > 0 && !m.cov.diagonal() {
		return m.fromPrecision(g, k, len(obs), mis, full)
	}
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
		if q == 0 && g.prec != nil {
			precision(g.prec, l, p)
		}
	}
	if math.IsNaN(logDet) || math.IsInf(logDet, 0) {
		return errNotPD
	}
	g.logDet = logDet
	g.logc = math.Log(m.weights[k]) - 0.5*logDet - 0.5*float64(p)*log2Pi
	return nil
}

// precision writes P = L⁻ᵀ L⁻¹ (d×d) for the lower-triangular L⁻¹ linv.
func precision(prec, linv []float64, d int) {
	for j := range d {
		for l := range j + 1 {
			v := 0.0
			for i := j; i < d; i++ {
				v += linv[i*d+j] * linv[i*d+l]
			}
			prec[j*d+l], prec[l*d+j] = v, v
		}
	}
}

// fromPrecision computes component k's marginal over p observed
// coordinates, the others being mis, from the precision matrix P = Σ⁻¹
// and log|Σ| of its marginal over all coordinates, full. By the block
// inverse of P (Schur complements),
//
//	C = Cov[x_M | x_O] = P_MM⁻¹
//	A = Σ_MO Σ_OO⁻¹ = −P_MM⁻¹ P_MO
//	log|Σ_OO| = log|Σ| + log|P_MM|
//
// which costs O(|M|³ + |M|²|O|) instead of the O(|O|³) of factoring
// Σ_OO. The squared Mahalanobis distance of the observed coordinates is
// that of the completed row ĉ = (c_O, A c_O) under the full Σ,
//
//	c_Oᵀ Σ_OO⁻¹ c_O = min over c_M of cᵀ P c = ĉᵀ P ĉ = ‖L⁻¹ ĉ‖²,
//
// so the E-step uses full's L⁻¹ on the imputed block.
func (m *model) fromPrecision(g *marginal, k, p int, mis []int, full *marginal) error {
	d, q := m.d, len(mis)
	r, a := g.c[:q*q], g.a[:q*p]
	for j, mj := range mis {
		for l, ml := range mis[:j+1] {
			r[j*q+l] = full.prec[mj*d+ml]
		}
	}
	t, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Lower, N: q, Stride: q, Data: r})
	if !ok {
		return errNotPD
	}
	logDet := full.logDet
	for j := range q {
		logDet += 2 * math.Log(r[j*q+j])
	}
	// A = −P_MM⁻¹ P_MO, over the observed coordinates in increasing order.
	for j, mj := range mis {
		row, o, next := a[j*p:(j+1)*p], 0, 0
		for c := range d {
			if next < q && mis[next] == c {
				next++
				continue
			}
			row[o] = -full.prec[mj*d+c]
			o++
		}
	}
	lapack64.Potrs(t, blas64.General{Rows: q, Cols: p, Stride: p, Data: a})
	if _, ok := lapack64.Potri(t); !ok {
		return errNotPD
	}
	for j := range q {
		for l := range j {
			r[l*q+j] = r[j*q+l]
		}
	}
	if math.IsNaN(logDet) || math.IsInf(logDet, 0) {
		return errNotPD
	}
	g.logDet = logDet
	g.logc = math.Log(m.weights[k]) - 0.5*logDet - 0.5*float64(p)*log2Pi
	return nil
}
