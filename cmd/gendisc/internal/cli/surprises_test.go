package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// TestSmallSurprises checks the command lines of issue 27's smaller items:
// each gives one line naming the mistake and the way out, with the exit
// status of a misuse.
func TestSmallSurprises(t *testing.T) {
	dir := t.TempDir()
	spam := writeTestFile(t, dir, "spam.csv", "text,class\nwin cash now,spam\nlunch at noon,ham\nfree cash prize,spam\nsee you at lunch,ham\n")
	one, two := filepath.Join(dir, "one.json"), filepath.Join(dir, "two.json")
	mustRun(t, "fit", "--data", spam, "--model", "nb", "--out", one)
	mustRun(t, "fit", "--data", spam, "--model", "nb", "--ngrams", "1-2", "--out", two)
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string // its first line
	}{
		{[]string{"--data", "iris", "fit"}, 2, "gendisc: flags go after the command: gendisc fit --data iris"},
		{[]string{"--quiet", "--data", "iris", "eval", "--model", "m.json"}, 2, "gendisc: flags go after the command: gendisc eval --quiet --data iris --model m.json"},
		{[]string{"--data", "iris"}, 2, "gendisc: --data is a flag: the command comes first (gendisc COMMAND [flags])"},
		{[]string{"fit", "--data", "iris", "--model", "gausian-nb"}, 2, `gendisc fit: unknown model kind "gausian-nb" (did you mean gaussian-nb?)`},
		{[]string{"predict", "--model", "nb", "--data", "iris"}, 2,
			"gendisc predict: nb: no such file; nb is a model kind, and gendisc fit --model nb --data F --out nb.json makes a model file of it"},
		{[]string{"fit", "--data", "iris", "--model", "nb", "--model", "qda"}, 2, "gendisc fit: --model given twice: it takes one value"},
		{[]string{"predict", "--model", one, "--data=iris", "--data", "wine"}, 2, "gendisc predict: --data given twice: it takes one value"},
		{[]string{"merge", one, two, "--out", filepath.Join(dir, "m.json")}, 1,
			"gendisc: " + two + ": cannot be merged with " + one + `: naivebayes: cannot merge the statistics of nb into nb: other settings: text.ngrams {"max":0,"min":0} and {"max":2,"min":1}`},
	} {
		r := runCLI(t, "", tc.args...)
		first, _, _ := strings.Cut(r.stderr, "\n")
		if r.code != tc.code || first != tc.stderr || r.stdout != "" {
			t.Errorf("gendisc %s: exit %d, stdout %q, stderr %q; want exit %d and the first line %q",
				strings.Join(tc.args, " "), r.code, r.stdout, r.stderr, tc.code, tc.stderr)
		}
	}
	// List flags gather their values: repeating them is no mistake.
	mustRun(t, "fit", "--data", "iris", "--ignore", "sepallength", "--ignore", "sepalwidth", "--out", filepath.Join(dir, "two-features.json"))
	if out := mustRun(t, "help", "help"); !strings.HasPrefix(out, "usage: gendisc help [COMMAND]\n") {
		t.Errorf("gendisc help help: %q", out)
	}
}

// TestEvalUnseenClass: a test row of a class the model was not trained on
// counts as an error, with a warning naming the class; the other figures
// are those of the other rows.
func TestEvalUnseenClass(t *testing.T) {
	dir := t.TempDir()
	iris := mustRun(t, "datasets", "export", "iris", "--out", "-")
	var two []string
	for _, line := range strings.SplitAfter(iris, "\n") {
		if !strings.HasSuffix(line, "Iris-virginica\n") {
			two = append(two, line)
		}
	}
	train := writeTestFile(t, dir, "two.csv", strings.Join(two, ""))
	model := filepath.Join(dir, "two.json")
	mustRun(t, "fit", "--data", train, "--model", "gaussian-nb", "--out", model)
	r := runCLI(t, "", "eval", "--model", model, "--data", "iris")
	want := "gendisc: warning: iris: 50 rows of classes the model has not seen, Iris-virginica (50): counted as errors in the accuracy and error, left out of the other figures and the row count\n"
	// Setosa and versicolor are told apart without error: 100 of the 150
	// rows are right.
	if r.code != 0 || r.stderr != want || !strings.HasPrefix(r.stdout, "rows      100\naccuracy  0.6667\nerror     0.3333\n") {
		t.Errorf("eval with a class unseen in training: exit %d, stderr %q, stdout:\n%s", r.code, r.stderr, r.stdout)
	}
	// A category the model has not seen stays a missing cell, as without
	// unseen classes: only the classes are extended.
	votes := filepath.Join(dir, "votes.json")
	mustRun(t, "fit", "--data", "house_votes84", "--model", "categorical-nb", "--out", votes)
	rows := strings.SplitAfter(mustRun(t, "datasets", "export", "house_votes84", "--out", "-"), "\n")
	maybe := writeTestFile(t, dir, "maybe.csv", rows[0]+strings.Replace(rows[1], ",y,", ",maybe,", 1)+rows[2]+strings.Replace(rows[3], "democrat", "green", 1))
	blank := writeTestFile(t, dir, "blank.csv", rows[0]+strings.Replace(rows[1], ",y,", ",,", 1)+rows[2])
	r = runCLI(t, "", "eval", "--model", votes, "--data", maybe, "--json")
	want = "gendisc: warning: " + maybe + `: column "water-project-cost-sharing": 1 value is not a level of the model (maybe; the model has n, y): treated as missing (--unseen error refuses them)` + "\n" +
		"gendisc: warning: " + maybe + ": 1 row of classes the model has not seen, green (1): counted as errors in the accuracy and error, left out of the other figures and the row count\n"
	if withBlank := mustRun(t, "eval", "--model", votes, "--data", blank, "--json"); r.code != 0 || r.stderr != want || !strings.Contains(r.stdout, `"accuracy": 0.6666666666666666,`) ||
		r.stdout[strings.Index(r.stdout, `"log_loss"`):] != withBlank[strings.Index(withBlank, `"log_loss"`):] {
		t.Errorf("eval with an unseen category and an unseen class: exit %d, stderr %q, stdout\n%s\nwant the figures of\n%s", r.code, r.stderr, r.stdout, withBlank)
	}
	virginica := writeTestFile(t, dir, "virginica.csv", strings.Join(append([]string{two[0]}, strings.SplitAfter(iris, "\n")[101:151]...), ""))
	r = runCLI(t, "", "eval", "--model", model, "--data", virginica)
	if want := virginica + ": no row of a class the model knows: classes Iris-virginica (50) are not among the model's (Iris-setosa, Iris-versicolor)\n"; r.code != 1 || r.stderr != "gendisc: "+want {
		t.Errorf("eval on classes the model has none of: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestCompletionPowerShell checks the PowerShell script (pwsh cannot run
// here): it registers a native completer for gendisc, with every command,
// kind and bundled data set.
func TestCompletionPowerShell(t *testing.T) {
	out := mustRun(t, "completion", "powershell")
	for _, want := range []string{
		"Register-ArgumentCompleter -Native -CommandName gendisc -ScriptBlock {",
		"$gendiscKinds = @('bernoulli-nb', ",
		"'iris'",
		"'tinyshakespeare'",
		"\t'fit' = @{ Flags = @('--all-pairs', '--alpha', ",
		"[System.Management.Automation.CompletionResult]::new(",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("completion powershell lacks %q", want)
		}
	}
	for _, c := range commands {
		if !strings.Contains(out, "\t'"+c.Name+"' = @{ Flags = @(") {
			t.Errorf("completion powershell: no entry for %s", c.Name)
		}
	}
	if strings.Count(out, "{") != strings.Count(out, "}") || strings.Count(out, "(") != strings.Count(out, ")") {
		t.Error("completion powershell: unbalanced braces or parentheses")
	}
}

// TestBuildVersion: the version shows the VCS stamp that go build records
// in a clone, and a build without it says so.
func TestBuildVersion(t *testing.T) {
	bi := &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261128065617-b3ba093bf0f6"}, Settings: []debug.BuildSetting{
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "b3ba093bf0f68f445497c2acbe26a7b45d151d28"},
		{Key: "vcs.time", Value: "2026-11-28T06:56:17Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	if got, want := buildVersion(bi), "v0.0.0-20261128065617-b3ba093bf0f6 (commit b3ba093bf0f6, 2026-11-28T06:56:17Z, modified)"; got != want {
		t.Errorf("stamped: %q, want %q", got, want)
	}
	if got := buildVersion(&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}); got != "(devel)" {
		t.Errorf("not stamped: %q", got)
	}
	if out := mustRun(t, "version"); !strings.Contains(out, "(commit ") && !strings.Contains(out, noStamp) {
		t.Errorf("gendisc version: %q, want the commit or why there is none", out)
	}
}

// TestModelNotToTerminal: fit, cluster, merge and update refuse to write a model
// file to a terminal, before any work, with a hint; a pipe or a file
// gets it.
func TestModelNotToTerminal(t *testing.T) {
	model := fitIris(t)
	for _, args := range [][]string{
		{"fit", "--data", "iris"},
		{"fit", "--data", "iris", "--out", "-"},
		{"merge", "--allow-duplicates", model, model},
		{"update", "--model", model, "--data", "iris"},
		{"cluster", "--data", "iris", "--target", "class", "--components", "2"},
	} {
		var stdout, stderr bytes.Buffer
		env := &Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, stdoutTerminal: true}
		code := Main(context.Background(), env, args)
		want := "gendisc " + args[0] + ": a model file is not written to a terminal: give --out M.json, or redirect standard output (> M.json)\n"
		if first, _, _ := strings.Cut(stderr.String(), "\n"); code != 2 || first+"\n" != want || stdout.Len() > 0 {
			t.Errorf("gendisc %s on a terminal: exit %d, stdout %d bytes, stderr %q; want exit 2 and %q", strings.Join(args, " "), code, stdout.Len(), stderr.String(), want)
		}
		if out := mustRun(t, args...); !strings.HasPrefix(out, "{") {
			t.Errorf("gendisc %s into a pipe: %.40q, want the model's JSON", strings.Join(args, " "), out)
		}
	}
}

// TestModelOrKind: impute and balance take a fitted model file with
// --model, as every command but fit, or fit one with --kind; a kind given
// to --model, or one whose models cannot do the work, is refused before
// any data is read, with the way out.
func TestModelOrKind(t *testing.T) {
	dir := t.TempDir()
	qda := filepath.Join(dir, "qda.json")
	mustRun(t, "fit", "--data", "iris", "--model", "qda", "--out", qda)
	// A fitted model and the same kind fitted on the same data balance
	// alike.
	if a, b := mustRun(t, "balance", "--data", "iris", "--model", qda, "--ratio", "1.2", "--seed", "5"), mustRun(t, "balance", "--data", "iris", "--kind", "qda", "--ratio", "1.2", "--seed", "5"); a != b || strings.Count(a, "\n") != 1+180 {
		t.Errorf("balance --model qda.json and --kind qda: %d and %d lines, equal %v; want 181", strings.Count(a, "\n"), strings.Count(b, "\n"), a == b)
	}
	imputers := "bernoulli-nb, categorical-nb, complement-nb, gaussian-nb, gmm, lda, mda, multinomial-nb, nb, qda"
	for _, tc := range []struct {
		args []string
		want string // the first line of stderr, exit 2
	}{
		{[]string{"impute", "--data", "iris", "--model", "qda"},
			"gendisc impute: --model qda: no such file; --model takes a fitted model file, --kind qda fits a qda model on the data first"},
		{[]string{"balance", "--data", "iris", "--model", "gaussian-nb"},
			"gendisc balance: --model gaussian-nb: no such file; --model takes a fitted model file, --kind gaussian-nb fits a gaussian-nb model on the data first"},
		{[]string{"impute", "--data", "iris", "--kind", "logistic"},
			"gendisc impute: --kind logistic: a logistic model does not impute missing values (kinds that do: " + imputers + ")"},
		{[]string{"impute", "--data", "wine", "--kind", "linear", "--target", "alcohol"},
			"gendisc impute: --kind linear: a linear model does not impute missing values (kinds that do: " + imputers + ")"},
		{[]string{"balance", "--data", "iris", "--kind", "gmm"},
			"gendisc balance: --kind gmm: a gmm model does not draw rows of a class (kinds that do: bernoulli-nb, categorical-nb, complement-nb, gaussian-nb, lda, mda, multinomial-nb, nb, qda)"},
		{[]string{"impute", "--data", "iris", "--kind", "gausian-nb"}, `gendisc impute: --kind: unknown model kind "gausian-nb" (did you mean gaussian-nb?)`},
		{[]string{"balance", "--data", "iris"}, "gendisc balance: give either --model M.json, a fitted model, or --kind KIND, to fit one on the data first"},
		{[]string{"balance", "--data", "iris", "--model", qda, "--shrinkage", "0.1"},
			"gendisc balance: --shrinkage is a flag of a model kind: it goes with --kind KIND, not with --model M.json"},
	} {
		r := runCLI(t, "", tc.args...)
		if first, _, _ := strings.Cut(r.stderr, "\n"); r.code != 2 || first != tc.want || strings.Contains(r.stderr, "gendisc impute`") {
			t.Errorf("gendisc %s: exit %d, stderr %q; want exit 2 and %q", strings.Join(tc.args, " "), r.code, r.stderr, tc.want)
		}
	}
	logistic := filepath.Join(dir, "logistic.json")
	mustRun(t, "fit", "--data", "iris", "--model", "logistic", "--out", logistic)
	r := runCLI(t, "", "balance", "--data", "iris", "--model", logistic)
	if want := "gendisc: " + logistic + ": a logistic model does not draw rows of a class (kinds that do: "; r.code != 1 || !strings.HasPrefix(r.stderr, want) {
		t.Errorf("balance --model logistic.json: exit %d, stderr %q; want exit 1 and %q", r.code, r.stderr, want)
	}
}
