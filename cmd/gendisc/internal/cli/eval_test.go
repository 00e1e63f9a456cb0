package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestEvalUndefined: on data without a negative row, TN + FP = 0, so the
// specificity and the type I error rate are 0/0; and a class never
// with no row has no recall. Eval prints them as undefined (null in
// JSON), never as 0.
func TestEvalUndefined(t *testing.T) {
	dir := t.TempDir()
	train, test := filepath.Join(dir, "train.csv"), filepath.Join(dir, "test.csv")
	os.WriteFile(train, []byte("x,y\n0.1,neg\n0.3,neg\n0.2,neg\n0.9,pos\n1.1,pos\n1.0,pos\n"), 0o644)
	// Rows of class pos only, two of them predicted neg: neg has no
	// support, so its recall is 0/0.
	os.WriteFile(test, []byte("x,y\n0.2,pos\n0.25,pos\n1.0,pos\n"), 0o644)
	model := filepath.Join(dir, "m.json")
	mustRun(t, "fit", "--data", train, "--model", "gaussian-nb", "--target", "y", "--out", model)
	golden(t, "eval_undefined.golden", mustRun(t, "eval", "--model", model, "--data", test))
	golden(t, "eval_undefined.json", mustRun(t, "eval", "--model", model, "--data", test, "--json"))
}
