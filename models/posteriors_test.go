package models_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/models"
	"github.com/gendisc/gendisc/naivebayes"
)

// noisyRows returns n rows of d's features: its rows in turn, each cell
// moved by up to ±spread·|cell| at random, one cell in 20 missing (NaN)
// when missing is set.
func noisyRows(d *data.Dataset, n int, spread float64, missing bool) *data.Dataset {
	rng := rand.New(rand.NewPCG(5, 6))
	D := d.D()
	out := &data.Dataset{Schema: d.Schema, N: n, X: make([]float64, n*D), Source: data.Named("noisy")}
	for i := range n {
		for j := range D {
			v := d.X[(i%d.N)*D+j]
			if d.Schema.Features[j].Kind == data.Numeric {
				v *= 1 + spread*(2*rng.Float64()-1)
			}
			if missing && rng.IntN(20) == 0 {
				v = math.NaN()
			}
			out.X[i*D+j] = v
		}
	}
	return out
}

// sameBits fails unless got is, bit for bit, math.Exp of each value of lp.
func sameBits(t *testing.T, what string, got, lp []float64) {
	t.Helper()
	if len(got) != len(lp) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(lp))
	}
	for i, v := range lp {
		if want := math.Exp(v); math.Float64bits(got[i]) != math.Float64bits(want) {
			t.Fatalf("%s: value %d: %v [%#x], math.Exp(LogProba) = %v [%#x] (log %v)", what, i, got[i], math.Float64bits(got[i]), want, math.Float64bits(want), v)
		}
	}
}

// TestPosteriorsBitForBit checks the one prediction path against what it
// replaced: for every classifier family, on iris's rows, 20,000 noisy
// copies of them (several chunks, on both cores), the same with missing
// cells, and rows far out, the batch Proba of a gendisc.BatchProba and
// models.Predict's probabilities must be math.Exp of LogProba bit for
// bit, and the predicted classes gendisc.Predict's. Before, Proba
// divided exponentials by their sum (a softmax), which differs from
// exp(LogProba) in the last bits.
func TestPosteriorsBitForBit(t *testing.T) {
	iris := readIris(t, dataio.Options{})
	fits := []struct {
		name string
		fit  func(*data.Dataset) (gendisc.Classifier, error)
	}{
		{"gaussian-nb", func(d *data.Dataset) (gendisc.Classifier, error) { return naivebayes.GaussianConfig{}.Fit(d) }},
		{"gaussian-nb shared", func(d *data.Dataset) (gendisc.Classifier, error) {
			return naivebayes.GaussianConfig{Variance: naivebayes.SharedVariance}.Fit(d)
		}},
		{"nb", func(d *data.Dataset) (gendisc.Classifier, error) { return naivebayes.Config{}.Fit(d) }},
		{"multinomial-nb", func(d *data.Dataset) (gendisc.Classifier, error) {
			return naivebayes.Config{Family: naivebayes.Multinomial}.Fit(d)
		}},
		{"bernoulli-nb", func(d *data.Dataset) (gendisc.Classifier, error) {
			return naivebayes.Config{Family: naivebayes.Bernoulli}.Fit(d)
		}},
		{"lda", func(d *data.Dataset) (gendisc.Classifier, error) { return gda.LDAConfig{}.Fit(d) }},
		{"qda", func(d *data.Dataset) (gendisc.Classifier, error) { return gda.QDAConfig{}.Fit(d) }},
		{"logistic", func(d *data.Dataset) (gendisc.Classifier, error) { return logistic.Config{Impute: true}.Fit(d) }},
	}
	sets := map[string]*data.Dataset{
		"iris":          iris,
		"noisy":         noisyRows(iris, 20_000, 0.3, false),
		"noisy missing": noisyRows(iris, 20_000, 0.3, true),
		"far":           withRows(iris, farRows(true)),
	}
	for _, f := range fits {
		m, err := f.fit(iris)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if _, batch := m.(gendisc.BatchProba); !batch {
			t.Errorf("%s: not a gendisc.BatchProba", f.name)
		}
		for name, d := range sets {
			what := f.name + " on " + name
			lp := m.LogProba(nil, d)
			if b, ok := m.(gendisc.BatchProba); ok {
				sameBits(t, what+": Proba", b.Proba(nil, d), lp)
			}
			p, err := models.Predict(m, d)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			sameBits(t, what+": models.Predict", p.Values, lp)
			if want := gendisc.Predict(m, d); !slices.Equal(p.Best, want) {
				t.Fatalf("%s: classes differ from gendisc.Predict's", what)
			}
		}
	}

	// Categorical features and missing cells: nb on adult.
	r, err := datasets.Open("adult")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	adult, err := dataio.Read(r, "adult", dataio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	nb, err := naivebayes.Config{}.Fit(adult)
	if err != nil {
		t.Fatal(err)
	}
	lp := nb.LogProba(nil, adult)
	sameBits(t, "nb on adult: Proba", nb.Proba(nil, adult), lp)
	p, err := models.Predict(nb, adult)
	if err != nil {
		t.Fatal(err)
	}
	sameBits(t, "nb on adult: models.Predict", p.Values, lp)
	if !slices.Equal(p.Best, gendisc.Predict(nb, adult)) {
		t.Fatal("nb on adult: classes differ from gendisc.Predict's")
	}
}

// twoClose is a classifier of two classes whose log-probabilities for a
// row x (its one feature) are x and the next float64 above it: the second
// class is the more probable, although exp may round both to one value.
type twoClose struct{ schema *data.Schema }

func (m twoClose) Kind() string         { return "two-close" }
func (m twoClose) Schema() *data.Schema { return m.schema }
func (m twoClose) Classes() []string    { return []string{"a", "b"} }
func (m twoClose) LogProba(dst []float64, d *data.Dataset) []float64 {
	if dst == nil {
		dst = make([]float64, 2*d.N)
	}
	for i, x := range d.X {
		dst[2*i], dst[2*i+1] = x, math.Nextafter(x, 1)
	}
	return dst
}
func (m twoClose) Proba(dst []float64, d *data.Dataset) []float64 {
	dst = m.LogProba(dst, d)
	for i, v := range dst {
		dst[i] = math.Exp(v)
	}
	return dst
}

// TestPosteriorsTies checks the classes of models.Predict where exp
// rounds two different log-probabilities to one posterior: they are
// gendisc.Predict's, the larger log-probability (b), not the first of
// the equal posteriors (a).
func TestPosteriorsTies(t *testing.T) {
	var x []float64
	for v := -0.7; len(x) < 3; v = math.Nextafter(v, 0) {
		if math.Exp(v) == math.Exp(math.Nextafter(v, 1)) {
			x = append(x, v)
		}
	}
	x = append(x, -0.5) // and a row without a tie between them
	schema := &data.Schema{Features: []data.Column{{Name: "x", Kind: data.Numeric}}}
	d := &data.Dataset{Schema: schema, N: len(x), X: x}
	m := twoClose{schema}
	p, err := models.Predict(m, d)
	if err != nil {
		t.Fatal(err)
	}
	if want := gendisc.Predict(m, d); !slices.Equal(p.Best, want) || want[0] != 1 {
		t.Fatalf("classes %v, want gendisc.Predict's %v", p.Best, want)
	}
	sameBits(t, "ties", p.Values, m.LogProba(nil, d))
}

// TestPredictDensity checks that models.PredictDensity answers, bit for
// bit, what models.Predict and models.Density answer apart, for the
// gendisc.JointProba families (Gaussian naive Bayes and QDA, whose joint
// it computes once), LDA (whose posteriors come from its linear form,
// asked twice) and nb (whose density is its own ScoreSamples), on iris,
// noisy copies with missing cells and rows far out; and that ProbaJoint's
// joint is JointLogLikelihood's.
func TestPredictDensity(t *testing.T) {
	iris := readIris(t, dataio.Options{})
	fits := []struct {
		name  string
		fit   func(*data.Dataset) (gendisc.Generative, error)
		joint bool
	}{
		{"gaussian-nb", func(d *data.Dataset) (gendisc.Generative, error) { return naivebayes.GaussianConfig{}.Fit(d) }, true},
		{"qda", func(d *data.Dataset) (gendisc.Generative, error) { return gda.QDAConfig{}.Fit(d) }, true},
		{"lda", func(d *data.Dataset) (gendisc.Generative, error) { return gda.LDAConfig{}.Fit(d) }, false},
		{"nb", func(d *data.Dataset) (gendisc.Generative, error) { return naivebayes.Config{}.Fit(d) }, false},
	}
	sets := map[string]*data.Dataset{
		"iris":          iris,
		"noisy missing": noisyRows(iris, 5_000, 0.3, true),
		"far":           withRows(iris, farRows(false)),
	}
	for _, f := range fits {
		m, err := f.fit(iris)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		j, ok := m.(gendisc.JointProba)
		if ok != f.joint {
			t.Errorf("%s: a gendisc.JointProba: %v, want %v", f.name, ok, f.joint)
		}
		density, _ := models.Density(m)
		for name, d := range sets {
			what := f.name + " on " + name
			p, ll, err := models.PredictDensity(m, d)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			want, err := models.Predict(m, d)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if !slices.Equal(p.Best, want.Best) || !bitsEqual(p.Values, want.Values) || !slices.Equal(p.Columns, want.Columns) {
				t.Fatalf("%s: predictions differ from models.Predict's", what)
			}
			if !bitsEqual(ll, density(d)) {
				t.Fatalf("%s: log densities differ from models.Density's", what)
			}
			if ok {
				K := len(m.Classes())
				proba, joint := make([]float64, d.N*K), make([]float64, d.N*K)
				j.ProbaJoint(proba, joint, d)
				if !bitsEqual(joint, m.JointLogLikelihood(nil, d)) || !bitsEqual(proba, j.Proba(nil, d)) {
					t.Fatalf("%s: ProbaJoint differs from JointLogLikelihood and Proba", what)
				}
			}
		}
	}
}

// bitsEqual reports whether a and b hold the same float64s bit for bit.
func bitsEqual(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}
