package main

import (
	"math"
	"os"
	"path/filepath"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/naivebayes"
)

// textOptions reads text.csv of gendata.py: the documents in column text,
// the class in the last column.
var textOptions = data.Options{Text: []string{"text"}}

// mnbText times multinomial naive Bayes on the synthetic documents.
// naivebayes has no fit from a sparse matrix: its text path starts from
// the documents, so fit and predict here tokenize the documents read into
// memory (not timed) and count their terms (text.CSR) inside the timing,
// where scikit-learn's fit and predict_proba start from the CSR matrix
// CountVectorizer made outside the timing. csv fit is the file to a fitted
// model: data.ReadFile and the fit.
func mnbText(dir string, r *recorder) error {
	path := filepath.Join(dir, "text.csv")
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	d, err := data.ReadFile(path, textOptions)
	if err != nil {
		return err
	}
	cfg := naivebayes.Config{Family: naivebayes.Multinomial}
	m, err := timed(r, "fit", st.Size(), func() (*naivebayes.Model, error) { return cfg.Fit(d) })
	if err != nil {
		return err
	}
	if err := r.answer("class_log_prior", logs(m.Priors()), len(m.Classes())); err != nil {
		return err
	}
	p, _ := timed(r, "predict", st.Size(), func() ([]float64, error) { return m.Proba(nil, d), nil })
	if err := r.answer("proba", p, d.N, len(m.Classes())); err != nil {
		return err
	}
	_, err = timed(r, "csv fit", st.Size(), func() (*naivebayes.Model, error) {
		d, err := data.ReadFile(path, textOptions)
		if err != nil {
			return nil, err
		}
		return cfg.Fit(d)
	})
	return err
}

// logs returns the natural logarithms of x.
func logs(x []float64) []float64 {
	l := make([]float64, len(x))
	for i, v := range x {
		l[i] = math.Log(v)
	}
	return l
}
