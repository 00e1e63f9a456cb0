package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/ngram"
)

func init() { kindData[ngram.Kind] = "sms_spam" }

// shakespeareText is a few lines of tinyshakespeare, a blank line between
// speeches.
const shakespeareText = `First Citizen:
Before we proceed any further, hear me speak.

All:
Speak, speak.

First Citizen:
You are all resolved rather to die than to famish?

All:
Resolved. resolved.
`

// TestNgramText fits a language model to a plain text file, samples it
// twice with one seed (the same bytes), and scores it: score --json's
// perplexity is 2 to the mean bits per token of the per-document scores,
// and eval gives the same cross-entropy.
func TestNgramText(t *testing.T) {
	dir := t.TempDir()
	txt, model := filepath.Join(dir, "s.txt"), filepath.Join(dir, "m.json")
	os.WriteFile(txt, []byte(shakespeareText), 0o644)
	mustRun(t, "fit", "--data", txt, "--model", "ngram", "--order", "2", "--keep-punct", "--out", model)
	a := mustRun(t, "sample", "--model", model, "-n", "3", "--seed", "5")
	if b := mustRun(t, "sample", "--model", model, "-n", "3", "--seed", "5"); a != b || strings.Count(a, "\n") != 3 {
		t.Errorf("two samples with seed 5:\n%s\n%s", a, b)
	}
	if p := mustRun(t, "sample", "--model", model, "-n", "1", "--prompt", "Speak", "--max-words", "1"); p != "Speak\n" {
		t.Errorf("a prompt of one word with --max-words 1: %q", p)
	}
	var sum struct {
		Documents  int
		Tokens     int
		TotalNats  float64 `json:"total_log_prob_nats"`
		Perplexity float64
	}
	if err := json.Unmarshal([]byte(mustRun(t, "score", "--model", model, "--data", txt, "--json")), &sum); err != nil {
		t.Fatal(err)
	}
	// 8 non-empty lines; tokens with punctuation 3 + 10 + 2 + 4 + 3 + 11 + 2 + 4, and 8 ends.
	if sum.Documents != 8 || sum.Tokens != 39+8 {
		t.Errorf("%d documents, %d tokens; want 8, 47", sum.Documents, sum.Tokens)
	}
	if want := math.Exp(-sum.TotalNats / float64(sum.Tokens)); math.Abs(sum.Perplexity-want) > 1e-12*want {
		t.Errorf("perplexity %v, want %v", sum.Perplexity, want)
	}
	rows := strings.Split(strings.TrimSpace(mustRun(t, "score", "--model", model, "--data", txt, "--quiet")), "\n")
	if len(rows) != 12 || rows[0] != "log_p_nats,log_p_bits,tokens,bits_per_token,perplexity" || rows[3] != "0,0,0,," {
		t.Errorf("score rows:\n%s", strings.Join(rows, "\n"))
	}
	var ev struct {
		LM struct{ Perplexity float64 } `json:"language_model"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "eval", "--model", model, "--data", txt, "--json")), &ev); err != nil {
		t.Fatal(err)
	}
	if ev.LM.Perplexity != sum.Perplexity {
		t.Errorf("eval's perplexity %v, score's %v", ev.LM.Perplexity, sum.Perplexity)
	}
	plain := filepath.Join(dir, "plain.txt") // no commas: it reads as a table of one column
	os.WriteFile(plain, []byte("to be or not to be\nthat is the question\n"), 0o644)
	if r := runCLI(t, "", "fit", "--stream", "--data", plain, "--model", "ngram"); r.code != 1 || !strings.Contains(r.stderr, "without --stream") {
		t.Errorf("fit --stream of a .txt file: exit %d, stderr %q", r.code, r.stderr)
	}
	// Paragraphs: the four speeches.
	mustRun(t, "fit", "--data", txt, "--model", "ngram", "--paragraphs", "--out", model)
	var rep struct {
		Parameters struct {
			Classes []struct{ Documents int }
		}
	}
	if err := json.Unmarshal([]byte(mustRun(t, "inspect", "--model", model, "--json")), &rep); err != nil {
		t.Fatal(err)
	}
	if n := rep.Parameters.Classes[0].Documents; n != 4 {
		t.Errorf("--paragraphs: %d documents, want 4", n)
	}
	if text := mustRun(t, "inspect", "--model", model); !strings.Contains(text, "D3+") || !strings.Contains(text, "most probable continuations") {
		t.Errorf("inspect:\n%s", text)
	}
}

// TestNgramBundled fits the bundled corpus and classifies Shakespeare's
// speakers; the refusals of bad flags.
func TestNgramBundled(t *testing.T) {
	if testing.Short() {
		t.Skip("fits Shakespeare")
	}
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	mustRun(t, "fit", "--data", "tinyshakespeare", "--model", "ngram", "--order", "3", "--keep-punct", "--out", model)
	out := mustRun(t, "sample", "--model", model, "-n", "3", "--seed", "1")
	if strings.Count(out, "\n") != 3 {
		t.Errorf("three lines: %q", out)
	}
	mustRun(t, "fit", "--data", "shakespeare_speeches", "--model", "ngram", "--target", "speaker", "--order", "2", "--out", model)
	if s := mustRun(t, "sample", "--model", model, "-n", "1", "--class", "ROMEO", "--seed", "2"); s == "" {
		t.Error("no speech of Romeo")
	}
	for _, args := range [][]string{
		{"fit", "--data", "tinyshakespeare", "--model", "ngram", "--smoothing", "good-turing"},
		{"fit", "--data", "tinyshakespeare", "--model", "ngram", "--order", "0"},
		{"sample", "--model", model, "-n", "1", "--temperature", "0"},
		{"sample", "--model", model, "-n", "1", "--class", "NOBODY"},
	} {
		if r := runCLI(t, "", args...); r.code == 0 {
			t.Errorf("gendisc %s: exit 0", strings.Join(args, " "))
		}
	}
}

// TestNgramExport exports a model to ARPA and reads it back: the same
// log-probability of every document as score gives.
func TestNgramExport(t *testing.T) {
	dir := t.TempDir()
	txt, model, arpa := filepath.Join(dir, "s.txt"), filepath.Join(dir, "m.json"), filepath.Join(dir, "m.arpa")
	os.WriteFile(txt, []byte(shakespeareText), 0o644)
	mustRun(t, "fit", "--data", txt, "--model", "ngram", "--out", model)
	mustRun(t, "export", "--model", model, "--format", "arpa", "--out", arpa)
	f, err := os.Open(arpa)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a, err := ngram.ReadARPA(f)
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		TotalNats float64 `json:"total_log_prob_nats"`
	}
	json.Unmarshal([]byte(mustRun(t, "score", "--model", model, "--data", txt, "--json")), &sum)
	total := 0.0
	for _, line := range strings.Split(shakespeareText, "\n") {
		if line != "" {
			lp, _ := a.LogProbTokens(ngram.Config{}.Tokenize(line))
			total += lp
		}
	}
	if math.Abs(total-sum.TotalNats) > 1e-12*math.Abs(total) {
		t.Errorf("ARPA log-probability %v, score's %v", total, sum.TotalNats)
	}
	if r := runCLI(t, "", "export", "--model", model, "--format", "json"); r.code != 2 {
		t.Errorf("--format json: exit %d", r.code)
	}
}

// TestARPAModelFile uses an exported ARPA file, plain and gzip-compressed,
// as the model of score, eval, sample and inspect: score and eval give
// the figures of the model file, sample continues its prompt and repeats
// with a seed, inspect names the orders.
func TestARPAModelFile(t *testing.T) {
	dir := t.TempDir()
	txt, model, arpa := filepath.Join(dir, "s.txt"), filepath.Join(dir, "m.json"), filepath.Join(dir, "m.arpa")
	os.WriteFile(txt, []byte(shakespeareText), 0o644)
	mustRun(t, "fit", "--data", txt, "--model", "ngram", "--out", model)
	mustRun(t, "export", "--model", model, "--format", "arpa", "--out", arpa)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	b, _ := os.ReadFile(arpa)
	zw.Write(b)
	zw.Close()
	os.WriteFile(arpa+".gz", gz.Bytes(), 0o644)
	type summary struct {
		Tokens     int     `json:"tokens"`
		TotalNats  float64 `json:"total_log_prob_nats"`
		Perplexity float64 `json:"perplexity"`
	}
	var want summary
	json.Unmarshal([]byte(mustRun(t, "score", "--model", model, "--data", txt, "--json")), &want)
	for _, m := range []string{arpa, arpa + ".gz"} {
		var got summary
		json.Unmarshal([]byte(mustRun(t, "score", "--model", m, "--data", txt, "--json")), &got)
		if got.Tokens != want.Tokens || math.Abs(got.TotalNats-want.TotalNats) > 1e-12*math.Abs(want.TotalNats) {
			t.Errorf("score --model %s: %+v, want %+v", filepath.Base(m), got, want)
		}
	}
	var ev struct {
		LM summary `json:"language_model"`
	}
	json.Unmarshal([]byte(mustRun(t, "eval", "--model", arpa, "--data", txt, "--json")), &ev)
	if math.Abs(ev.LM.Perplexity-want.Perplexity) > 1e-9*want.Perplexity {
		t.Errorf("eval: perplexity %v, want %v", ev.LM.Perplexity, want.Perplexity)
	}
	s := mustRun(t, "sample", "--model", arpa, "-n", "3", "--seed", "4", "--prompt", "the king", "--max-words", "10")
	if again := mustRun(t, "sample", "--model", arpa, "-n", "3", "--seed", "4", "--prompt", "the king", "--max-words", "10"); s != again || len(strings.Split(strings.TrimSpace(s), "\n")) != 3 {
		t.Errorf("sample: %q, then %q", s, again)
	}
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		if !strings.HasPrefix(line, "the king") || len(strings.Fields(line)) > 10 {
			t.Errorf("sample: %q does not continue the prompt within 10 tokens", line)
		}
	}
	if out := mustRun(t, "inspect", "--model", arpa); !strings.Contains(out, "kind: arpa") || !strings.Contains(out, "order: 3") {
		t.Errorf("inspect:\n%s", out)
	}
}

// TestNgramMergeUpdate fits two halves of a labelled text file and checks
// that merge, update and fit --stream write the model file of the fit on
// the whole file, byte for byte.
func TestNgramMergeUpdate(t *testing.T) {
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	var all, a, b strings.Builder
	for _, w := range []*strings.Builder{&all, &a, &b} {
		w.WriteString("text,who\n")
	}
	for i, line := range strings.Split(strings.TrimSpace(shakespeareText), "\n") {
		row := strconv.Quote(line) + "," + []string{"x", "y", "z"}[i%3] + "\n"
		all.WriteString(row)
		if i < 5 {
			a.WriteString(row)
		} else {
			b.WriteString(row)
		}
	}
	os.WriteFile(path("all.csv"), []byte(all.String()), 0o644)
	os.WriteFile(path("a.csv"), []byte(a.String()), 0o644)
	os.WriteFile(path("b.csv"), []byte(b.String()), 0o644)
	flags := []string{"--model", "ngram", "--order", "2", "--keep-punct", "--text", "text"}
	mustRun(t, append([]string{"fit", "--data", path("all.csv"), "--out", path("all.json")}, flags...)...)
	mustRun(t, append([]string{"fit", "--data", path("a.csv"), "--out", path("a.json")}, flags...)...)
	mustRun(t, append([]string{"fit", "--data", path("b.csv"), "--out", path("b.json")}, flags...)...)
	mustRun(t, append([]string{"fit", "--stream", "--data", path("all.csv"), "--out", path("s.json")}, flags...)...)
	mustRun(t, "merge", path("a.json"), path("b.json"), "--out", path("m.json"))
	mustRun(t, "update", "--model", path("a.json"), "--data", path("b.csv"), "--out", path("u.json"))
	want, _ := os.ReadFile(path("all.json"))
	for _, name := range []string{"s.json", "m.json", "u.json"} {
		if got, _ := os.ReadFile(path(name)); string(got) != string(want) {
			t.Errorf("%s differs from the fit on all the rows", name)
		}
	}
}
