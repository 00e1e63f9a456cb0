package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/modelfile"
)

// TestInspectSettings: inspect shows every setting of the fit that the
// model file carries: the class prior (--prior-alpha, --class-prior), the
// shrinkage intensities chosen by --shrinkage auto, --binarize, --norm,
// the text settings, and logistic regression's --class-weight and
// --impute.
func TestInspectSettings(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		flags []string
		text  []string          // lines inspect must print
		json  map[string]string // parameters inspect --json must hold, as JSON
	}{
		{"lda_auto", []string{"--data", "iris", "--model", "lda", "--shrinkage", "auto", "--prior-alpha", "2"},
			[]string{"then pooled into the one Σ", "class prior: smoothed, π_k = (W_k + α)/(W + α·K),  α = 2", "shrinkage r_k",
				"Iris-setosa      0.333333   50      -9.55024  0.245651"},
			map[string]string{"prior_alpha": "2", "shrinkages": ldaShrinkages(t)}},
		{"qda_fixed", []string{"--data", "iris", "--model", "qda", "--shrinkage", "0.1",
			"--class-prior", "Iris-setosa=0.5,Iris-versicolor=0.25,Iris-virginica=0.25"},
			[]string{"shrinkage: 0.1: (1 − r)Σ_k + r·(tr Σ_k/p)·I", "class prior: fixed at the fit (--class-prior), not estimated"},
			map[string]string{"class_prior": `{"Iris-setosa":0.5,"Iris-versicolor":0.25,"Iris-virginica":0.25}`, "shrinkages": "[0.1,0.1,0.1]"}},
		{"gaussian_nb", []string{"--data", "iris", "--model", "gaussian-nb", "--prior-alpha", "3"},
			[]string{"class prior: smoothed, π_k = (W_k + α)/(W + α·K),  α = 3"}, map[string]string{"prior_alpha": "3"}},
		{"bernoulli_nb", []string{"--data", "iris", "--model", "bernoulli-nb", "--binarize", "3"},
			[]string{"binarize: a numeric x_t is present when x_t > 3", "class prior: maximum likelihood, π_k = W_k/W"},
			map[string]string{"binarize": "3", "prior_alpha": "0"}},
		{"complement_nb", []string{"--data", "iris", "--model", "complement-nb", "--norm"},
			[]string{"norm: true"}, map[string]string{"norm": "true"}},
		{"nb_text", []string{"--data", "sms_spam", "--model", "nb", "--ngrams", "2", "--stop-words", "english", "--min-df", "2", "--text-model", "bernoulli"},
			[]string{"text model: bernoulli", "text: 6149 words (2-grams, english stop words removed, min-df 2 documents)"},
			map[string]string{"text_model": `"bernoulli"`}},
		{"logistic", []string{"--data", "breast_cancer_wisconsin", "--model", "logistic", "--class-weight", "balanced", "--impute", "mean"},
			[]string{"v_i = W/(K·W_k) for a row of class k (--class-weight balanced", "missing cells: the training mean of their design column (--impute mean)"},
			map[string]string{"class_weight": `"balanced"`, "impute": "true"}},
		{"logistic_default", []string{"--data", "iris", "--model", "logistic"},
			[]string{"maximised: Σ_i log P(y_i | x_i) − (λ/2) Σ ‖w‖²", "missing cells: refused"},
			map[string]string{"class_weight": `""`, "impute": "false"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := filepath.Join(dir, tc.name+".json")
			mustRun(t, append([]string{"fit", "--quiet", "--out", model}, tc.flags...)...)
			text := mustRun(t, "inspect", "--model", model)
			for _, line := range tc.text {
				if !strings.Contains(text, line) {
					t.Errorf("inspect lacks %q:\n%s", line, text)
				}
			}
			var rep struct{ Parameters map[string]json.RawMessage }
			if err := json.Unmarshal([]byte(mustRun(t, "inspect", "--model", model, "--json")), &rep); err != nil {
				t.Fatal(err)
			}
			for key, want := range tc.json {
				var got bytes.Buffer
				json.Compact(&got, rep.Parameters[key])
				if got.String() != want {
					t.Errorf("inspect --json: %s = %s, want %s", key, &got, want)
				}
			}
		})
	}
	// LDA has one covariance matrix: no "per class" shrinkage wording that
	// suggests one per class.
	if text := mustRun(t, "inspect", "--model", filepath.Join(dir, "lda_auto.json")); strings.Contains(text, "per class") {
		t.Errorf("LDA inspect speaks of per-class covariances:\n%s", text)
	}
}

// ldaShrinkages returns, as JSON, the Ledoit–Wolf intensities of the
// classes of iris that the library's LDA applies.
func ldaShrinkages(t *testing.T) string {
	m, err := gda.LDAConfig{ShrinkageAuto: true, PriorAlpha: 2}.Fit(bundled.Load(t, "iris", data.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(modelfile.Floats(m.Shrinkages()))
	return string(b)
}

// oldLogistic writes a logistic model as files did before the class
// weights were kept.
type oldLogistic struct{ *logistic.Model }

func (m oldLogistic) MarshalJSON() ([]byte, error) {
	b, err := m.Model.MarshalJSON()
	return bytes.Replace(b, []byte(`,"class_weight":""`), nil, 1), err
}

// TestLogisticOldModelFile: a logistic model file written before the
// class weights were kept still loads, predicts as before, and inspect
// says the class weights are not recorded.
func TestLogisticOldModelFile(t *testing.T) {
	dir := t.TempDir()
	m, err := logistic.Config{}.Fit(bundled.Load(t, "iris", data.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	model, old := filepath.Join(dir, "new.json"), filepath.Join(dir, "old.json")
	if err := modelfile.Save(model, m); err != nil {
		t.Fatal(err)
	}
	if err := modelfile.Save(old, oldLogistic{m}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	if ob, _ := os.ReadFile(old); !strings.Contains(string(b), `"class_weight": ""`) || strings.Contains(string(ob), "class_weight") {
		t.Fatalf("model files with and without the class weight:\n%s\n%s", b, ob)
	}
	if a, b := mustRun(t, "predict", "--model", model, "--data", "iris"), mustRun(t, "predict", "--model", old, "--data", "iris"); a != b {
		t.Errorf("predictions of the old file differ")
	}
	if text := mustRun(t, "inspect", "--model", old); !strings.Contains(text, "(not recorded in this model file)") {
		t.Errorf("inspect of an old file:\n%s", text)
	}
	var rep struct{ Parameters map[string]json.RawMessage }
	if err := json.Unmarshal([]byte(mustRun(t, "inspect", "--model", old, "--json")), &rep); err != nil {
		t.Fatal(err)
	}
	if got := string(rep.Parameters["class_weight"]); got != "null" {
		t.Errorf("inspect --json of an old file: class_weight %s, want null", got)
	}
	s := m.Schema()
	raw, _ := m.MarshalJSON()
	if _, err := logistic.UnmarshalLogistic(s, bytes.Replace(raw, []byte(`"class_weight":""`), []byte(`"class_weight":"heavy"`), 1)); err == nil ||
		!strings.Contains(err.Error(), `unknown class weight "heavy"`) {
		t.Errorf("bad class weight: error %v", err)
	}
}
