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

// buildGendisc builds the gendisc command into a temporary directory and
// returns its path and the directory; it skips the test under -short or
// without a go command (unless CI is set).
func buildGendisc(t *testing.T) (bin, dir string) {
	t.Helper()
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
	dir = t.TempDir()
	bin = filepath.Join(dir, "gendisc")
	if out, err := exec.Command(goTool, "build", "-o", bin, "github.com/gendisc/gendisc/cmd/gendisc").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin, dir
}

// TestBinary builds the gendisc command and checks, through the real
// process, the exit statuses and the separation of stdout and stderr.
func TestBinary(t *testing.T) {
	bin, dir := buildGendisc(t)
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
	t.Run("misuse", func(t *testing.T) { testMisuse(t, bin, dir) })
}

// misuseCases are invalid flag values and combinations, one or more per
// command: each must exit with status 2 before reading any data, with a
// one-line message naming the flag (want: a part of it) and the usage,
// and write nothing to standard output or to --out. MODEL is a Gaussian
// naive Bayes model file, OUT a path that must stay absent.
var misuseCases = []struct {
	args []string
	want string
}{
	{[]string{"fit", "--data", "iris", "--model", "logistic", "--solver", "foo", "--out", "OUT"}, `--solver: unknown solver "foo" (want gd, sgd, newton or lbfgs)`},
	{[]string{"fit", "--data", "iris", "--model", "logistic", "--class-weight", "foo", "--out", "OUT"}, `--class-weight: unknown class weight "foo" (want balanced)`},
	{[]string{"fit", "--data", "iris", "--model", "logistic", "--impute", "foo", "--out", "OUT"}, `--impute: the only method is mean`},
	{[]string{"fit", "--data", "iris", "--model", "logistic", "--max-iter", "-1", "--out", "OUT"}, `--max-iter: want a whole number ≥ 0`},
	{[]string{"fit", "--data", "iris", "--model", "logistic", "--epochs", "-1", "--out", "OUT"}, `--epochs: want a whole number ≥ 0`},
	{[]string{"fit", "--data", "iris", "--model", "logistic", "--l2", "-1", "--out", "OUT"}, `--l2: want a finite number ≥ 0`},
	{[]string{"fit", "--data", "iris", "--model", "logistic", "--stop-words", "foo", "--out", "OUT"}, `--stop-words: text: unknown stop list "foo"`},
	{[]string{"fit", "--data", "iris", "--model", "logistic", "--max-features", "-1", "--out", "OUT"}, `--max-features: want a whole number ≥ 0`},
	{[]string{"fit", "--data", "iris", "--model", "logistic", "--ngrams", "3-1", "--out", "OUT"}, `--ngrams: text: n-gram range 3-1`},
	{[]string{"fit", "--data", "iris", "--model", "logistic", "--stream", "--out", "OUT"}, `--model logistic cannot be fitted with --stream`},
	{[]string{"fit", "--data", "iris", "--model", "gaussian-nb", "--class-prior", "Iris-setosa=0.5,Iris-versicolor=0.25,Iris-virginica=0.25", "--prior-alpha", "1", "--out", "OUT"}, `--class-prior: not with --prior-alpha`},
	{[]string{"fit", "--data", "iris", "--model", "gaussian-nb", "--prior-alpha", "1", "--class-prior", "Iris-setosa=1", "--out", "OUT"}, `--class-prior: not with --prior-alpha`},
	{[]string{"fit", "--data", "iris", "--model", "gaussian-nb", "--class-prior", "Iris-setosa=0.5,Iris-versicolor=0.2", "--out", "OUT"}, `--class-prior: the class priors sum to 0.7, not 1`},
	{[]string{"fit", "--data", "iris", "--model", "gaussian-nb", "--class-prior", "foo", "--out", "OUT"}, `--class-prior: "foo": want class=probability`},
	{[]string{"fit", "--data", "iris", "--model", "gaussian-nb", "--variance", "foo", "--out", "OUT"}, `--variance: naivebayes: unknown variance tying "foo"`},
	{[]string{"fit", "--data", "iris", "--model", "gaussian-nb", "--var-smoothing", "-1", "--out", "OUT"}, `--var-smoothing: want a finite number ≥ 0`},
	{[]string{"fit", "--data", "iris", "--model", "nb", "--text-model", "foo", "--out", "OUT"}, `--text-model: naivebayes: unknown text model "foo"`},
	{[]string{"fit", "--data", "iris", "--model", "multinomial-nb", "--alpha", "-1", "--out", "OUT"}, `--alpha: want a finite number ≥ 0`},
	{[]string{"fit", "--data", "iris", "--model", "bernoulli-nb", "--binarize", "nan", "--out", "OUT"}, `--binarize: want a finite number`},
	{[]string{"fit", "--data", "iris", "--model", "lda", "--covariance-estimator", "foo", "--out", "OUT"}, `--covariance-estimator: gda: unknown covariance estimator "foo"`},
	{[]string{"fit", "--data", "iris", "--model", "qda", "--shrinkage", "2", "--out", "OUT"}, `--shrinkage: want a number in [0, 1] or auto`},
	{[]string{"fit", "--data", "iris", "--model", "lda", "--em-max-iter", "-1", "--out", "OUT"}, `--em-max-iter: want a whole number ≥ 0`},
	{[]string{"fit", "--data", "iris", "--model", "lda", "--em-tol", "inf", "--out", "OUT"}, `--em-tol: want a finite number ≥ 0`},
	{[]string{"fit", "--data", "iris", "--model", "gmm", "--restarts", "0", "--out", "OUT"}, `--restarts: want a whole number ≥ 1`},
	{[]string{"fit", "--data", "iris", "--model", "gmm", "--max-iter", "0", "--out", "OUT"}, `--max-iter: want a whole number ≥ 1`},
	{[]string{"fit", "--data", "iris", "--model", "gmm", "--covariance", "foo", "--out", "OUT"}, `--covariance: unknown covariance type "foo"`},
	{[]string{"fit", "--data", "iris", "--model", "gmm", "--init", "foo", "--out", "OUT"}, `--init: unknown initialisation "foo"`},
	{[]string{"fit", "--data", "iris", "--model", "gmm", "--reg-covar-mode", "foo", "--out", "OUT"}, `--reg-covar-mode: unknown regularisation "foo"`},
	{[]string{"fit", "--data", "iris", "--model", "gmm", "--components", "0", "--out", "OUT"}, `--components: want a number of components ≥ 1`},
	{[]string{"fit", "--data", "iris", "--model", "mda", "--components-per-class", "0", "--out", "OUT"}, `--components-per-class: want a whole number ≥ 1`},
	{[]string{"fit", "--data", "iris", "--model", "ngram", "--order", "0", "--out", "OUT"}, `--order: want a whole number ≥ 1`},
	{[]string{"fit", "--data", "iris", "--model", "ngram", "--min-count", "0", "--out", "OUT"}, `--min-count: want a whole number ≥ 1`},
	{[]string{"fit", "--data", "iris", "--model", "ngram", "--smoothing", "foo", "--out", "OUT"}, `invalid value "foo" for flag --smoothing: want kneser-ney, witten-bell, lidstone or mle`},
	{[]string{"fit", "--data", "iris", "--model", "linear", "--impute", "median", "--out", "OUT"}, `--impute: the only method is mean`},
	{[]string{"fit", "--data", "iris", "--model", "foo", "--out", "OUT"}, `unknown model kind "foo"`},
	{[]string{"fit", "--data", "iris", "--model", "logistic", "--variance", "feature", "--out", "OUT"}, `--variance: it is a flag of --model`},
	{[]string{"predict", "--model", "-", "--data", "-", "--out", "OUT"}, `--model and --data: only one of them can read standard input (-)`},
	{[]string{"eval", "--model", "-", "--data", "-"}, `--model and --data: only one of them can read standard input (-)`},
	{[]string{"score", "--model", "-", "--data", "-", "--out", "OUT"}, `--model and --data: only one of them can read standard input (-)`},
	{[]string{"score", "--model", "MODEL", "--data", "iris", "--json", "--out", "-"}, `--json and --out - would both write to standard output`},
	{[]string{"update", "--model", "-", "--data", "-", "--out", "OUT"}, `--model and --data: only one of them can read standard input (-)`},
	{[]string{"transform", "--model", "-", "--data", "-", "--out", "OUT"}, `--model and --data: only one of them can read standard input (-)`},
	{[]string{"transform", "--model", "MODEL", "--data", "iris", "--components", "-1", "--out", "OUT"}, `--components -1: want a number ≥ 1, or 0 for all`},
	{[]string{"impute", "--model", "-", "--data", "-", "--out", "OUT"}, `--model and --data: only one of them can read standard input (-)`},
	{[]string{"impute", "--kind", "gaussian-nb", "--model", "MODEL", "--data", "iris", "--out", "OUT"}, `give either --model M.json, a fitted model, or --kind KIND, to fit one on the data first`},
	{[]string{"impute", "--kind", "gaussian-nb", "--data", "iris", "--draws", "-1", "--out", "OUT"}, `--draws: want a whole number ≥ 0`},
	{[]string{"impute", "--kind", "foo", "--data", "iris", "--out", "OUT"}, `unknown model kind "foo"`},
	{[]string{"balance", "--kind", "gaussian-nb", "--data", "iris", "--ratio", "0", "--out", "OUT"}, `--ratio: want a finite number > 0`},
	{[]string{"balance", "--kind", "logistic", "--data", "iris", "--out", "OUT"}, `--kind logistic: a logistic model does not draw rows of a class (kinds that do: `},
	{[]string{"cluster", "--data", "iris", "--components", "5-2", "--out", "OUT"}, `--components: want a number of components ≥ 1 or a range`},
	{[]string{"cluster", "--data", "iris", "--covariance", "foo", "--out", "OUT"}, `--covariance: unknown covariance type "foo"`},
	{[]string{"cluster", "--data", "iris", "--restarts", "0", "--out", "OUT"}, `--restarts: want a whole number ≥ 1`},
	{[]string{"compare", "--data", "iris", "--splits", "0", "--out", "OUT"}, `--splits 0: want at least 1`},
	{[]string{"compare", "--data", "iris", "--jobs", "-1", "--out", "OUT"}, `--jobs -1: want at least 0`},
	{[]string{"compare", "--data", "iris", "--models", "nb,foo", "--out", "OUT"}, `--models: unknown model kind "foo"`},
	{[]string{"compare", "--data", "iris", "--format", "gif", "--out", "OUT"}, `--format gif: want pdf or png`},
	{[]string{"compare", "--data", "iris", "--sizes", "0", "--out", "OUT"}, `--sizes: "0": want whole numbers of rows ≥ 1`},
	{[]string{"compare", "--data", "iris", "--models", "nb,logistic", "--solver", "foo", "--out", "OUT"}, `--solver: unknown solver "foo"`},
	{[]string{"compare", "--data", "iris", "--models", "nb,logistic", "--class-prior", "Iris-setosa=1", "--prior-alpha", "1", "--out", "OUT"}, `--class-prior: not with --prior-alpha`},
	{[]string{"sample", "--model", "MODEL", "-n", "-1", "--out", "OUT"}, `-n: want a whole number ≥ 0`},
	{[]string{"sample", "--model", "MODEL", "-n", "2", "--max-words", "0", "--out", "OUT"}, `--max-words: want a whole number ≥ 1`},
	{[]string{"sample", "--model", "MODEL", "-n", "2", "--temperature", "0", "--out", "OUT"}, `--temperature: want a finite number > 0`},
	{[]string{"split", "--data", "iris", "--test", "2", "--train", "OUT", "--test-out", "OUT"}, `--test 2: want a fraction between 0 and 1`},
	{[]string{"datasets", "--format", "foo"}, `--format and --out are flags of datasets export`},
	{[]string{"datasets", "export", "iris", "--format", "foo", "--out", "OUT"}, `--format "foo": want csv, tsv, jsonl, parquet`},
	{[]string{"export", "--model", "MODEL", "--format", "foo", "--out", "OUT"}, `--format "foo": the only format is arpa`},
	{[]string{"serve", "--model", "MODEL", "--max-rows", "0"}, `--max-rows: want a whole number ≥ 1`},
	{[]string{"serve", "--model", "MODEL", "--max-body", "-1"}, `--max-body: want a whole number ≥ 1`},
	{[]string{"serve", "--model", "MODEL", "--read-timeout", "0s"}, `--read-timeout: want a duration > 0`},
	{[]string{"serve", "--model", "MODEL", "--tls-cert", "c.pem"}, `--tls-cert and --tls-key go together`},
	{[]string{"merge", "MODEL", "--out", "OUT", "--nope"}, `flag provided but not defined: --nope`},
}

// testMisuse runs every misuse case through the built command bin, in
// dir (a subtest of TestBinary, which builds it once).
func testMisuse(t *testing.T, bin, dir string) {
	model := filepath.Join(dir, "model.json")
	if out, err := exec.Command(bin, "fit", "--data", "iris", "--model", "gaussian-nb", "--out", model).CombinedOutput(); err != nil {
		t.Fatalf("fit: %v\n%s", err, out)
	}
	out := filepath.Join(dir, "out")
	for _, tc := range misuseCases {
		args := make([]string, len(tc.args))
		for i, a := range tc.args {
			args[i] = strings.NewReplacer("MODEL", model, "OUT", out).Replace(a)
		}
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader("a,b\n1,x\n")
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
		first, _, _ := strings.Cut(stderr.String(), "\n")
		prefix := "gendisc " + args[0] + ": "
		if code != 2 || !strings.HasPrefix(first, prefix) || !strings.Contains(first, tc.want) || stdout.Len() > 0 {
			t.Errorf("gendisc %s: exit %d, stdout %q, stderr %q; want exit 2 and a first line starting %q holding %q",
				strings.Join(tc.args, " "), code, stdout.String(), stderr.String(), prefix, tc.want)
		}
		if !strings.Contains(stderr.String(), "\nusage: gendisc "+args[0]) {
			t.Errorf("gendisc %s: no usage line in %q", strings.Join(tc.args, " "), stderr.String())
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("gendisc %s: left %s behind (stat: %v)", strings.Join(tc.args, " "), out, err)
			os.RemoveAll(out)
		}
	}
	// A value the flags accept but the data refuses is a failure, not a
	// misuse: class names that are not the data's.
	cmd := exec.Command(bin, "fit", "--data", "iris", "--model", "gaussian-nb", "--class-prior", "a=0.5,b=0.5", "--out", out)
	if err := cmd.Run(); err == nil || cmd.ProcessState.ExitCode() != 1 {
		t.Errorf("fit --class-prior a=0.5,b=0.5 on iris: %v, want exit status 1", err)
	}
}
