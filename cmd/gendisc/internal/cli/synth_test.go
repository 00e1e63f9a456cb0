package cli

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSynthGolden runs sample, balance and impute on small inputs and
// compares their output with the files in testdata.
func TestSynthGolden(t *testing.T) {
	dir := t.TempDir()
	qda := filepath.Join(dir, "qda.json")
	mustRun(t, "fit", "--data", "iris", "--model", "qda", "--out", qda)
	golden(t, "sample_qda.csv", mustRun(t, "sample", "--model", qda, "-n", "6", "--seed", "3"))
	golden(t, "sample_qda_class.csv", mustRun(t, "sample", "--model", qda, "-n", "3", "--class", "Iris-virginica", "--seed", "3"))
	golden(t, "balance_nb.csv", mustRun(t, "balance", "--data", "testdata/balance_in.csv", "--kind", "gaussian-nb", "--seed", "2"))
	golden(t, "impute_qda.csv", mustRun(t, "impute", "--data", "testdata/impute_in.csv", "--model", qda))
	golden(t, "impute_qda_draws.csv", mustRun(t, "impute", "--data", "testdata/impute_in.csv", "--model", qda, "--draws", "2", "--seed", "4"))
	golden(t, "impute_mda.csv", mustRun(t, "impute", "--data", "testdata/impute_in.csv", "--kind", "mda", "--components-per-class", "1"))
}

// TestSampleKinds draws from a model of every generative kind: the
// header, the row count and the class column.
func TestSampleKinds(t *testing.T) {
	dir := t.TempDir()
	for _, kind := range []string{"gaussian-nb", "lda", "qda", "gmm", "mda"} {
		t.Run(kind, func(t *testing.T) {
			model := filepath.Join(dir, kind+".json")
			mustRun(t, "fit", "--data", "wine", "--model", kind, "--out", model)
			out := filepath.Join(dir, kind+".csv")
			mustRun(t, "sample", "--model", model, "-n", "50", "--out", out)
			f, err := os.Open(out)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rows, err := csv.NewReader(f).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			wantCols := 14
			if kind == "gmm" {
				wantCols = 13
			}
			if len(rows) != 51 || len(rows[0]) != wantCols || rows[0][0] != "alcohol" {
				t.Fatalf("%d rows of %d columns, header %v", len(rows), len(rows[0]), rows[0])
			}
			for _, r := range rows[1:] {
				if strings.Contains(r[4], ".") { // magnesium: integers in wine
					t.Fatalf("magnesium %q is not an integer", r[4])
				}
				if kind != "gmm" && !strings.HasPrefix(r[13], "class_") {
					t.Fatalf("class %q", r[13])
				}
			}
		})
	}
}

// TestSynthMisuse: wrong combinations of flags exit with status 2, data
// and model problems with 1, and leave no output file.
func TestSynthMisuse(t *testing.T) {
	dir := t.TempDir()
	logit := filepath.Join(dir, "logistic.json")
	mustRun(t, "fit", "--data", "iris", "--model", "logistic", "--out", logit)
	qda := filepath.Join(dir, "qda.json")
	mustRun(t, "fit", "--data", "iris", "--model", "qda", "--out", qda)
	out := filepath.Join(dir, "out.csv")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"sample", "--model", qda}, 2, "missing -n"},
		{[]string{"sample", "--model", qda, "-n", "-3"}, 2, "-n"},
		{[]string{"sample", "--model", qda, "-n", "3", "--class", "rose"}, 2, `"rose"`},
		{[]string{"sample", "--model", logit, "-n", "3"}, 1, "does not draw"},
		{[]string{"balance", "--data", "iris", "--kind", "logistic"}, 2, "does not draw"},
		{[]string{"balance", "--data", "iris", "--kind", "gmm"}, 2, "does not draw"},
		{[]string{"balance", "--data", "iris", "--kind", "qda", "--ratio", "0"}, 2, "--ratio"},
		{[]string{"balance", "--data", "iris", "--kind", "qda", "--shrinkage", "auto", "--restarts", "2"}, 2, "restarts"},
		{[]string{"impute", "--data", "iris"}, 2, "either"},
		{[]string{"impute", "--data", "iris", "--kind", "qda", "--model", qda}, 2, "either"},
		{[]string{"impute", "--data", "iris", "--model", qda, "--shrinkage", "auto"}, 2, "shrinkage"},
		{[]string{"impute", "--data", "iris", "--kind", "logistic"}, 2, "does not impute"},
		{[]string{"impute", "--data", "testdata/balance_in.csv", "--kind", "qda"}, 1, "balance_in.csv"},
		{[]string{"impute", "--data", "wine", "--model", qda}, 1, "wine"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := runCLI(t, "", append(tc.args, "--out", out)...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", r.code, r.stderr, tc.code, tc.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("an output file was written")
			}
		})
	}
}
