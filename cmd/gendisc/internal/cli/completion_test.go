package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCompletionBash loads the bash script in a bash session and
// completes command lines with it, as bash would on a tab.
func TestCompletionBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "gendisc.bash")
	os.WriteFile(script, []byte(mustRun(t, "completion", "bash")), 0o644)
	if out, err := exec.Command(bash, "-n", script).CombinedOutput(); err != nil {
		t.Fatalf("bash -n: %v\n%s", err, out)
	}
	os.WriteFile(filepath.Join(dir, "model.json"), nil, 0o644)
	for _, tc := range []struct {
		line string // the words before the cursor, the last one being completed
		want string // COMPREPLY, sorted, one a line
	}{
		{"gendisc fi", "fit"},
		{"gendisc s", "sample\nscore\nserve\nsplit"},
		{"gendisc --v", "--version"},
		{"gendisc fit --mo", "--model"},
		{"gendisc fit --model l", "lda\nlinear\nlogistic"},
		{"gendisc fit --model lda --covariance-e", "--covariance-estimator"},
		{"gendisc fit --data ir", "iris"},
		{"gendisc fit --data tin", "tinyshakespeare"},
		{"gendisc datasets export shakespeare_s", "shakespeare_speeches"},
		{"gendisc balance --kind gaussian", "gaussian-nb"},
		{"gendisc compare --models q", "qda"},
		{"gendisc predict --model mod", "model.json"},
		{"gendisc eval --data mo", "model.json"},
		{"gendisc inspect --j", "--json"},
		{"gendisc cv --model gaussian", "gaussian-nb"},
		{"gendisc cv --folds-", "--folds-in\n--folds-out"},
		{"gendisc cv --model lda --shr", "--shrinkage"},
		{"gendisc completion f", "fish"},
		{"gendisc datasets export wi", "wine"},
		{"gendisc help tr", "transform"},
		{"gendisc sample -", "--class\n--clip\n--format\n--help\n--max-words\n--model\n--out\n--prompt\n--prompt-tags\n--quiet\n--seed\n--temperature\n--verbose\n-n"},
	} {
		words := strings.Fields(tc.line)
		if strings.HasSuffix(tc.line, " ") {
			words = append(words, "")
		}
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = shQuote(w)
		}
		prog := "source " + shQuote(script) + "\nCOMP_WORDS=(" + strings.Join(quoted, " ") + ")\nCOMP_CWORD=" +
			strconv.Itoa(len(words)-1) + "\n_gendisc\nprintf '%s\\n' \"${COMPREPLY[@]}\" | LC_ALL=C sort\n"
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", prog)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", tc.line, err, out)
		}
		if got := strings.TrimSpace(string(out)); got != tc.want {
			t.Errorf("%s<TAB>: got\n%s\nwant\n%s", tc.line, got, tc.want)
		}
	}
}

// TestCompletionScripts checks the zsh and fish scripts with the shells'
// own syntax checks where the shells are installed, and the misuses.
func TestCompletionScripts(t *testing.T) {
	for _, tc := range []struct{ shell, flag string }{{"zsh", "-n"}, {"fish", "--no-execute"}} {
		script := mustRun(t, "completion", tc.shell)
		if !strings.Contains(script, "gendisc") {
			t.Errorf("%s script: %q", tc.shell, script)
		}
		path, err := exec.LookPath(tc.shell)
		if err != nil {
			t.Logf("no %s: its script is not checked", tc.shell)
			continue
		}
		file := filepath.Join(t.TempDir(), "gendisc."+tc.shell)
		os.WriteFile(file, []byte(script), 0o644)
		if out, err := exec.Command(path, tc.flag, file).CombinedOutput(); err != nil {
			t.Errorf("%s %s: %v\n%s", tc.shell, tc.flag, err, out)
		}
	}
	// zsh runs the bash function through bashcompinit, whose compgen runs
	// it under sh emulation and leaves the filtering to zsh's compadd.
	if zsh, err := exec.LookPath("zsh"); err == nil {
		file := filepath.Join(t.TempDir(), "gendisc.zsh")
		os.WriteFile(file, []byte(mustRun(t, "completion", "zsh")), 0o644)
		cmd := exec.Command(zsh, "-f", "-c", "source "+shQuote(file)+"; emulate sh; COMP_WORDS=(gendisc fit --model l); COMP_CWORD=3; _gendisc; print -l \"${COMPREPLY[@]}\"")
		cmd.Dir = t.TempDir()
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "\nlda\nlinear\nlogistic\n") {
			t.Errorf("zsh: %v\n%s", err, out)
		}
	}
	fish := mustRun(t, "completion", "fish")
	for _, want := range []string{
		"complete -c gendisc -n __fish_use_subcommand -a fit -d 'fit a model to a data set and save it'\n",
		"complete -c gendisc -n '__fish_seen_subcommand_from fit' -l model -x -a '" + strings.Join(kindNames(), " ") + "'",
		"complete -c gendisc -n '__fish_seen_subcommand_from sample' -s n -r -F -d 'draw N rows'\n",
	} {
		if !strings.Contains(fish, want) {
			t.Errorf("the fish script lacks %q", want)
		}
	}
	for _, args := range [][]string{{"completion"}, {"completion", "tcsh"}, {"completion", "bash", "zsh"}} {
		if r := runCLI(t, "", args...); r.code != exitUsage || !strings.HasPrefix(r.stderr, "gendisc completion: want one shell: bash, zsh, fish, powershell\n") {
			t.Errorf("gendisc %s: exit %d, stderr %q", strings.Join(args, " "), r.code, r.stderr)
		}
	}
}
