package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/gendisc/gendisc/bench/internal/npy"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/naivebayes"
)

// gnb times Gaussian naive Bayes on the dense arrays in memory: fit, then
// predict (Proba, scikit-learn's predict_proba).
func gnb(dir string, r *recorder) error {
	d, err := loadDense(dir)
	if err != nil {
		return err
	}
	size := int64(8 * len(d.X))
	m, err := timed(r, "fit", size, func() (*naivebayes.Gaussian, error) {
		return naivebayes.GaussianConfig{}.Fit(d)
	})
	if err != nil {
		return err
	}
	if err := saveGaussian(r, m); err != nil {
		return err
	}
	p, _ := timed(r, "predict", size, func() ([]float64, error) {
		return m.Proba(nil, d), nil
	})
	return r.answer("proba", p, d.N, len(m.Classes()))
}

// csvGNB times dataio.ReadFile alone, then ReadFile and the fit of Gaussian
// naive Bayes: a CSV file to a fitted model, what `gendisc fit` does.
func csvGNB(dir string, r *recorder) error {
	path := filepath.Join(dir, "data.csv")
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if _, err := timed(r, "read", st.Size(), func() (*data.Dataset, error) {
		return dataio.ReadFile(path, dataio.Options{})
	}); err != nil {
		return err
	}
	m, err := timed(r, "read+fit", st.Size(), func() (*naivebayes.Gaussian, error) {
		d, err := dataio.ReadFile(path, dataio.Options{})
		if err != nil {
			return nil, err
		}
		return naivebayes.GaussianConfig{}.Fit(d)
	})
	if err != nil {
		return err
	}
	return saveGaussian(r, m)
}

// loadDense returns the dense data set of bench/gendata.py (X.npy, y.npy)
// as a data.Dataset over the array read.
func loadDense(dir string) (*data.Dataset, error) {
	return loadLabelled(dir, "X", "y")
}

// loadLabelled returns the arrays X.npy and Y.npy of dir (an N×D matrix and
// N class labels 0, 1, ...) as a data.Dataset over the array read
// (data.FromMatrix does not copy), with numeric features x0, x1, ... and
// the classes "0", "1", ...
func loadLabelled(dir, x, y string) (*data.Dataset, error) {
	xv, xs, err := npy.Read(filepath.Join(dir, x+".npy"))
	if err != nil {
		return nil, err
	}
	labels, ys, err := npy.Read(filepath.Join(dir, y+".npy"))
	if err != nil {
		return nil, err
	}
	if len(xs) != 2 || len(ys) != 1 || ys[0] != xs[0] {
		return nil, fmt.Errorf("%s: %s.npy shape %v and %s.npy shape %v do not match", dir, x, xs, y, ys)
	}
	yi := make([]int, len(labels))
	for i, v := range labels {
		yi[i] = int(v)
	}
	classes := make([]string, slices.Max(yi)+1)
	for k := range classes {
		classes[k] = strconv.Itoa(k)
	}
	return data.FromMatrix(featureNames(xs[1]), xv, classes, yi), nil
}

// featureNames returns x0, x1, ..., x(d-1).
func featureNames(d int) []string {
	names := make([]string, d)
	for j := range names {
		names[j] = "x" + strconv.Itoa(j)
	}
	return names
}

// saveGaussian saves the class priors, means and variances of m as the
// answers class_prior, theta and var (scikit-learn's names).
func saveGaussian(r *recorder, m *naivebayes.Gaussian) error {
	mean, variance := m.Means(), m.Variances()
	k, d := len(mean), len(mean[0])
	if err := r.answer("class_prior", m.Priors(), k); err != nil {
		return err
	}
	if err := r.answer("theta", slices.Concat(mean...), k, d); err != nil {
		return err
	}
	return r.answer("var", slices.Concat(variance...), k, d)
}
