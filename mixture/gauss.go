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
// ones M:
//
//	log π_k + log N(x_O; μ_O, Σ_OO) = logc − ½ c_Oᵀ Σ_OO⁻¹ c_O,  c = x − μ
//	logc = log π_k − ½ log|Σ_OO| − ½ |O| log 2π
//	E[x_M | x_O]   = μ_M + A c_O,  A = Σ_MO Σ_OO⁻¹
//	Cov[x_M | x_O] = C = Σ_MM − Σ_MO Σ_OO⁻¹ Σ_OM
//
// The quadratic form is that of the completed row ĉ = (c_O, A c_O) under
// the full Σ,
//
//	c_Oᵀ Σ_OO⁻¹ c_O = min over c_M of cᵀ Σ⁻¹ c = ĉᵀ Σ⁻¹ ĉ = ‖L⁻¹ ĉ‖²,  Σ = L Lᵀ,
//
// so every row, whatever its missing cells, is evaluated with the factor
// L⁻¹ of the marginal over all coordinates (see complete) once its
// missing coordinates are filled in. For a diagonal Σ, A = 0 and
// C = diag(Σ_MM).
type marginal struct {
	logc float64
	// logDet is log|Σ_OO|.
	logDet float64
	// linv holds L⁻¹, D×D row-major lower triangular, or for a diagonal
	// covariance the D values 1/σ_j (marginals over all coordinates).
	linv []float64
	// prec holds Σ⁻¹ = L⁻ᵀ L⁻¹, D×D, for a full covariance (marginals
	// over all coordinates).
	prec []float64
	// a holds A, |M|×|O| row-major (full covariances with missing
	// coordinates).
	a []float64
	// c holds C, |M|×|M| row-major, or its diagonal for a diagonal
	// covariance (marginals with missing coordinates).
	c []float64
}

// newComplete returns k marginals over all of d coordinates.
func newComplete(k, d int) []marginal {
	ms := make([]marginal, k)
	for i := range ms {
		ms[i] = marginal{linv: make([]float64, d*d), prec: make([]float64, d*d)}
	}
	return ms
}

// complete computes component k's marginal over all coordinates into g:
// the Cholesky factor's inverse L⁻¹, the precision matrix and log|Σ|. It
// returns errNotPD when Σ_k is not numerically positive definite, and
// does not allocate.
func (m *model) complete(g *marginal, k int) error {
	d := m.d
	s := m.cov1(k)
	logDet := 0.0
	if m.cov.diagonal() {
		for j := range d {
			v := s[j*d+j]
			if !(v > 0) || math.IsInf(v, 0) {
				return errNotPD
			}
			g.linv[j] = 1 / math.Sqrt(v)
			logDet += math.Log(v)
		}
	} else {
		l := g.linv[:d*d]
		for j := range d {
			copy(l[j*d:j*d+j+1], s[j*d:j*d+j+1])
		}
		t, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Lower, N: d, Stride: d, Data: l})
		if !ok {
			return errNotPD
		}
		for j := range d {
			logDet += 2 * math.Log(l[j*d+j])
		}
		if !lapack64.Trtri(blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: d, Stride: d, Data: t.Data}) {
			return errNotPD
		}
		for j := range d {
			clear(l[j*d+j+1 : (j+1)*d])
		}
		precision(g.prec, l, d)
	}
	if math.IsNaN(logDet) || math.IsInf(logDet, 0) {
		return errNotPD
	}
	g.logDet = logDet
	g.logc = math.Log(m.weights[k]) - 0.5*logDet - 0.5*float64(d)*log2Pi
	return nil
}

// pattern computes component k's marginal over the coordinates obs, the
// others mis being missing, into g, from full, the marginal over all
// coordinates; g.a and g.c must have room for |M|·|O| and |M|² values.
// It returns errNotPD when the marginal is not numerically positive
// definite, and does not allocate.
func (m *model) pattern(g *marginal, k int, obs, mis []int, full *marginal) error {
	if !m.cov.diagonal() {
		return m.fromPrecision(g, k, len(obs), mis, full)
	}
	d := m.d
	s := m.cov1(k)
	logDet := 0.0
	for _, j := range obs {
		logDet += math.Log(s[j*d+j])
	}
	for i, j := range mis {
		g.c[i] = s[j*d+j]
	}
	g.logDet = logDet
	g.logc = math.Log(m.weights[k]) - 0.5*logDet - 0.5*float64(len(obs))*log2Pi
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
// Σ_OO.
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
