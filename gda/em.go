package gda

import (
	"math"
	"slices"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/parallel"
	"github.com/gendisc/gendisc/stats"
)

// em estimates the statistics of the labelled rows of d listed in rows,
// which have missing cells, by the EM algorithm, and returns them merged
// with base (the statistics of the complete rows, and of earlier data for
// an update), with the number of iterations.
//
// E-step: given the current means μ_k and covariance matrices Σ_k (the
// model's, as the configuration defines them), the missing cells m of a row
// x of class k with observed cells o have the conditional distribution
//
//	x_m | x_o ~ N(x̂_m, C),  x̂_m = μ_m + Σ_mo Σ_oo⁻¹ (x_o − μ_o),
//	                        C = Σ_mm − Σ_mo Σ_oo⁻¹ Σ_om
//
// (computed once per pattern of missing cells from the precision matrix's
// columns m, see eStep.pattern, the rows shared among the cores), so the
// expected statistics of the row are those of the completed row x̂ plus w·C
// in the scatter at (m, m) (stats.Classes.AddConditional). M-step: the
// model's estimates from base plus the expected statistics.
//
// The start is the observed-cell means and variances of each class (a
// diagonal Σ, pooled for LDA). Iteration stops when no mean moves by more
// than Tol·σ_j and no covariance entry by more than Tol·σ_jσ_l, or after
// MaxIter iterations. Only the rows listed are estimated; the
// Accumulator passes all the incomplete rows it holds, of earlier data too.
func em(kind string, cfg Config, schema *data.Schema, base *stats.Classes, d *data.Dataset, rows []int) (*stats.Classes, int, error) {
	p := d.D()
	x := make([]float64, len(rows)*p)
	y := make([]float64, len(rows))
	var w []float64
	if d.Weight != nil {
		w = make([]float64, len(rows))
	}
	for r, i := range rows {
		copy(x[r*p:(r+1)*p], d.Row(i))
		y[r] = d.Y[i]
		if w != nil {
			w[r] = d.Weight[i]
		}
	}
	means, covs, err := emStart(kind, schema, base, x, y, w, d.Source)
	if err != nil {
		return nil, 0, err
	}
	for it := 1; ; it++ {
		s, err := expected(kind, schema, base, x, y, w, means, covs, d.Source)
		if err != nil {
			return nil, 0, err
		}
		newMeans, newCovs, err := mstep(kind, cfg, schema, s, d.Source)
		if err != nil {
			return nil, 0, err
		}
		if it >= cfg.MaxIter || converged(means, covs, newMeans, newCovs, p, cfg.Tol) {
			return s, it, nil
		}
		means, covs = newMeans, newCovs
	}
}

// expected returns base plus the expected statistics of the rows x
// (classes y, weights w, nil meaning 1 each), which have missing cells,
// under the class means and the covariance matrices covs (one for LDA,
// one per class for QDA): the E-step of em.
func expected(kind string, schema *data.Schema, base *stats.Classes, x, y, w []float64, means, covs [][]float64, source string) (*stats.Classes, error) {
	p, n := base.D, len(y)
	s := base.Clone()
	xhat := make([]float64, len(x))
	pats := make([]*pattern, n)
	errs := make([]int, parallel.Blocks(n, 32)) // a failing covariance + 1
	parallel.For(n, 32, func(worker, lo, hi int) {
		e := newEStep(covs)
		for r := lo; r < hi; r++ {
			ci := 0
			if kind == KindQDA {
				ci = int(y[r])
			}
			pat, err := e.pattern(ci, x[r*p:(r+1)*p])
			if err != nil {
				errs[worker] = ci + 1
				return
			}
			pat.complete(xhat[r*p:(r+1)*p], x[r*p:(r+1)*p], means[int(y[r])])
			pats[r] = pat
		}
	})
	for _, ci := range errs {
		if ci > 0 {
			return nil, singularError(kind, schema, ci-1, -1, source)
		}
	}
	s.Add(xhat, y, w)
	for r, pat := range pats {
		s.AddConditional(int(y[r]), pat.mis, pat.cond, weightAt(w, r))
	}
	return s, nil
}

func weightAt(w []float64, i int) float64 {
	if w == nil {
		return 1
	}
	return w[i]
}

// emStart returns the starting point of EM: per class and feature, the
// weighted mean and variance of the observed cells (those of base and of
// the incomplete rows x), with a diagonal covariance (pooled over the
// classes for LDA).
func emStart(kind string, schema *data.Schema, base *stats.Classes, x, y, w []float64, source string) ([][]float64, [][]float64, error) {
	obs := stats.NewMoments(base.K(), base.D)
	obs.Add(x, y, w)
	return emStartFrom(kind, schema, base, obs, source)
}

// emStartFrom is emStart from the moments obs of the observed cells of
// the incomplete rows.
func emStartFrom(kind string, schema *data.Schema, base *stats.Classes, obs *stats.Moments, source string) ([][]float64, [][]float64, error) {
	K, p := base.K(), base.D
	cell := make([]stats.Moment, K*p) // class k, feature j at k·p + j
	pooled := make([]stats.Moment, p)
	within := make([]float64, p) // Σ_k S_kj / Σ_k W_kj
	for k, c := range base.Class {
		for j := range p {
			a := stats.Moment{W: c.W, M: c.Mean[j], S: c.S[j*p+j]}.Merge(obs.At(k, j))
			cell[k*p+j] = a
			pooled[j] = pooled[j].Merge(a)
			within[j] += a.S
		}
	}
	for j, a := range pooled {
		if a.W == 0 {
			return nil, nil, &data.ParseError{File: source, ColumnName: schema.Features[j].Name, Err: ErrNotObserved}
		}
	}
	// A class without observed values of feature j takes the pooled
	// mean and variance of j.
	means := make([][]float64, K)
	covs := make([][]float64, K)
	for k := range K {
		means[k], covs[k] = make([]float64, p), make([]float64, p*p)
		for j := range p {
			a := cell[k*p+j]
			if a.W == 0 {
				a = pooled[j]
			}
			means[k][j] = a.M
			covs[k][j*p+j] = a.Var()
			if kind == KindLDA {
				covs[k][j*p+j] = within[j] / pooled[j].W
			}
		}
	}
	if kind == KindLDA {
		covs = covs[:1]
	}
	return means, covs, nil
}

// converged reports whether no mean moved by more than tol·σ_j and no
// covariance entry by more than tol·σ_jσ_l, σ from the new covariances.
func converged(means, covs, newMeans, newCovs [][]float64, p int, tol float64) bool {
	for k := range means {
		cov := newCovs[min(k, len(newCovs)-1)]
		for j := range p {
			if math.Abs(newMeans[k][j]-means[k][j]) > tol*math.Sqrt(cov[j*p+j]) {
				return false
			}
		}
	}
	for c, cov := range newCovs {
		for j := range p {
			for l := range p {
				if math.Abs(cov[j*p+l]-covs[c][j*p+l]) > tol*math.Sqrt(cov[j*p+j]*cov[l*p+l]) {
					return false
				}
			}
		}
	}
	return true
}

// eStep caches, per covariance matrix and pattern of missing cells, what
// the conditional expectations need.
type eStep struct {
	covs    [][]float64
	factors []*factor // of covs, on first use
	cache   []map[string]*pattern
	key     []byte
}

// pattern holds, for one covariance matrix Σ and one set of observed
// cells o and missing cells m, the regression coefficients
// A = Σ_oo⁻¹ Σ_om (|o|×|m|) and the conditional covariance
// C = Σ_mm − Σ_mo Σ_oo⁻¹ Σ_om (|m|×|m|), the Schur complement.
type pattern struct {
	obs, mis []int
	a, cond  []float64
}

func newEStep(covs [][]float64) *eStep {
	e := &eStep{covs: covs, factors: make([]*factor, len(covs)), cache: make([]map[string]*pattern, len(covs))}
	for i := range e.cache {
		e.cache[i] = map[string]*pattern{}
	}
	return e
}

// pattern returns the cached pattern of row x under covariance matrix ci,
// computing it on first use; an error if Σ is singular.
//
// It works from the columns m of the precision matrix Λ = Σ⁻¹, obtained by
// two triangular solves with the Cholesky factor of Σ (p²·|m| operations,
// against |o|³/3 to factor Σ_oo), through the identities of the
// partitioned inverse:
//
//	C = Λ_mm⁻¹,   A = Σ_oo⁻¹ Σ_om = −Λ_om Λ_mm⁻¹
//
// with Λ_mm (|m|×|m|) factored by Cholesky.
func (e *eStep) pattern(ci int, x []float64) (*pattern, error) {
	p := len(x)
	if e.key == nil {
		e.key = make([]byte, p)
	}
	for j, v := range x {
		e.key[j] = 0
		if v == v {
			e.key[j] = 1
		}
	}
	if pat := e.cache[ci][string(e.key)]; pat != nil {
		return pat, nil
	}
	f := e.factors[ci]
	if f == nil {
		var ok bool
		if f, _, ok = factorize(e.covs[ci], p, nil, false); !ok {
			return nil, ErrSingular
		}
		e.factors[ci] = f
	}
	pat := &pattern{}
	for j, v := range x {
		if v == v {
			pat.obs = append(pat.obs, j)
		} else {
			pat.mis = append(pat.mis, j)
		}
	}
	nm := len(pat.mis)
	if len(pat.obs) == 0 { // nothing observed: C = Σ
		pat.cond = slices.Clone(e.covs[ci])
		e.cache[ci][string(e.key)] = pat
		return pat, nil
	}
	lam := make([]float64, p*nm) // Λ[:, m]
	for b, l := range pat.mis {
		lam[l*nm+b] = 1
	}
	f.solveSym(lam, nm)
	lmm := make([]float64, nm*nm)
	for a, j := range pat.mis {
		copy(lmm[a*nm:(a+1)*nm], lam[j*nm:(j+1)*nm])
	}
	fm, _, ok := factorize(lmm, nm, nil, false)
	if !ok {
		return nil, ErrSingular
	}
	pat.cond = make([]float64, nm*nm)
	for b := range nm {
		pat.cond[b*nm+b] = 1
	}
	fm.solveSym(pat.cond, nm)
	pat.a = make([]float64, len(pat.obs)*nm)
	for o, i := range pat.obs {
		row := pat.a[o*nm : (o+1)*nm]
		for a := range nm {
			v := 0.0
			for b := range nm {
				v -= lam[i*nm+b] * pat.cond[b*nm+a]
			}
			row[a] = v
		}
	}
	e.cache[ci][string(e.key)] = pat
	return pat, nil
}

// complete writes to dst the row x with its missing cells replaced by
// their conditional expectations given the observed ones, under mean mu.
func (pat *pattern) complete(dst, x, mu []float64) {
	copy(dst, x)
	nm := len(pat.mis)
	for b, l := range pat.mis {
		v := mu[l]
		for o, j := range pat.obs {
			v += pat.a[o*nm+b] * (x[j] - mu[j])
		}
		dst[l] = v
	}
}
