package cli

import (
	"cmp"
	"encoding/json"
	"flag"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/cv"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/registry"
)

// cvJSON is the shape of cv --json.
type cvJSON struct {
	Folds    []map[string]json.RawMessage `json:"folds"`
	Mean, SE map[string]json.RawMessage
}

// decodeCV decodes the output of cv --json, failing on unknown top-level
// keys.
func decodeCV(t *testing.T, out string) cvJSON {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	var r cvJSON
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("cv --json: %v\n%s", err, out[:min(len(out), 300)])
	}
	return r
}

// TestCVEveryKind runs every fitted kind of the registry through cv
// --folds 3 on its bundled data set (as TestEveryKind fits it) and checks
// the JSON: three folds numbered 0 to 2 whose rows add up to the data's,
// each with the keys of eval --json for a model of the kind, and mean and
// se with those keys (a kind of sentences folds its sentences, and its
// figures are those of eval for a tagger). A kind without a target (gmm)
// has no held-out figures: a misuse.
func TestCVEveryKind(t *testing.T) {
	for _, name := range kindNames() {
		t.Run(name, func(t *testing.T) {
			k, _ := registry.Lookup(name)
			ds := cmp.Or(kindData[name], "iris")
			args := append([]string{"cv", "--data", ds, "--model", name, "--folds", "3", "--json"}, kindFitFlags[name]...)
			if k.Target == registry.None {
				r := runCLI(t, "", args...)
				if r.code != 2 || !strings.Contains(r.stderr, "has no held-out figures") {
					t.Fatalf("cv --model %s: exit %d, stderr %q; want a misuse", name, r.code, r.stderr)
				}
				return
			}
			got := decodeCV(t, mustRun(t, args...))
			model := filepath.Join(t.TempDir(), "m.json")
			mustRun(t, append([]string{"fit", "--data", ds, "--model", name, "--out", model}, kindFitFlags[name]...)...)
			var eval map[string]json.RawMessage
			if err := json.Unmarshal([]byte(mustRun(t, "eval", "--model", model, "--data", ds, "--json")), &eval); err != nil {
				t.Fatal(err)
			}
			evalKeys := slices.Sorted(maps.Keys(eval))
			if len(got.Folds) != 3 {
				t.Fatalf("%d folds, want 3", len(got.Folds))
			}
			rows := 0
			for i, f := range got.Folds {
				var fold, n int
				json.Unmarshal(f["fold"], &fold)
				json.Unmarshal(f["rows"], &n)
				if fold != i || n <= 0 {
					t.Errorf("fold %d: \"fold\" %s, \"rows\" %s", i, f["fold"], f["rows"])
				}
				rows += n
				delete(f, "fold")
				delete(f, "rows")
				if keys := slices.Sorted(maps.Keys(f)); !slices.Equal(keys, evalKeys) {
					t.Errorf("fold %d: keys %v, want eval --json's %v", i, keys, evalKeys)
				}
			}
			if k.Input == registry.Table {
				if d := kindTrainingData(t, name); rows != d.N {
					t.Errorf("the folds have %d rows, the data %d", rows, d.N)
				}
			}
			if len(got.Mean) == 0 || !slices.Equal(slices.Sorted(maps.Keys(got.Mean)), slices.Sorted(maps.Keys(got.SE))) {
				t.Errorf("mean keys %v, se keys %v", slices.Sorted(maps.Keys(got.Mean)), slices.Sorted(maps.Keys(got.SE)))
			}
			for key := range got.Mean {
				if _, ok := eval[key]; !ok {
					t.Errorf("mean has %q, which eval --json lacks", key)
				}
			}
		})
	}
}

// TestCVFoldsInReproduces checks that the fold file --folds-out writes,
// passed back with --folds-in, gives the same JSON byte for byte, for a
// one-pass kind and a refitted one, and that --out writes a fold's
// figures as the JSON has them.
func TestCVFoldsInReproduces(t *testing.T) {
	dir := t.TempDir()
	for _, kind := range []string{"gaussian-nb", "logistic"} {
		folds := filepath.Join(dir, kind+"-folds.csv")
		table := filepath.Join(dir, kind+"-table.csv")
		first := mustRun(t, "cv", "--data", "iris", "--model", kind, "--folds", "4", "--seed", "7", "--folds-out", folds, "--out", table, "--json")
		again := mustRun(t, "cv", "--data", "iris", "--model", kind, "--folds-in", folds, "--json")
		if first != again {
			t.Errorf("--model %s: --folds-in of --folds-out's file gives another JSON:\n%s\nthen\n%s", kind, first[:min(300, len(first))], again[:min(300, len(again))])
		}
		b, err := os.ReadFile(folds)
		if err != nil {
			t.Fatal(err)
		}
		f, err := cv.ReadFolds(strings.NewReader(string(b)), folds, 150)
		if err != nil || f.K() != 4 {
			t.Fatalf("the fold file: %v, %d folds", err, f.K())
		}
		csvText, err := os.ReadFile(table)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(csvText)), "\n")
		if len(lines) != 5 || !strings.HasPrefix(lines[0], "fold,rows,n,total_weight,") {
			t.Fatalf("--out: %d lines, header %q", len(lines), lines[0])
		}
		got := decodeCV(t, first)
		var acc string
		header := strings.Split(lines[0], ",")
		cells := strings.Split(lines[2], ",")
		for j, h := range header {
			if h == "accuracy" {
				acc = cells[j]
			}
		}
		if want := string(got.Folds[1]["accuracy"]); acc != want {
			t.Errorf("--out: fold 1's accuracy %q, the JSON's %q", acc, want)
		}
	}
}

// TestCVOnePassIsRefit checks that cv wires the one-pass path with the
// kind's flags: Gaussian naive Bayes with non-default flags takes the
// one-pass path (cv --verbose says so), and its figures per fold equal,
// to 1e-12 relative, those of cv.Runner refitting every fold on the same
// folds with the same configuration (the library's refit path, Runner
// without NewAccumulator). An accumulator that missed a flag (the tied
// variances, the smoothing, the prior) would give other figures.
func TestCVOnePassIsRefit(t *testing.T) {
	flags := []string{"--variance", "feature", "--var-smoothing", "0.01", "--prior-alpha", "3"}
	folds := filepath.Join(t.TempDir(), "folds.csv")
	r := runCLI(t, "", append([]string{"cv", "--data", "iris", "--model", "gaussian-nb", "--folds", "5", "--folds-out", folds, "--json", "--verbose"}, flags...)...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "one pass over the rows") {
		t.Errorf("cv --model gaussian-nb did not take the one-pass path; stderr:\n%s", r.stderr)
	}
	k, _ := registry.Lookup("gaussian-nb")
	fs := flag.NewFlagSet("gaussian-nb", flag.ContinueOnError)
	fit := kindFit(k, fs)
	if err := fs.Parse(flags); err != nil {
		t.Fatal(err)
	}
	d := kindTrainingData(t, "gaussian-nb")
	fr, err := os.Open(folds)
	if err != nil {
		t.Fatal(err)
	}
	defer fr.Close()
	f, err := cv.ReadFolds(fr, folds, d.N)
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&cv.Runner{Fit: fit}).Run(d, f)
	if err != nil {
		t.Fatal(err)
	}
	refit, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	sameFigures(t, []byte(r.stdout), refit)
}

// TestCVBadInput checks the one-line errors (exit 1) and misuses (exit 2)
// of cv, and that a failed run leaves no --out file.
func TestCVBadInput(t *testing.T) {
	dir := t.TempDir()
	oneRowClass := filepath.Join(dir, "onerow.csv")
	os.WriteFile(oneRowClass, []byte("x,y\n1,a\n2,a\n3,a\n4,b\n5,b\n6,b\n7,c\n"), 0o644)
	shortFolds := filepath.Join(dir, "short.csv")
	os.WriteFile(shortFolds, []byte("fold\n0\n1\n"), 0o644)
	out := filepath.Join(dir, "table.csv")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--data", oneRowClass, "--model", "gaussian-nb", "--folds", "3"}, 1, `holds every row of class "c"`},
		{[]string{"--data", "iris", "--folds", "151"}, 1, "iris: --folds 151 is more than its 150 rows"},
		{[]string{"--data", "iris", "--folds-in", shortFolds}, 1, "short.csv:4: bad fold file"},
		{[]string{"--data", "iris", "--folds-in", filepath.Join(dir, "none.csv")}, 1, "none.csv"},
		{[]string{"--data", "iris", "--group", "nosuch"}, 1, "nosuch"},
		{[]string{"--data", "iris", "--folds", "1"}, 2, `--folds "1": want a number of folds of at least 2, or loo`},
		{[]string{"--data", "iris", "--folds", "ten"}, 2, `--folds "ten"`},
		{[]string{"--data", "iris", "--repeats", "0"}, 2, "--repeats 0"},
		{[]string{"--data", "iris", "--folds-in", shortFolds, "--seed", "3"}, 2, "--folds-in gives the folds: it does not go with --seed"},
		{[]string{"--data", "iris", "--folds", "loo", "--repeats", "2"}, 2, "--folds loo"},
		{[]string{"--data", "iris", "--repeats", "2", "--folds-out", out}, 2, "--folds-out writes one assignment"},
		{[]string{"--data", "iris", "--model", "gmm"}, 2, "--model gmm has no held-out figures"},
		{[]string{"--data", "iris", "--model", "lda", "--l2", "1"}, 2, "it is a flag of --model"},
	} {
		r := runCLI(t, "", append(append([]string{"cv"}, tc.args...), "--out", out)...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("cv %s: exit %d, stderr %q; want exit %d and %q", strings.Join(tc.args, " "), r.code, r.stderr, tc.code, tc.want)
		}
		if tc.code == 1 && strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("cv %s: not one line: %q", strings.Join(tc.args, " "), r.stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("cv %s failed and left %s", strings.Join(tc.args, " "), out)
		}
	}
}

// TestCVWarnings checks that a fold with fewer rows than classes is a
// warning naming the fold, and that leave-one-out, whose folds are one
// row each, does not warn of it but notes the refits of a kind without
// one-pass cross-validation.
func TestCVWarnings(t *testing.T) {
	small := filepath.Join(t.TempDir(), "small.csv")
	os.WriteFile(small, []byte("x,y\n1,a\n2,a\n1.5,a\n4,b\n5,b\n4.5,b\n7,c\n8,c\n7.5,c\n"), 0o644)
	r := runCLI(t, "", "cv", "--data", small, "--model", "gaussian-nb", "--folds", "4")
	if r.code != 0 || !strings.Contains(r.stderr, "gendisc: warning: fold 3 has 2 rows for 3 classes") {
		t.Errorf("exit %d, stderr %q; want a warning naming fold 3", r.code, r.stderr)
	}
	r = runCLI(t, "", "cv", "--data", small, "--model", "logistic", "--folds", "loo")
	if r.code != 0 || strings.Contains(r.stderr, "warning") || !strings.Contains(r.stderr, "leave-one-out fits it 9 times") {
		t.Errorf("loo: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestCVGroups checks that --group keeps the rows of a group in one fold
// and that the text report lists the folds.
func TestCVGroups(t *testing.T) {
	dir := t.TempDir()
	file, folds := groupedData(t, dir), filepath.Join(dir, "folds.csv")
	text := mustRun(t, "cv", "--data", file, "--model", "gaussian-nb", "--group", "g", "--folds", "4", "--folds-out", folds)
	if !strings.HasPrefix(text, "figure") || !strings.Contains(text, "fold 3") || !strings.Contains(text, "\naccuracy ") {
		t.Errorf("text report:\n%s", text)
	}
	checkGroupFolds(t, folds)
}

// groupedData writes to dir a CSV file of 40 rows whose column g puts
// row i in group i mod 8, and returns its path.
func groupedData(t *testing.T, dir string) string {
	t.Helper()
	file := filepath.Join(dir, "g.csv")
	var b strings.Builder
	b.WriteString("g,x,y\n")
	for i := range 40 {
		b.WriteString(strings.Join([]string{string(rune('a' + i%8)), strings.Repeat("1", 1+i%3), []string{"p", "q"}[i%2]}, ",") + "\n")
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// checkGroupFolds checks that the fold file folds, of groupedData's rows,
// keeps the rows of a group in one fold.
func checkGroupFolds(t *testing.T, folds string) {
	t.Helper()
	fb, _ := os.ReadFile(folds)
	f, err := cv.ReadFolds(strings.NewReader(string(fb)), folds, 40)
	if err != nil {
		t.Fatal(err)
	}
	foldOf := map[int]int{}
	for i, k := range f {
		if g, ok := foldOf[i%8]; ok && g != k {
			t.Fatalf("group %c in folds %d and %d", 'a'+i%8, g, k)
		}
		foldOf[i%8] = k
	}
}

// TestCVProgress checks cv's progress bar on a terminal, and its absence
// otherwise.
func TestCVProgress(t *testing.T) {
	args := []string{"cv", "--data", "iris", "--model", "logistic", "--folds", "3"}
	if stderr, code := runTerminal(true, args...); code != 0 || !strings.Contains(stderr, "cv: folds") {
		t.Errorf("on a terminal: exit %d, stderr %q", code, stderr)
	}
	if stderr, code := runTerminal(false, args...); code != 0 || stderr != "" {
		t.Errorf("not on a terminal: exit %d, stderr %q", code, stderr)
	}
}

// TestCVLeaveOneOutDowndate checks that cv --folds loo downdates the fit
// of the kinds it covers, with the kind's flags (--prior-alpha), and falls
// back on the one-pass path for flags it does not cover (--variance
// feature): either way the figures of every fold equal, to 1e-12
// relative, those of cv.Runner refitting every row with the same flags.
func TestCVLeaveOneOutDowndate(t *testing.T) {
	for _, tc := range []struct {
		flags []string
		path  string // the note of --verbose
	}{
		{[]string{"--prior-alpha", "2"}, "leave-one-out by downdating"},
		{[]string{"--variance", "feature"}, "one pass over the rows"},
	} {
		r := runCLI(t, "", append([]string{"cv", "--data", "iris", "--model", "gaussian-nb", "--folds", "loo", "--json", "--verbose"}, tc.flags...)...)
		if r.code != 0 || !strings.Contains(r.stderr, tc.path) {
			t.Fatalf("%v: exit %d, stderr %q; want %q", tc.flags, r.code, r.stderr, tc.path)
		}
		k, _ := registry.Lookup("gaussian-nb")
		fs := flag.NewFlagSet("gaussian-nb", flag.ContinueOnError)
		fit := kindFit(k, fs)
		if err := fs.Parse(tc.flags); err != nil {
			t.Fatal(err)
		}
		d := kindTrainingData(t, "gaussian-nb")
		res, err := (&cv.Runner{Fit: fit}).Run(d, cv.LeaveOneOut(d.N))
		if err != nil {
			t.Fatal(err)
		}
		refit, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		sameFigures(t, []byte(r.stdout), refit)
	}
}

// sameFigures checks that the cv JSON got has the figures of want, in
// order, to 1e-12 relative.
func sameFigures(t *testing.T, got, want []byte) {
	t.Helper()
	g, err := figures(got, false)
	if err != nil {
		t.Fatal(err)
	}
	w, err := figures(want, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(g) != len(w) || len(g) < 100 {
		t.Fatalf("%d figures, want %d", len(g), len(w))
	}
	for i := range w {
		if g[i].path != w[i].path || g[i].ok != w[i].ok || math.Abs(g[i].value-w[i].value) > 1e-12*math.Max(1, math.Abs(w[i].value)) {
			t.Fatalf("%s = %v, refit %s = %v", g[i].path, g[i].value, w[i].path, w[i].value)
		}
	}
}

// TestCVManyFoldsRefit checks that beyond maxOnePassFolds folds a
// one-pass kind is refitted, with a note, to the same figures.
func TestCVManyFoldsRefit(t *testing.T) {
	args := []string{"cv", "--data", "iris", "--model", "multinomial-nb", "--folds", "4", "--json"}
	onePass := mustRun(t, args...)
	defer func(n int) { maxOnePassFolds = n }(maxOnePassFolds)
	maxOnePassFolds = 3
	r := runCLI(t, "", args...)
	if r.code != 0 || !strings.Contains(r.stderr, "note: 4 folds: more than the 3 cv merges statistics for; --model multinomial-nb is fitted 4 times") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	sameFigures(t, []byte(r.stdout), []byte(onePass))
}

// TestCVStdout checks that --out - writes the table of folds alone to
// standard output, and that two outputs there are a misuse.
func TestCVStdout(t *testing.T) {
	out := mustRun(t, "cv", "--data", "iris", "--model", "gaussian-nb", "--folds", "3", "--out", "-")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 4 || !strings.HasPrefix(lines[0], "fold,rows,") {
		t.Errorf("--out -: %q", out)
	}
	r := runCLI(t, "", "cv", "--data", "iris", "--out", "-", "--json")
	if r.code != 2 || !strings.Contains(r.stderr, "one of --out -, --folds-out - and --json") {
		t.Errorf("--out - --json: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestCVFoldsInLeaveOneOut checks that a leave-one-out fold file given to
// --folds-in is downdated as --folds loo is, to the same JSON.
func TestCVFoldsInLeaveOneOut(t *testing.T) {
	folds := filepath.Join(t.TempDir(), "loo.csv")
	first := mustRun(t, "cv", "--data", "iris", "--model", "lda", "--folds", "loo", "--folds-out", folds, "--json")
	r := runCLI(t, "", "cv", "--data", "iris", "--model", "lda", "--folds-in", folds, "--json", "--verbose")
	if r.code != 0 || !strings.Contains(r.stderr, "leave-one-out by downdating") || r.stdout != first {
		t.Errorf("exit %d, stderr %q; the same JSON: %v", r.code, r.stderr, r.stdout == first)
	}
}

// TestCVSeedOfTheFit checks that --folds-in goes with --seed when the
// kind's fit takes it (logistic regression's stochastic solver), and that
// the seed then changes the fit, not the folds.
func TestCVSeedOfTheFit(t *testing.T) {
	folds := filepath.Join(t.TempDir(), "folds.csv")
	mustRun(t, "cv", "--data", "iris", "--folds", "3", "--folds-out", folds)
	a := mustRun(t, "cv", "--data", "iris", "--model", "logistic", "--solver", "sgd", "--folds-in", folds, "--seed", "1", "--json")
	b := mustRun(t, "cv", "--data", "iris", "--model", "logistic", "--solver", "sgd", "--folds-in", folds, "--seed", "2", "--json")
	if a == b {
		t.Errorf("--seed 1 and --seed 2 of the stochastic solver give the same figures")
	}
}

// TestCVWarmStartsLogistic checks that cv fits logistic regression's
// folds from its fit to all the rows (--verbose says so) and that the
// figures are those of cold fits on the same folds: the mean log-loss of
// the library's cv.Runner without a warm start, to the solver's
// tolerance.
func TestCVWarmStartsLogistic(t *testing.T) {
	folds := filepath.Join(t.TempDir(), "folds.csv")
	r := runCLI(t, "", "cv", "--data", "pima_indians_diabetes", "--model", "logistic", "--folds", "5", "--folds-out", folds, "--verbose", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "each fold's fit starts from the fit to all the rows") {
		t.Errorf("--verbose does not tell the warm start:\n%s", r.stderr)
	}
	var warm float64
	if err := json.Unmarshal(decodeCV(t, r.stdout).Mean["log_loss"], &warm); err != nil {
		t.Fatal(err)
	}
	d := bundled.Load(t, "pima_indians_diabetes", dataio.Options{})
	b, err := os.ReadFile(folds)
	if err != nil {
		t.Fatal(err)
	}
	f, err := cv.ReadFolds(strings.NewReader(string(b)), folds, d.N)
	if err != nil {
		t.Fatal(err)
	}
	k, err := registry.Lookup("logistic")
	if err != nil {
		t.Fatal(err)
	}
	c, err := k.DefaultConfig()
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&cv.Runner{Fit: c.Fit}).Run(d, f)
	if err != nil {
		t.Fatal(err)
	}
	cold, _, ok := res.Metric("log_loss")
	if !ok || math.Abs(warm-cold) > 1e-7*cold {
		t.Errorf("mean log-loss: warm %v, cold %v", warm, cold)
	}
}
