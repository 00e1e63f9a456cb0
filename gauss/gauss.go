package gauss

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// Log2Pi is log(2π).
var Log2Pi = math.Log(2 * math.Pi)

// ErrNotPositiveDefinite is the error of a covariance matrix that is not
// (numerically) positive definite.
var ErrNotPositiveDefinite = errors.New("gauss: covariance matrix not positive definite")

// VarianceError is the error of a covariance matrix with a diagonal entry
// that is not positive: Dim has zero (or negative, or NaN) variance. It
// wraps ErrNotPositiveDefinite.
type VarianceError struct {
	Dim int
}

func (e *VarianceError) Error() string {
	return fmt.Sprintf("gauss: dimension %d has variance ≤ 0", e.Dim)
}

func (e *VarianceError) Unwrap() error { return ErrNotPositiveDefinite }

// Cov is a p×p covariance matrix Σ with its Cholesky factorisation
// Σ = L Lᵀ (L lower triangular), L⁻¹, the precision matrix Λ = Σ⁻¹ and
// log |Σ|, and a cache of the Patterns of observed cells. It is safe for
// concurrent use.
type Cov struct {
	p      int
	diag   bool      // Σ diagonal: l, linv hold the p diagonal entries only
	sigma  []float64 // Σ, p×p row-major
	l      []float64 // L, p×p row-major lower (upper triangle 0), or √Σ_jj
	linv   []float64 // L⁻¹ likewise, or 1/√Σ_jj
	prec   []float64 // Λ = L⁻ᵀ L⁻¹, p×p (nil for a diagonal Σ)
	logDet float64   // log |Σ|

	mu   sync.Mutex
	pats map[string]*Pattern
}

// New factors the p×p covariance matrix sigma (row-major, symmetric; only
// its upper triangle is read) and returns its Cov. It factors the
// correlation matrix R = D⁻¹ Σ D⁻¹, D = diag(√Σ_jj), R = VᵀV by LAPACK's
// dpotrf, and scales back, L = D Vᵀ, so that the factor does not depend on
// the units of the dimensions:
//
//	log |Σ| = log |R| + 2 Σ_j log D_j
//
// With maxCond > 0 it also rejects an R whose condition number (1-norm,
// LAPACK's estimate) exceeds maxCond. It returns a *VarianceError when a
// diagonal entry is not positive, ErrNotPositiveDefinite when Σ is not
// positive definite or too ill-conditioned. sigma is copied.
func New(sigma []float64, p int, maxCond float64) (*Cov, error) {
	if len(sigma) != p*p {
		panic(fmt.Sprintf("gauss: covariance of %d values for %d dimensions", len(sigma), p))
	}
	s := make([]float64, p)
	for j := range p {
		v := sigma[j*p+j]
		if !(v > 0) || math.IsInf(v, 0) {
			return nil, &VarianceError{Dim: j}
		}
		s[j] = math.Sqrt(v)
	}
	u := make([]float64, p*p) // V, upper, row-major
	for a := range p {
		for b := a; b < p; b++ {
			u[a*p+b] = sigma[a*p+b] / (s[a] * s[b])
		}
	}
	r := blas64.Symmetric{N: p, Stride: p, Uplo: blas.Upper, Data: u}
	var anorm float64
	if maxCond > 0 {
		anorm = lapack64.Lansy(lapack.MaxColumnSum, r, make([]float64, p))
	}
	if _, ok := lapack64.Potrf(r); !ok {
		return nil, ErrNotPositiveDefinite
	}
	if maxCond > 0 {
		rcond := lapack64.Pocon(r, anorm, make([]float64, 3*p), make([]int, p))
		if !(rcond*maxCond >= 1) {
			return nil, ErrNotPositiveDefinite
		}
	}
	c := &Cov{p: p, sigma: append([]float64(nil), sigma...), l: make([]float64, p*p), linv: make([]float64, p*p),
		prec: make([]float64, p*p), pats: map[string]*Pattern{}}
	for a := range p {
		c.logDet += 2 * math.Log(u[a*p+a]*s[a])
		for b := a; b < p; b++ {
			c.l[b*p+a] = u[a*p+b] * s[b]
		}
	}
	if math.IsNaN(c.logDet) || math.IsInf(c.logDet, 0) {
		return nil, ErrNotPositiveDefinite
	}
	copy(c.linv, c.l)
	if !lapack64.Trtri(blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: p, Stride: p, Data: c.linv}) {
		return nil, ErrNotPositiveDefinite
	}
	for j := range p {
		for l := range j + 1 {
			v := 0.0
			for i := j; i < p; i++ {
				v += c.linv[i*p+j] * c.linv[i*p+l]
			}
			c.prec[j*p+l], c.prec[l*p+j] = v, v
		}
	}
	return c, nil
}

// NewDiag returns the Cov of the diagonal covariance matrix diag(v), L =
// diag(√v_j), log |Σ| = Σ_j log v_j. It returns a *VarianceError when an
// entry is not positive and finite. v is copied.
func NewDiag(v []float64) (*Cov, error) {
	p := len(v)
	c := &Cov{p: p, diag: true, sigma: make([]float64, p*p), l: make([]float64, p), linv: make([]float64, p),
		pats: map[string]*Pattern{}}
	for j, x := range v {
		if !(x > 0) || math.IsInf(x, 0) {
			return nil, &VarianceError{Dim: j}
		}
		c.sigma[j*p+j] = x
		c.l[j] = math.Sqrt(x)
		c.linv[j] = 1 / c.l[j]
		c.logDet += math.Log(x)
	}
	if math.IsNaN(c.logDet) || math.IsInf(c.logDet, 0) {
		return nil, ErrNotPositiveDefinite
	}
	return c, nil
}

// Dim returns p.
func (c *Cov) Dim() int { return c.p }

// Diagonal reports whether c was built by NewDiag.
func (c *Cov) Diagonal() bool { return c.diag }

// Sigma returns Σ, p×p row-major. The caller must not modify it.
func (c *Cov) Sigma() []float64 { return c.sigma }

// L returns the Cholesky factor L, p×p row-major lower triangular (upper
// triangle 0), or for a diagonal Σ its p diagonal entries √Σ_jj. The
// caller must not modify it.
func (c *Cov) L() []float64 { return c.l }

// LInv returns L⁻¹ as L returns L. The caller must not modify it.
func (c *Cov) LInv() []float64 { return c.linv }

// Precision returns Λ = Σ⁻¹ = L⁻ᵀ L⁻¹, p×p row-major, nil for a diagonal
// Σ. The caller must not modify it.
func (c *Cov) Precision() []float64 { return c.prec }

// LogDet returns log |Σ|.
func (c *Cov) LogDet() float64 { return c.logDet }

// LogPdf returns the log-density of the complete row x under N(μ, Σ),
//
//	log N(x; μ, Σ) = −½ (p log 2π + log |Σ| + ‖L⁻¹(x − μ)‖²)
//
// with L⁻¹(x − μ) by forward substitution. work (length ≥ p) is scratch;
// nil allocates.
func (c *Cov) LogPdf(x, mu, work []float64) float64 {
	z := scratch(work, c.p)
	for j := range z {
		z[j] = x[j] - mu[j]
	}
	return -0.5 * (float64(c.p)*Log2Pi + c.logDet + c.sqNorm(z))
}

// sqNorm returns ‖L⁻¹z‖², overwriting z with L⁻¹z.
func (c *Cov) sqNorm(z []float64) float64 {
	p, q := c.p, 0.0
	if c.diag {
		for j, v := range z {
			v *= c.linv[j]
			q += v * v
		}
		return q
	}
	c.whiten(z)
	for _, v := range z[:p] {
		q += v * v
	}
	return q
}

// Rand writes a draw of N(μ, Σ) to dst (length p, allocated when nil) and
// returns it:
//
//	x = μ + L z,  z ~ N(0, I)
//
// the p standard normal values drawn from rng in order. It panics if dst
// (when not nil) or mu does not have length p.
func (c *Cov) Rand(dst, mu []float64, rng *rand.Rand) []float64 {
	if dst == nil {
		dst = make([]float64, c.p)
	}
	if len(dst) != c.p || len(mu) != c.p {
		panic(fmt.Sprintf("gauss: Rand of %d values with a mean of %d for %d dimensions", len(dst), len(mu), c.p))
	}
	for j := range dst {
		dst[j] = rng.NormFloat64()
	}
	lowerMul(dst, c.l, c.p, c.diag)
	for j, m := range mu {
		dst[j] += m
	}
	return dst
}

// lowerMul replaces z by L z for the n×n lower-triangular row-major l (or
// its diagonal when diag), in place, last row first.
func lowerMul(z, l []float64, n int, diag bool) {
	if diag {
		for j := range z {
			z[j] *= l[j]
		}
		return
	}
	for j := n - 1; j >= 0; j-- {
		row := l[j*n : j*n+j+1]
		v := row[j] * z[j]
		for i, a := range row[:j] {
			v += a * z[i]
		}
		z[j] = v
	}
}

// scratch returns work[:n], or a new slice when work is too short.
func scratch(work []float64, n int) []float64 {
	if len(work) < n {
		return make([]float64, n)
	}
	return work[:n]
}
