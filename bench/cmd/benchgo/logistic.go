package main

import (
	"fmt"
	"os"
	"slices"

	"github.com/gendisc/gendisc/logistic"
)

// logistic2 and logistic5 time L2-penalised logistic regression, binary
// and five classes, on the logit arrays.
func logistic2(dir string, r *recorder) error { return logisticWorkload(dir, "logit_y2", r) }
func logistic5(dir string, r *recorder) error { return logisticWorkload(dir, "logit_y5", r) }

// logisticWorkload fits logistic.Config{NoStandardize: true} (λ = 1, the
// default solver and tolerance) on the logit arrays with the labels in
// labels.npy. The columns are standardised by gendata.py, and both sides fit
// them as they are: scikit-learn's LogisticRegression(C=1) penalises the
// coefficients of the columns it is given, which NoStandardize reproduces
// (gendisc's default would standardise again, a pass that changes nothing
// here). The answer objective is the minimised objective, −F in the terms
// of logistic.Diagnostics: Σ_i −log P(y_i|x_i) + ½‖W‖².
func logisticWorkload(dir, labels string, r *recorder) error {
	d, err := loadLabelled(dir, "logit_X", labels)
	if err != nil {
		return err
	}
	m, err := timed(r, "fit", int64(8*len(d.X)), func() (*logistic.Model, error) {
		return logistic.Config{NoStandardize: true}.Fit(d)
	})
	if err != nil {
		return err
	}
	diag := m.Diagnostics()
	fmt.Fprintf(os.Stderr, "benchgo: %s: solver %s, %d iterations, %d evaluations, objective %.17g, gradient %.3g\n",
		labels, diag.Solver, diag.Iterations, diag.Evaluations, -diag.Objective, diag.GradNorm)
	if err := r.answer("objective", []float64{-diag.Objective}, 1); err != nil {
		return err
	}
	w, b := m.Coefficients()
	if err := r.answer("coef", slices.Concat(w...), len(w), d.D()); err != nil {
		return err
	}
	return r.answer("intercept", b, len(b))
}
