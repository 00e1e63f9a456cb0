package naivebayes

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
)

// TestGaussianUnobservedFeature checks that a numeric feature without any
// observed value (every cell missing in training) is left out: the fit
// succeeds with a warning naming it, and the class probabilities of rows
// are those of the model fitted without the column, whatever the rows
// hold in it (1e-14 relative), both in Gaussian and in mixed naive Bayes.
func TestGaussianUnobservedFeature(t *testing.T) {
	nan := math.NaN()
	x := [][]float64{{1, nan, 0.5}, {2, nan, 1.5}, {2.5, nan, 0.7}, {4, nan, 3}, {5, nan, 2.5}, {6.5, nan, 4}}
	y := []int{0, 0, 0, 1, 1, 1}
	with := matrix([]string{"a", "b"}, x, y)
	var xs [][]float64
	for _, r := range x {
		xs = append(xs, []float64{r[0], r[2]})
	}
	without := matrix([]string{"a", "b"}, xs, y)
	// Rows to predict: the left-out column missing, and observed.
	test := matrix([]string{"a", "b"}, [][]float64{{1.5, nan, 2}, {3, 100, 1}, {7, -4, 0.1}}, []int{0, 1, 1})
	testWithout := matrix([]string{"a", "b"}, [][]float64{{1.5, 2}, {3, 1}, {7, 0.1}}, []int{0, 1, 1})
	for _, v := range []Variance{ClassFeatureVariance, FeatureVariance, ClassVariance, SharedVariance} {
		cfg := GaussianConfig{Variance: v}
		m, err := cfg.Fit(with)
		if err != nil {
			t.Fatalf("variance %v: %v", v, err)
		}
		w := m.Warnings()
		if len(w) != 1 || !strings.Contains(w[0], `"x1"`) || !strings.Contains(w[0], "no observed value") {
			t.Errorf("variance %v: warnings %q, want one naming x1", v, w)
		}
		ref := fit(t, cfg, without)
		if len(ref.Warnings()) != 0 {
			t.Errorf("variance %v: warnings without the column: %q", v, ref.Warnings())
		}
		got, want := m.LogProba(nil, test), ref.LogProba(nil, testWithout)
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-14*math.Max(1, math.Abs(want[i])) {
				t.Errorf("variance %v: LogProba[%d] = %v, want %v", v, i, got[i], want[i])
			}
		}
		if s := m.Variances(); !math.IsNaN(s[0][1]) || !math.IsNaN(s[1][1]) {
			t.Errorf("variance %v: variances of the left-out column %v, want NaN", v, s)
		}
		// Draws leave the column missing instead of inventing values.
		rng := rand.New(rand.NewPCG(1, 2))
		for range 20 {
			if r, _ := m.Sample(nil, rng); !math.IsNaN(r[1]) || math.IsNaN(r[0]) {
				t.Fatalf("variance %v: sample %v, want the left-out column missing", v, r)
			}
		}
	}

	// Mixed naive Bayes with a categorical column: the same rule.
	mixed := func(d *data.Dataset) *data.Dataset {
		c := *d
		s := *d.Schema
		s.Features = append(append([]data.Column(nil), d.Schema.Features...), data.Column{Name: "c", Kind: data.Categorical, Levels: []string{"u", "v"}})
		c.Schema = &s
		D := d.D()
		c.X = nil
		for i := range d.N {
			c.X = append(c.X, d.X[i*D:(i+1)*D]...)
			c.X = append(c.X, float64(i%2))
		}
		return &c
	}
	m, err := Config{}.Fit(mixed(with))
	if err != nil {
		t.Fatal(err)
	}
	if w := m.Warnings(); len(w) != 1 || !strings.Contains(w[0], `"x1"`) {
		t.Errorf("mixed: warnings %q, want one naming x1", w)
	}
	ref, err := Config{}.Fit(mixed(without))
	if err != nil {
		t.Fatal(err)
	}
	got, want := m.LogProba(nil, mixed(test)), ref.LogProba(nil, mixed(testWithout))
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-14*math.Max(1, math.Abs(want[i])) {
			t.Errorf("mixed: LogProba[%d] = %v, want %v", i, got[i], want[i])
		}
	}
}
