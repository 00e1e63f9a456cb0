package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/naivebayes"
	"github.com/gendisc/gendisc/text"
)

// textOptions reads text.csv of gendata.py: the documents in column text,
// the class in the last column.
var textOptions = dataio.Options{Text: []string{"text"}}

// mnbText times multinomial naive Bayes on the synthetic documents. fit
// and predict start, as scikit-learn's do, from the term-count matrix made
// outside the timing: text.VectorizerConfig{}.FitTransform of the
// documents read into memory, the vocabulary, columns and counts of
// CountVectorizer(token_pattern=r"(?u)[^\W_]+"), then
// naivebayes.Config.FitMatrix and MatrixModel.Proba. csv fit is the file to
// a fitted model: dataio.ReadFile and Config.Fit on the documents.
func mnbText(dir string, r *recorder) error {
	path := filepath.Join(dir, "text.csv")
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	d, err := dataio.ReadFile(path, textOptions)
	if err != nil {
		return err
	}
	_, x, err := text.VectorizerConfig{}.FitTransform(d.Text[0])
	if err != nil {
		return err
	}
	y := make([]int, d.N)
	for i, c := range d.Y {
		if c != c {
			return fmt.Errorf("%s: row %d has no class", path, i)
		}
		y[i] = int(c)
	}
	cfg, classes := naivebayes.Config{Family: naivebayes.Multinomial}, d.Schema.Classes()
	m, err := timed(r, "fit", st.Size(), func() (*naivebayes.MatrixModel, error) { return cfg.FitMatrix(x, y, classes, nil) })
	if err != nil {
		return err
	}
	if err := r.answer("class_log_prior", logs(m.Priors()), len(classes)); err != nil {
		return err
	}
	p, _ := timed(r, "predict", st.Size(), func() ([]float64, error) { return m.Proba(nil, x), nil })
	if err := r.answer("proba", p, d.N, len(classes)); err != nil {
		return err
	}
	_, err = timed(r, "csv fit", st.Size(), func() (*naivebayes.Model, error) {
		d, err := dataio.ReadFile(path, textOptions)
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
