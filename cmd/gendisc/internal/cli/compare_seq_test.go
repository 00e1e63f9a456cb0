package cli

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestCompareSequences runs the HMM against the per-token pair on 20, 50
// and 100 sentences of EWT's dev set, 3 splits, twice with --jobs 1 and
// 2: curves.csv has the columns of tables' reports and the same bytes;
// the HMM's token error falls with m and is 0.209 at 100 sentences (the
// per-token classifiers: 0.305 and 0.250).
func TestCompareSequences(t *testing.T) {
	dir := t.TempDir()
	var curves [2][]byte
	for i, jobs := range []string{"1", "2"} {
		out := filepath.Join(dir, "r"+jobs)
		stdout := mustRun(t, "compare", "--data", "ud_english_ewt_dev", "--models", "hmm,nb-token,logistic-token",
			"--sizes", "20,50,100", "--splits", "3", "--seed", "1", "--jobs", jobs, "--out", out)
		if i == 0 && !strings.HasPrefix(stdout, "dataset             sentences  classes  m ") {
			t.Errorf("summary header:\n%s", stdout)
		}
		b, err := os.ReadFile(filepath.Join(out, "curves.csv"))
		if err != nil {
			t.Fatal(err)
		}
		curves[i] = b
		if html, _ := os.ReadFile(filepath.Join(out, "index.html")); !strings.Contains(string(html), "m training sentences") {
			t.Errorf("index.html does not describe the splits of sentences")
		}
		for _, f := range []string{"index.html", "summary.txt", "ud_english_ewt_dev.svg"} {
			if _, err := os.Stat(filepath.Join(out, f)); err != nil {
				t.Error(err)
			}
		}
	}
	if string(curves[0]) != string(curves[1]) {
		t.Errorf("curves.csv differs between --jobs 1 and --jobs 2")
	}
	rows, err := csv.NewReader(strings.NewReader(string(curves[0]))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"dataset", "model", "m", "splits", "mean_error", "std_error", "fallbacks", "warnings"}; !slices.Equal(rows[0], want) {
		t.Fatalf("columns %v, want %v", rows[0], want)
	}
	if len(rows) != 1+3*3 {
		t.Fatalf("%d rows, want 9 (3 models × 3 sizes)", len(rows)-1)
	}
	var hmm []float64
	for _, r := range rows[1:] {
		if r[1] == "hmm" {
			e, _ := strconv.ParseFloat(r[4], 64)
			hmm = append(hmm, e)
		}
	}
	if len(hmm) != 3 || !(hmm[0] > hmm[1] && hmm[1] > hmm[2]) || hmm[2] >= 0.22 {
		t.Errorf("hmm token errors at 20, 50, 100 sentences: %v; want falling, below 0.22 at 100", hmm)
	}
}

// TestCompareSequencesBadInput: a model that does not take sentences is a
// misuse (exit 2, the error in the first line, then the usage), and an
// unreadable data set an error (exit 1, one line), without a report.
func TestCompareSequencesBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--data", "ud_english_ewt_dev", "--models", "hmm,lda"}, 2, "--models: lda is not a model of sentences"},
		{[]string{"--data", "ud_english_ewt_dev", "--models", "hmm,frobnicate"}, 2, "--models: frobnicate is not a model of sentences"},
		{[]string{"--data", "no_such.conllu"}, 1, "no_such.conllu: no such file"},
		{[]string{"--data", "ud_english_ewt_dev,iris"}, 2, "--data: ud_english_ewt_dev is sequence data and iris a table"},
		{[]string{"--data", "ud_english_ewt_dev", "--sizes", "5000"}, 1, "no training-set size fits 2001 sentences"},
	} {
		out := filepath.Join(t.TempDir(), "r")
		args := append([]string{"compare", "--splits", "2", "--out", out}, tc.args...)
		r := runCLI(t, "", args...)
		first, _, _ := strings.Cut(r.stderr, "\n")
		lines := strings.Count(strings.TrimSpace(r.stderr), "\n") + 1
		if r.code != tc.code || !strings.Contains(first, tc.want) || tc.code == 1 && lines != 1 {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and one line with %q", strings.Join(args, " "), r.code, r.stderr, tc.code, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: left a report", strings.Join(args, " "))
		}
	}
}

// TestCompareSequenceFlags checks that compare reads sentences with fit's
// flags: --tag-column picks the tag of a column file (without it, the
// last column, one tag X, is compared), --seq-format reads a CoNLL-U
// file named .txt, and --tags chooses CoNLL-U's field; the flags of
// reading sentences with tables, and sentences given as attributes, are
// refused.
func TestCompareSequenceFlags(t *testing.T) {
	dir := t.TempDir()
	_, sentences := treebankSlice(t, dir, "ud_english_ewt_dev", 0, 120)
	var cols, conllu strings.Builder
	for _, s := range sentences {
		for i, w := range s.Tokens {
			cols.WriteString(w + " " + s.Tags[i] + " X\n")
			conllu.WriteString(strconv.Itoa(i+1) + "\t" + w + "\t_\t_\t" + s.Tags[i] + "\t_\t_\t_\t_\t_\n")
		}
		cols.WriteString("\n")
		conllu.WriteString("\n")
	}
	colFile, txtFile := filepath.Join(dir, "cols.conll"), filepath.Join(dir, "xpos.txt")
	os.WriteFile(colFile, []byte(cols.String()), 0o644)
	os.WriteFile(txtFile, []byte(conllu.String()), 0o644)
	classes := func(args ...string) string {
		t.Helper()
		out := mustRun(t, append([]string{"compare", "--models", "hmm", "--sizes", "50", "--splits", "1", "--out", filepath.Join(dir, "r")}, args...)...)
		lines := strings.Split(out, "\n")
		if len(lines) < 2 {
			t.Fatalf("summary:\n%s", out)
		}
		return strings.Fields(lines[1])[2]
	}
	tags := map[string]bool{}
	for _, s := range sentences {
		for _, tag := range s.Tags {
			tags[tag] = true
		}
	}
	want := strconv.Itoa(len(tags))
	if got := classes("--data", colFile); got != "1" {
		t.Errorf("compare of the last column: %s classes, want 1", got)
	}
	if got := classes("--data", colFile, "--tag-column", "2"); got != want {
		t.Errorf("compare --tag-column 2: %s classes, want %s", got, want)
	}
	if got := classes("--data", txtFile, "--seq-format", "conllu", "--tags", "xpos"); got != want {
		t.Errorf("compare --seq-format conllu --tags xpos: %s classes, want %s", got, want)
	}
	attrs := filepath.Join(dir, "a.crfsuite")
	os.WriteFile(attrs, []byte("X\ta\n\nY\tb\n"), 0o644)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--data", "iris", "--tags", "xpos"}, exitUsage, "--tags is a flag of reading sentences: --data holds tables"},
		{[]string{"--data", colFile, "--target", "x"}, exitUsage, "--target is a flag of reading tables: --data holds sentences"},
		{[]string{"--data", attrs}, exitFailure, "a.crfsuite: sentences given as attributes (CRFsuite's data format): compare's models read words"},
	} {
		r := runCLI(t, "", append([]string{"compare", "--splits", "1", "--out", filepath.Join(dir, "bad")}, tc.args...)...)
		if first, _, _ := strings.Cut(r.stderr, "\n"); r.code != tc.code || !strings.Contains(first, tc.want) {
			t.Errorf("compare %v: exit %d, stderr %q; want %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
}
