package models_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/linear"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/mixture"
	"github.com/gendisc/gendisc/models"
	"github.com/gendisc/gendisc/naivebayes"
)

// farRows are rows of iris's four features far out: ±1e200 and ±1e300
// alone and together, mixed with ordinary values and missing cells, the
// largest float64s, and an ordinary row. nonNegative keeps the rows that
// count models may take.
func farRows(nonNegative bool) [][]float64 {
	nan, big := math.NaN(), math.MaxFloat64
	rows := [][]float64{
		{1e200, 3, 4, 1}, {-1e200, 3, 4, 1}, {1e300, 3, 4, 1}, {-1e300, 3, 4, 1},
		{5, 3, 1e300, 1}, {1e300, 1e300, 1e300, 1e300}, {-1e300, 1e300, -1e300, 1e300},
		{5, 3, 1e155, 1}, {1e200, 1e150, 4, 1}, {1e200, nan, 4, 1}, {nan, nan, -1e300, nan},
		{1e300, nan, nan, -1e200}, {big, -big, 1, 1}, {big, big, big, big}, {-big, 3, 4, 1},
		{5.1, 3.5, 1.4, 0.2}, {1e-300, 3, 4, 1},
	}
	if !nonNegative {
		return rows
	}
	var out [][]float64
	for _, r := range rows {
		ok := true
		for _, v := range r {
			ok = ok && !(v < 0)
		}
		if ok {
			out = append(out, r)
		}
	}
	return out
}

// withRows returns a data set of d's schema holding rows.
func withRows(d *data.Dataset, rows [][]float64) *data.Dataset {
	out := &data.Dataset{Schema: d.Schema, N: len(rows), Source: data.Named("far")}
	for _, r := range rows {
		out.X = append(out.X, r...)
	}
	return out
}

// checkProba fails unless every row of the n-column table p holds
// finite probabilities in [0, 1] that sum to 1 within 1e-12.
func checkProba(t *testing.T, what string, p []float64, n int, rows [][]float64) {
	t.Helper()
	for i := range len(p) / n {
		s := 0.0
		for _, v := range p[i*n : (i+1)*n] {
			if !(v >= 0 && v <= 1) {
				t.Fatalf("%s: row %v: probabilities %v", what, rows[i], p[i*n:(i+1)*n])
			}
			s += v
		}
		if math.Abs(s-1) > 1e-12 {
			t.Fatalf("%s: row %v: probabilities %v sum to %v", what, rows[i], p[i*n:(i+1)*n], s)
		}
	}
}

// TestFarRows feeds rows far out (farRows) to a model of every kind
// fitted on iris: the probabilities of LogProba, of Proba where the model
// has it, of models.Predict and a mixture's responsibilities must be
// finite, in [0, 1] and sum to 1, and the log-likelihoods never NaN
// (−Inf where they are below float64's range). Before, Gaussian naive
// Bayes and MDA gave NaN, nb and the mixture 0 for every class, QDA the
// prior, logistic regression and LDA NaN at 1.8e308.
func TestFarRows(t *testing.T) {
	iris := readIris(t, dataio.Options{})
	rng := func() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }
	type fitter struct {
		name        string
		fit         func() (gendisc.Classifier, error)
		nonNegative bool
	}
	fitters := []fitter{
		{"gaussian-nb", func() (gendisc.Classifier, error) { return naivebayes.GaussianConfig{}.Fit(iris) }, false},
		{"nb", func() (gendisc.Classifier, error) { return naivebayes.Config{}.Fit(iris) }, false},
		{"multinomial-nb", func() (gendisc.Classifier, error) {
			return naivebayes.Config{Family: naivebayes.Multinomial}.Fit(iris)
		}, true},
		{"complement-nb", func() (gendisc.Classifier, error) {
			return naivebayes.Config{Family: naivebayes.Complement}.Fit(iris)
		}, true},
		{"bernoulli-nb", func() (gendisc.Classifier, error) { return naivebayes.Config{Family: naivebayes.Bernoulli}.Fit(iris) }, false},
		{"lda", func() (gendisc.Classifier, error) { return gda.LDAConfig{}.Fit(iris) }, false},
		{"qda", func() (gendisc.Classifier, error) { return gda.QDAConfig{}.Fit(iris) }, false},
		{"logistic", func() (gendisc.Classifier, error) { return logistic.Config{Impute: true}.Fit(iris) }, false},
		{"mda", func() (gendisc.Classifier, error) {
			return mixture.MDAConfig{ComponentsPerClass: 2}.Fit(iris, rng())
		}, false},
	}
	for _, f := range fitters {
		m, err := f.fit()
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		rows := farRows(f.nonNegative)
		d := withRows(iris, rows)
		K := len(m.Classes())
		lp := m.LogProba(nil, d)
		for i, v := range lp {
			lp[i] = math.Exp(v)
		}
		checkProba(t, f.name+" LogProba", lp, K, rows)
		if pm, ok := m.(interface {
			Proba(dst []float64, d *data.Dataset) []float64
		}); ok {
			checkProba(t, f.name+" Proba", pm.Proba(nil, d), K, rows)
		}
		p, err := models.Predict(m, d)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		checkProba(t, f.name+" Predict", p.Values, K, rows)
		// Complement naive Bayes's scores are not log-probabilities:
		// they may be +Inf.
		up := f.name != "complement-nb"
		if g, ok := m.(gendisc.Generative); ok {
			for i, v := range g.JointLogLikelihood(nil, d) {
				if v != v || up && math.IsInf(v, 1) {
					t.Fatalf("%s: row %v: joint log-likelihood %v", f.name, rows[i/K], v)
				}
			}
		}
		if density, ok := models.Density(m); ok {
			for i, v := range density(d) {
				if v != v || up && math.IsInf(v, 1) {
					t.Fatalf("%s: row %v: log density %v", f.name, rows[i], v)
				}
			}
		}
	}

	g, err := mixture.Config{Components: 3}.Fit(iris, rng())
	if err != nil {
		t.Fatal(err)
	}
	rows := farRows(false)
	d := withRows(iris, rows)
	checkProba(t, "gmm Predict", g.Predict(nil, d), 3, rows)
	for i, v := range g.ScoreSamples(nil, d) {
		if v != v || math.IsInf(v, 1) {
			t.Fatalf("gmm: row %v: log density %v", rows[i], v)
		}
	}
}

// TestFarRowsWinner checks the class that wins far out on one feature,
// analytically: with classes a (x = ±1, σ² = 1, three rows in four) and
// b, the class that makes the row least unlikely as |x| grows wins with
// probability 1, whatever the prior:
//
//   - b wider (x = ±2, σ² = 4): −x²/(2σ²) decides, b on both sides, for
//     Gaussian naive Bayes, QDA and a mixture of one component per class;
//   - b of the same spread about 10 (x = 9, 11): the quadratic terms tie
//     and the linear one, x(μ_b − μ_a)/σ², decides: b at +∞, a at −∞,
//     for LDA and (binary) logistic regression as well.
//
// At 1e300 every score is beyond float64 (−x²/2 ≈ −5e599); at 1.7e308
// LDA's and logistic regression's linear scores overflow too. Before, QDA gave the prior (a), naive
// Bayes NaN.
func TestFarRowsWinner(t *testing.T) {
	build := func(bx []float64) *data.Dataset {
		d := &data.Dataset{Schema: &data.Schema{
			Features: []data.Column{{Name: "x", Kind: data.Numeric}},
			Target:   &data.Column{Name: "y", Kind: data.Categorical, Levels: []string{"a", "b"}}}}
		for r := range 12 {
			for _, v := range []float64{-1, 1, -1, 1, -1, 1} {
				d.X, d.Y = append(d.X, v), append(d.Y, 0)
			}
			if r%3 == 0 {
				for _, v := range bx {
					d.X, d.Y = append(d.X, v), append(d.Y, 1)
				}
			}
		}
		d.N = len(d.Y)
		return d
	}
	wide, shifted := build([]float64{-2, 2, -2, 2, -2, 2}), build([]float64{9, 11, 9, 11, 9, 11})
	fit := map[string]func(d *data.Dataset) (gendisc.Classifier, error){
		"gaussian-nb": func(d *data.Dataset) (gendisc.Classifier, error) { return naivebayes.GaussianConfig{}.Fit(d) },
		"nb":          func(d *data.Dataset) (gendisc.Classifier, error) { return naivebayes.Config{}.Fit(d) },
		"qda":         func(d *data.Dataset) (gendisc.Classifier, error) { return gda.QDAConfig{}.Fit(d) },
		"lda":         func(d *data.Dataset) (gendisc.Classifier, error) { return gda.LDAConfig{}.Fit(d) },
		"logistic":    func(d *data.Dataset) (gendisc.Classifier, error) { return logistic.Config{}.Fit(d) },
		"mda": func(d *data.Dataset) (gendisc.Classifier, error) {
			return mixture.MDAConfig{ComponentsPerClass: 1}.Fit(d, rand.New(rand.NewPCG(3, 4)))
		},
	}
	xs := []float64{1e300, -1e300, 1e200, -1e200, 1.7e308, -1.7e308}
	for name, f := range fit {
		for _, c := range []struct {
			d    *data.Dataset
			want []int // the winner at each of xs
		}{
			{wide, []int{1, 1, 1, 1, 1, 1}},
			{shifted, []int{1, 0, 1, 0, 1, 0}},
		} {
			if (name == "lda" || name == "logistic") && c.d == wide {
				continue // linear scores: no wider class
			}
			m, err := f(c.d)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			q := &data.Dataset{Schema: c.d.Schema, N: len(xs), X: xs}
			lp := m.LogProba(nil, q)
			for i, x := range xs {
				if p := math.Exp(lp[2*i+c.want[i]]); p != 1 {
					t.Errorf("%s: x = %g: P(%s) = %v (log-probabilities %v), want 1", name, x,
						c.d.Schema.Target.Levels[c.want[i]], p, lp[2*i:2*i+2])
				}
			}
		}
	}
}

// TestFarRowsRegression checks a linear regression's predictions of rows
// far out: finite where ŷ is (1e300 times a weight below 1), ±Inf only
// beyond float64's range, never NaN (1.8e308 in features of weights of
// both signs gave +Inf − Inf before), and written clamped by WriteCSV.
func TestFarRowsRegression(t *testing.T) {
	x := readIris(t, dataio.Options{Ignore: []string{"class"}, Target: "sepallength", NumericTarget: true})
	lin, err := linear.Config{}.Fit(x)
	if err != nil {
		t.Fatal(err)
	}
	big := math.MaxFloat64
	rows := [][]float64{{1e300, 1, 1}, {-1e300, 1, 1}, {big, big, big}, {big, -big, big}, {-big, big, -big}, {3, 1.4, 0.2}}
	d := withRows(x, rows)
	p, err := models.Predict(lin, d)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range p.Values {
		if v != v {
			t.Errorf("row %v: prediction NaN", rows[i])
		}
	}
	if v := p.Values[0]; math.IsInf(v, 0) || v <= 1e299 && v >= -1e299 {
		t.Errorf("row %v: prediction %v, want finite and far", rows[0], v)
	}
	var b bytes.Buffer
	if err := p.WriteCSV(&b); err != nil || strings.Contains(b.String(), "Inf") || strings.Contains(b.String(), "NaN") {
		t.Errorf("CSV: %v\n%s", err, b.String())
	}
}
