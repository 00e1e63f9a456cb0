package gda

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/internal/testsupport/refdata"
)

type refCase struct {
	Kind        string          `json:"kind"`
	Drop        []string        `json:"drop"`
	Config      json.RawMessage `json:"config"`
	Proba       []float64       `json:"proba"`
	ProbaExact  []float64       `json:"proba_exact"`
	ProbaErr    float64         `json:"proba_err"`
	Means       []float64       `json:"means"`
	Covariance  []float64       `json:"covariance"`
	Covariances [][]float64     `json:"covariances"`
	LogisticW   []float64       `json:"logistic_w"`
	LogisticW0  *float64        `json:"logistic_w0"`
	Transform   []float64       `json:"transform"`
	Components  int             `json:"components"`
	Explained   []float64       `json:"explained"`
}

type refConfig struct {
	Estimator     string             `json:"estimator"`
	Shrinkage     float64            `json:"shrinkage"`
	ShrinkageAuto bool               `json:"shrinkage_auto"`
	ClassPrior    map[string]float64 `json:"class_prior"`
}

func (r refConfig) config(t *testing.T) Config {
	c := Config{Shrinkage: r.Shrinkage, ShrinkageAuto: r.ShrinkageAuto, ClassPrior: r.ClassPrior}
	if r.Estimator != "" {
		var err error
		if c.Estimator, err = ParseCovarianceEstimator(r.Estimator); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// Tolerances against scikit-learn.
const (
	probaTol = 1e-8  // absolute, on probabilities, plus scikit-learn's own error
	exactTol = 1e-11 // absolute, on probabilities from scikit-learn's parameters
	paramTol = 1e-10 // relative to the largest entry, on parameters
)

// TestReference compares probabilities, parameters, the logistic form and
// the discriminant coordinates with scikit-learn (testdata/gen_reference.py).
func TestReference(t *testing.T) {
	var ref map[string]struct {
		Classes []string  `json:"classes"`
		Cases   []refCase `json:"cases"`
	}
	refdata.ReadJSON(t, "testdata/reference.json", &ref)
	for name, r := range ref {
		for _, c := range r.Cases {
			t.Run(name+"/"+c.Kind+"/"+string(c.Config), func(t *testing.T) {
				var rc refConfig
				if err := json.Unmarshal(c.Config, &rc); err != nil {
					t.Fatal(err)
				}
				cfg := rc.config(t)
				d := bundled.Load(t, name, dataio.Options{Ignore: c.Drop})
				if c.Kind == KindQDA {
					m, err := QDAConfig(cfg).Fit(d)
					if err != nil {
						t.Fatal(err)
					}
					near(t, "proba", proba(m, d), c.Proba, probaTol)
					if c.Means != nil {
						nearRel(t, "means", flatten(m.Means()), c.Means, paramTol)
						for k, cov := range m.Covariances() {
							nearRel(t, "covariance", cov, c.Covariances[k], paramTol)
						}
					}
					return
				}
				m, err := LDAConfig(cfg).Fit(d)
				if err != nil {
					t.Fatal(err)
				}
				p := proba(m, d)
				near(t, "proba", p, c.Proba, probaTol+c.ProbaErr)
				if c.ProbaExact != nil {
					near(t, "exact proba", p, c.ProbaExact, exactTol)
				}
				if c.Means != nil {
					nearRel(t, "means", flatten(m.Means()), c.Means, paramTol)
				}
				if c.Covariance != nil {
					nearRel(t, "covariance", m.Covariance(), c.Covariance, paramTol)
				}
				if c.LogisticW != nil {
					w, w0, _ := m.LogisticForm()
					nearRel(t, "logistic w", w, c.LogisticW, 1e-8)
					near(t, "logistic w0", []float64{w0}, []float64{*c.LogisticW0}, 1e-8*math.Max(1, math.Abs(*c.LogisticW0)))
				}
				if c.Transform != nil {
					checkTransform(t, m, d, c)
				}
			})
		}
	}
}

// checkTransform compares the discriminant coordinates with
// scikit-learn's up to the sign of each component.
func checkTransform(t *testing.T, m *LDA, d *data.Dataset, c refCase) {
	t.Helper()
	n := c.Components
	if m.Components() != n {
		t.Fatalf("Components() = %d, want %d", m.Components(), n)
	}
	got := m.Transform(nil, d, n)
	for a := range n {
		g, w := make([]float64, d.N), make([]float64, d.N)
		for i := range d.N {
			g[i], w[i] = got[i*n+a], c.Transform[i*n+a]
		}
		if g[0]*w[0] < 0 {
			for i := range g {
				g[i] = -g[i]
			}
		}
		nearRel(t, "transform", g, w, 1e-8)
	}
	nearRel(t, "explained variance ratio", m.ExplainedVarianceRatio(), c.Explained, 1e-10)
}
