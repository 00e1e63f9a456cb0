package gauss

import (
	"math"
	"math/bits"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// Pattern is the Gaussian algebra of one covariance matrix Σ for the rows
// whose observed cells are Obs and missing cells Mis (both increasing,
// together 0 … p−1):
//
//	log |Σ_oo|
//	A = Σ_mo Σ_oo⁻¹                   (|m|×|o|, row-major)
//	C = Σ_mm − Σ_mo Σ_oo⁻¹ Σ_om       (|m|×|m|, the Schur complement)
//	C = L_C L_Cᵀ                       (its Cholesky factor, for draws;
//	                                    for a diagonal Σ, √C)
//
// computed from the precision matrix Λ = Σ⁻¹ by the block inverse,
//
//	C = Λ_mm⁻¹,   A = −Λ_mm⁻¹ Λ_mo,   log |Σ_oo| = log |Σ| + log |Λ_mm|
//
// which costs O(|m|³ + |m|²|o|) after the factorisation of Σ, against the
// O(|o|³) of factoring Σ_oo. For a diagonal Σ, A = 0 and C = diag(Σ_mm);
// with nothing observed C = Σ and log |Σ_oo| = 0. A Pattern is immutable.
type Pattern struct {
	Obs, Mis []int
	cov      *Cov
	logDetO  float64
	a        []float64
	c        []float64
	cvar     []float64 // diag(C)
	lc       []float64 // L_C, |m|×|m| lower
}

// Pattern returns the Pattern of the observed dimensions obs (increasing),
// cached (up to MaxCachedPatterns): the rows of one pattern share it. A Λ_mm
// that is not numerically positive definite (a nearly singular Σ) is
// computed from Σ_oo instead (computeFromSigma); it returns
// ErrNotPositiveDefinite only when Σ_oo does not factor either. It panics if obs is not
// increasing within 0 … p−1.
func (c *Cov) Pattern(obs []int) (*Pattern, error) {
	var buf [64]byte
	key := c.key(buf[:])
	prev := -1
	for _, j := range obs {
		if j <= prev || j >= c.p {
			panic("gauss: observed dimensions not increasing within the matrix")
		}
		prev = j
		key[j/8] |= 1 << (j % 8)
	}
	return c.lookup(key)
}

// PatternOf returns the Pattern of the row x (length p), whose missing
// cells are its NaNs, as Pattern does.
func (c *Cov) PatternOf(x []float64) (*Pattern, error) {
	var buf [64]byte
	key := c.key(buf[:])
	for j, v := range x[:c.p] {
		if v == v {
			key[j/8] |= 1 << (j % 8)
		}
	}
	return c.lookup(key)
}

// key returns a zeroed bit set of p bits, buf's start when it is long
// enough.
func (c *Cov) key(buf []byte) []byte {
	n := (c.p + 7) / 8
	if n > len(buf) {
		return make([]byte, n)
	}
	clear(buf[:n])
	return buf[:n]
}

// lookup returns the cached Pattern of the observed set key (a bit set),
// computing it outside the lock on a miss.
func (c *Cov) lookup(key []byte) (*Pattern, error) {
	c.mu.Lock()
	pat := c.pats[string(key)]
	c.mu.Unlock()
	if pat != nil {
		return pat, nil
	}
	pat = &Pattern{cov: c}
	n := 0
	for _, b := range key {
		n += bits.OnesCount8(b)
	}
	idx := make([]int, c.p)
	pat.Obs, pat.Mis = idx[:0:n], idx[n:n]
	for j := range c.p {
		if key[j/8]&(1<<(j%8)) != 0 {
			pat.Obs = append(pat.Obs, j)
		} else {
			pat.Mis = append(pat.Mis, j)
		}
	}
	if err := pat.compute(true); err != nil {
		return nil, err
	}
	c.mu.Lock()
	if old := c.pats[string(key)]; old != nil {
		pat = old
	} else if len(c.pats) < MaxCachedPatterns {
		c.pats[string(key)] = pat
	}
	c.mu.Unlock()
	return pat, nil
}

// MaxCachedPatterns bounds the patterns a Cov keeps (each up to p² values),
// so that a long-lived model that meets ever new patterns does not grow
// without bound: beyond it, a new pattern is computed on every lookup.
const MaxCachedPatterns = 4096

// PatternTo computes the Pattern of the observed dimensions obs
// (increasing) into pat, reusing its storage, and leaves the cache alone:
// for a caller that keeps its own Patterns (one per worker and pattern,
// say) and so allocates nothing once they have grown. pat must not be in
// use by another goroutine, nor be one that Pattern returned. L_C is not
// kept: CondRand on pat factors C on every call. It returns what Pattern
// returns.
func (c *Cov) PatternTo(pat *Pattern, obs []int) error {
	pat.cov = c
	pat.Obs, pat.Mis = append(pat.Obs[:0], obs...), pat.Mis[:0]
	next := 0
	for j := range c.p {
		if next < len(obs) && obs[next] == j {
			next++
			continue
		}
		pat.Mis = append(pat.Mis, j)
	}
	if next != len(obs) || len(pat.Obs)+len(pat.Mis) != c.p {
		panic("gauss: observed dimensions not increasing within the matrix")
	}
	return pat.compute(false)
}

// grow returns s[:n], reallocated when too short.
func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// compute fills the Pattern's A, C, log |Σ_oo| and, with chol set, L_C
// (see Pattern), reusing the storage the Pattern has.
func (pat *Pattern) compute(chol bool) error {
	c := pat.cov
	d, q, o := c.p, len(pat.Mis), len(pat.Obs)
	pat.a, pat.c, pat.cvar, pat.lc, pat.logDetO = grow(pat.a, q*o), grow(pat.c, q*q), grow(pat.cvar, q), nil, 0
	switch {
	case c.diag:
		clear(pat.a)
		clear(pat.c)
		for _, j := range pat.Obs {
			pat.logDetO += math.Log(c.sigma[j*d+j])
		}
		for b, j := range pat.Mis {
			pat.c[b*q+b] = c.sigma[j*d+j]
			pat.cvar[b] = c.sigma[j*d+j]
		}
		return nil
	case q == 0:
		pat.logDetO = c.logDet
		return nil
	case o == 0:
		copy(pat.c, c.sigma)
		pat.lc = c.l
		for b := range q {
			pat.cvar[b] = pat.c[b*q+b]
		}
		return nil
	}
	r := pat.c
	for j, mj := range pat.Mis {
		for l, ml := range pat.Mis[:j+1] {
			r[j*q+l] = c.prec[mj*d+ml]
		}
	}
	t, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Lower, N: q, Stride: q, Data: r})
	if !ok {
		return pat.computeFromSigma(chol)
	}
	logDet := c.logDet
	for j := range q {
		logDet += 2 * math.Log(r[j*q+j])
	}
	for j, mj := range pat.Mis {
		row := pat.a[j*o : (j+1)*o]
		for b, ob := range pat.Obs {
			row[b] = -c.prec[mj*d+ob]
		}
	}
	lapack64.Potrs(t, blas64.General{Rows: q, Cols: o, Stride: o, Data: pat.a})
	if _, ok := lapack64.Potri(t); !ok {
		return pat.computeFromSigma(chol)
	}
	for j := range q {
		for l := range j {
			r[l*q+j] = r[j*q+l]
		}
		pat.cvar[j] = r[j*q+j]
	}
	if math.IsNaN(logDet) || math.IsInf(logDet, 0) {
		return pat.computeFromSigma(chol)
	}
	pat.logDetO = logDet
	pat.keepCondChol(chol)
	return nil
}

// computeFromSigma computes A, C and log |Σ_oo| from Σ itself, for a Σ
// whose precision's block Λ_mm is not numerically positive definite (a
// nearly singular Σ): Σ_oo = L_o L_oᵀ, a principal submatrix of a positive
// definite Σ (positive definite, and no worse conditioned), then
//
//	A = Σ_mo Σ_oo⁻¹,  C = Σ_mm − A Σ_om.
//
// It returns ErrNotPositiveDefinite only when Σ_oo does not factor.
func (pat *Pattern) computeFromSigma(chol bool) error {
	c := pat.cov
	d, q, o := c.p, len(pat.Mis), len(pat.Obs)
	soo := make([]float64, o*o)
	for a, i := range pat.Obs {
		for b, j := range pat.Obs {
			soo[a*o+b] = c.sigma[i*d+j]
		}
	}
	t, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Lower, N: o, Stride: o, Data: soo})
	if !ok {
		return ErrNotPositiveDefinite
	}
	logDet := 0.0
	for a := range o {
		logDet += 2 * math.Log(soo[a*o+a])
	}
	if math.IsNaN(logDet) || math.IsInf(logDet, 0) {
		return ErrNotPositiveDefinite
	}
	x := make([]float64, o*q) // Σ_oo⁻¹ Σ_om, o×q
	for a, i := range pat.Obs {
		for b, j := range pat.Mis {
			x[a*q+b] = c.sigma[i*d+j]
		}
	}
	lapack64.Potrs(t, blas64.General{Rows: o, Cols: q, Stride: q, Data: x})
	for b := range q {
		for a := range o {
			pat.a[b*o+a] = x[a*q+b]
		}
	}
	for b, mb := range pat.Mis {
		for e, me := range pat.Mis[:b+1] {
			v := c.sigma[mb*d+me]
			for a, i := range pat.Obs {
				v -= pat.a[b*o+a] * c.sigma[i*d+me]
			}
			pat.c[b*q+e], pat.c[e*q+b] = v, v
		}
		pat.cvar[b] = max(pat.c[b*q+b], 0)
	}
	pat.logDetO = logDet
	pat.keepCondChol(chol)
	return nil
}

// keepCondChol keeps L_C, the Cholesky factor of C, when chol is set and
// C is numerically positive definite; otherwise L_C stays nil and
// CondRand factors C when it draws (see there).
func (pat *Pattern) keepCondChol(chol bool) {
	pat.lc = nil
	if q := len(pat.Mis); chol {
		lc := make([]float64, q*q)
		if condChol(lc, pat.c, q) {
			pat.lc = lc
		}
	}
}

// condChol writes the Cholesky factor L_C of the q×q matrix c to l (q×q,
// lower, upper triangle 0) and reports whether c is positive definite.
func condChol(l, c []float64, q int) bool {
	for j := range q {
		copy(l[j*q:j*q+j+1], c[j*q:j*q+j+1])
		clear(l[j*q+j+1 : (j+1)*q])
	}
	_, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Lower, N: q, Stride: q, Data: l})
	return ok
}

// LogDetObs returns log |Σ_oo| (0 with nothing observed).
func (pat *Pattern) LogDetObs() float64 { return pat.logDetO }

// A returns A = Σ_mo Σ_oo⁻¹, |m|×|o| row-major (zero for a diagonal Σ).
// The caller must not modify it.
func (pat *Pattern) A() []float64 { return pat.a }

// CondCov returns C = Cov[x_m | x_o], |m|×|m| row-major. The caller must
// not modify it.
func (pat *Pattern) CondCov() []float64 { return pat.c }

// CondVar returns the diagonal of C, the |m| conditional variances. The
// caller must not modify it.
func (pat *Pattern) CondVar() []float64 { return pat.cvar }

// CondMean writes the conditional means of the missing cells of x given
// its observed ones under mean mu to the missing cells of dst (length p;
// its other cells are left as they are):
//
//	E[x_m | x_o] = μ_m + A (x_o − μ_o)
func (pat *Pattern) CondMean(dst, x, mu []float64) {
	o := len(pat.Obs)
	for b, j := range pat.Mis {
		v := mu[j]
		if !pat.cov.diag {
			for a, i := range pat.Obs {
				v += pat.a[b*o+a] * (x[i] - mu[i])
			}
		}
		dst[j] = v
	}
}

// CondRand writes a draw from the conditional distribution of the missing
// cells of x given its observed ones under mean mu to the missing cells of
// dst (length p; its other cells are left as they are):
//
//	x_m = E[x_m | x_o] + L_C z,  z ~ N(0, I_|m|)
//
// the |m| standard normal values drawn from rng in the order of Mis.
func (pat *Pattern) CondRand(dst, x, mu []float64, rng *rand.Rand) {
	q := len(pat.Mis)
	if q == 0 {
		return
	}
	var buf [64]float64
	z := scratch(buf[:], q)
	for b := range z {
		z[b] = rng.NormFloat64()
	}
	lc := pat.lc
	if !pat.cov.diag && lc == nil { // a Pattern of PatternTo, or a C that did not factor
		if lc = make([]float64, q*q); !condChol(lc, pat.c, q) {
			lc = nil // C numerically singular (a nearly singular Σ)
		}
	}
	if lc != nil {
		lowerMul(z, lc, q, false)
	} else {
		// A diagonal Σ, or a numerically singular C: the draw keeps the
		// conditional variances (all there is to a diagonal C).
		for b, v := range pat.cvar {
			z[b] *= math.Sqrt(v)
		}
	}
	pat.CondMean(dst, x, mu)
	for b, j := range pat.Mis {
		dst[j] += z[b]
	}
}

// LogPdf returns the marginal log-density of the observed cells of x under
// N(μ, Σ),
//
//	log N(x_o; μ_o, Σ_oo) = −½ (|o| log 2π + log |Σ_oo| + c_oᵀ Σ_oo⁻¹ c_o),  c = x − μ
//
// with the quadratic form that of the completed row ĉ = (c_o, A c_o)
// under the full Σ (c_m = A c_o minimises cᵀ Σ⁻¹ c over c_m):
//
//	c_oᵀ Σ_oo⁻¹ c_o = ĉᵀ Σ⁻¹ ĉ = ‖L⁻¹ ĉ‖²
//
// With nothing observed it is 0. work (length ≥ p) is scratch; nil
// allocates.
func (pat *Pattern) LogPdf(x, mu, work []float64) float64 {
	if len(pat.Obs) == 0 {
		return 0
	}
	c := pat.cov
	z := scratch(work, c.p)
	if c.diag {
		q := 0.0
		for _, j := range pat.Obs {
			v := (x[j] - mu[j]) * c.linv[j]
			q += v * v
		}
		return -0.5 * (float64(len(pat.Obs))*Log2Pi + pat.logDetO + q)
	}
	for _, j := range pat.Obs {
		z[j] = x[j] - mu[j]
	}
	o := len(pat.Obs)
	for b, j := range pat.Mis {
		v := 0.0
		for a, i := range pat.Obs {
			v += pat.a[b*o+a] * z[i]
		}
		z[j] = v
	}
	return -0.5 * (float64(o)*Log2Pi + pat.logDetO + c.sqNorm(z))
}
