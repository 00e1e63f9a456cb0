package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/linear"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/mixture"
	"github.com/gendisc/gendisc/modelfile"
)

// TestInspectSettings: inspect shows every setting of the fit that the
// model file carries: the class prior (--prior-alpha, --class-prior), the
// shrinkage intensities chosen by --shrinkage auto, --binarize, --norm,
// the text settings, logistic regression's --class-weight and --impute,
// linear regression's --impute, and the EM settings of gmm and mda
// (--init, --restarts, --seed, --tol, --max-iter, --reg-covar and its
// mode).
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
		{"gmm", []string{"--data", "iris", "--model", "gmm", "--init", "random", "--restarts", "3", "--seed", "9", "--tol", "1e-4",
			"--max-iter", "50", "--reg-covar", "0.01", "--reg-covar-mode", "ridge"},
			[]string{"start: random (--init), the best of 3 runs (--restarts), seed 9 (--seed)\n" +
				"stop: when the log-likelihood per row changes by less than 0.0001 (--tol), or after 50 iterations (--max-iter)\n" +
				"covariance regularisation: Σ_k + r·I,  r = 0.01 (--reg-covar, --reg-covar-mode ridge)\n"},
			map[string]string{"settings": `{"init":"random","restarts":3,"tol":0.0001,"max_iter":50,"reg_covar":0.01,"reg_covar_mode":"ridge","seed":9}`}},
		{"gmm_default", []string{"--data", "iris", "--model", "gmm", "--tol", "0", "--max-iter", "20", "--reg-covar", "0"},
			[]string{"start: kmeans++ (--init), 1 run, seed 1 (--seed)\nstop: after 20 iterations (--max-iter; no --tol)\ncovariance regularisation: none\n"},
			map[string]string{"settings": `{"init":"kmeans++","restarts":1,"tol":0,"max_iter":20,"reg_covar":0,"reg_covar_mode":"floor","seed":1}`}},
		{"mda", []string{"--data", "iris", "--model", "mda", "--components-per-class", "2", "--restarts", "2", "--seed", "4", "--reg-covar", "0.001"},
			[]string{"Σ_ck)\n\nstart: kmeans++ (--init), the best of 2 runs (--restarts), seed 4 (--seed)\n" +
				"stop: when the log-likelihood per row changes by less than 0.001 (--tol), or after 100 iterations (--max-iter)\n" +
				"covariance regularisation: every eigenvalue of Σ_k at least r = 0.001 (--reg-covar, --reg-covar-mode floor)\n\nclass "},
			map[string]string{"settings": `{"init":"kmeans++","restarts":2,"tol":0.001,"max_iter":100,"reg_covar":0.001,"reg_covar_mode":"floor","seed":4}`}},
		{"linear", []string{"--data", "wine", "--target", "alcohol", "--model", "linear", "--impute", "mean", "--l2", "2"},
			[]string{"λ = 2\n\tmissing cells: the training mean of their design column (--impute mean), in the fit and at prediction\n"},
			map[string]string{"impute": "true", "l2": "2"}},
		{"linear_default", []string{"--data", "wine", "--target", "alcohol", "--model", "linear"},
			[]string{"\tmissing cells: refused, in the fit and at prediction\n"},
			map[string]string{"impute": "false"}},
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
	m, err := gda.LDAConfig{ShrinkageAuto: true, PriorAlpha: 2}.Fit(bundled.Load(t, "iris", dataio.Options{}))
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
	m, err := logistic.Config{}.Fit(bundled.Load(t, "iris", dataio.Options{}))
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

// strippedModel writes a model as files did before a setting was kept:
// its parameters with strip applied.
type strippedModel struct {
	modelfile.Persistent
	strip func(t *testing.T, params []byte) []byte
	t     *testing.T
}

func (m strippedModel) MarshalJSON() ([]byte, error) {
	b, err := m.Persistent.MarshalJSON()
	return m.strip(m.t, b), err
}

// mixtureSettings matches the EM settings in a gmm's parameters.
var mixtureSettings = regexp.MustCompile(`,"settings":\{[^{}]*\}`)

// TestOldModelFileSettings: gmm and mda model files written before the
// EM settings were kept, and linear ones written before the statistics
// (which hold --impute) were, still load and predict as before, and
// inspect says the settings are not recorded (null in --json).
func TestOldModelFileSettings(t *testing.T) {
	dir := t.TempDir()
	stripSettings := func(t *testing.T, b []byte) []byte {
		if mixtureSettings.FindIndex(b) == nil {
			t.Fatalf("no settings in %s", b)
		}
		return mixtureSettings.ReplaceAll(b, nil)
	}
	for _, tc := range []struct {
		name   string
		flags  []string
		decode func(*data.Schema, []byte) (modelfile.Persistent, error)
		strip  func(*testing.T, []byte) []byte
		key    string // the key inspect --json shows as null
		text   string
	}{
		{"gmm", []string{"--data", "iris", "--model", "gmm", "--restarts", "2", "--seed", "3"},
			func(s *data.Schema, b []byte) (modelfile.Persistent, error) { return mixture.UnmarshalGMM(s, b) }, stripSettings, "settings",
			"\n\tp(x) = Σ_k π_k N(x; μ_k, Σ_k)\n\nEM settings (--init, --restarts, --seed, --tol, --max-iter, --reg-covar, --reg-covar-mode): not recorded in this model file\nlog-likelihood "},
		{"mda", []string{"--data", "iris", "--model", "mda", "--components-per-class", "2", "--seed", "3"},
			func(s *data.Schema, b []byte) (modelfile.Persistent, error) { return mixture.UnmarshalMDA(s, b) }, stripSettings, "settings",
			"Σ_ck)\n\nEM settings (--init, --restarts, --seed, --tol, --max-iter, --reg-covar, --reg-covar-mode): not recorded in this model file\n\nclass "},
		{"linear", []string{"--data", "wine", "--target", "alcohol", "--model", "linear", "--impute", "mean"},
			func(s *data.Schema, b []byte) (modelfile.Persistent, error) { return linear.UnmarshalLinear(s, b) },
			func(t *testing.T, b []byte) []byte {
				var p map[string]json.RawMessage
				if err := json.Unmarshal(b, &p); err != nil || p["statistics"] == nil {
					t.Fatalf("no statistics in %s (%v)", b, err)
				}
				delete(p, "statistics")
				b, _ = json.Marshal(p)
				return b
			}, "impute",
			"\tmissing cells: the training mean of their design column at prediction; in the fit, refused unless --impute mean (not recorded in this model file)\n\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model, old := filepath.Join(dir, tc.name+".json"), filepath.Join(dir, tc.name+"-old.json")
			mustRun(t, append([]string{"fit", "--quiet", "--out", model}, tc.flags...)...)
			env, err := modelfile.Load(model)
			if err != nil {
				t.Fatal(err)
			}
			m, err := tc.decode(env.Schema, env.Params)
			if err != nil {
				t.Fatal(err)
			}
			if err := modelfile.Save(old, strippedModel{m, tc.strip, t}); err != nil {
				t.Fatal(err)
			}
			if a, b := mustRun(t, "predict", "--model", model, "--data", tc.flags[1]), mustRun(t, "predict", "--model", old, "--data", tc.flags[1]); a != b {
				t.Errorf("predictions of the old file differ")
			}
			if text := mustRun(t, "inspect", "--model", old); !strings.Contains(text, tc.text) {
				t.Errorf("inspect of an old file lacks %q:\n%s", tc.text, text)
			}
			var rep struct{ Parameters map[string]json.RawMessage }
			if err := json.Unmarshal([]byte(mustRun(t, "inspect", "--model", old, "--json")), &rep); err != nil {
				t.Fatal(err)
			}
			if got, ok := rep.Parameters[tc.key]; !ok || string(got) != "null" {
				t.Errorf("inspect --json of an old file: %s %s, want null", tc.key, got)
			}
		})
	}
}
