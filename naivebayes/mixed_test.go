package naivebayes

import (
	"testing"

	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/datasets"
)

// TestMixedNumericIsGaussian: on numeric columns, mixed naive Bayes is
// Gaussian naive Bayes with the same smoothing and tying.
func TestMixedNumericIsGaussian(t *testing.T) {
	r, err := datasets.Open("breast_cancer_wisconsin")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	d, err := dataio.Read(r, "breast_cancer_wisconsin", dataio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []Variance{ClassFeatureVariance, FeatureVariance, ClassVariance, SharedVariance} {
		m, err := Config{Variance: v, VarSmoothing: 1e-6, PriorAlpha: 1}.Fit(d)
		if err != nil {
			t.Fatal(err)
		}
		g, err := GaussianConfig{Variance: v, VarSmoothing: 1e-6, PriorAlpha: 1}.Fit(d)
		if err != nil {
			t.Fatal(err)
		}
		p, q := m.LogProba(nil, d), g.LogProba(nil, d)
		for i := range p {
			if p[i] != q[i] {
				t.Fatalf("%v: log-probability %d is %v, Gaussian naive Bayes %v", v, i, p[i], q[i])
			}
		}
		u, err := UnmarshalModel(d.Schema, mustJSON(t, m))
		if err != nil {
			t.Fatal(err)
		}
		if u.Config().Variance != v {
			t.Errorf("variance tying %v after loading, want %v", u.Config().Variance, v)
		}
	}
}
