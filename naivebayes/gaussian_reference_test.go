package naivebayes

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/internal/testsupport/refdata"
)

// reference is testdata/gaussian_reference.json, written by
// testdata/gen_reference.py with scikit-learn's GaussianNB.
type reference struct {
	Cases []struct {
		Dataset            string             `json:"dataset"`
		VarSmoothing       float64            `json:"var_smoothing"`
		Priors             map[string]float64 `json:"priors"`
		Classes            []string           `json:"classes"`
		Epsilon            float64            `json:"epsilon"`
		Theta              [][]float64        `json:"theta"`
		Var                [][]float64        `json:"var"`
		ClassPrior         []float64          `json:"class_prior"`
		Proba              [][]float64        `json:"proba"`
		LogProba           [][]float64        `json:"log_proba"`
		JointLogLikelihood [][]float64        `json:"joint_log_likelihood"`
	} `json:"cases"`
}

func TestGaussianMatchesScikitLearn(t *testing.T) {
	var ref reference
	refdata.ReadJSON(t, "testdata/gaussian_reference.json", &ref)
	for _, c := range ref.Cases {
		t.Run(fmt.Sprintf("%s/%g/%v", c.Dataset, c.VarSmoothing, c.Priors != nil), func(t *testing.T) {
			d := bundled.Load(t, c.Dataset, dataio.Options{})
			if !slices.Equal(d.Schema.Classes(), c.Classes) {
				t.Fatalf("classes %q, scikit-learn's %q", d.Schema.Classes(), c.Classes)
			}
			m := fit(t, GaussianConfig{VarSmoothing: c.VarSmoothing, ClassPrior: c.Priors}, d)
			if !near(m.Epsilon(), c.Epsilon, 1e-12) {
				t.Errorf("epsilon %v, want %v", m.Epsilon(), c.Epsilon)
			}
			checkNear(t, "priors", m.Priors(), c.ClassPrior, 1e-15)
			checkNear(t, "means", slices.Concat(m.Means()...), slices.Concat(c.Theta...), 1e-13)
			checkNear(t, "variances", slices.Concat(m.Variances()...), slices.Concat(c.Var...), 1e-11)
			lp := m.LogProba(nil, d)
			checkNear(t, "log-probabilities", lp, slices.Concat(c.LogProba...), 1e-11)
			checkNear(t, "joint log-likelihoods", m.JointLogLikelihood(nil, d), slices.Concat(c.JointLogLikelihood...), 1e-11)
			for i, p := range slices.Concat(c.Proba...) {
				if got := math.Exp(lp[i]); math.Abs(got-p) > 1e-9 {
					t.Fatalf("probability %d = %v, want %v", i, got, p)
				}
			}
		})
	}
}
