package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/cv"
	"github.com/gendisc/gendisc/registry"
)

// TestTuneFoldFlags: tune takes cv's fold flags (foldflags.go): the
// assignment --folds-out writes, given back with --folds-in, gives the
// same search; --group keeps a group in one fold; --repeats R searches on
// R assignments, as cv.Search.Run does with cv.Repeat's; with
// GridSearchCV's folds (--folds-in) it chooses GridSearchCV's setting;
// --folds loo runs.
func TestTuneFoldFlags(t *testing.T) {
	dir := t.TempDir()
	folds, out := filepath.Join(dir, "folds.csv"), filepath.Join(dir, "m.json")
	grid := []string{"--data", "iris", "--model", "gaussian-nb", "--grid", "var-smoothing=1e-9,1e-3,0.1", "--json", "--out", out}
	first := mustRun(t, append([]string{"tune", "--folds", "4", "--seed", "7", "--folds-out", folds}, grid...)...)
	again := mustRun(t, append([]string{"tune", "--folds-in", folds}, grid...)...)
	if first != again {
		t.Errorf("--folds-in of --folds-out's file gives another search:\n%s\nthen\n%s", first, again)
	}
	b, _ := os.ReadFile(folds)
	if f, err := cv.ReadFolds(strings.NewReader(string(b)), folds, 150); err != nil || f.K() != 4 {
		t.Fatalf("the fold file: %v, %d folds", err, f.K())
	}

	// --repeats 2 --seed 3: the search of the library on cv.Repeat's folds.
	got := mustRun(t, append([]string{"tune", "--repeats", "2", "--seed", "3"}, grid...)...)
	k, _ := registry.Lookup("gaussian-nb")
	d := kindTrainingData(t, "gaussian-nb")
	p, _ := cv.ParseParam("var-smoothing=1e-9,1e-3,0.1")
	m, _ := cv.MetricNamed(k, "log-loss")
	s := &cv.Search{Kind: k, Params: []cv.Param{p}, Metric: m, Seed: 3}
	reps, err := cv.Repeat(2, 3, func(seed uint64) (cv.Folds, error) { return cv.Assign(d, defaultTuneFolds, nil, seed) })
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Run(d, reps...)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(res)
	sameFigures(t, []byte(got), want)

	// --group: the rows of a group in one fold.
	file := groupedData(t, dir)
	mustRun(t, "tune", "--data", file, "--model", "gaussian-nb", "--grid", "var-smoothing=1e-9,0.1", "--group", "g", "--folds", "4", "--folds-out", folds, "--out", out)
	checkGroupFolds(t, folds)

	// GridSearchCV's folds, given by --folds-in: its choice, l2 = 10
	// (C = 0.1; cv/testdata/tune_reference.json), along the warm path.
	ref := filepath.Join("..", "..", "..", "..", "cv", "testdata", "pima_indians_diabetes_folds.csv")
	r := runCLI(t, "", "tune", "--data", "pima_indians_diabetes", "--model", "logistic", "--grid", "l2=1e-3..1e3:7", "--folds-in", ref, "--json", "--out", out)
	var chosen struct {
		Best struct{ Params map[string]string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &chosen); r.code != 0 || err != nil || chosen.Best.Params["l2"] != "10" {
		t.Errorf("--folds-in %s: exit %d, best %v, want l2=10 (GridSearchCV's)\n%s", ref, r.code, chosen.Best.Params, r.stderr)
	}

	// Leave-one-out.
	r = runCLI(t, "", "tune", "--data", file, "--model", "gaussian-nb", "--grid", "var-smoothing=1e-9,0.1", "--ignore", "g", "--folds", "loo", "--metric", "error", "--json", "--out", out)
	if r.code != 0 || !strings.Contains(r.stdout, `"best"`) {
		t.Errorf("--folds loo: exit %d\n%s", r.code, r.stderr)
	}
}

// TestTuneSentenceFoldFlags: tune of a kind of sentences takes the fold
// flags too: the assignment of --folds-out (one fold number per
// sentence), given back with --folds-in, gives the same search, and
// --repeats searches on more folds; --group is refused.
func TestTuneSentenceFoldFlags(t *testing.T) {
	dir := t.TempDir()
	data, _ := treebankSlice(t, dir, "ud_english_ewt_dev", 0, 60)
	folds, out := filepath.Join(dir, "folds.csv"), filepath.Join(dir, "m.json")
	grid := []string{"tune", "--data", data, "--model", "hmm", "--grid", "emission-alpha=0.01,0.1", "--json", "--out", out}
	first := mustRun(t, append(grid, "--folds", "3", "--seed", "5", "--folds-out", folds)...)
	again := mustRun(t, append(grid, "--folds-in", folds)...)
	if first != again {
		t.Errorf("--folds-in of --folds-out's file gives another search:\n%s\nthen\n%s", first, again)
	}
	if b, _ := os.ReadFile(folds); strings.Count(string(b), "\n") != 61 {
		t.Errorf("the fold file has %d lines, want a header and 60 sentences", strings.Count(string(b), "\n"))
	}
	if repeated := mustRun(t, append(grid, "--folds", "3", "--seed", "5", "--repeats", "2")...); repeated == first {
		t.Error("--repeats 2 gives the search of one assignment")
	}
	if r := runCLI(t, "", append(grid, "--group", "g")...); r.code != 2 || !strings.Contains(r.stderr, "sentences have no columns") {
		t.Errorf("--group: exit %d, %q", r.code, r.stderr)
	}
}
