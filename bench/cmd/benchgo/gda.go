package main

import (
	"slices"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/gda"
)

// The covariance estimator of both models is gda.Unbiased, scikit-learn's
// convention: LinearDiscriminantAnalysis (solver 'svd') divides the pooled
// scatter by N − K, QuadraticDiscriminantAnalysis class k's by N_k − 1.

// lda times linear discriminant analysis on the gda arrays: fit, then
// predict (Proba, scikit-learn's predict_proba).
func lda(dir string, r *recorder) error {
	return gdaWorkload(dir, r, func(d *data.Dataset) (gdaModel, error) {
		return gda.LDAConfig{Estimator: gda.Unbiased}.Fit(d)
	})
}

// qda times quadratic discriminant analysis on the gda arrays as lda does.
func qda(dir string, r *recorder) error {
	return gdaWorkload(dir, r, func(d *data.Dataset) (gdaModel, error) {
		return gda.QDAConfig{Estimator: gda.Unbiased}.Fit(d)
	})
}

// gdaModel is what the workloads read of a fitted LDA or QDA.
type gdaModel interface {
	gendisc.Classifier
	Proba(dst []float64, d *data.Dataset) []float64
	Priors() []float64
	Means() [][]float64
}

// gdaWorkload times fit on the gda arrays, then the probabilities of the
// same rows, and saves the priors, means and probabilities.
func gdaWorkload(dir string, r *recorder, fit func(*data.Dataset) (gdaModel, error)) error {
	d, err := loadLabelled(dir, "gda_X", "gda_y")
	if err != nil {
		return err
	}
	size := int64(8 * len(d.X))
	m, err := timed(r, "fit", size, func() (gdaModel, error) { return fit(d) })
	if err != nil {
		return err
	}
	k := len(m.Classes())
	if err := r.answer("priors", m.Priors(), k); err != nil {
		return err
	}
	if err := r.answer("means", slices.Concat(m.Means()...), k, d.D()); err != nil {
		return err
	}
	p, _ := timed(r, "predict", size, func() ([]float64, error) {
		return m.Proba(nil, d), nil
	})
	return r.answer("proba", p, d.N, k)
}
