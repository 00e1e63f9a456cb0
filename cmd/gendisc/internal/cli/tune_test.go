package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/cv"
)

// TestTune: tune's JSON has every setting with its params, mean and se,
// and the best; the best is GridSearchCV's on pima with the same folds
// (l2 = 10, i.e. C = 0.1; cv/testdata/tune_reference.json); and the model
// written is the one fit writes for that setting.
func TestTune(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "best.json")
	r := runCLI(t, "", "tune", "--data", "pima_indians_diabetes", "--model", "logistic", "--grid", "l2=1e-3..1e3:7", "--json", "--out", out)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var got struct {
		Metric   string
		Settings []struct {
			Params   map[string]string
			Mean, SE map[string]any
		}
		Best struct{ Params map[string]string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("%v:\n%s", err, r.stdout)
	}
	if got.Metric != "log-loss" || len(got.Settings) != 7 || got.Settings[0].Params["l2"] != "0.001" || got.Settings[6].Params["l2"] != "1000" {
		t.Errorf("settings %+v", got.Settings)
	}
	for _, s := range got.Settings {
		if _, ok := s.Mean["log_loss"].(float64); !ok {
			t.Errorf("%v: no mean log_loss", s.Params)
		}
		if _, ok := s.SE["accuracy"].(float64); !ok {
			t.Errorf("%v: no se of the accuracy", s.Params)
		}
	}
	if got.Best.Params["l2"] != "10" {
		t.Errorf("best %v, want l2=10 (GridSearchCV's)", got.Best.Params)
	}
	fitted := mustRun(t, "fit", "--data", "pima_indians_diabetes", "--model", "logistic", "--l2", "10")
	if b, _ := os.ReadFile(out); string(b) != fitted {
		t.Error("tune's model differs from fit's of the best setting")
	}

	// The text table on standard error, the one-SE choice marked; the
	// model flags outside --grid hold in every setting.
	r = runCLI(t, "", "tune", "--data", "pima_indians_diabetes", "--model", "gaussian-nb", "--variance", "feature",
		"--grid", "var-smoothing=1e-6..1:7", "--metric", "brier", "--one-se", "--out", out)
	if r.code != 0 || r.stdout != "" {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	if len(lines) != 8 || !strings.HasPrefix(lines[0], "var-smoothing  brier (mean ± SE)") ||
		!strings.Contains(lines[1], "best") || !strings.HasPrefix(lines[5], "0.01 ") || !strings.HasSuffix(lines[5], "chosen (one SE)") {
		t.Errorf("table:\n%s", r.stderr)
	}
	fitted = mustRun(t, "fit", "--data", "pima_indians_diabetes", "--model", "gaussian-nb", "--variance", "feature", "--var-smoothing", "0.01")
	if b, _ := os.ReadFile(out); string(b) != fitted {
		t.Error("tune's model differs from fit's of the one-SE setting")
	}

	// A language model: perplexity by default, the figure of its report.
	r = runCLI(t, "", "tune", "--data", "sms_spam", "--model", "ngram", "--grid", "order=1,2", "--out", out)
	if lines := strings.Split(r.stderr, "\n"); r.code != 0 || !strings.HasPrefix(lines[0], "order          perplexity (mean ± SE)") || !strings.HasSuffix(lines[2], "best") {
		t.Errorf("ngram: exit %d\n%s", r.code, r.stderr)
	}

	// A kind with --seed shares it with the folds; random draws.
	r = runCLI(t, "", "tune", "--data", "iris", "--model", "logistic", "--solver", "sgd", "--epochs", "20", "--seed", "3",
		"--grid", "l2=1e-3..1e1", "--grid", "no-standardize=true,false", "--random", "3", "--metric", "error", "--json", "--out", out)
	if r.code != 0 || strings.Count(r.stdout, `"params"`) != 4 {
		t.Errorf("random search: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestTuneMisuse: the mistakes of a search are one-line usage errors,
// and no model file is written.
func TestTuneMisuse(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.json")
	base := []string{"tune", "--data", "iris", "--out", out}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--model", "logistic"}, "missing --grid"},
		{[]string{"--model", "logistic", "--grid", "l3=1,2"}, "--grid l3=1,2: --model logistic has no flag --l3 (did you mean --l2?)"},
		{[]string{"--model", "logistic", "--grid", "l2=1,-2"}, `setting l2=-2: l2 "-2": want a finite number ≥ 0`},
		{[]string{"--model", "logistic", "--grid", "l2="}, "--grid l2: an empty value"},
		{[]string{"--model", "logistic", "--grid", "l2"}, "--grid"},
		{[]string{"--model", "logistic", "--grid", "l2=1..10"}, "--grid l2: the range 1..10 has no number of values"},
		{[]string{"--model", "logistic", "--grid", "l2=1", "--metric", "rmse"}, `--metric: no metric "rmse" for a logistic model (metrics: log-loss, error, brier, auc)`},
		{[]string{"--model", "linear", "--grid", "l2=1", "--metric", "log-loss"}, `no metric "log-loss" for a linear model (metrics: rmse)`},
		{[]string{"--model", "logistic", "--l2", "3", "--grid", "l2=1"}, "--l2 is both given and searched"},
		{[]string{"--model", "logistic", "--grid", "l2=1", "--grid", "l2=2"}, "--grid searches --l2 twice"},
		{[]string{"--model", "logistic", "--grid", "l2=1", "--folds", "1"}, `--folds "1": want a number of folds of at least 2, or loo`},
		{[]string{"--model", "logistic", "--grid", "l2=1", "--folds", "3", "--folds-in", "f.csv"}, "--folds-in gives the folds: it does not go with --folds"},
		{[]string{"--model", "logistic", "--grid", "l2=1", "--folds", "loo", "--repeats", "2"}, "--folds loo has one fold per row"},
		{[]string{"--model", "logistic", "--grid", "l2=1", "--repeats", "2", "--folds-out", "f.csv"}, "--folds-out writes one assignment"},
		{[]string{"--model", "logistic", "--grid", "l2=1", "--folds-out", "-", "--json"}, "one of --json, --out - and --folds-out - can go to standard output"},
		{[]string{"--model", "logistic", "--grid", "var-smoothing=1"}, "--model logistic has no flag --var-smoothing"},
		{[]string{"--model", "logistc", "--grid", "l2=1"}, `unknown model kind "logistc" (did you mean logistic?)`},
		{[]string{"--model", "logistic", "--grid", "l2=1", "--variance", "feature"}, "it is a flag of --model"},
	} {
		r := runCLI(t, "", append(append([]string{}, base...), tc.args...)...)
		first, _, _ := strings.Cut(r.stderr, "\n")
		if r.code != 2 || !strings.Contains(first, tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and %q on the first line", strings.Join(tc.args, " "), r.code, r.stderr, tc.want)
		}
	}
	r := runCLI(t, "", "tune", "--data", "iris", "--model", "logistic", "--grid", "l2=1", "--json", "--out", "-")
	if r.code != 2 || !strings.Contains(r.stderr, "one of --json, --out - and --folds-out - can go to standard output") {
		t.Errorf("--json --out -: exit %d, %q", r.code, r.stderr)
	}
	// A failure of the data: exit 1, one line.
	r = runCLI(t, "", "tune", "--data", filepath.Join(dir, "none.csv"), "--model", "logistic", "--grid", "l2=1,2", "--out", out)
	if r.code != 1 || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("missing data: exit %d, %q", r.code, r.stderr)
	}
	assertFiles(t, dir)
}

// TestTuneWarnings: a warning of every setting (of the folds) is written
// once; a setting's own with the setting.
func TestTuneWarnings(t *testing.T) {
	var stderr bytes.Buffer
	trial := func(l2 string, w ...string) cv.Trial {
		return cv.Trial{Setting: cv.Setting{{Name: "l2", Value: l2}}, Result: &cv.Result{Warnings: w}}
	}
	warnTrials(&Env{Stderr: &stderr}, []cv.Trial{
		trial("0", "fold 1: 2 rows, fewer than the 3 classes", "fold 0: separable"),
		trial("1", "fold 1: 2 rows, fewer than the 3 classes"),
	})
	want := "gendisc: warning: fold 1: 2 rows, fewer than the 3 classes\ngendisc: warning: l2=0: fold 0: separable\n"
	if stderr.String() != want {
		t.Errorf("warnings %q, want %q", stderr.String(), want)
	}
}
