package naivebayes

import (
	"math"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/internal/testsupport/refdata"
	"github.com/gendisc/gendisc/text"
)

// discreteCase is one case of testdata/discrete_reference.json.gz (see
// gen_reference_discrete.py).
type discreteCase struct {
	Name, Dataset, Model string
	Settings             struct {
		Alpha       float64
		Prior       any // nil, "uniform" or class → probability
		Norm        bool
		Binarize    float64
		NGrams      string
		MinDF       int    `json:"min_df"`
		MaxFeatures int    `json:"max_features"`
		StopWords   string `json:"stop_words"`
	}
	Classes   []string
	Rows      []int
	Predicted []int
	Proba     [][]float64
}

func loadDiscreteReference(t *testing.T) []discreteCase {
	var ref struct{ Cases []discreteCase }
	refdata.ReadJSON(t, "testdata/discrete_reference.json.gz", &ref)
	return ref.Cases
}

// referenceConfig is the Config of a reference case.
func (c *discreteCase) config(t *testing.T) Config {
	s := c.Settings
	fam := Mixed
	if c.Model != "gaussian" {
		var err error
		if fam, err = ParseFamily(c.Model); err != nil {
			t.Fatal(err)
		}
	}
	cfg := Config{Family: fam, Alpha: s.Alpha, Norm: s.Norm, Binarize: s.Binarize}
	switch p := s.Prior.(type) {
	case string:
		cfg.ClassPrior = map[string]float64{}
		for _, k := range c.Classes {
			cfg.ClassPrior[k] = 1 / float64(len(c.Classes))
		}
	case map[string]any:
		cfg.ClassPrior = map[string]float64{}
		for k, v := range p {
			cfg.ClassPrior[k] = v.(float64)
		}
	}
	if s.NGrams != "" {
		g, err := text.ParseNGrams(s.NGrams)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Text.NGrams = g
	}
	cfg.Text.MinDF.Count, cfg.Text.MaxFeatures, cfg.Text.StopWords = s.MinDF, s.MaxFeatures, s.StopWords
	return cfg
}

// TestDiscreteReference checks the probabilities of every variant against
// scikit-learn's on the complete rows of bundled data sets, to 1e-9.
func TestDiscreteReference(t *testing.T) {
	cache := map[string]*data.Dataset{}
	for _, c := range loadDiscreteReference(t) {
		t.Run(c.Name, func(t *testing.T) {
			opt := dataio.Options{}
			switch {
			case c.Dataset == "sms_spam":
				opt.Text = []string{"text"}
			case c.Dataset == "breast_cancer_wisconsin" && c.Model == "categorical-nb":
				opt.Categorical = []string{"Cl.thickness", "Cell.size", "Cell.shape", "Marg.adhesion", "Epith.c.size",
					"Bare.nuclei", "Bl.cromatin", "Normal.nucleoli", "Mitoses"}
			}
			key := c.Dataset + c.Model
			if c.Model != "categorical-nb" {
				key = c.Dataset
			}
			d := cache[key]
			if d == nil {
				d = bundled.Load(t, c.Dataset, opt)
				cache[key] = d
			}
			m, err := c.config(t).Fit(d.Subset(c.Rows))
			if err != nil {
				t.Fatal(err)
			}
			if got := m.Classes(); len(got) != len(c.Classes) {
				t.Fatalf("classes %q, want %q", got, c.Classes)
			}
			p := m.Proba(nil, d.Subset(c.Predicted))
			K := len(c.Classes)
			worst := 0.0
			for i, want := range c.Proba {
				for k, w := range want {
					worst = max(worst, math.Abs(p[i*K+k]-w))
				}
			}
			if worst > 1e-9 {
				t.Errorf("largest difference from scikit-learn's probabilities %g", worst)
			}
		})
	}
}
