package cv

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/design"
	"github.com/gendisc/gendisc/internal/mathx"
	"github.com/gendisc/gendisc/linear"
	"github.com/gendisc/gendisc/naivebayes"
)

// ErrDowndate is wrapped by the errors of a leave-one-out by downdating
// that cannot be exact: a configuration it does not cover, or a row whose
// removal leaves a model that cannot be fitted: the caller refits
// instead (Runner with LeaveOneOut folds), as gendisc cv does.
var ErrDowndate = errors.New("no exact leave-one-out by downdating")

// LeaveOneOutLinear returns the leave-one-out predictions of ordinary
// least squares (cfg.L2 = 0) on d: pred[i] is what the model fitted to
// every row but i predicts for row i, computed from the one fit to all
// rows by the hat-matrix identity
//
//	ŷ_(i) = y_i − e_i / (1 − w_i h_ii),  h_ii = z_iᵀ (ZᵀWZ)⁻¹ z_i,
//
// where e_i = y_i − ŷ_i is row i's residual, w_i its weight and z_i its
// row of the design matrix Z (the features encoded as for the fit, and
// the intercept's 1). It takes O(n p²) time for n rows and p design
// columns, against O(n² p²) for n refits.
//
// The identity is exact for least squares with a fixed design; a ridge
// penalty (L2 > 0) is applied to standardised weights, whose scales
// change with every row left out, so it is refused (ErrDowndate), as are
// Impute and a row of leverage w_i h_ii = 1 (the only row of a level,
// say), whose removal leaves the fit undetermined.
func LeaveOneOutLinear(cfg linear.Config, d *data.Dataset) ([]float64, error) {
	if cfg.L2 != 0 || cfg.Impute {
		return nil, fmt.Errorf("cv: %w: linear regression with a ridge penalty or imputation", ErrDowndate)
	}
	m, err := cfg.Fit(d)
	if err != nil {
		return nil, err
	}
	enc, err := design.Fit(d, design.Options{DropFirst: true})
	if err != nil {
		return nil, err
	}
	Z := enc.Encode(d).Densify()
	p := Z.P + 1
	gram := mat.NewSymDense(p, nil)
	z := make([]float64, p)
	row := func(i int) []float64 {
		copy(z, Z.Row(i))
		z[p-1] = 1
		return z
	}
	weight := func(i int) float64 {
		if d.Weight == nil {
			return 1
		}
		return d.Weight[i]
	}
	for i := range d.N {
		gram.SymRankOne(gram, weight(i), mat.NewVecDense(p, row(i)))
	}
	var chol mat.Cholesky
	if !chol.Factorize(gram) {
		return nil, fmt.Errorf("cv: %s: %w: the design's columns are collinear", d.Source, ErrDowndate)
	}
	var L mat.TriDense
	chol.LTo(&L)
	pred := m.Predict(nil, d)
	v := mat.NewVecDense(p, nil)
	for i := range d.N {
		v.SolveVec(&L, mat.NewVecDense(p, row(i)))
		h := weight(i) * mat.Dot(v, v)
		if !(1-h > 1e-10) {
			return nil, d.RowError(i, "cv: %w: the row has leverage 1: without it the fit is undetermined", ErrDowndate)
		}
		pred[i] = d.Y[i] - (d.Y[i]-pred[i])/(1-h)
	}
	return pred, nil
}

// LeaveOneOutGaussianNB returns the leave-one-out log-probabilities of
// Gaussian naive Bayes under cfg on d, row-major n × K as LogProba's:
// row i's are those of the model fitted to every row but i. The class
// moments of all the rows are computed once (two passes), and row i's
// contribution is removed from its class's (n_k, mean, centred sum of
// squares) and from the pooled moments that set the variance smoothing
// ε = VarSmoothing · max_j Var(x_j):
//
//	n' = n − 1,  μ' = μ − (x − μ)/(n − 1),  S' = S − (x − μ)(x − μ')
//
// so the n models take O(n K D) time in all. The prior is the
// maximum-likelihood n_k / n, (n_k + α)/(n + αK) with PriorAlpha, or the
// fixed ClassPrior.
//
// It covers the default variance tying (one per class and feature) on
// numeric features without missing cells or weights; other cases, and a
// row that is the only one of its class or whose removal leaves a
// variance of 0, are refused with ErrDowndate.
func LeaveOneOutGaussianNB(cfg naivebayes.GaussianConfig, d *data.Dataset) ([]float64, error) {
	m, err := cfg.Fit(d) // validates the configuration and the data
	if err != nil {
		return nil, err
	}
	if cfg.Variance != naivebayes.ClassFeatureVariance || d.Weight != nil {
		return nil, fmt.Errorf("cv: %w: Gaussian naive Bayes with tied variances or row weights", ErrDowndate)
	}
	K, D := len(m.Classes()), d.D()
	for _, f := range d.Schema.Features {
		if f.Kind != data.Numeric {
			return nil, fmt.Errorf("cv: %w: Gaussian naive Bayes of the %s column %q", ErrDowndate, f.Kind, f.Name)
		}
	}
	for i, x := range d.X {
		if math.IsNaN(x) {
			return nil, d.RowError(i/D, "cv: %w: a missing cell", ErrDowndate)
		}
	}
	smoothing := cfg.VarSmoothing
	switch smoothing {
	case 0:
		smoothing = naivebayes.DefaultVarSmoothing
	case naivebayes.NoVarSmoothing:
		smoothing = 0
	}
	// Two-pass moments of every class (k < K) and of all rows (k = K).
	n := make([]float64, K+1)
	mean := make([]float64, (K+1)*D)
	ss := make([]float64, (K+1)*D)
	for i := range d.N {
		k := int(d.Y[i])
		n[k]++
		n[K]++
		for j, x := range d.Row(i) {
			mean[k*D+j] += x
			mean[K*D+j] += x
		}
	}
	for k := range K + 1 {
		for j := range D {
			mean[k*D+j] /= n[k]
		}
	}
	for i := range d.N {
		k := int(d.Y[i])
		for j, x := range d.Row(i) {
			a, b := x-mean[k*D+j], x-mean[K*D+j]
			ss[k*D+j] += a * a
			ss[K*D+j] += b * b
		}
	}
	fixed := m.Priors()
	out := make([]float64, d.N*K)
	jll := make([]float64, K)
	mu := make([]float64, D)
	s := make([]float64, D)
	for i := range d.N {
		c, x := int(d.Y[i]), d.Row(i)
		if n[c] < 2 {
			return nil, d.RowError(i, "cv: %w: the row is the only one of class %q", ErrDowndate, m.Classes()[c])
		}
		// ε of the other rows: the largest pooled variance without x.
		maxVar := 0.0
		for j := range D {
			mj := mean[K*D+j] - (x[j]-mean[K*D+j])/(n[K]-1)
			maxVar = max(maxVar, (ss[K*D+j]-(x[j]-mean[K*D+j])*(x[j]-mj))/(n[K]-1))
		}
		eps := smoothing * maxVar
		for k := range K {
			nk, base := n[k], k*D
			copy(mu, mean[base:base+D])
			copy(s, ss[base:base+D])
			if k == c {
				for j := range D {
					mj := mu[j] - (x[j]-mu[j])/(nk-1)
					s[j] -= (x[j] - mu[j]) * (x[j] - mj)
					mu[j] = mj
				}
				nk--
			}
			jll[k] = math.Log(prior(cfg.PriorAlpha, fixedPrior(cfg.ClassPrior, fixed), n, k, c))
			for j := range D {
				v := s[j]/nk + eps
				if !(v > 0) {
					return nil, d.RowError(i, "cv: %w: without the row, feature %q has variance 0 in class %q", ErrDowndate, d.Schema.Features[j].Name, m.Classes()[k])
				}
				r := x[j] - mu[j]
				jll[k] -= 0.5 * (math.Log(2*math.Pi*v) + r*r/v)
			}
		}
		lse := mathx.LogSumExp(jll)
		for k := range K {
			out[i*K+k] = jll[k] - lse
		}
	}
	return out, nil
}

// fixedPrior returns the model's priors when the configuration fixes
// them (classPrior not nil), else nil.
func fixedPrior(classPrior map[string]float64, priors []float64) []float64 {
	if classPrior == nil {
		return nil
	}
	return priors
}

// prior returns class k's prior without a row of class c: fixed[k] when
// the prior is fixed, else (n_k − [k = c] + α)/(n − 1 + αK) from the class
// counts n (n[K] the total).
func prior(alpha float64, fixed, n []float64, k, c int) float64 {
	if fixed != nil {
		return fixed[k]
	}
	K := len(n) - 1
	nk := n[k]
	if k == c {
		nk--
	}
	return (nk + alpha) / (n[K] - 1 + alpha*float64(K))
}
