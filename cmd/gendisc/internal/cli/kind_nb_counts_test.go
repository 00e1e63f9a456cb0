package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNBNegativeCountPredict: predict, eval and score refuse a negative
// count for a multinomial or complement naive Bayes model as fit does,
// positioned at its line and column, with exit status 1 and no output
// file.
func TestNBNegativeCountPredict(t *testing.T) {
	dir := t.TempDir()
	train, neg := filepath.Join(dir, "c.csv"), filepath.Join(dir, "neg.csv")
	os.WriteFile(train, []byte("a,b,y\n1,2,x\n3,1,x\n5,6,z\n"), 0o644)
	os.WriteFile(neg, []byte("a,b,y\n1,2,x\n3,-1,x\n"), 0o644)
	for _, kind := range []string{"multinomial-nb", "complement-nb"} {
		model := filepath.Join(dir, kind+".json")
		mustRun(t, "fit", "--data", train, "--model", kind, "--out", model)
		for _, cmd := range []string{"predict", "eval", "score"} {
			out := filepath.Join(dir, cmd+".csv")
			args := []string{cmd, "--model", model, "--data", neg}
			if cmd != "eval" { // eval writes to standard output only
				args = append(args, "--out", out)
			}
			r := runCLI(t, "", args...)
			if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, `neg.csv:3:2: column "b": negative count: -1`) {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q", kind, cmd, r.code, r.stdout, r.stderr)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s %s left %s", kind, cmd, out)
			}
		}
	}
}
