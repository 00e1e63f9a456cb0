package cli

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/modelfile"
)

// TestInspectLDALogisticForm checks the logistic form that inspect prints
// for two-class LDA: σ(wᵀx + w0) must be the model's posterior of the
// second class on every row.
func TestInspectLDALogisticForm(t *testing.T) {
	model := filepath.Join(t.TempDir(), "wdbc.json")
	mustRun(t, "fit", "--data", "breast_cancer_wdbc", "--model", "lda", "--covariance-estimator", "unbiased",
		"--shrinkage", "0.1", "--out", model)
	lf := inspectLogisticForm(t, model)
	if lf == nil {
		t.Fatal("no logistic form")
	}
	e, err := modelfile.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	m, err := gda.UnmarshalLDA(e.Schema, e.Params)
	if err != nil {
		t.Fatal(err)
	}
	if c := m.Config(); c.Estimator != gda.Unbiased || c.Shrinkage != 0.1 {
		t.Errorf("flags not applied: %+v", c)
	}
	d := bundled.LoadSchema(t, "breast_cancer_wdbc", m.Schema(), dataio.SchemaOptions{})
	lp := m.LogProba(nil, d)
	for i := range d.N {
		z := float64(lf.W0)
		for j, x := range d.Row(i) {
			z += lf.W[j] * x
		}
		if got, want := 1/(1+math.Exp(-z)), math.Exp(lp[2*i+1]); math.Abs(got-want) > 1e-12 {
			t.Fatalf("row %d: σ(wᵀx + w0) = %v, posterior %v", i, got, want)
		}
	}
	text := mustRun(t, "inspect", "--model", model)
	for _, s := range []string{"Linear discriminant analysis", "covariance estimator: unbiased; shrinkage: 0.1",
		"logistic form: P(y = malignant | x)", "linear (softmax) form", "printed by inspect --json"} {
		if !strings.Contains(text, s) {
			t.Errorf("inspect text lacks %q:\n%s", s, text)
		}
	}
}

func TestInspectQDA(t *testing.T) {
	model := filepath.Join(t.TempDir(), "sonar.json")
	mustRun(t, "fit", "--data", "sonar", "--model", "qda", "--shrinkage", "auto", "--out", model)
	text := mustRun(t, "inspect", "--model", model)
	for _, s := range []string{"Quadratic discriminant analysis", "shrinkage: auto", "f(x) = ", "log|Σ_1|"} {
		if !strings.Contains(text, s) {
			t.Errorf("inspect text lacks %q:\n%s", s, text)
		}
	}
	iris := filepath.Join(t.TempDir(), "iris.json")
	mustRun(t, "fit", "--data", "iris", "--model", "qda", "--out", iris)
	if text := mustRun(t, "inspect", "--model", iris); !strings.Contains(text, "covariance matrix Σ_k of class Iris-setosa") ||
		strings.Contains(text, "f(x)") {
		t.Errorf("inspect of three-class QDA:\n%s", text)
	}
}

func TestGDAErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"fit", "--data", "ionosphere", "--model", "qda", "--ignore", "V2", "--out", "-"}, 1,
			[]string{`"V1"`, `within class "good"`, "--shrinkage"}},
		{[]string{"fit", "--data", "ionosphere", "--model", "lda", "--out", "-"}, 1, []string{`"V2"`, "--shrinkage"}},
		{[]string{"fit", "--data", "iris", "--model", "lda", "--shrinkage", "1.5"}, 2, []string{"flag --shrinkage", "[0, 1] or auto"}},
		{[]string{"fit", "--data", "iris", "--model", "qda", "--covariance-estimator", "biased"}, 2, []string{"flag --covariance-estimator"}},
	} {
		r := runCLI(t, "", tc.args...)
		if r.code != tc.code {
			t.Errorf("%q: exit %d, want %d; stderr %s", tc.args, r.code, tc.code, r.stderr)
		}
		for _, s := range tc.want {
			if !strings.Contains(r.stderr, s) {
				t.Errorf("%q: stderr %q lacks %q", tc.args, r.stderr, s)
			}
		}
	}
}
