package main

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"

	"github.com/gendisc/gendisc/bench/internal/npy"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/mixture"
)

// gmm times 100 EM iterations of a full-covariance Gaussian mixture from
// the start in gmm_weights.npy, gmm_means.npy and gmm_covariances.npy
// (Tol −1: every iteration runs, as scikit-learn's tol=0), with
// scikit-learn's regularisation (mixture.Ridge: reg_covar 1e-6 added to the
// diagonals).
func gmm(dir string, r *recorder) error {
	x, xs, err := npy.Read(filepath.Join(dir, "gmm_X.npy"))
	if err != nil {
		return err
	}
	if len(xs) != 2 {
		return fmt.Errorf("%s: gmm_X.npy has shape %v", dir, xs)
	}
	var start mixture.Params
	for _, a := range []struct {
		name string
		dst  *[]float64
	}{{"gmm_weights", &start.Weights}, {"gmm_means", &start.Means}, {"gmm_covariances", &start.Covariances}} {
		if *a.dst, _, err = npy.Read(filepath.Join(dir, a.name+".npy")); err != nil {
			return err
		}
	}
	d := data.FromMatrix(featureNames(xs[1]), x, nil, nil)
	k := len(start.Weights)
	cfg := mixture.Config{Components: k, Covariance: mixture.Full, Tol: -1, MaxIter: 100,
		Regularization: mixture.Ridge, Start: &start}
	m, err := timed(r, "fit", int64(8*len(x)), func() (*mixture.GMM, error) {
		return cfg.Fit(d, rand.New(rand.NewPCG(1, 2)))
	})
	if err != nil {
		return err
	}
	if m.Iterations() != cfg.MaxIter {
		return fmt.Errorf("gmm: %d EM iterations, not %d", m.Iterations(), cfg.MaxIter)
	}
	if err := r.answer("weights", m.Weights(), k); err != nil {
		return err
	}
	if err := r.answer("means", m.Means(), k, xs[1]); err != nil {
		return err
	}
	return r.answer("covariances", m.Covariances(), k, xs[1], xs[1])
}
