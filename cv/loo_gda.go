package cv

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/internal/mathx"
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
// and L⁻¹(x_i − μ_k') = L⁻¹x_i − L⁻¹μ_k' needs one triangular solve per
// row, L⁻¹μ_k being computed once: O(p²) per row for p features, so the
// n models take O(n p²), the order of one fit.
//
// It covers LDA without shrinkage on numeric features without missing
// cells or weights; other cases, a row that is the only one of its class
// and a downdate that leaves S singular are refused with ErrDowndate.
func LeaveOneOutLDA(cfg gda.LDAConfig, d *data.Dataset) ([]float64, error) {
	m, err := cfg.Fit(d)
	if err != nil {
		return nil, err
	}
	return leaveOneOutGDA(gda.Config(cfg), d, m.Priors(), true)
}

// LeaveOneOutQDA is LeaveOneOutLDA for quadratic discriminant analysis:
// each class has its scatter S_k, factored once; leaving out row i of
// class c downdates S_c alone (det S_c' = det S_c · (1 − β‖a‖²), the
// matrix determinant lemma; K triangular solves per row), and the
// discriminants are
// log π_k − ½ log det Σ_k' − ½ (x_i − μ_k')ᵀ Σ_k'⁻¹ (x_i − μ_k') with
// Σ_k' = S_k'/(n_k' ) (MLE) or S_k'/(n_k' − 1) (Unbiased), n_k' the rows
// of class k without row i.
func LeaveOneOutQDA(cfg gda.QDAConfig, d *data.Dataset) ([]float64, error) {
	m, err := cfg.Fit(d)
	if err != nil {
		return nil, err
	}
	return leaveOneOutGDA(gda.Config(cfg), d, m.Priors(), false)
}

// leaveOneOutGDA computes LeaveOneOutLDA (pooled) and LeaveOneOutQDA.
func leaveOneOutGDA(cfg gda.Config, d *data.Dataset, priors []float64, pooled bool) ([]float64, error) {
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
	mean := make([]*mat.VecDense, K)
	for k := range mean {
		mean[k] = mat.NewVecDense(p, nil)
	}
	for i := range d.N {
		k := int(d.Y[i])
		n[k]++
		n[K]++
		mean[k].AddVec(mean[k], mat.NewVecDense(p, d.Row(i)))
	}
	for k := range K {
		mean[k].ScaleVec(1/n[k], mean[k])
	}
	// The scatter matrices, one pooled or one per class, as U Uᵀ of the
	// centred rows U (p × rows).
	group := func(k int) int {
		if pooled {
			return 0
		}
		return k
	}
	centred := make([][]float64, K)
	for k := range K {
		if group(k) == k {
			rows := n[k]
			if pooled {
				rows = n[K]
			}
			centred[k] = make([]float64, 0, int(rows)*p)
		}
	}
	for i := range d.N {
		k := int(d.Y[i])
		for j, x := range d.Row(i) {
			centred[group(k)] = append(centred[group(k)], x-mean[k].AtVec(j))
		}
	}
	scatter := make([]*mat.SymDense, K)
	for k := range scatter {
		if group(k) != k {
			scatter[k] = scatter[0]
			continue
		}
		scatter[k] = mat.NewSymDense(p, nil)
		rows := len(centred[k]) / p
		scatter[k].SymOuterK(1, mat.NewDense(rows, p, centred[k]).T())
	}
	chol := make([]*lower, K)
	for k := range chol {
		if pooled && k > 0 {
			chol[k] = chol[0]
			continue
		}
		var c mat.Cholesky
		if !c.Factorize(scatter[k]) {
			return nil, fmt.Errorf("cv: %s: %w: a scatter matrix is singular", d.Source, ErrDowndate)
		}
		chol[k] = newLower(&c)
	}
	// divisor returns the divisor of class k's scatter (the pooled one's
	// when pooled) without a row.
	unbiased := cfg.Estimator == gda.Unbiased
	divisor := func(nk float64) float64 {
		switch {
		case pooled && unbiased:
			return n[K] - 1 - float64(K)
		case pooled:
			return n[K] - 1
		case unbiased:
			return nk - 1
		}
		return nk
	}
	// lm[k] = L⁻¹ μ_k under the factor that class k uses.
	lm := make([][]float64, K)
	for k := range lm {
		lm[k] = slices.Clone(mean[k].RawVector().Data)
		chol[k].solve(lm[k])
	}
	logDets := make([]float64, K)
	for k, f := range chol {
		logDets[k] = f.logDet()
	}
	fixed := fixedPrior(cfg.ClassPrior, priors)
	out := make([]float64, d.N*K)
	jll := make([]float64, K)
	y := make([][]float64, K)
	for k := range y {
		y[k] = make([]float64, p)
	}
	for i := range d.N {
		c, x := int(d.Y[i]), d.Row(i)
		if n[c] < 2 {
			return nil, d.RowError(i, "cv: %w: the row is the only one of its class", ErrDowndate)
		}
		for k := range K {
			if k == 0 || !pooled {
				copy(y[k], x)
				chol[k].solve(y[k])
			} else {
				y[k] = y[0]
			}
		}
		// a = L⁻¹u, u = x − μ_c; S' = S − β u uᵀ with β = n_c/(n_c − 1).
		beta := n[c] / (n[c] - 1)
		var t float64
		for j := range p {
			a := y[c][j] - lm[c][j]
			t += a * a
		}
		den := 1 - beta*t // det S' = det S · den (the determinant lemma)
		if !(den > 1e-12) {
			return nil, d.RowError(i, "cv: %w: without the row the scatter matrix is singular", ErrDowndate)
		}
		for k := range K {
			nk := n[k]
			// q = (x − μ_k')ᵀ S'⁻¹ (x − μ_k'), by Sherman–Morrison when S
			// is downdated: ‖b‖² + β (bᵀa)²/den, b = L⁻¹(x − μ_k').
			var q, ba float64
			for j := range p {
				a := y[c][j] - lm[c][j]
				b := y[k][j] - lm[k][j]
				if k == c {
					b = beta * a // x − μ_c' = β u
				}
				q += b * b
				ba += b * a
			}
			if k == c || pooled {
				q += beta * ba * ba / den
			}
			logDet := logDets[k]
			if k == c {
				nk--
				logDet += math.Log(den)
			}
			dv := divisor(nk)
			jll[k] = math.Log(prior(cfg.PriorAlpha, fixed, n, k, c)) - 0.5*dv*q
			if !pooled {
				jll[k] -= 0.5 * (logDet - float64(p)*math.Log(dv))
			}
		}
		lse := mathx.LogSumExp(jll)
		for k := range K {
			out[i*K+k] = jll[k] - lse
		}
	}
	return out, nil
}

// lower is a lower-triangular Cholesky factor L (S = L Lᵀ) of a p × p
// matrix, row-major.
type lower struct {
	p int
	l []float64
}

func newLower(c *mat.Cholesky) *lower {
	var t mat.TriDense
	c.LTo(&t)
	p, _ := t.Triangle()
	f := &lower{p: p, l: make([]float64, p*p)}
	for i := range p {
		for j := range i + 1 {
			f.l[i*p+j] = t.At(i, j)
		}
	}
	return f
}

// solve overwrites r with L⁻¹ r, solving L y = r forward.
func (f *lower) solve(r []float64) {
	p, l := f.p, f.l
	for i := range p {
		v := r[i]
		for j, lij := range l[i*p : i*p+i] {
			v -= lij * r[j]
		}
		r[i] = v / l[i*p+i]
	}
}

// logDet returns log det(L Lᵀ) = 2 Σ_k log L_kk.
func (f *lower) logDet() float64 {
	s := 0.0
	for k := range f.p {
		s += math.Log(f.l[k*f.p+k])
	}
	return 2 * s
}
