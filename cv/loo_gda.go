package cv

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/internal/kernel"
	"github.com/gendisc/gendisc/internal/mathx"
	"github.com/gendisc/gendisc/internal/parallel"
)

// LeaveOneOutLDA returns the leave-one-out log-probabilities of linear
// discriminant analysis under cfg on d, row-major n × K as LogProba's.
// The within-class scatter S = Σ_i (x_i − μ_{y_i})(x_i − μ_{y_i})ᵀ is
// factored once (Cholesky, S = L Lᵀ); leaving out row i of class c, of
// n_c rows, downdates it by rank one and moves the class mean,
//
//	S' = S − β u uᵀ,  β = n_c/(n_c − 1),  μ_c' = μ_c − u/(n_c − 1),  u = x_i − μ_c,
//
// and row i's discriminants log π_k − ½ (x_i − μ_k')ᵀ Σ'⁻¹ (x_i − μ_k')
// use Σ' = S'/(n − 1) (MLE) or S'/(n − 1 − K) (Unbiased). The quadratic
// forms under S' come from L by Sherman–Morrison: with a = L⁻¹u and
// b = L⁻¹(x_i − μ_k'),
//
//	(x_i − μ_k')ᵀ S'⁻¹ (x_i − μ_k') = ‖b‖² + β (bᵀa)² / (1 − β‖a‖²),
//
// and L⁻¹(x_i − μ_k') = L⁻¹x_i − L⁻¹μ_k', L⁻¹μ_k being computed once and
// L⁻¹x_i for blocks of rows in one matrix product: O(p²) per row for p
// features, so the n models take O(n p²), the order of one fit.
//
// It covers LDA without shrinkage on numeric features without missing
// cells or weights; other cases, a row that is the only one of its class
// and a downdate that leaves S singular are refused with ErrDowndate.
func LeaveOneOutLDA(cfg gda.LDAConfig, d *data.Dataset) ([]float64, error) {
	m, err := cfg.Fit(d)
	if err != nil {
		return nil, err
	}
	return leaveOneOutGDA(gda.Config(cfg), d, m.Priors(), m.Means(), [][]float64{m.Covariance()})
}

// LeaveOneOutQDA is LeaveOneOutLDA for quadratic discriminant analysis:
// each class has its scatter S_k, factored once; leaving out row i of
// class c downdates S_c alone (det S_c' = det S_c · (1 − β‖a‖²), the
// matrix determinant lemma; K products L_k⁻¹x_i per row), and the
// discriminants are
// log π_k − ½ log det Σ_k' − ½ (x_i − μ_k')ᵀ Σ_k'⁻¹ (x_i − μ_k') with
// Σ_k' = S_k'/(n_k' ) (MLE) or S_k'/(n_k' − 1) (Unbiased), n_k' the rows
// of class k without row i.
func LeaveOneOutQDA(cfg gda.QDAConfig, d *data.Dataset) ([]float64, error) {
	m, err := cfg.Fit(d)
	if err != nil {
		return nil, err
	}
	return leaveOneOutGDA(gda.Config(cfg), d, m.Priors(), m.Means(), m.Covariances())
}

// looBlock is how many rows leave-one-out of discriminant analysis
// solves against a factor at once (kernel.SolveLanes): a unit of the
// parallel work.
const looBlock = 1024

// leaveOneOutGDA computes LeaveOneOutLDA and LeaveOneOutQDA from the
// fitted priors, means and covariances (one, pooled, for LDA; one per
// class for QDA), the scatter matrices being the covariances times their
// divisors.
func leaveOneOutGDA(cfg gda.Config, d *data.Dataset, priors []float64, means, covs [][]float64) ([]float64, error) {
	pooled := len(covs) == 1
	if cfg.Shrinkage != 0 || cfg.ShrinkageAuto || d.Weight != nil {
		return nil, fmt.Errorf("cv: %w: discriminant analysis with shrinkage or row weights", ErrDowndate)
	}
	for _, f := range d.Schema.Features {
		if f.Kind != data.Numeric {
			return nil, fmt.Errorf("cv: %w: discriminant analysis of the %s column %q", ErrDowndate, f.Kind, f.Name)
		}
	}
	p, K := d.D(), len(priors)
	for i, x := range d.X {
		if math.IsNaN(x) {
			return nil, d.RowError(i/p, "cv: %w: a missing cell", ErrDowndate)
		}
	}
	n := make([]float64, K+1)
	for _, y := range d.Y {
		n[int(y)]++
		n[K]++
	}
	group := func(k int) int {
		if pooled {
			return 0
		}
		return k
	}
	unbiased := cfg.Estimator == gda.Unbiased
	// divisor returns the divisor of class k's covariance (the pooled
	// one's when pooled), nk the class's rows and total all rows.
	divisor := func(nk, total float64) float64 {
		switch {
		case pooled && unbiased:
			return total - float64(K)
		case pooled:
			return total
		case unbiased:
			return nk - 1
		}
		return nk
	}
	scatter := make([]*mat.SymDense, K)
	for k := range scatter {
		if group(k) != k {
			continue
		}
		scatter[k] = mat.NewSymDense(p, slices.Clone(covs[k]))
		scatter[k].ScaleSym(divisor(n[k], n[K]), scatter[k])
	}
	// Each factor L packed for kernel.SolveLanes, which gives L⁻¹x_i for
	// a block of rows by forward substitution; lm[k] = L⁻¹ μ_k;
	// logDets[k] = log det S_k.
	tris := make([]*kernel.Tri, K)
	logDets := make([]float64, K)
	lm := make([][]float64, K)
	for k := range K {
		if group(k) != k {
			tris[k], logDets[k], lm[k] = tris[0], logDets[0], make([]float64, p)
		} else {
			var c mat.Cholesky
			if !c.Factorize(scatter[k]) {
				return nil, fmt.Errorf("cv: %s: %w: a scatter matrix is singular", d.Source, ErrDowndate)
			}
			var l mat.TriDense
			c.LTo(&l)
			dense := make([]float64, p*p)
			for i := range p {
				for j := range i + 1 {
					dense[i*p+j] = l.At(i, j)
				}
			}
			tris[k], logDets[k], lm[k] = kernel.NewTri(dense, p), c.LogDet(), make([]float64, p)
		}
		var q [kernel.LaneBlock]float64
		mu := make([]float64, p*kernel.LaneBlock) // μ_k in lane 0
		for j, v := range means[k] {
			mu[j*kernel.LaneBlock] = v
		}
		z := make([]float64, p*kernel.LaneBlock)
		kernel.SolveLanes(tris[k], z, q[:], mu, kernel.LaneBlock, make([]float64, p), 1)
		for j := range lm[k] {
			lm[k][j] = z[j*kernel.LaneBlock]
		}
	}
	fixed := fixedPrior(cfg.ClassPrior, priors)
	logPrior := make([]float64, K*K) // [c·K + k]: log π_k without a row of class c
	for c := range K {
		for k := range K {
			logPrior[c*K+k] = math.Log(prior(cfg.PriorAlpha, fixed, n, k, c))
		}
	}
	out := make([]float64, d.N*K)
	// block computes the rows [lo, hi), at most looBlock of them.
	block := func(lo, hi int) error {
		jll := make([]float64, K)
		const lanes = kernel.LaneBlock
		xt := make([]float64, p*lanes) // a group of rows as lanes: xt[j·lanes + r] = x_{g+r, j}
		zs := make([][]float64, K)     // zs[k][j·lanes + r] = (L_k⁻¹x_{g+r})_j
		q := make([]float64, lanes)
		zero := make([]float64, p)
		a := make([]float64, p)
		for k := range K {
			if group(k) == k {
				zs[k] = make([]float64, p*lanes)
			} else {
				zs[k] = zs[0]
			}
		}
		for i := lo; i < hi; i++ {
			r := (i - lo) % lanes // row i's lane in its group
			if r == 0 {           // the next group's L⁻¹x
				m := min(lanes, hi-i)
				for r := range m {
					for j, v := range d.X[(i+r)*p : (i+r+1)*p] {
						xt[j*lanes+r] = v
					}
				}
				for k := range K {
					if group(k) == k {
						kernel.SolveLanes(tris[k], zs[k], q, xt, lanes, zero, m)
					}
				}
			}
			c := int(d.Y[i])
			if n[c] < 2 {
				return d.RowError(i, "cv: %w: the row is the only one of its class", ErrDowndate)
			}
			// a = L⁻¹u, u = x − μ_c; S' = S − β u uᵀ with β = n_c/(n_c − 1).
			beta := n[c] / (n[c] - 1)
			var t float64
			zc, lc := zs[c][r:], lm[c][:p]
			for j := range p {
				aj := zc[j*lanes] - lc[j]
				a[j] = aj
				t += aj * aj
			}
			den := 1 - beta*t // det S' = det S · den (the determinant lemma)
			if !(den > 1e-12) {
				return d.RowError(i, "cv: %w: without the row the scatter matrix is singular", ErrDowndate)
			}
			for k := range K {
				nk := n[k]
				// q = (x − μ_k')ᵀ S'⁻¹ (x − μ_k'), by Sherman–Morrison when S
				// is downdated: ‖b‖² + β (bᵀa)²/den, b = L⁻¹(x − μ_k'),
				// which is β a for the row's own class (x − μ_c' = β u).
				var q, ba float64
				if k == c {
					for _, aj := range a {
						b := beta * aj
						q += b * b
						ba += b * aj
					}
				} else {
					zk, lk := zs[k][r:], lm[k][:p]
					for j, aj := range a {
						b := zk[j*lanes] - lk[j]
						q += b * b
						ba += b * aj
					}
				}
				if k == c || pooled {
					q += beta * ba * ba / den
				}
				logDet := logDets[k]
				if k == c {
					nk--
					logDet += math.Log(den)
				}
				dv := divisor(nk, n[K]-1)
				jll[k] = logPrior[c*K+k] - 0.5*dv*q
				if !pooled {
					jll[k] -= 0.5 * (logDet - float64(p)*math.Log(dv))
				}
			}
			lse := mathx.LogSumExp(jll)
			for k := range K {
				out[i*K+k] = jll[k] - lse
			}
		}
		return nil
	}
	// The blocks are independent: up to parallel.Workers() at once; the
	// first error in row order is returned.
	errs := make([]error, (d.N+looBlock-1)/looBlock)
	parallel.For(len(errs), 1, func(_, lo, hi int) {
		for b := lo; b < hi; b++ {
			errs[b] = block(b*looBlock, min((b+1)*looBlock, d.N))
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
