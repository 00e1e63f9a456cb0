package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompareTune runs compare --tune on iris: the chosen values of every
// model's regularisation appear per size in the table, index.html and
// curves.csv, m* of the untuned run beside the tuned one, the plot draws
// the untuned curves beside the tuned ones, and the report is the same
// byte for byte with 1 and 2 jobs.
func TestCompareTune(t *testing.T) {
	dir := t.TempDir()
	run := func(jobs string) (string, string) {
		out := filepath.Join(dir, "r"+jobs)
		stdout := mustRun(t, "compare", "--data", "iris", "--models", "nb,logistic,lda", "--sizes", "20,50", "--splits", "3",
			"--tune", "--tune-folds", "4", "--jobs", jobs, "--out", out)
		return stdout, out
	}
	stdout, out := run("1")
	for _, want := range []string{"m* untuned nb/logistic", "m* untuned lda/logistic",
		"iris     logistic  20  l2", "iris     lda       50  shrinkage", "iris     nb        50  var-smoothing"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the table lacks %q:\n%s", want, stdout)
		}
	}
	read := func(dir, name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	curves := read(out, "curves.csv")
	if !strings.HasPrefix(curves, "dataset,model,m,splits,mean_error,std_error,fallbacks,warnings,tuned,tuned_median,tuned_min,tuned_max,tuned_defaults\n") ||
		!strings.Contains(curves, "\niris,logistic,50,3,") || strings.Count(curves, ",l2,") != 2 || strings.Count(curves, ",shrinkage,") != 2 {
		t.Errorf("curves.csv lacks the tuned columns:\n%s", curves)
	}
	index := read(out, "index.html")
	for _, want := range []string{"Tuned settings", "<td>shrinkage</td>", "m* untuned", "tuned by 4-fold CV of log-loss"} {
		if !strings.Contains(index, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	svg := read(out, "iris.svg")
	for _, want := range []string{">nb, untuned<", ">logistic, untuned<", ">lda, untuned<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("iris.svg lacks the untuned curve %q", want)
		}
	}
	stdout2, out2 := run("2")
	if stdout2 != stdout || read(out2, "curves.csv") != curves || read(out2, "summary.txt") != read(out, "summary.txt") {
		t.Error("the report differs between 1 and 2 jobs")
	}
}

// TestCompareTuneMisuse: a tuned flag set by hand, too few folds, an
// unknown metric and --tune-folds without --tune are misuse.
func TestCompareTuneMisuse(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--l2", "0.1"}, "--l2: --tune chooses it for --models logistic"},
		{[]string{"--tune-folds", "1"}, "--tune-folds 1: want at least 2"},
		{[]string{"--tune-metric", "rmse"}, `--tune-metric: cv: no metric "rmse"`},
		{[]string{"--tune=false", "--tune-folds", "3"}, "--tune-folds applies with --tune"},
	} {
		args := append([]string{"compare", "--data", "iris", "--sizes", "20", "--splits", "1", "--tune", "--out", out}, tc.args...)
		r := runCLI(t, "", args...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, r.code, r.stderr, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: a report was written", tc.args)
		}
	}
}
