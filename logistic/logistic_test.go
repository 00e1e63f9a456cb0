package logistic

import (
	"fmt"
	"math"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/internal/testsupport/refdata"
)

type refCase struct {
	Dataset      string      `json:"dataset"`
	Lambda       float64     `json:"lambda"`
	ClassWeight  string      `json:"class_weight"`
	SampleWeight string      `json:"sample_weight"`
	Standardize  bool        `json:"standardize"`
	Classes      []string    `json:"classes"`
	Coef         [][]float64 `json:"coef"`
	Intercept    []float64   `json:"intercept"`
	Objective    float64     `json:"objective"`
	Proba        [][]float64 `json:"proba"`
}

func (rc *refCase) name() string {
	return fmt.Sprintf("%s/l2=%g/%s%s/std=%v", rc.Dataset, rc.Lambda, rc.ClassWeight, rc.SampleWeight, rc.Standardize)
}

func readReference(t *testing.T) []refCase {
	t.Helper()
	var ref struct{ Cases []refCase }
	refdata.ReadJSON(t, "testdata/reference.json", &ref)
	return ref.Cases
}

// refData loads the data of a reference case with its sample weights.
func refData(t *testing.T, rc *refCase) *data.Dataset {
	d := bundled.Load(t, rc.Dataset, dataio.Options{})
	if rc.SampleWeight == "cycle3" {
		d.Weight = make([]float64, d.N)
		for i := range d.Weight {
			d.Weight[i] = 1 + float64(i%3)
		}
	}
	return d
}

func (rc *refCase) config() Config {
	return Config{L2: rc.Lambda, ClassWeight: ClassWeight(rc.ClassWeight), Tol: 1e-10, NoStandardize: !rc.Standardize}
}

// closeRel reports whether got is within tol of want, relative to scale.
func closeRel(got, want, tol, scale float64) bool {
	return math.Abs(got-want) <= tol*max(math.Abs(want), scale)
}

// TestReference compares every solver's fit with scikit-learn's: the
// objective, the standardised coefficients (centred over the classes for
// the softmax, which is how both parametrise it) and the probabilities.
func TestReference(t *testing.T) {
	for _, rc := range readReference(t) {
		d := refData(t, &rc)
		for _, solver := range []Solver{Newton, LBFGS} {
			t.Run(rc.name()+"/"+string(solver), func(t *testing.T) {
				cfg := rc.config()
				cfg.Solver = solver
				m, err := cfg.Fit(d)
				if err != nil {
					t.Fatal(err)
				}
				checkReference(t, m, d, &rc, 1e-5)
			})
		}
	}
}

func checkReference(t *testing.T, m *Model, d *data.Dataset, rc *refCase, tol float64) {
	t.Helper()
	diag := m.Diagnostics()
	if !diag.Converged {
		t.Errorf("not converged: %+v", diag)
	}
	if !closeRel(diag.Objective, rc.Objective, 1e-9, 0) {
		t.Errorf("objective %.15g, sklearn %.15g", diag.Objective, rc.Objective)
	}
	w, b := m.Coefficients()
	scale := 0.0
	for _, row := range rc.Coef {
		scale = max(scale, maxAbs(row))
	}
	for c := range rc.Coef {
		for j := range rc.Coef[c] {
			if !closeRel(w[c][j], rc.Coef[c][j], tol, scale) {
				t.Errorf("w[%d][%d] = %.10g, sklearn %.10g", c, j, w[c][j], rc.Coef[c][j])
			}
		}
		if !closeRel(b[c], rc.Intercept[c], tol, 1) {
			t.Errorf("b[%d] = %.10g, sklearn %.10g", c, b[c], rc.Intercept[c])
		}
	}
	K := len(rc.Classes)
	lp := m.LogProba(nil, d.Subset(firstRows(len(rc.Proba))))
	for i, row := range rc.Proba {
		for c, p := range row {
			if got := math.Exp(lp[i*K+c]); math.Abs(got-p) > tol {
				t.Errorf("row %d: P(%s) = %.10g, sklearn %.10g", i, rc.Classes[c], got, p)
			}
		}
	}
}

// firstRows returns 0, 1, …, n−1.
func firstRows(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}
