package cli

import (
	"bytes"
	"context"
	"image/png"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/compare"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/naivebayes"
)

// readTree returns the files under dir by relative path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestCompareSameSeed runs a small comparison twice into the same
// directory, with different --jobs, and wants the same bytes in every
// file; house_votes84 (categorical columns, which lda does not take) gets
// a report of its own, with nb and logistic regression only.
func TestCompareSameSeed(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report")
	args := []string{"compare", "--data", "sonar,house_votes84", "--models", "nb,logistic,lda", "--splits", "3", "--sizes", "20,60", "--seed", "7", "--out", out}
	first := mustRun(t, append(args, "--jobs", "1")...)
	files := readTree(t, out)
	want := []string{"curves.csv", "index.html", "nb-logistic/curves.csv", "nb-logistic/house_votes84.svg", "nb-logistic/index.html",
		"nb-logistic/summary.txt", "sonar.svg", "summary.txt"}
	if got := slices.Sorted(func(yield func(string) bool) {
		for name := range files {
			if !yield(name) {
				return
			}
		}
	}); !slices.Equal(got, want) {
		t.Fatalf("report files %q, want %q", got, want)
	}
	// The command line differs in --jobs only; the index shows it.
	second := mustRun(t, append(args, "--jobs", "2")...)
	if first != second {
		t.Errorf("the printed tables differ:\n%s\n%s", first, second)
	}
	again := readTree(t, out)
	for name, b := range files {
		if name == "index.html" || name == "nb-logistic/index.html" {
			b = bytes.ReplaceAll(b, []byte("--jobs 1"), []byte("--jobs 2"))
		}
		if !bytes.Equal(b, again[name]) {
			t.Errorf("%s differs between two runs with one seed", name)
		}
	}
	for _, s := range []string{"models nb, logistic, lda:", "sonar", "models nb, logistic:", "house_votes84",
		"note: lda not applicable to house_votes84", "nb-logistic/index.html"} {
		if !strings.Contains(first, s) {
			t.Errorf("output lacks %q:\n%s", s, first)
		}
	}
	index := string(files["index.html"])
	for _, s := range []string{"gendisc compare --data sonar,house_votes84 --models nb,logistic,lda --splits 3 --sizes 20,60 --seed 7 --out",
		"--impute mean", "--l2 1", "--variance class-feature", "lda not applicable to house_votes84"} {
		if !strings.Contains(index, s) {
			t.Errorf("index.html lacks %q", s)
		}
	}
}

// TestCompareModelFlags checks that model flags reach the models that
// have them, and only those.
func TestCompareModelFlags(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r")
	stdout := mustRun(t, "compare", "--data", "pima_indians_diabetes", "--models", "nb,logistic,lda", "--splits", "2", "--sizes", "30",
		"--variance", "feature", "--l2", "0", "--prior-alpha", "1", "--out", out)
	if !strings.Contains(stdout, "error lda") || !strings.Contains(stdout, "m* lda/logistic") {
		t.Errorf("no lda column:\n%s", stdout)
	}
	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"nb: generative, drawn solid; --alpha 1 --prior-alpha 1 --text-model multinomial --var-smoothing 1e-09 --variance feature",
		"logistic: discriminative, drawn dashed; --impute mean --l2 0 --seed 1", "lda: generative, drawn dotted; --covariance-estimator mle --em-max-iter"} {
		if !strings.Contains(string(index), s) {
			t.Errorf("index.html lacks %q", s)
		}
	}
}

// TestCompareWarnings: logistic regression stopped after 2 iterations
// warns in every split, and the table and the report count those splits
// beside the sizes, while nb, which converges, has none.
func TestCompareWarnings(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r")
	stdout := mustRun(t, "compare", "--data", "iris", "--models", "nb,logistic", "--splits", "3", "--sizes", "30,60",
		"--max-iter", "2", "--out", out)
	want := "(6 warned at m 30–60)"
	if !strings.Contains(stdout, want) || strings.Count(stdout, "warned") != 1 {
		t.Errorf("the table does not count logistic's 6 warned splits once:\n%s", stdout)
	}
	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(index, []byte(want)) {
		t.Errorf("index.html lacks %q", want)
	}
	curves, err := os.ReadFile(filepath.Join(out, "curves.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(curves, []byte(",0,3\niris,logistic,60,3,")) || !bytes.HasSuffix(curves, []byte(",0,3\n")) {
		t.Errorf("curves.csv does not count the warnings:\n%s", curves)
	}
}

// TestCompareDefaultSet runs the default data sets with one split of one
// size: nb (mixed naive Bayes) applies to every data set, categorical and
// text columns included; optdigits comes with its two tasks.
func TestCompareDefaultSet(t *testing.T) {
	if testing.Short() {
		t.Skip("reads every bundled data set")
	}
	out := filepath.Join(t.TempDir(), "r")
	stdout := mustRun(t, "compare", "--splits", "1", "--sizes", "60", "--out", out)
	for _, s := range []string{"adult", "mushroom", "sms_spam",
		"optdigits_0_vs_1", "optdigits_2_vs_3", "iris", "breast_cancer_wisconsin"} {
		if !strings.Contains(stdout, s) {
			t.Errorf("output lacks %q:\n%s", s, stdout)
		}
	}
	if strings.Contains(stdout, "not applicable") || strings.Contains(stdout, "models nb") {
		t.Errorf("a default model was left out, or the report was split:\n%s", stdout)
	}
	if _, err := os.Stat(filepath.Join(out, "adult.svg")); err != nil {
		t.Error(err)
	}
}

// TestCompareBadInput checks the exit status and the one-line message of
// mistakes, and that they leave no report.
func TestCompareBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--data", "iris", "--models", "nb,frobnicate"}, 2, `unknown model kind "frobnicate"`},
		{[]string{"--data", "iris", "--models", "nb,nb"}, 2, "nb appears twice"},
		{[]string{"--data", "iris", "--models", "gmm,logistic"}, 2, "a gmm model does not classify"},
		{[]string{"--data", "iris", "--sizes", "10,x"}, 2, `"x": want whole numbers`},
		{[]string{"--data", "iris", "--sizes", "0"}, 2, `"0": want whole numbers`},
		{[]string{"--data", "iris", "--splits", "0"}, 2, "--splits 0"},
		{[]string{"--data", "iris", "--format", "pdf,gif"}, 2, "--format gif: want pdf or png"},
		{[]string{"--data", "iris", "--models", "logistic", "--variance", "feature"}, 2, "--variance is a flag of --models gaussian-nb or nb"},
		{[]string{"--data", "no_such_data"}, 1, "no_such_data: no such file, nor a bundled data set"},
		{[]string{"--data", "iris", "--sizes", "1000"}, 1, "no training-set size fits"},
		{[]string{"--data", "iris,sms_spam", "--models", "lda"}, 1, "sms_spam: none of the models applies"},
		{[]string{"--data", "iris,iris"}, 2, "--data: iris appears twice"},
		{[]string{"--data", "house_votes84", "--models", "lda,logistic"}, 1,
			"gendisc: --models: lda not applicable to house_votes84: house_votes84: column \"handicapped-infants\": unsuitable feature kind: the column is categorical, discriminant analysis takes numeric features only; lda left out: it applies to none of the data sets: compare needs two models that apply to the data\n"},
	} {
		out := filepath.Join(t.TempDir(), "r")
		args := append([]string{"compare", "--splits", "2", "--out", out}, tc.args...)
		if slices.Contains(tc.args, "--splits") {
			args = append([]string{"compare", "--out", out}, tc.args...)
		}
		r := runCLI(t, "", args...)
		lines := strings.Count(strings.TrimSpace(r.stderr), "\n") + 1
		if r.code != tc.code || !strings.Contains(r.stderr, tc.want) || tc.code == 1 && lines != 1 {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and one line with %q", strings.Join(args, " "), r.code, r.stderr, tc.code, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: left a report", strings.Join(args, " "))
		}
	}
}

// TestCompareFallbacks runs QDA on pima_indians_diabetes, where its fit
// fails on every split up to m = 22 (a singular covariance) and LDA's up to
// m = 8: the table names the sizes of the fallbacks, and those sizes take
// no part in m* or the gap. m* qda/logistic is 30, the first size without
// fallbacks, and clear; it read 16 when the sizes where QDA predicted the
// majority class counted. The other two pairs cross earlier than the
// paired test is significant at 50 splits: nb/logistic at m = 57, clear
// from 108, and lda/logistic at 108, clear from 390.
func TestCompareFallbacks(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r")
	stdout := mustRun(t, "compare", "--data", "pima_indians_diabetes", "--models", "nb,logistic,lda,qda", "--splits", "50",
		"--variance", "feature", "--l2", "0", "--out", out)
	golden(t, "compare_pima_fallbacks.golden", stdout)
	svg, err := os.ReadFile(filepath.Join(out, "pima_indians_diabetes.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"fit failed in some splits", "m*, not significant there", "clear: paired t-test p &lt; 0.05 from here on"} {
		if !bytes.Contains(svg, []byte(s)) {
			t.Errorf("the plot's legend lacks %q", s)
		}
	}
}

// TestCompareNoClearCrossover runs iris with the default models and
// splits: logistic regression's mean error is below naive Bayes' from
// m = 70 on, but not significantly so at any size (paired t-test at level
// 0.05), so m* reads "70 (no clear crossover)"; the report gives the
// p-value and "–" for the size it is clear from.
func TestCompareNoClearCrossover(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r")
	stdout := mustRun(t, "compare", "--data", "iris", "--out", out)
	golden(t, "compare_iris.golden", stdout)
	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"<td>iris</td><td>nb</td><td>logistic</td><td>70</td>", "paired t-test", "p &lt; 0.05"} {
		if !bytes.Contains(index, []byte(s)) {
			t.Errorf("index.html lacks %q", s)
		}
	}
}

// TestCompareFormats checks that --format pdf,png writes each plot in
// those formats as well, at the size of the SVG plot, and that the index
// links them.
func TestCompareFormats(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r")
	mustRun(t, "compare", "--data", "iris", "--splits", "2", "--sizes", "20,60", "--format", "pdf,png", "--out", out)
	files := readTree(t, out)
	if !bytes.HasPrefix(files["iris.pdf"], []byte("%PDF-")) {
		t.Errorf("iris.pdf is not a PDF document: %.20q", files["iris.pdf"])
	}
	img, err := png.DecodeConfig(bytes.NewReader(files["iris.png"]))
	if err != nil || img.Width != 672 || img.Height != 432 {
		t.Errorf("iris.png: %v, %dx%d; want a 672x432 PNG image", err, img.Width, img.Height)
	}
	for _, s := range []string{`<a href="iris.pdf">PDF</a>`, `<a href="iris.png">PNG</a>`} {
		if !bytes.Contains(files["index.html"], []byte(s)) {
			t.Errorf("index.html lacks %q", s)
		}
	}
}

// TestCompareDefaultModelLeftOut: without --models, a model that applies
// to none of the data sets is left out with a note (lda, were it a
// default; the defaults nb and logistic take every column type, so this
// checks that house_votes84 gets both).
func TestCompareDefaultModelLeftOut(t *testing.T) {
	stdout := mustRun(t, "compare", "--data", "house_votes84", "--splits", "2", "--sizes", "50", "--out", filepath.Join(t.TempDir(), "r"))
	for _, s := range []string{"error logistic", "error nb"} {
		if !strings.Contains(stdout, s) {
			t.Errorf("output lacks %q:\n%s", s, stdout)
		}
	}
}

// TestCompareOutNotReport: compare refuses to replace a directory that
// does not hold a report, prints no table, and leaves nothing beside it.
func TestCompareOutNotReport(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "mine")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "notes.txt"), []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "", "compare", "--data", "sonar,house_votes84", "--splits", "2", "--sizes", "40", "--out", out)
	if r.code != 1 || !strings.Contains(r.stderr, "does not hold a report") || r.stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	entries, _ := os.ReadDir(parent)
	inside, _ := os.ReadDir(out)
	if len(entries) != 1 || len(inside) != 1 {
		t.Errorf("left %d entries beside and %d inside %s", len(entries), len(inside), out)
	}
}

func TestCommandLine(t *testing.T) {
	got := commandLine("compare", []string{"--data", "my file.csv", "--sizes", "10,20", "--x", "it's", ""})
	want := `gendisc compare --data 'my file.csv' --sizes 10,20 --x 'it'\''s' ''`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestCompareLibrary runs gendisc compare and the same experiment through
// package compare (Plan, Experiment.Run, Outcome.WriteReports and
// WriteSummary, with the models configured as the command's defaults
// configure them) and wants the same printed tables and the same bytes in
// every file of the reports but index.html, which states the command
// line and the flags. The first case is compare's ExamplePlan; the
// second splits the report, lda not applying to house_votes84.
func TestCompareLibrary(t *testing.T) {
	lib := map[string]func(seed uint64) func(*data.Dataset) (gendisc.Model, error){
		"nb": func(uint64) func(*data.Dataset) (gendisc.Model, error) {
			return func(d *data.Dataset) (gendisc.Model, error) { return naivebayes.Config{}.Fit(d) }
		},
		"logistic": func(seed uint64) func(*data.Dataset) (gendisc.Model, error) {
			return func(d *data.Dataset) (gendisc.Model, error) {
				return logistic.Config{Impute: true, Rand: rand.New(rand.NewPCG(seed, 0))}.Fit(d)
			}
		},
		"lda": func(uint64) func(*data.Dataset) (gendisc.Model, error) {
			return func(d *data.Dataset) (gendisc.Model, error) {
				return gda.LDAConfig(gda.Config{MaxIter: gda.DefaultMaxIter, Tol: gda.DefaultTol}).Fit(d)
			}
		},
	}
	for _, tc := range []struct {
		data, models []string
		splits       int
		sizes        []int
		seed         uint64
	}{
		{[]string{"house_votes84"}, []string{"nb", "logistic"}, 10, []int{20, 50, 100}, 3},
		{[]string{"sonar", "house_votes84"}, []string{"nb", "logistic", "lda"}, 3, []int{20, 60}, 7},
	} {
		name := strings.Join(tc.data, ",")
		dir := t.TempDir()
		sizes := make([]string, len(tc.sizes))
		for i, m := range tc.sizes {
			sizes[i] = strconv.Itoa(m)
		}
		stdout := mustRun(t, "compare", "--data", name, "--models", strings.Join(tc.models, ","), "--splits", strconv.Itoa(tc.splits),
			"--sizes", strings.Join(sizes, ","), "--seed", strconv.FormatUint(tc.seed, 10), "--out", filepath.Join(dir, "cmd"))

		var tasks []compare.Task
		for _, d := range tc.data {
			tasks = append(tasks, compare.Task{Name: d, Data: bundled.Load(t, d, dataio.Options{})})
		}
		var models []compare.Model
		for _, m := range tc.models {
			models = append(models, compare.Model{Name: m, Fit: lib[m](tc.seed)})
		}
		e, err := compare.Plan(tasks, models, compare.PlanOptions{RequireTasks: true, RequireModels: true})
		if err != nil {
			t.Fatal(err)
		}
		out, err := e.Run(context.Background(), compare.Config{Splits: tc.splits, Sizes: tc.sizes, Seed: tc.seed})
		if err != nil {
			t.Fatal(err)
		}
		var summary bytes.Buffer
		if err := out.WriteSummary(&summary); err != nil {
			t.Fatal(err)
		}
		if summary.String() != stdout {
			t.Errorf("%s: the library prints\n%s\nthe command\n%s", name, summary.String(), stdout)
		}
		if err := out.WriteReports(filepath.Join(dir, "lib"), compare.ReportInfo{}); err != nil {
			t.Fatal(err)
		}
		cmd, got := readTree(t, filepath.Join(dir, "cmd")), readTree(t, filepath.Join(dir, "lib"))
		if len(got) != len(cmd) {
			t.Errorf("%s: the library wrote %d files, the command %d", name, len(got), len(cmd))
		}
		for file, b := range cmd {
			if filepath.Base(file) == compare.IndexFile {
				continue
			}
			if !bytes.Equal(b, got[file]) {
				t.Errorf("%s: %s differs between the command and the library", name, file)
			}
		}
	}
}

// TestCompareOneDataSetLeavesOut: on one data set, a model of --models
// that does not apply is left out with a note saying why, and the others
// are compared.
func TestCompareOneDataSetLeavesOut(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r")
	r := runCLI(t, "", "compare", "--data", "house_votes84", "--models", "nb,lda,logistic", "--splits", "2", "--sizes", "30,100", "--out", out)
	for _, want := range []string{
		"error nb ", "error logistic ",
		"note: lda not applicable to house_votes84: house_votes84: column \"handicapped-infants\": unsuitable feature kind: the column is categorical, discriminant analysis takes numeric features only\n",
		"note: lda left out: it applies to none of the data sets\n",
	} {
		if r.code != 0 || !strings.Contains(r.stdout, want) {
			t.Errorf("compare --data house_votes84 --models nb,lda,logistic: exit %d, stderr %q; stdout lacks %q:\n%s", r.code, r.stderr, want, r.stdout)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); err != nil {
		t.Error(err)
	}
}
