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

// TestCompareSequencesBadInput: a model that does not take sentences,
// --tune (which compare ignored on sentences) and --test-data on tables,
// or not one per --data name, are a misuse (exit 2, the error in the
// first line, then the usage); an unreadable data set, or fewer test
// sentences than splits, an error (exit 1, one line); none leaves a
// report.
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
		{[]string{"--data", "ud_english_ewt_dev", "--tune"}, 2, "--tune applies to tables: compare does not tune the models of sentences"},
		{[]string{"--data", "iris", "--test-data", "ud_english_ewt_dev"}, 2, "--test-data applies to sequence data"},
		{[]string{"--data", "ud_english_ewt_dev", "--test-data", "ud_english_ewt_dev,ud_english_ewt_dev"}, 2, "--test-data: 2 names for 1 --data names"},
		{[]string{"--data", "ud_english_ewt_dev", "--test-data", "iris"}, 2, "--test-data: iris is not sequence data"},
		{[]string{"--data", "ud_english_ewt_dev", "--test-data", "no_such.conllu"}, 1, "no_such.conllu: no such file"},
		{[]string{"--data", "ud_english_ewt_dev", "--test-data", "testdata/two_sentences.conllu", "--splits", "3", "--models", "hmm,nb-token"}, 1, "2 tagged test sentences for 3 splits"},
	} {
		out := filepath.Join(t.TempDir(), "r")
		args := append([]string{"compare", "--out", out}, tc.args...)
		if !slices.Contains(args, "--splits") {
			args = append(args, "--splits", "2")
		}
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
// file named .txt, and --tags chooses CoNLL-U's field (--test-data's
// sentences are read with the flags too); the flags of reading sentences
// with tables, and sentences given as attributes, are refused.
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
	// The test sentences are read with the flags too: tested on their
	// last column, X, the HMM would err on almost every token.
	out := mustRun(t, "compare", "--models", "hmm", "--sizes", "50", "--splits", "1", "--out", filepath.Join(dir, "r"),
		"--data", colFile, "--test-data", colFile, "--tag-column", "2")
	row := strings.Fields(strings.Split(out, "\n")[1])
	if e, _ := strconv.ParseFloat(row[4], 64); row[2] != want || !(e < 0.5) {
		t.Errorf("compare --test-data --tag-column 2: %s classes, error %s; want %s classes, an error below 0.5", row[2], row[4], want)
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
		{[]string{"--data", colFile, "--test-data", attrs}, exitFailure, "a.crfsuite: sentences given as attributes (CRFsuite's data format): compare's models read words"},
	} {
		r := runCLI(t, "", append([]string{"compare", "--splits", "1", "--out", filepath.Join(dir, "bad")}, tc.args...)...)
		if first, _, _ := strings.Cut(r.stderr, "\n"); r.code != tc.code || !strings.Contains(first, tc.want) {
			t.Errorf("compare %v: exit %d, stderr %q; want %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
}

// TestCompareSequencesTestData runs the HMM against the CRF (5
// iterations) on 50 sentences and all 2001 of EWT's dev set, tested on
// the 2001 in 2 parts (--test-data), twice with --jobs 1 and 2: every file
// of the report is the same, byte for byte, but for the command line in
// index.html; at m = all (2001, which held-out splits cannot reach) the
// splits train on the same sentences and differ by their test parts, so
// the standard errors are not 0.
func TestCompareSequencesTestData(t *testing.T) {
	dir := t.TempDir()
	files := []string{"curves.csv", "summary.txt", "ud_english_ewt_dev.svg", "index.html"}
	var reports [2]map[string]string
	for i, jobs := range []string{"1", "2"} {
		out := filepath.Join(dir, "r"+jobs)
		mustRun(t, "compare", "--data", "ud_english_ewt_dev", "--test-data", "ud_english_ewt_dev", "--models", "hmm,crf", "--max-iter", "5",
			"--sizes", "50,2001", "--splits", "2", "--seed", "1", "--jobs", jobs, "--out", out)
		reports[i] = map[string]string{}
		for _, f := range files {
			b, err := os.ReadFile(filepath.Join(out, f))
			if err != nil {
				t.Fatal(err)
			}
			reports[i][f] = strings.ReplaceAll(string(b), "--jobs "+jobs+" --out "+out, "--jobs N --out DIR")
		}
	}
	for _, f := range files {
		if reports[0][f] != reports[1][f] {
			t.Errorf("%s differs between --jobs 1 and --jobs 2", f)
		}
	}
	if !strings.Contains(reports[0]["index.html"], "are those of ud_english_ewt_dev (2001 sentences), cut at random into 2 parts") {
		t.Errorf("index.html does not describe the test parts")
	}
	rows, err := csv.NewReader(strings.NewReader(reports[0]["curves.csv"])).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+2*2 {
		t.Fatalf("%d rows, want 4 (2 models × 2 sizes)", len(rows)-1)
	}
	for _, r := range rows[1:] {
		if se, _ := strconv.ParseFloat(r[5], 64); r[2] == "2001" && se == 0 {
			t.Errorf("%s at m = all: standard error 0; want the spread of the test parts", r[1])
		}
	}
}
