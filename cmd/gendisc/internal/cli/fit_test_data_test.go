package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFitTestData checks that fit --test-data prints what eval prints of
// the model that fit writes, for a classifier (text and JSON), a
// regression, a language model and a tagger (with --spans), and writes
// the model file of fit without it, byte for byte.
func TestFitTestData(t *testing.T) {
	dir := t.TempDir()
	sentences, txt := filepath.Join(dir, "s.conll"), filepath.Join(dir, "s.txt")
	os.WriteFile(sentences, []byte("Paris B-LOC\nis O\nbig O\n\nAnn B-PER\nLee I-PER\nruns O\n\nRome B-LOC\nis O\nold O\n"), 0o644)
	os.WriteFile(txt, []byte(shakespeareText), 0o644)
	for _, tc := range []struct {
		name        string
		fit         []string // fit's flags but --out
		test        string
		reportFlags []string
	}{
		{"gaussian-nb", []string{"--data", "iris", "--model", "gaussian-nb"}, "iris", nil},
		{"logistic", []string{"--data", "pima_indians_diabetes", "--model", "logistic"}, "pima_indians_diabetes", []string{"--json"}},
		{"linear", slices.Concat([]string{"--model", "linear"}, wineAlcohol), "wine", nil},
		{"ngram", []string{"--data", txt, "--model", "ngram", "--order", "2"}, txt, nil},
		{"hmm", []string{"--data", sentences, "--model", "hmm", "--order", "1"}, sentences, []string{"--spans"}},
	} {
		plain, tested := filepath.Join(dir, "plain.json"), filepath.Join(dir, "tested.json")
		mustRun(t, slices.Concat([]string{"fit", "--out", plain}, tc.fit)...)
		want := mustRun(t, slices.Concat([]string{"eval", "--model", plain, "--data", tc.test}, tc.reportFlags)...)
		got := mustRun(t, slices.Concat([]string{"fit", "--out", tested, "--test-data", tc.test}, tc.fit, tc.reportFlags)...)
		if got != want {
			t.Errorf("%s: fit --test-data printed\n%s\neval\n%s", tc.name, got, want)
		}
		a, _ := os.ReadFile(plain)
		b, _ := os.ReadFile(tested)
		if !bytes.Equal(a, b) || len(a) == 0 {
			t.Errorf("%s: the model files of fit with and without --test-data differ", tc.name)
		}
		// Without --out, the same report and no model.
		if alone := mustRun(t, slices.Concat([]string{"fit", "--test-data", tc.test}, tc.fit, tc.reportFlags)...); alone != want {
			t.Errorf("%s: fit --test-data without --out printed\n%s\neval\n%s", tc.name, alone, want)
		}
	}
}

// TestFitTestDataRefused checks the misuses of --test-data (exit 2) and
// that a test file that cannot be read fails the command (exit 1) and
// leaves no model file.
func TestFitTestDataRefused(t *testing.T) {
	dir := t.TempDir()
	model, bad := filepath.Join(dir, "m.json"), filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("sepal_length,sepal_width,petal_length,petal_width,species\n1,2,x,4,setosa\n"), 0o644)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"fit", "--data", "iris", "--test-data", "iris", "--out", "-"}, 2, "give --out a file"},
		{[]string{"fit", "--data", "iris", "--out", model, "--json"}, 2, "--json and --spans are for the report of --test-data"},
		{[]string{"fit", "--data", "iris", "--out", model, "--test-data", bad}, 1, "bad.csv:1: column"},
		{[]string{"fit", "--data", "iris", "--model", "gmm", "--components", "2", "--out", model, "--test-data", "iris"}, 1, "does not classify"},
	} {
		r := runCLI(t, "", tc.args...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("gendisc %s: exit %d, stderr %q; want exit %d and %q", strings.Join(tc.args, " "), r.code, r.stderr, tc.code, tc.want)
		}
		if _, err := os.Stat(model); err == nil {
			t.Errorf("gendisc %s left a model file", strings.Join(tc.args, " "))
			os.Remove(model)
		}
	}
}
