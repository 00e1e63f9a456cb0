package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/text"
)

// TestFitLogistic checks that the flags reach logistic.Config and that
// inspect reports the fit.
func TestFitLogistic(t *testing.T) {
	model := filepath.Join(t.TempDir(), "pima.json")
	mustRun(t, "fit", "--data", "pima_indians_diabetes", "--model", "logistic", "--l2", "0.5", "--solver", "lbfgs",
		"--class-weight", "balanced", "--tol", "1e-9", "--out", model)
	e, err := modelfile.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	m, err := logistic.UnmarshalLogistic(e.Schema, e.Params)
	if err != nil {
		t.Fatal(err)
	}
	if d := m.Diagnostics(); m.L2() != 0.5 || d.Solver != logistic.LBFGS || !d.Converged || d.GradNorm >= 1e-9 {
		t.Errorf("flags not applied: λ = %v, %+v", m.L2(), d)
	}
	var rep struct {
		Parameters struct {
			L2          float64
			Diagnostics logistic.Diagnostics
			Terms       []string
			Weights     []modelfile.Floats
		}
	}
	if err := json.Unmarshal([]byte(mustRun(t, "inspect", "--model", model, "--json")), &rep); err != nil {
		t.Fatal(err)
	}
	w, _ := m.Coefficients()
	if p := rep.Parameters; p.L2 != 0.5 || len(p.Terms) != 8 || len(p.Weights) != 1 || p.Weights[0][3] != w[0][3] {
		t.Errorf("inspect --json: %+v", p)
	}
	text := mustRun(t, "inspect", "--model", model)
	for _, s := range []string{"Logistic regression", "P(y = pos | x) = σ(wᵀz + b)", "λ = 0.5", "solver: lbfgs, converged", "glucose", "(intercept)"} {
		if !strings.Contains(text, s) {
			t.Errorf("inspect text lacks %q:\n%s", s, text)
		}
	}
}

// TestFitLogisticSeparable: --l2 0 on separable data fits with a warning
// that inspect shows.
func TestFitLogisticSeparable(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "sep.csv")
	if err := os.WriteFile(csv, []byte("a,b,y\n0,0,no\n1,0.5,no\n0.2,1,no\n2,2,yes\n3,2.5,yes\n2.2,3.1,yes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "m.json")
	mustRun(t, "fit", "--data", csv, "--model", "logistic", "--l2", "0", "--out", model)
	text := mustRun(t, "inspect", "--model", model)
	for _, s := range []string{"λ = 0", "NOT converged", "warning: the training data are linearly separable"} {
		if !strings.Contains(text, s) {
			t.Errorf("inspect text lacks %q:\n%s", s, text)
		}
	}
	for _, line := range strings.Split(mustRun(t, "predict", "--model", model, "--data", csv), "\n")[1:] {
		for _, f := range strings.Split(line, ",")[1:] {
			if strings.Contains(f, "NaN") || strings.Contains(f, "Inf") {
				t.Errorf("prediction %q", line)
			}
		}
	}
}

func TestFitLogisticMissing(t *testing.T) {
	r := runCLI(t, "", "fit", "--data", "breast_cancer_wisconsin", "--model", "logistic", "--out", filepath.Join(t.TempDir(), "m.json"))
	if r.code != 1 || !strings.Contains(r.stderr, "--impute mean") || !strings.Contains(r.stderr, "breast_cancer_wisconsin:") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	model := filepath.Join(t.TempDir(), "m.json")
	mustRun(t, "fit", "--data", "breast_cancer_wisconsin", "--model", "logistic", "--impute", "mean", "--out", model)
	out := mustRun(t, "eval", "--model", model, "--data", "breast_cancer_wisconsin", "--json")
	var ev struct{ Accuracy float64 }
	if err := json.Unmarshal([]byte(out), &ev); err != nil {
		t.Fatal(err)
	}
	if !(ev.Accuracy > 0.95) || math.IsNaN(ev.Accuracy) {
		t.Errorf("accuracy %v", ev.Accuracy)
	}
	if r := runCLI(t, "", "fit", "--data", "iris", "--model", "logistic", "--impute", "median"); r.code == 0 {
		t.Error("--impute median accepted")
	}
}

// TestFitLogisticText checks that the text flags reach
// logistic.Config.Text: the saved model is the library's fit with the
// same settings, bit for bit.
func TestFitLogisticText(t *testing.T) {
	model := filepath.Join(t.TempDir(), "sms.json")
	mustRun(t, "fit", "--data", "sms_spam", "--model", "logistic", "--ngrams", "1-2", "--min-df", "3",
		"--max-df", "0.5", "--max-features", "300", "--stop-words", "english", "--out", model)
	got, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	d := bundled.Load(t, "sms_spam", dataio.Options{})
	m, err := logistic.Config{Text: text.VectorizerConfig{NGrams: text.NGrams{Min: 1, Max: 2}, MinDF: text.DocFreq{Count: 3},
		MaxDF: text.DocFreq{Fraction: 0.5}, MaxFeatures: 300, StopWords: "english"}}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	if err := modelfile.Write(&want, m); err != nil {
		t.Fatal(err)
	}
	bigram := func(term string) bool { return strings.Contains(term, " ") }
	if terms := m.Terms(); len(terms) != 300 || !slices.ContainsFunc(terms, bigram) || slices.Contains(terms, "text:the") {
		t.Errorf("%d terms: %q", len(terms), terms)
	}
	if string(got) != want.String() {
		t.Error("fit with the text flags differs from logistic.Config with the same settings")
	}
}
