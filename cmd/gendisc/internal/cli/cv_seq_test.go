package cli

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/hmm"
	"github.com/gendisc/gendisc/registry"
)

// sequenceKinds returns the fitted kinds of sentences of the registry.
func sequenceKinds() []*registry.Kind {
	var out []*registry.Kind
	for _, name := range kindNames() {
		if k, _ := registry.Lookup(name); k.Input == registry.Sequences && k.Fitted() {
			out = append(out, k)
		}
	}
	return out
}

// TestTuneEverySequenceKind runs every kind of sentences of the registry
// through tune (a new one is covered without a change here), searching
// the first of its flags that its fit flags leave alone at its default
// value, by the token error on two folds of 60 sentences: the JSON has
// the metric "error", every setting eval's figures, and the model file
// is of the kind. TestCVEveryKind runs them through cv.
func TestTuneEverySequenceKind(t *testing.T) {
	kinds := sequenceKinds()
	if len(kinds) < 2 {
		t.Fatalf("kinds of sentences %v: want hmm and crf at least", kinds)
	}
	data, _ := treebankSlice(t, t.TempDir(), "ud_english_ewt_dev", 0, 60)
	for _, k := range kinds {
		t.Run(k.Name, func(t *testing.T) {
			kfs := flag.NewFlagSet(k.Name, flag.ContinueOnError)
			k.Flags(kfs)
			grid := ""
			kfs.VisitAll(func(f *flag.Flag) {
				given := slices.ContainsFunc(kindFitFlags[k.Name], func(a string) bool { return a == "--"+f.Name })
				if grid == "" && !given && f.DefValue != "" && f.Name != "seed" && f.Name != "jobs" {
					grid = f.Name + "=" + f.DefValue
				}
			})
			if grid == "" {
				t.Skipf("--model %s has no flag to search", k.Name)
			}
			out := filepath.Join(t.TempDir(), "m.json")
			args := append([]string{"tune", "--data", data, "--model", k.Name, "--grid", grid, "--folds", "2", "--json", "--out", out}, kindFitFlags[k.Name]...)
			var got struct {
				Metric   string
				Settings []struct {
					Params   map[string]string
					Mean, SE map[string]any
				}
				Best struct{ Params map[string]string }
			}
			stdout := mustRun(t, args...)
			if err := json.Unmarshal([]byte(stdout), &got); err != nil {
				t.Fatalf("%v:\n%s", err, stdout)
			}
			if got.Metric != "error" || len(got.Settings) != 1 || got.Settings[0].Mean["accuracy"] == nil || got.Settings[0].Mean["error"] == nil || len(got.Best.Params) != 1 {
				t.Errorf("--grid %s: %s", grid, stdout)
			}
			if _, m, err := (&Env{}).loadModel(out); err != nil || m.Kind() != k.Name {
				t.Errorf("the model file: %v", err)
			}
		})
	}
}

// TestCVSequences checks cv of an HMM on sentences: the folds' sentences
// add up to the file's, the fold file has a fold number per sentence and
// reproduces the JSON byte for byte, --out has a column per tag's figure
// named by the tag, and --spans adds the span figures.
func TestCVSequences(t *testing.T) {
	dir := t.TempDir()
	data, sentences := treebankSlice(t, dir, "ud_english_ewt_dev", 0, 90)
	folds, table := filepath.Join(dir, "folds.csv"), filepath.Join(dir, "folds-table.csv")
	first := mustRun(t, "cv", "--model", "hmm", "--data", data, "--folds", "4", "--seed", "5", "--json", "--folds-out", folds, "--out", table)
	got := decodeCV(t, first)
	n := 0
	for _, f := range got.Folds {
		var rows int
		json.Unmarshal(f["rows"], &rows)
		n += rows
	}
	if len(got.Folds) != 4 || n != len(sentences) {
		t.Errorf("%d folds of %d sentences in all, want 4 of %d", len(got.Folds), n, len(sentences))
	}
	b, _ := os.ReadFile(folds)
	if lines := strings.Split(strings.TrimSpace(string(b)), "\n"); len(lines) != len(sentences)+1 || lines[0] != "fold" {
		t.Errorf("fold file of %d lines, want the header and %d", len(lines), len(sentences))
	}
	again := mustRun(t, "cv", "--model", "hmm", "--data", data, "--folds-in", folds, "--json")
	if again != first {
		t.Error("--folds-in of --folds-out's file gives other figures")
	}
	b, _ = os.ReadFile(table)
	header := strings.Split(strings.SplitN(string(b), "\n", 2)[0], ",")
	for _, col := range []string{"fold", "rows", "accuracy", "error", "macro_avg.f1", "per_tag.NOUN.f1", "confusion.0.0"} {
		if !slices.Contains(header, col) {
			t.Errorf("--out has no column %q: %q", col, header)
		}
	}
	text := mustRun(t, "cv", "--model", "hmm", "--data", data, "--folds", "3", "--spans", "--order", "1")
	for _, line := range []string{"sentences ", "sentence_accuracy ", "unknown_accuracy ", "spans.F1 "} {
		if !strings.Contains(text, "\n"+line) {
			t.Errorf("the report has no line %q:\n%s", line, text)
		}
	}
	if strings.Contains(text, "\nrows ") {
		t.Errorf("the report has a line of rows beside that of sentences:\n%s", text)
	}
}

// TestCVSequencesBadInput: the misuses and bad inputs of cv and tune on
// sentences are one-line errors (a misuse followed by the usage line),
// exit 2 for a misuse and 1 for the data, naming the fold, the flag or
// the setting; no file is left.
func TestCVSequencesBadInput(t *testing.T) {
	dir := t.TempDir()
	data, _ := treebankSlice(t, dir, "ud_english_ewt_dev", 0, 12)
	zero := filepath.Join(dir, "zero.csv")
	os.WriteFile(zero, []byte("fold\n0\n2\n0\n2\n0\n2\n0\n2\n0\n2\n0\n2\n"), 0o644)
	short := filepath.Join(dir, "short.csv")
	os.WriteFile(short, []byte("fold\n0\n1\n"), 0o644)
	out := filepath.Join(dir, "out.csv")
	model := filepath.Join(dir, "m.json")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"cv", "--model", "hmm", "--data", data, "--folds", "20", "--out", out}, 1, "--folds 20 is more than its 12 sentences"},
		{[]string{"cv", "--model", "hmm", "--data", data, "--folds-in", zero, "--out", out}, 1, "fold 1 has no sentences"},
		{[]string{"cv", "--model", "hmm", "--data", data, "--folds-in", short, "--out", out}, 1, "2 fold numbers for the 12 rows"},
		{[]string{"cv", "--model", "hmm", "--data", data, "--folds", "loo"}, 2, "--folds loo: leave-one-out of sentences"},
		{[]string{"cv", "--model", "hmm", "--data", data, "--group", "doc"}, 2, "--group doc: sentences have no columns"},
		{[]string{"cv", "--model", "hmm", "--data", data, "--target", "x"}, 2, "--target is a flag of reading tables"},
		{[]string{"cv", "--model", "gaussian-nb", "--data", "iris", "--spans"}, 2, "--spans is for the BIO/IOB tags"},
		{[]string{"tune", "--model", "hmm", "--data", data, "--grid", "emission-alpha=0.1,-1", "--out", model}, 2, "setting emission-alpha=-1"},
		{[]string{"tune", "--model", "crf", "--data", data, "--grid", "c2=1,x", "--out", model}, 2, `c2 "x"`},
		{[]string{"tune", "--model", "hmm", "--data", data, "--grid", "order=1,2", "--folds", "13", "--out", model}, 1, "--folds 13 is more than its 12 sentences"},
		{[]string{"tune", "--model", "hmm", "--data", data, "--grid", "order=1,2", "--metric", "log-loss", "--out", model}, 2, `no metric "log-loss" for a hmm model (metrics: error, sentence-accuracy`},
	} {
		r := runCLI(t, "", tc.args...)
		first, rest, _ := strings.Cut(r.stderr, "\n")
		if r.code != tc.code || !strings.Contains(first, tc.want) || tc.code == 1 && rest != "" {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", strings.Join(tc.args[:2], " "), r.code, r.stderr, tc.code, tc.want)
		}
	}
	for _, f := range []string{out, model} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s was written", f)
		}
	}
}

// TestSplitCores checks how cv shares the cores between a CRF's folds and
// the goroutines of each fit.
func TestSplitCores(t *testing.T) {
	for _, tc := range []struct {
		jobs            string
		folds           int
		workers, perFit int
	}{
		{"2", 10, 2, 1},
		{"8", 3, 3, 2},
		{"1", 5, 1, 1},
		{"16", 5, 5, 3},
	} {
		if w, p := splitCores(tc.jobs, tc.folds); w != tc.workers || p != tc.perFit {
			t.Errorf("--jobs %s, %d folds: %d fits of %d goroutines, want %d of %d", tc.jobs, tc.folds, w, p, tc.workers, tc.perFit)
		}
	}
	if !kindHasFlag(mustKind(t, "crf"), "jobs") || kindHasFlag(mustKind(t, hmm.Kind), "jobs") {
		t.Error("kindHasFlag: the CRF has --jobs, the HMM not")
	}
}

func mustKind(t *testing.T, name string) *registry.Kind {
	k, err := registry.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestTuneSequencesRefitsBest checks that tune writes the model fit
// writes for the chosen setting, fitted on all the sentences, and that
// --one-se chooses the largest emission pseudo-count within one SE.
func TestTuneSequencesRefitsBest(t *testing.T) {
	dir := t.TempDir()
	data, _ := treebankSlice(t, dir, "ud_english_ewt_dev", 0, 200)
	out := filepath.Join(dir, "best.json")
	stdout := mustRun(t, "tune", "--model", "hmm", "--data", data, "--order", "1", "--grid", "emission-alpha=0,0.001,0.1,10", "--one-se", "--json", "--out", out)
	var got struct {
		Settings []struct {
			Params   map[string]string
			Mean, SE struct{ Error float64 }
		}
		Best struct {
			Params map[string]string
			Mean   float64
		}
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	best := 0
	for i, s := range got.Settings {
		if s.Mean.Error < got.Settings[best].Mean.Error {
			best = i
		}
	}
	want := ""
	for _, s := range got.Settings { // increasing values: the last within one SE
		if s.Mean.Error <= got.Settings[best].Mean.Error+got.Settings[best].SE.Error {
			want = s.Params["emission-alpha"]
		}
	}
	if chosen := got.Best.Params["emission-alpha"]; chosen != want {
		t.Errorf("one-SE choice %s, want %s: %s", chosen, want, stdout)
	}
	fitted := mustRun(t, "fit", "--model", "hmm", "--data", data, "--order", "1", "--emission-alpha", want)
	if b, _ := os.ReadFile(out); string(b) != fitted {
		t.Error("tune's model differs from fit's of the chosen setting")
	}
}

// TestTuneCRF searches a CRF's λ and attribute cut-off (c2, min-freq) on
// 40 sentences: four settings, each with eval's figures, and the one-SE
// choice the largest c2 within one SE of the best, then the largest
// min-freq.
func TestTuneCRF(t *testing.T) {
	dir := t.TempDir()
	data, _ := treebankSlice(t, dir, "ud_english_ewt_dev", 0, 40)
	out := filepath.Join(dir, "crf.json")
	stdout := mustRun(t, "tune", "--model", "crf", "--data", data, "--features", "bias,word,suffix:2", "--max-iter", "15",
		"--grid", "c2=0.1,3", "--grid", "min-freq=1,2", "--folds", "2", "--one-se", "--json", "--out", out)
	var got struct {
		Settings []struct {
			Params   map[string]string
			Mean, SE struct{ Error float64 }
		}
		Best struct{ Params map[string]string }
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Settings) != 4 {
		t.Fatalf("%d settings, want 4", len(got.Settings))
	}
	best := 0
	for i, s := range got.Settings {
		if s.Mean.Error < got.Settings[best].Mean.Error {
			best = i
		}
	}
	bound := got.Settings[best].Mean.Error + got.Settings[best].SE.Error
	want := -1
	for i, s := range got.Settings { // c2 then min-freq increase with i
		if s.Mean.Error <= bound {
			want = i
		}
	}
	if w := got.Settings[want].Params; got.Best.Params["c2"] != w["c2"] || got.Best.Params["min-freq"] != w["min-freq"] {
		t.Errorf("one-SE choice %v, want %v: %s", got.Best.Params, w, stdout)
	}
	if _, m, err := (&Env{}).loadModel(out); err != nil || m.Kind() != "crf" {
		t.Errorf("the model file: %v", err)
	}
}
