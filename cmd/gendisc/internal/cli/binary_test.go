package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBinary builds the gendisc command and checks, through the real
// process, the exit statuses and the separation of stdout and stderr.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set but there is no go command to build the binary with")
		}
		t.Skip("no go command to build the binary with")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "gendisc")
	if out, err := exec.Command(goTool, "build", "-o", bin, "github.com/gendisc/gendisc/cmd/gendisc").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	model := filepath.Join(dir, "iris.json")
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("a,class\n1,x\n2\n"), 0o644)
	for _, tc := range []struct {
		args         []string
		stdin        string
		code         int
		stdout       string // prefix
		stderrPrefix string
	}{
		{args: []string{"fit", "--data", "iris", "--model", "gaussian-nb", "--out", model}},
		{args: []string{"eval", "--model", model, "--data", "iris"}, stdout: "rows      150\naccuracy  0.9600\n"},
		{args: []string{"predict", "--model", model, "--data", "-"}, stdin: "petalwidth,petallength,sepalwidth,sepallength\n0.2,1.4,3.5,5.1\n",
			stdout: "prediction,p_Iris-setosa,p_Iris-versicolor,p_Iris-virginica\nIris-setosa,1,"},
		{args: []string{"fit", "--data", bad, "--out", filepath.Join(dir, "bad.json")}, code: 1, stderrPrefix: "gendisc: " + bad + ":3:2: column \"class\": wrong number of fields"},
		{args: []string{"fit", "--data", "iris", "--no-such-flag"}, code: 2, stderrPrefix: "gendisc fit: flag provided but not defined"},
		{args: []string{"no-such-command"}, code: 2, stderrPrefix: "gendisc: unknown command"},
		{args: nil, code: 2, stderrPrefix: "gendisc fits generative classifiers"},
		{args: []string{"eval", "--help"}, stdout: "usage: gendisc eval "},
		{args: []string{"help"}, stdout: "gendisc fits generative classifiers"},
	} {
		cmd := exec.Command(bin, tc.args...)
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(tc.stdin)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tc.code || !strings.HasPrefix(stdout.String(), tc.stdout) || !strings.HasPrefix(stderr.String(), tc.stderrPrefix) {
			t.Errorf("gendisc %s: exit %d, stdout %q, stderr %q; want exit %d, stdout starting %q, stderr starting %q",
				strings.Join(tc.args, " "), code, stdout.String(), stderr.String(), tc.code, tc.stdout, tc.stderrPrefix)
		}
		if tc.code == 0 && tc.stderrPrefix == "" && stderr.Len() > 0 {
			t.Errorf("gendisc %s: unexpected stderr %q", strings.Join(tc.args, " "), stderr.String())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("failed fit left bad.json behind (stat: %v)", err)
	}
}
