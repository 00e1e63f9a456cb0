package cli

import (
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/datasets"
)

// rawDevSentences returns the first sentences of EWT's dev part as they
// are in its file, up to the first that has an empty node, so that they
// hold comments, multiword tokens and an empty node.
func rawDevSentences(t *testing.T) string {
	t.Helper()
	r, err := datasets.OpenTreebank("ud_english_ewt_dev")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	all, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	emptyNode := regexp.MustCompile(`(?m)^[0-9]+\.[0-9]+\t`)
	for s := range strings.SplitSeq(string(all), "\n\n") {
		b.WriteString(s + "\n\n")
		if emptyNode.MatchString(s) {
			break
		}
	}
	text := b.String()
	if !regexp.MustCompile(`(?m)^[0-9]+-[0-9]+\t`).MatchString(text) || !strings.Contains(text, "# sent_id") {
		t.Fatal("no multiword token or comment in the sentences")
	}
	return text
}

// csvTags returns the tag column of predict's rows, sentence by sentence.
func csvTags(t *testing.T, rows string) [][]string {
	t.Helper()
	records, err := csv.NewReader(strings.NewReader(rows)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var tags [][]string
	for _, r := range records[1:] {
		if r[1] == "1" {
			tags = append(tags, nil)
		}
		tags[len(tags)-1] = append(tags[len(tags)-1], r[3])
	}
	return tags
}

// TestPredictTagged checks predict --tagged (and an --out of a sequence
// format) on each format, the tags removed from the input: the output is
// the input with the predicted tags (those of predict's rows) in the tag
// field, every other line and field as it was.
func TestPredictTagged(t *testing.T) {
	dir := t.TempDir()
	train, _ := treebankSlice(t, dir, "ud_english_ewt", 0, 400)
	model := filepath.Join(dir, "hmm.json")
	mustRun(t, "fit", "--model", "hmm", "--data", train, "--out", model)
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	wordLine := regexp.MustCompile(`^[0-9]+\t`)

	// CoNLL-U: UPOS blanked ("_"), predicted into UPOS; every other field
	// and line as it was.
	orig := rawDevSentences(t)
	var blanked strings.Builder
	for line := range strings.Lines(orig) {
		if f := strings.Split(line, "\t"); wordLine.MatchString(line) {
			f[3] = "_"
			line = strings.Join(f, "\t")
		}
		blanked.WriteString(line)
	}
	in := write("in.conllu", blanked.String())
	out := filepath.Join(dir, "out.conllu")
	if r := runCLI(t, "", "predict", "--model", model, "--data", in, "--out", out); r.code != 0 || r.stdout != "" {
		t.Fatalf("predict --out out.conllu: exit %d, stderr %q", r.code, r.stderr)
	}
	tags := csvTags(t, mustRun(t, "predict", "--model", model, "--data", in))
	got, _ := os.ReadFile(out)
	outLines, inLines := strings.Split(string(got), "\n"), strings.Split(blanked.String(), "\n")
	if len(outLines) != len(inLines) {
		t.Fatalf("%d lines written for %d", len(outLines), len(inLines))
	}
	sentence, token := 0, 0
	for i, line := range inLines {
		if line == "" && token > 0 {
			sentence, token = sentence+1, 0
		}
		if !wordLine.MatchString(line) {
			if outLines[i] != line {
				t.Fatalf("line %d %q written %q", i+1, line, outLines[i])
			}
			continue
		}
		f, g := strings.Split(line, "\t"), strings.Split(outLines[i], "\t")
		if g[3] != tags[sentence][token] {
			t.Fatalf("line %d: upos %q, predicted %q", i+1, g[3], tags[sentence][token])
		}
		f[3] = g[3]
		if strings.Join(f, "\t") != outLines[i] {
			t.Fatalf("line %d %q written %q", i+1, line, outLines[i])
		}
		token++
	}
	if sentence != len(tags) {
		t.Fatalf("%d sentences written, %d predicted", sentence, len(tags))
	}

	// Columns, JSON lines: untagged in, tags out; the same tags as rows.
	columns := write("in.conll", "The\ndog\nbarks\n\nA\ncat\n")
	rowsTags := csvTags(t, mustRun(t, "predict", "--model", model, "--data", columns))
	wantColumns := "The " + rowsTags[0][0] + "\ndog " + rowsTags[0][1] + "\nbarks " + rowsTags[0][2] + "\n\nA " + rowsTags[1][0] + "\ncat " + rowsTags[1][1] + "\n"
	if got := mustRun(t, "predict", "--model", model, "--data", columns, "--tagged"); got != wantColumns {
		t.Errorf("columns: %q, want %q", got, wantColumns)
	}
	tagged := write("t.conll", "The\tDET\tX\ndog\tNOUN\tX\nbarks\tVERB\tX\n\nA\tDET\tX\ncat\tNOUN\tX\n")
	wantTagged := "The\t" + rowsTags[0][0] + "\tX\ndog\t" + rowsTags[0][1] + "\tX\nbarks\t" + rowsTags[0][2] + "\tX\n\nA\t" + rowsTags[1][0] + "\tX\ncat\t" + rowsTags[1][1] + "\tX\n"
	if got := mustRun(t, "predict", "--model", model, "--data", tagged, "--tag-column", "2", "--tagged"); got != wantTagged {
		t.Errorf("columns with --tag-column 2: %q, want %q", got, wantTagged)
	}
	jsonl := write("in.jsonl", `{"id": "s1", "tokens": ["The", "dog", "barks"]}`+"\n"+`{"tokens": ["A", "cat"], "tags": ["X", "Y"]}`+"\n")
	wantJSON := `{"id":"s1","tags":["` + strings.Join(rowsTags[0], `","`) + `"],"tokens":["The","dog","barks"]}` + "\n" +
		`{"tags":["` + strings.Join(rowsTags[1], `","`) + `"],"tokens":["A","cat"]}` + "\n"
	if got := mustRun(t, "predict", "--model", model, "--data", jsonl, "--tagged"); got != wantJSON {
		t.Errorf("JSON lines: %s, want %s", got, wantJSON)
	}
	// Without --tagged, an --out of JSON lines is rows, as before.
	rowsOut := filepath.Join(dir, "rows.jsonl")
	mustRun(t, "predict", "--model", model, "--data", jsonl, "--out", rowsOut)
	if got, _ := os.ReadFile(rowsOut); !strings.Contains(string(got), `"sentence":1,"token":1,"word":"The"`) {
		t.Errorf("predict --out rows.jsonl: %s", got)
	}
	// Compressed.
	gz := filepath.Join(dir, "out.conll.gz")
	mustRun(t, "predict", "--model", model, "--data", columns, "--out", gz)
	if got := mustRun(t, "predict", "--model", model, "--data", gz, "--tagged"); got != wantColumns {
		t.Errorf("out.conll.gz read back and tagged again: %q", got)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--data", in, "--out", filepath.Join(dir, "x.conll")}, "--out " + filepath.Join(dir, "x.conll") + ": tagged sentences are written in the format of --data, conllu, not conll"},
		{[]string{"--data", in, "--tagged", "--marginals"}, "--marginals writes rows of probabilities"},
		{[]string{"--data", in, "--tagged", "--format", "tsv"}, "--format tsv is of rows"},
		{[]string{"--data", in, "--out", filepath.Join(dir, "x.conllu.xz")}, "not .xz"},
	} {
		r := runCLI(t, "", append([]string{"predict", "--model", model}, tc.args...)...)
		if first, _, _ := strings.Cut(r.stderr, "\n"); r.code != exitUsage || !strings.Contains(first, tc.want) {
			t.Errorf("predict %v: exit %d, stderr %q; want %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
	nb := filepath.Join(dir, "nb.json")
	mustRun(t, "fit", "--data", "iris", "--out", nb)
	if r := runCLI(t, "", "predict", "--model", nb, "--data", "iris", "--out", filepath.Join(dir, "x.conllu")); r.code != exitUsage || !strings.Contains(r.stderr, `unknown extension ".conllu"`) {
		t.Errorf("predict of a classifier to x.conllu: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := runCLI(t, "", "predict", "--model", nb, "--data", "iris", "--tagged"); r.code != exitUsage || !strings.Contains(r.stderr, "--tagged writes tagged sentences: "+nb+" is a nb model, not a tagger") {
		t.Errorf("predict --tagged of a classifier: exit %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.conll")); err == nil {
		t.Errorf("a refused predict left its output")
	}
}
