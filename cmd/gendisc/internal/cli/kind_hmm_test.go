package cli

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/hmm"
	"github.com/gendisc/gendisc/metrics/seqeval"
	"github.com/gendisc/gendisc/seq"
	"github.com/gendisc/gendisc/seqio"
)

// The hidden Markov model tagger on the command line: fit, predict, eval,
// score, sample, inspect, update and merge on slices of the English Web
// Treebank, each output checked against the library on the same model.
// TestEveryKind, TestJSONKeysSnakeCase and TestKindFitConcurrent fit it
// on the bundled dev part.

func init() { kindData[hmm.Kind] = "ud_english_ewt_dev" }

// treebankSlice writes sentences [from, to) of the bundled treebank name
// to a CoNLL-U file in dir and returns its path and the sentences.
func treebankSlice(t *testing.T, dir, name string, from, to int) (string, []seq.Sentence) {
	t.Helper()
	c, err := (&Env{}).readSentences(name, &seqFlags{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, s := range c.Sentences[from:to] {
		for i, w := range s.Tokens {
			b.WriteString(strconv.Itoa(i+1) + "\t" + w + "\t_\t" + s.Tags[i] + "\t_\t_\t_\t_\t_\t_\n")
		}
		b.WriteString("\n")
	}
	path := filepath.Join(dir, name+"-"+strconv.Itoa(from)+"-"+strconv.Itoa(to)+".conllu")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, c.Sentences[from:to]
}

// loadHMM reads the hmm model file at path.
func loadHMM(t *testing.T, path string) *hmm.Model {
	t.Helper()
	_, m, err := (&Env{}).loadModel(path)
	if err != nil {
		t.Fatal(err)
	}
	return m.(*hmm.Model)
}

// TestHMMCommands fits an HMM on 600 sentences of EWT's training part and
// checks predict, predict --marginals, score, eval and inspect on 150 of
// its dev part against the library's answers for the same model.
func TestHMMCommands(t *testing.T) {
	dir := t.TempDir()
	train, _ := treebankSlice(t, dir, "ud_english_ewt", 0, 600)
	dev, sentences := treebankSlice(t, dir, "ud_english_ewt_dev", 0, 150)
	model := filepath.Join(dir, "hmm.json")
	mustRun(t, "fit", "--model", "hmm", "--data", train, "--out", model)
	m := loadHMM(t, model)
	var tokens [][]string
	for _, s := range sentences {
		tokens = append(tokens, s.Tokens)
	}
	want := m.TagAll(tokens)

	rows := readCSV(t, mustRun(t, "predict", "--model", model, "--data", dev, "--marginals"))
	header := append([]string{"sentence", "token", "word", "tag"}, prefixed("p_", m.Tags())...)
	if !slices.Equal(rows[0], header) {
		t.Fatalf("predict --marginals header %q, want %q", rows[0], header)
	}
	rows = rows[1:]
	n := 0
	for i, s := range sentences {
		marg := m.Marginals(s.Tokens)
		for j, w := range s.Tokens {
			r := rows[n]
			n++
			if r[0] != strconv.Itoa(i+1) || r[1] != strconv.Itoa(j+1) || r[2] != w || r[3] != want[i][j] {
				t.Fatalf("predict row %d: %q, want sentence %d token %d %q tagged %s", n, r, i+1, j+1, w, want[i][j])
			}
			sum := 0.0
			for k, cell := range r[4:] {
				p, err := strconv.ParseFloat(cell, 64)
				if err != nil || p != marg[j][k] {
					t.Fatalf("predict row %d: p_%s %q, want %v", n, m.Tags()[k], cell, marg[j][k])
				}
				sum += p
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Fatalf("predict row %d: the marginals sum to %v", n, sum)
			}
		}
	}
	if n != len(rows) {
		t.Fatalf("predict wrote %d rows for %d tokens", len(rows), n)
	}

	rows = readCSV(t, mustRun(t, "score", "--model", model, "--data", dev))
	if !slices.Equal(rows[0], []string{"sentence", "tokens", "log_p_nats", "log_p_bits"}) || len(rows) != len(sentences)+1 {
		t.Fatalf("score wrote %d rows, header %q", len(rows), rows[0])
	}
	for i, s := range sentences {
		lp := m.LogProb(s.Tokens)
		if r := rows[i+1]; r[1] != strconv.Itoa(len(s.Tokens)) || r[2] != fmtFloat(lp) || r[3] != fmtFloat(lp/math.Ln2) {
			t.Fatalf("score of sentence %d: %q, want log p %v", i+1, r, lp)
		}
	}

	var truth [][]string
	for _, s := range sentences {
		truth = append(truth, s.Tags)
	}
	ref, err := seqeval.Evaluate(truth, want, tokens, m.Known)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Tokens, Correct, UnknownTokens, UnknownCorrect, SentencesCorrect int
		Accuracy                                                         float64
		Confusion                                                        [][]int
	}
	out := mustRun(t, "eval", "--model", model, "--data", dev, "--json")
	if err := json.Unmarshal([]byte(strings.NewReplacer("unknown_tokens", "unknowntokens", "unknown_correct", "unknowncorrect", "sentences_correct", "sentencescorrect").Replace(out)), &got); err != nil {
		t.Fatal(err)
	}
	if got.Tokens != ref.Tokens || got.Correct != ref.Correct || got.Accuracy != ref.Accuracy || got.UnknownTokens != ref.Unknown ||
		got.UnknownCorrect != ref.UnknownCorrect || got.SentencesCorrect != ref.SentencesCorrect || !slices.EqualFunc(got.Confusion, ref.Confusion, slices.Equal) {
		t.Errorf("eval --json %+v, seqeval %+v", got, ref)
	}
	if ref.Unknown == 0 || ref.Accuracy < 0.8 {
		t.Errorf("%d unknown tokens, accuracy %v: not the test meant", ref.Unknown, ref.Accuracy)
	}
	text := mustRun(t, "eval", "--model", model, "--data", dev)
	if !strings.HasPrefix(text, "token accuracy         "+strconv.FormatFloat(ref.Accuracy, 'f', 4, 64)) || !strings.Contains(text, "unknown-word accuracy") ||
		!strings.Contains(text, "confusion (rows: true tag") {
		t.Errorf("eval text:\n%s", text)
	}

	var rep struct {
		Parameters struct {
			TransitionTags []string    `json:"transition_tags"`
			TagTransitions [][]float64 `json:"tag_transitions"`
			Lambdas        []float64   `json:"lambdas"`
		}
	}
	if err := json.Unmarshal([]byte(mustRun(t, "inspect", "--model", model, "--json")), &rep); err != nil {
		t.Fatal(err)
	}
	if p := rep.Parameters; !slices.Equal(p.TransitionTags, append(m.Tags(), hmm.Boundary)) || !slices.EqualFunc(p.TagTransitions, m.TagTransitions(), slices.Equal) ||
		!slices.Equal(p.Lambdas, m.Lambdas()) || len(p.Lambdas) != 3 {
		t.Errorf("inspect --json: %+v", p)
	}
	text = mustRun(t, "inspect", "--model", model)
	for _, part := range []string{"transitions: interpolated (λ = ", "most likely words per tag", "  DET: the ", "suffix model θ by word class: lower "} {
		if !strings.Contains(text, part) {
			t.Errorf("inspect lacks %q:\n%s", part, text)
		}
	}
}

// prefixed returns the names with prefix before each.
func prefixed(prefix string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	return out
}

// TestHMMSample checks that sample draws tagged sentences in the column
// format, the same for the same seed, of known words, starting with the
// prompt's tags or words.
func TestHMMSample(t *testing.T) {
	dir := t.TempDir()
	train, _ := treebankSlice(t, dir, "ud_english_ewt", 0, 300)
	model := filepath.Join(dir, "hmm.json")
	mustRun(t, "fit", "--model", "hmm", "--data", train, "--out", model, "--order", "1")
	m := loadHMM(t, model)
	out := mustRun(t, "sample", "--model", model, "-n", "5", "--seed", "3", "--max-words", "12")
	if again := mustRun(t, "sample", "--model", model, "-n", "5", "--seed", "3", "--max-words", "12"); again != out {
		t.Errorf("two samples with --seed 3 differ")
	}
	if other := mustRun(t, "sample", "--model", model, "-n", "5", "--seed", "4", "--max-words", "12"); other == out {
		t.Errorf("samples with --seed 3 and 4 are the same")
	}
	c, err := seqio.Read(strings.NewReader(out), "sample.conll", seqio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Sentences) != 5 {
		t.Fatalf("sample -n 5 wrote %d sentences:\n%s", len(c.Sentences), out)
	}
	for _, s := range c.Sentences {
		if len(s.Tokens) > 12 {
			t.Errorf("a sentence of %d tokens, more than --max-words 12", len(s.Tokens))
		}
		for i, w := range s.Tokens {
			if !m.Known(w) || !slices.Contains(m.Tags(), s.Tags[i]) {
				t.Errorf("sampled %s/%s: not a known word with a tag of the model", w, s.Tags[i])
			}
		}
	}
	c, err = seqio.Read(strings.NewReader(mustRun(t, "sample", "--model", model, "-n", "3", "--prompt-tags", "DET ADJ")), "s.conll", seqio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range c.Sentences {
		if len(s.Tags) < 2 || s.Tags[0] != "DET" || s.Tags[1] != "ADJ" {
			t.Errorf("--prompt-tags 'DET ADJ' gave %q", s.Tags)
		}
	}
	c, err = seqio.Read(strings.NewReader(mustRun(t, "sample", "--model", model, "-n", "2", "--prompt", "the Zorblax")), "s.conll", seqio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := c.Sentences[0]; len(s.Tokens) < 2 || s.Tokens[0] != "the" || s.Tokens[1] != "Zorblax" || !slices.Equal(s.Tags[:2], m.Tag([]string{"the", "Zorblax"})) {
		t.Errorf("--prompt 'the Zorblax' gave %q %q", s.Tokens, s.Tags)
	}
	if r := runCLI(t, "", "sample", "--model", model, "-n", "1", "--prompt", "the", "--prompt-tags", "DET"); r.code != exitUsage {
		t.Errorf("--prompt with --prompt-tags: exit %d, want %d", r.code, exitUsage)
	}
	if r := runCLI(t, "", "sample", "--model", model, "-n", "1", "--class", "NOUN"); r.code != exitUsage {
		t.Errorf("sample --class of a tagger: exit %d, want %d", r.code, exitUsage)
	}
	if r := runCLI(t, "", "sample", "--model", model, "-n", "1", "--prompt-tags", "NOPE"); r.code != exitFailure || !strings.Contains(r.stderr, `"NOPE"`) {
		t.Errorf("--prompt-tags NOPE: exit %d, %s", r.code, r.stderr)
	}
}

// TestHMMMergeEqualsFit checks that the models of two shards merged, the
// model of one shard updated with the other and fit --stream are the
// model file of the fit on both, byte for byte.
func TestHMMMergeEqualsFit(t *testing.T) {
	dir := t.TempDir()
	a, _ := treebankSlice(t, dir, "ud_english_ewt", 0, 250)
	b, _ := treebankSlice(t, dir, "ud_english_ewt", 250, 500)
	both, _ := treebankSlice(t, dir, "ud_english_ewt", 0, 500)
	path := func(name string) string { return filepath.Join(dir, name) }
	mustRun(t, "fit", "--model", "hmm", "--data", a, "--out", path("a.json"))
	mustRun(t, "fit", "--model", "hmm", "--data", b, "--out", path("b.json"))
	mustRun(t, "fit", "--model", "hmm", "--data", both, "--out", path("both.json"))
	mustRun(t, "merge", path("a.json"), path("b.json"), "--out", path("merged.json"))
	mustRun(t, "update", "--model", path("a.json"), "--data", b, "--out", path("updated.json"))
	mustRun(t, "fit", "--model", "hmm", "--data", both, "--stream", "--out", path("stream.json"))
	want, err := os.ReadFile(path("both.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"merged.json", "updated.json", "stream.json"} {
		got, err := os.ReadFile(path(name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the fit on both shards", name)
		}
	}
	if a, b := mustRun(t, "inspect", "--model", path("a.json")), mustRun(t, "inspect", "--model", path("both.json")); a == b {
		t.Errorf("the model of one shard is the model of both: the test proves nothing")
	}
}

// TestHMMBadInput checks that bad sequence data gets a one-line error
// naming the file, line and column, exit 1 and no model file.
func TestHMMBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	out := filepath.Join(dir, "m.json")
	for _, tc := range []struct {
		file  string
		extra []string
		want  string
	}{
		{write("empty.jsonl", `{"tokens": ["a"], "tags": ["X"]}`+"\n"+`{"tokens": [], "tags": []}`+"\n"), nil, "empty.jsonl:2: sentence without tokens"},
		{write("cols.conll", "the DET\ndog NOUN\n\ncat\n"), []string{"--tag-column", "2"}, "cols.conll:4:2: tag column out of range"},
		{write("fields.conllu", "1\tthe\tthe\tDET\t_\t_\t2\tdet\t_\t_\n2\tdog\tdog\tNOUN\t_\n"), nil, "fields.conllu:2:"},
		{write("ragged.conll", "the DET\ndog NOUN\n"), []string{"--tag-column", "3"}, "ragged.conll:1:3: tag column out of range"},
	} {
		r := runCLI(t, "", append([]string{"fit", "--model", "hmm", "--data", tc.file, "--out", out}, tc.extra...)...)
		if r.code != exitFailure || !strings.Contains(r.stderr, tc.want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 and one line with %q", filepath.Base(tc.file), r.code, r.stderr, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%s: a model file was left", tc.file)
		}
	}
	if r := runCLI(t, "", "fit", "--model", "hmm", "--data", "ud_nowhere", "--out", out); r.code != exitFailure || !strings.Contains(r.stderr, "ud_english_ewt") {
		t.Errorf("an unknown treebank: exit %d, %s", r.code, r.stderr)
	}
	if r := runCLI(t, "", "fit", "--model", "hmm", "--data", "x.conllu", "--target", "tag"); r.code != exitUsage || !strings.Contains(r.stderr, "--target is a flag of reading tables: --model hmm reads sentences") {
		t.Errorf("--target for hmm: exit %d, %s", r.code, r.stderr)
	}
	if r := runCLI(t, "", "fit", "--model", "nb", "--data", "iris", "--tags", "xpos"); r.code != exitUsage || !strings.Contains(r.stderr, "--tags is a flag of reading sentences: --model nb reads tables") {
		t.Errorf("--tags for nb: exit %d, %s", r.code, r.stderr)
	}
	if r := runCLI(t, "", "fit", "--model", "hmm", "--data", "x.conllu", "--order", "3"); r.code != exitUsage {
		t.Errorf("--order 3: exit %d, want %d", r.code, exitUsage)
	}
	if r := runCLI(t, "", "fit", "--model", "hmm", "--data", "x.conllu", "--labeled", "1.5"); r.code != exitUsage {
		t.Errorf("--labeled 1.5: exit %d, want %d", r.code, exitUsage)
	}
	train := write("t.conllu", "1\tthe\t_\tDET\t_\t_\t_\t_\t_\t_\n\n")
	if r := runCLI(t, "", "fit", "--model", "hmm", "--data", train, "--em", "--smoothing", "add-alpha", "--context", "0", "--stream", "--out", out); r.code != exitUsage ||
		!strings.Contains(r.stderr, "--stream: this configuration of --model hmm is not fitted in one pass") {
		t.Errorf("--em --stream: exit %d, %s", r.code, r.stderr)
	}
	model := filepath.Join(dir, "t.json")
	mustRun(t, "fit", "--model", "hmm", "--data", train, "--out", model)
	untagged := write("u.conll", "the\n\n")
	if r := runCLI(t, "", "eval", "--model", model, "--data", untagged); r.code != exitFailure || !strings.Contains(r.stderr, "u.conll:1: sentence 1 has no tags") {
		t.Errorf("eval of untagged sentences: exit %d, %s", r.code, r.stderr)
	}
	if r := runCLI(t, "", "fit", "--model", "hmm", "--data", train, "--em", "--out", out); r.code != exitUsage || !strings.Contains(r.stderr, "Baum–Welch needs add-alpha") {
		t.Errorf("--em with interpolated transitions: exit %d, %s", r.code, r.stderr)
	}
}

// TestHMMEMVerbose checks that fit --em --verbose prints the
// log-likelihood of every iteration, whose objective never falls, and
// warns when Baum–Welch stops at --max-iter.
func TestHMMEMVerbose(t *testing.T) {
	dir := t.TempDir()
	train, _ := treebankSlice(t, dir, "ud_english_ewt", 0, 100)
	out := filepath.Join(dir, "em.json")
	r := runCLI(t, "", "fit", "--model", "hmm", "--data", train, "--out", out, "--verbose", "--em", "--smoothing", "add-alpha",
		"--context", "0", "--emission-alpha", "0.1", "--labeled", "0.3", "--max-iter", "4")
	if r.code != 0 {
		t.Fatalf("fit --em: exit %d, %s", r.code, r.stderr)
	}
	var objectives []float64
	for line := range strings.Lines(r.stderr) {
		if _, rest, ok := strings.Cut(line, "objective "); ok && strings.Contains(line, "Baum–Welch: start") {
			v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			if err != nil {
				t.Fatal(err)
			}
			objectives = append(objectives, v)
		}
	}
	if len(objectives) != 4 {
		t.Fatalf("%d iterations printed, want 4:\n%s", len(objectives), r.stderr)
	}
	for i := 1; i < len(objectives); i++ {
		if objectives[i] < objectives[i-1] {
			t.Errorf("the objective fell at iteration %d: %v", i+1, objectives)
		}
	}
	if !strings.Contains(r.stderr, "warning: Baum–Welch stopped at its limit of 4 iterations") {
		t.Errorf("no warning of the iteration limit:\n%s", r.stderr)
	}
	if _, ok := any(loadHMM(t, out)).(gendisc.Warner); !ok {
		t.Errorf("an hmm model is not a gendisc.Warner")
	}
	r = runCLI(t, "", "fit", "--model", "hmm", "--data", train, "--out", out, "--em", "--smoothing", "add-alpha",
		"--context", "0", "--emission-alpha", "0.1", "--labeled", "0.3", "--max-iter", "500", "--tol", "1e-3")
	if r.code != 0 || r.stderr != "" {
		t.Errorf("fit --em that converges: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestHMMSpans checks eval --spans on BIO tags in the column format
// against seqeval.Spans of the library's tags.
func TestHMMSpans(t *testing.T) {
	dir := t.TempDir()
	text := "John B-PER\nSmith I-PER\nlives O\nin O\nParis B-LOC\n. O\n\n" +
		"Mary B-PER\nwent O\nto O\nNew B-LOC\nYork I-LOC\n. O\n\n" +
		"Paris B-PER\nHilton I-PER\nvisited O\nLondon B-LOC\n. O\n\n"
	data := filepath.Join(dir, "ner.conll")
	if err := os.WriteFile(data, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "ner.json")
	mustRun(t, "fit", "--model", "hmm", "--data", data, "--out", model, "--order", "1")
	m := loadHMM(t, model)
	c, err := seqio.ReadFile(data, seqio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var truth, pred [][]string
	for _, s := range c.Sentences {
		truth, pred = append(truth, s.Tags), append(pred, m.Tag(s.Tokens))
	}
	want, err := seqeval.Spans(truth, pred)
	if err != nil {
		t.Fatal(err)
	}
	var got struct{ Spans *seqeval.SpanReport }
	if err := json.Unmarshal([]byte(mustRun(t, "eval", "--model", model, "--data", data, "--spans", "--json")), &got); err != nil {
		t.Fatal(err)
	}
	if got.Spans == nil || got.Spans.True != 6 || got.Spans.Correct != want.Correct || got.Spans.F1 != want.F1 || len(got.Spans.Types) != 2 {
		t.Errorf("eval --spans: %+v, want %+v", got.Spans, want)
	}
	if out := mustRun(t, "eval", "--model", model, "--data", data, "--spans"); !strings.Contains(out, "\nspans ") || !strings.Contains(out, "\nPER ") {
		t.Errorf("eval --spans text:\n%s", out)
	}
}

// TestEvalUnseenTags checks that eval warns once, naming them, of the
// tags of the evaluated sentences that the tagger never saw in training,
// for both sequence kinds, and says nothing when it saw every tag.
func TestEvalUnseenTags(t *testing.T) {
	dir := t.TempDir()
	train := filepath.Join(dir, "train.jsonl")
	test := filepath.Join(dir, "test.jsonl")
	os.WriteFile(train, []byte(`{"tokens": ["a", "dog", "barks"], "tags": ["DET", "NOUN", "VERB"]}`+"\n"), 0o644)
	os.WriteFile(test, []byte(`{"tokens": ["a", "dog"], "tags": ["DET", "NOUN"]}`+"\n"+`{"tokens": ["oh", "a", "dog", "!"], "tags": ["INTJ", "DET", "NOUN", "PUNCT"]}`+"\n"), 0o644)
	for _, kind := range []string{"hmm", "crf"} {
		model := filepath.Join(dir, kind+".json")
		mustRun(t, "fit", "--model", kind, "--data", train, "--out", model)
		r := runCLI(t, "", "eval", "--model", model, "--data", test)
		want := "gendisc: warning: " + test + ": 2 tags the model never saw in training (INTJ, PUNCT) on 2 tokens, first in sentence 2 (line 2): they count as errors\n"
		if r.code != 0 || r.stderr != want {
			t.Errorf("%s: exit %d, stderr %q, want %q", kind, r.code, r.stderr, want)
		}
		if r := runCLI(t, "", "eval", "--model", model, "--data", train); r.stderr != "" {
			t.Errorf("%s: eval on the training tags warns: %q", kind, r.stderr)
		}
	}
}
