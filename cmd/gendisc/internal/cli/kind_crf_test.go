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

	"github.com/gendisc/gendisc/crf"
	"github.com/gendisc/gendisc/metrics/seqeval"
)

// The linear-chain CRF tagger on the command line: fit, predict, eval,
// score and inspect on slices of the English Web Treebank, each output
// checked against the library on the same model. TestEveryKind,
// TestJSONKeysSnakeCase and TestKindFitConcurrent fit it on the bundled
// dev part with a few epochs of the perceptron, to stay fast.

func init() {
	kindData[crf.Kind] = "ud_english_ewt_dev"
	kindFitFlags[crf.Kind] = []string{"--perceptron", "--epochs", "2"}
}

// loadCRF reads the crf model file at path.
func loadCRF(t *testing.T, path string) *crf.Model {
	t.Helper()
	_, m, err := (&Env{}).loadModel(path)
	if err != nil {
		t.Fatal(err)
	}
	return m.(*crf.Model)
}

// TestCRFCommands fits a CRF on 300 sentences of EWT's training part,
// stopped at --max-iter 30 (which fit warns of), and checks predict,
// predict --marginals, score, eval and inspect on 100 of its dev part
// against the library's answers for the same model.
func TestCRFCommands(t *testing.T) {
	dir := t.TempDir()
	train, _ := treebankSlice(t, dir, "ud_english_ewt", 0, 300)
	dev, sentences := treebankSlice(t, dir, "ud_english_ewt_dev", 0, 100)
	model := filepath.Join(dir, "crf.json")
	r := runCLI(t, "", "fit", "--model", "crf", "--data", train, "--out", model, "--max-iter", "30")
	if r.code != 0 || r.stderr != "gendisc: warning: L-BFGS stopped at the iteration limit (30) before convergence\n" {
		t.Fatalf("fit --max-iter 30: exit %d, stderr %q; want the warning of the iteration limit", r.code, r.stderr)
	}
	m := loadCRF(t, model)
	if m.Iterations() != 30 || m.Templates().String() != crf.DefaultTemplates {
		t.Fatalf("%d iterations with templates %s", m.Iterations(), m.Templates())
	}
	var tokens, truth [][]string
	for _, s := range sentences {
		tokens, truth = append(tokens, s.Tokens), append(truth, s.Tags)
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
		marg, err := m.TokenMarginals(s.Tokens)
		if err != nil {
			t.Fatal(err)
		}
		for j, w := range s.Tokens {
			r := rows[n]
			n++
			if r[0] != strconv.Itoa(i+1) || r[1] != strconv.Itoa(j+1) || r[2] != w || r[3] != want[i][j] {
				t.Fatalf("predict row %d: %q, want sentence %d token %d %q tagged %s", n, r, i+1, j+1, w, want[i][j])
			}
			sum, best := 0.0, 0
			for k, cell := range r[4:] {
				p, err := strconv.ParseFloat(cell, 64)
				if err != nil || p != marg[j][k] {
					t.Fatalf("predict row %d: p_%s %q, want %v", n, m.Tags()[k], cell, marg[j][k])
				}
				sum += p
				if p > marg[j][best] {
					best = k
				}
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
		lp, err := m.LogProb(crf.Sequence{Items: m.Templates().Items(s.Tokens), Labels: s.Tags})
		if err != nil {
			t.Fatal(err)
		}
		if r := rows[i+1]; r[1] != strconv.Itoa(len(s.Tokens)) || r[2] != fmtFloat(lp) || r[3] != fmtFloat(lp/math.Ln2) || !(lp < 0) {
			t.Fatalf("score of sentence %d: %q, want log p(tags | words) %v", i+1, r, lp)
		}
	}

	ref, err := seqeval.Evaluate(truth, want, tokens, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Tokens, Correct, SentencesCorrect int
		Accuracy                          float64
		Confusion                         [][]int
	}
	out := mustRun(t, "eval", "--model", model, "--data", dev, "--json")
	if err := json.Unmarshal([]byte(strings.ReplaceAll(out, "sentences_correct", "sentencescorrect")), &got); err != nil {
		t.Fatal(err)
	}
	if got.Tokens != ref.Tokens || got.Correct != ref.Correct || got.Accuracy != ref.Accuracy ||
		got.SentencesCorrect != ref.SentencesCorrect || !slices.EqualFunc(got.Confusion, ref.Confusion, slices.Equal) {
		t.Errorf("eval --json %+v, seqeval %+v", got, ref)
	}
	if ref.Accuracy < 0.8 {
		t.Errorf("accuracy %v: not the test meant", ref.Accuracy)
	}

	var rep struct {
		Parameters struct {
			Templates      string `json:"templates"`
			Features       int    `json:"features"`
			TopTransitions []struct {
				From, To string
				Weight   float64
			} `json:"top_transitions"`
			TopStates []struct {
				Tag     string
				Weights []struct {
					Attribute string
					Weight    float64
				}
			} `json:"top_states"`
		}
	}
	if err := json.Unmarshal([]byte(mustRun(t, "inspect", "--model", model, "--json")), &rep); err != nil {
		t.Fatal(err)
	}
	p := rep.Parameters
	top := m.TopTransitions(inspectCRFTransitions)
	if p.Templates != crf.DefaultTemplates || p.Features != m.NumFeatures() || len(p.TopTransitions) != len(top) || len(p.TopStates) != len(m.Tags()) {
		t.Fatalf("inspect --json: %+v", p)
	}
	for i, w := range top {
		if g := p.TopTransitions[i]; g.From != w.From || g.To != w.To || g.Weight != w.Value {
			t.Errorf("inspect --json transition %d: %+v, want %+v", i, g, w)
		}
	}
	for i, ts := range p.TopStates {
		states := m.TopStates(ts.Tag, inspectCRFStates)
		if ts.Tag != m.Tags()[i] || len(ts.Weights) != len(states) {
			t.Fatalf("inspect --json states of %s: %+v", ts.Tag, ts.Weights)
		}
		for k, w := range states {
			if g := ts.Weights[k]; g.Attribute != w.Attribute || g.Weight != w.Value {
				t.Errorf("inspect --json state %d of %s: %+v, want %+v", k, ts.Tag, g, w)
			}
		}
	}
	text := mustRun(t, "inspect", "--model", model)
	for _, part := range []string{"feature templates: " + crf.DefaultTemplates, "largest transition weights λ(previous → next):\n  " + top[0].From + " → " + top[0].To,
		"largest state weights μ(attribute, tag) per tag:", "\n  DET: "} {
		if !strings.Contains(text, part) {
			t.Errorf("inspect lacks %q:\n%s", part, text)
		}
	}
}

// TestCRFFlagsConfig checks that fit's flags reach crf.Config and the
// templates: the model file of fit with --perceptron, --epochs, --seed,
// --features, --hash-features, --min-freq and --all-pairs is that of
// crf.FitTokens with the same settings, byte for byte, and other flags
// give another model.
func TestCRFFlagsConfig(t *testing.T) {
	dir := t.TempDir()
	train, sentences := treebankSlice(t, dir, "ud_english_ewt", 0, 200)
	var tokens, tags [][]string
	for _, s := range sentences {
		tokens, tags = append(tokens, s.Tokens), append(tags, s.Tags)
	}
	model := filepath.Join(dir, "p.json")
	mustRun(t, "fit", "--model", "crf", "--data", train, "--out", model, "--perceptron", "--epochs", "3", "--seed", "7",
		"--features", "bias,lower,suffix:3,shape,lower@-1", "--hash-features", "5000", "--min-freq", "2", "--all-pairs")
	tp, err := crf.ParseTemplates("bias,lower,suffix:3,shape,lower@-1")
	if err != nil {
		t.Fatal(err)
	}
	tp.Buckets = 5000
	cfg := crf.DefaultConfig()
	cfg.Perceptron, cfg.Epochs, cfg.Seed, cfg.MinFreq, cfg.AllStates = true, 3, 7, 2, true
	lib, err := crf.FitTokens(tokens, tags, tp, cfg)
	if err != nil {
		t.Fatal(err)
	}
	want, err := lib.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	got, err := loadCRF(t, model).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("fit's model differs from crf.FitTokens's with the same settings")
	}
	other := filepath.Join(dir, "q.json")
	mustRun(t, "fit", "--model", "crf", "--data", train, "--out", other, "--perceptron", "--epochs", "3", "--seed", "8",
		"--features", "bias,lower,suffix:3,shape,lower@-1", "--hash-features", "5000", "--min-freq", "2", "--all-pairs")
	if again, _ := loadCRF(t, other).MarshalJSON(); bytes.Equal(again, got) {
		t.Errorf("--seed 7 and 8 gave the same model: the test proves nothing")
	}
	if r := runCLI(t, "", "fit", "--model", "crf", "--data", train, "--out", other, "--max-iter", "200", "--c2", "1", "--epsilon", "1e-3", "--jobs", "1"); r.code != 0 || r.stderr != "" {
		t.Errorf("a fit that converges: exit %d, stderr %q", r.code, r.stderr)
	}
	r := runCLI(t, "", "fit", "--model", "crf", "--data", train, "--out", other, "--max-iter", "3", "--verbose")
	if n := strings.Count(r.stderr, "gendisc: L-BFGS: iteration "); r.code != 0 || n != 3 || !strings.Contains(r.stderr, "gendisc: L-BFGS: iteration 3: objective ") {
		t.Errorf("fit --verbose --max-iter 3: exit %d, %d iterations traced:\n%s", r.code, n, r.stderr)
	}
}

// TestCRFBadInput checks the one-line errors of bad flags and bad
// sentences: bad templates and negative coefficients are misuses (exit
// 2); an empty sentence is the reader's positioned error; a tag that the
// model never saw in training is an error of score, naming the line, and
// counts as a mistake in eval (the model cannot predict it).
func TestCRFBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	out := filepath.Join(dir, "m.json")
	train := write("t.conll", "the DET\ndog NOUN\nbarks VERB\n\na DET\ncat NOUN\nsleeps VERB\n\n")
	for _, args := range [][]string{{"--features", "word,nope"}, {"--features", "suffix:11"}, {"--c2", "-1"}, {"--max-iter", "-1"}, {"--epochs", "0"}} {
		r := runCLI(t, "", append([]string{"fit", "--model", "crf", "--data", train, "--out", out}, args...)...)
		if first, _, _ := strings.Cut(r.stderr, "\n"); r.code != exitUsage || !strings.HasPrefix(first, "gendisc fit: ") || !strings.Contains(first, args[0]) {
			t.Errorf("fit %q: exit %d, stderr %q; want a misuse naming %s", args, r.code, r.stderr, args[0])
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%q: a model file was left", args)
		}
	}
	empty := write("empty.jsonl", `{"tokens": ["a"], "tags": ["X"]}`+"\n"+`{"tokens": [], "tags": []}`+"\n")
	if r := runCLI(t, "", "fit", "--model", "crf", "--data", empty, "--out", out); r.code != exitFailure || !strings.Contains(r.stderr, "empty.jsonl:2: sentence without tokens") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("an empty sentence: exit %d, stderr %q", r.code, r.stderr)
	}
	mustRun(t, "fit", "--model", "crf", "--data", train, "--out", out, "--perceptron")
	unseen := write("u.conll", "the DET\ndog NOUN\n\nthe DET\nfox ANIMAL\n\n")
	if r := runCLI(t, "", "score", "--model", out, "--data", unseen); r.code != exitFailure ||
		!strings.Contains(r.stderr, `u.conll:4: sentence 2: item 2: label "ANIMAL" not seen in training`) || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("score of a tag unseen in training: exit %d, stderr %q", r.code, r.stderr)
	}
	untagged := write("n.conll", "the\ndog\n\n")
	if r := runCLI(t, "", "fit", "--model", "crf", "--data", untagged, "--out", filepath.Join(dir, "n.json")); r.code != exitFailure ||
		!strings.Contains(r.stderr, "n.conll:1: sentence 1 has no tags to train on") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("fit on an untagged sentence: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := runCLI(t, "", "score", "--model", out, "--data", untagged); r.code != exitFailure || !strings.Contains(r.stderr, "n.conll:1: sentence 1 has no tags") {
		t.Errorf("score of an untagged sentence: exit %d, stderr %q", r.code, r.stderr)
	}
	var rep struct{ Tokens, Correct int }
	if err := json.Unmarshal([]byte(mustRun(t, "eval", "--model", out, "--data", unseen, "--json")), &rep); err != nil || rep.Tokens != 4 || rep.Correct > 3 {
		t.Errorf("eval with a tag unseen in training: %+v, %v", rep, err)
	}
}
