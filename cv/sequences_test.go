package cv

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/crf"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/hmm"
	"github.com/gendisc/gendisc/registry"
	"github.com/gendisc/gendisc/seq"
	"github.com/gendisc/gendisc/seqio"
)

var (
	ewtOnce sync.Once
	ewtDev  *seq.Corpus
	ewtErr  error
)

// ewt returns the first n sentences of the bundled EWT development set.
func ewt(t testing.TB, n int) *seq.Corpus {
	ewtOnce.Do(func() {
		r, err := datasets.OpenTreebank("ud_english_ewt_dev")
		if err != nil {
			ewtErr = err
			return
		}
		defer r.Close()
		ewtDev, ewtErr = seqio.Read(r, "ud_english_ewt_dev", seqio.Options{})
	})
	if ewtErr != nil {
		t.Fatal(ewtErr)
	}
	return &seq.Corpus{Source: ewtDev.Source, Sentences: ewtDev.Sentences[:n]}
}

// sequenceConfig returns the configuration of kind name with the flags
// args (name=value).
func sequenceConfig(t testing.TB, name string, args ...string) registry.SequenceConfig {
	k, err := registry.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	var set Setting
	for _, a := range args {
		n, v, _ := strings.Cut(a, "=")
		set = append(set, FlagValue{n, v})
	}
	c, err := Config(k, nil, set)
	if err != nil {
		t.Fatal(err)
	}
	return c.(registry.SequenceConfig)
}

// refitOnly hides the accumulator and the warm start of a configuration:
// its folds are refitted from scratch.
type refitOnly struct{ registry.SequenceConfig }

// TestSequenceOnePassEqualsRefit checks the one-pass cross-validation of
// an HMM against refitting each fold: the model merged from the other
// folds' counts tags every sentence as the refit does, bit for bit, and
// gives log p(words) of the fold's sentences within 1e-12 relative; the
// fold reports are equal.
func TestSequenceOnePassEqualsRefit(t *testing.T) {
	c := ewt(t, 300)
	folds, err := SentenceFolds(len(c.Sentences), 5, 7)
	if err != nil {
		t.Fatal(err)
	}
	cfg := sequenceConfig(t, hmm.Kind)
	r := &SequenceRunner{Config: cfg}
	newAcc := r.newAccumulator(c.Sentences)
	if newAcc == nil {
		t.Fatal("the HMM's configuration has no accumulator of sentences")
	}
	accs, err := foldAccumulators(sentenceRows(len(c.Sentences)), folds, newAcc, 2)
	if err != nil {
		t.Fatal(err)
	}
	all := make([][]string, len(c.Sentences))
	for i, s := range c.Sentences {
		all[i] = s.Tokens
	}
	for k, acc := range accs {
		merged, err := acc.Model()
		if err != nil {
			t.Fatal(err)
		}
		train, _ := folds.Split(k)
		refit, err := cfg.FitSequences(subCorpus(c, train), nil)
		if err != nil {
			t.Fatal(err)
		}
		a, b := merged.(gendisc.SequenceDensity), refit.(gendisc.SequenceDensity)
		ta, tb := a.TagAll(all), b.TagAll(all)
		for i := range all {
			if !slices.Equal(ta[i], tb[i]) {
				t.Fatalf("fold %d, sentence %d: merged tags %q, refit %q", k, i, ta[i], tb[i])
			}
			if folds[i] != k {
				continue
			}
			pa, pb := a.LogProb(all[i]), b.LogProb(all[i])
			if math.Abs(pa-pb) > 1e-12*math.Abs(pb) {
				t.Fatalf("fold %d, sentence %d: merged log p %v, refit %v", k, i, pa, pb)
			}
		}
	}
	onePass, err := r.Run(c, folds)
	if err != nil {
		t.Fatal(err)
	}
	refitted, err := (&SequenceRunner{Config: refitOnly{cfg}}).Run(c, folds)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(onePass)
	b, _ := json.Marshal(refitted)
	if !bytes.Equal(a, b) {
		t.Errorf("one pass and refits differ:\n%s\n%s", a, b)
	}
}

// TestSequenceRunnerReports checks the fold reports against seqeval on
// the fold's sentences and the summary's shape: the per-tag figures of
// every fold cover every tag of the corpus, so their mean is there, and
// the mean of the accuracy is that of the folds'.
func TestSequenceRunnerReports(t *testing.T) {
	c := ewt(t, 200)
	folds, _ := SentenceFolds(len(c.Sentences), 4, 1)
	res, err := (&SequenceRunner{Config: sequenceConfig(t, hmm.Kind, "order=1"), Spans: true}).Run(c, folds)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Folds) != 4 {
		t.Fatalf("%d folds", len(res.Folds))
	}
	sum, tokens := 0.0, 0
	for k, f := range res.Folds {
		rp := f.Report.(*SequenceReport)
		if f.Rows != 50 || rp.Tokens.Sentences != 50 {
			t.Errorf("fold %d: %d sentences, report of %d", k, f.Rows, rp.Tokens.Sentences)
		}
		if rp.Spans == nil {
			t.Errorf("fold %d: no span figures", k)
		}
		tokens += rp.Tokens.Tokens
		sum += rp.Tokens.Accuracy
	}
	if tokens != c.Tokens() {
		t.Errorf("the folds hold %d tokens, the corpus %d", tokens, c.Tokens())
	}
	mean, se, ok := res.Metric("accuracy")
	if !ok || math.Abs(mean-sum/4) > 1e-15 || !(se > 0) {
		t.Errorf("accuracy %v ± %v (%v), want the mean %v", mean, se, ok, sum/4)
	}
	if e, _, _ := res.Metric("error"); math.Abs(e-(1-mean)) > 1e-15 {
		t.Errorf("error %v, want 1 − accuracy %v", e, 1-mean)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Mean struct {
			Tags   []string `json:"tags"`
			PerTag []struct {
				Tag string   `json:"tag"`
				F1  *float64 `json:"f1"`
			} `json:"per_tag"`
			Macro struct{ F1 *float64 } `json:"macro_avg"`
		} `json:"mean"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Mean.Tags) != 17 || len(out.Mean.PerTag) != 17 || out.Mean.PerTag[7].Tag != out.Mean.Tags[7] || out.Mean.Macro.F1 == nil {
		t.Errorf("mean: %d tags %q, %d per tag, macro %v", len(out.Mean.Tags), out.Mean.Tags, len(out.Mean.PerTag), out.Mean.Macro.F1)
	}
}

// TestSequenceCRFWarmFolds cross-validates a CRF on few sentences: the
// warm-started folds give the figures of cold refits within the stopping
// rule (the same optimum of a convex objective), whatever the workers.
func TestSequenceCRFWarmFolds(t *testing.T) {
	c := ewt(t, 60)
	folds, _ := SentenceFolds(len(c.Sentences), 3, 1)
	cfg := sequenceConfig(t, crf.Kind, "c2=1", "max-iter=200", "features=bias,word,suffix:2", "jobs=1")
	if _, ok := cfg.(registry.WarmSequenceConfig); !ok {
		t.Fatal("the CRF's configuration has no warm start")
	}
	warm1, err := (&SequenceRunner{Config: cfg, Workers: 1}).Run(c, folds)
	if err != nil {
		t.Fatal(err)
	}
	warm3, err := (&SequenceRunner{Config: cfg, Workers: 3}).Run(c, folds)
	if err != nil {
		t.Fatal(err)
	}
	cold, err := (&SequenceRunner{Config: cfg, Cold: true}).Run(c, folds)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(warm1)
	b, _ := json.Marshal(warm3)
	if !bytes.Equal(a, b) {
		t.Errorf("1 and 3 workers differ:\n%s\n%s", a, b)
	}
	wa, _, _ := warm1.Metric("accuracy")
	ca, _, _ := cold.Metric("accuracy")
	if math.Abs(wa-ca) > 0.005 {
		t.Errorf("accuracy: warm %v, cold %v", wa, ca)
	}
}

// TestSentenceFoldErrors checks the one-line errors of folds that cannot
// cross-validate sentences, each naming what is wrong.
func TestSentenceFoldErrors(t *testing.T) {
	if _, err := SentenceFolds(3, 5, 1); !errors.Is(err, ErrFolds) || !strings.Contains(err.Error(), "5 folds for 3 sentences") {
		t.Errorf("more folds than sentences: %v", err)
	}
	for _, tc := range []struct {
		folds Folds
		n     int
		want  string
	}{
		{Folds{0, 2, 0, 2}, 4, "fold 1 has no sentences"},
		{Folds{0, 1}, 3, "2 fold numbers for 3 sentences"},
		{Folds{0, 0, 0}, 3, "1 folds; at least 2"},
	} {
		err := CheckSentenceFolds(tc.folds, tc.n)
		if !errors.Is(err, ErrFolds) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: %v, want %q", tc.folds, err, tc.want)
		}
	}
	c := ewt(t, 10)
	_, err := (&SequenceRunner{Config: sequenceConfig(t, hmm.Kind)}).Run(c, Folds{0, 1, 2, 0, 1, 0, 1, 0, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	_, err = (&SequenceRunner{Config: sequenceConfig(t, hmm.Kind)}).Run(c, Folds{0, 1, 3, 0, 1, 0, 1, 0, 1, 0})
	if err == nil || !strings.Contains(err.Error(), "fold 2 has no sentences") {
		t.Errorf("an empty fold: %v", err)
	}
	untagged := &seq.Corpus{Source: "x.conllu", Sentences: slices.Clone(c.Sentences)}
	untagged.Sentences[3].Tags = nil
	_, err = (&SequenceRunner{Config: sequenceConfig(t, hmm.Kind)}).Run(untagged, Folds{0, 1, 0, 1, 0, 1, 0, 1, 0, 1})
	if want := "x.conllu:" + itoa(c.Sentences[3].Line) + ": sentence 4 has no tags"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("an untagged sentence: %v, want %q", err, want)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// TestWidenTags checks that a report widened to more tags has the same
// figures for its tags and those of seqeval for a tag it lacks.
func TestWidenTags(t *testing.T) {
	m := &fixedTagger{}
	c := &seq.Corpus{Sentences: []seq.Sentence{{Tokens: []string{"a", "b"}, Tags: []string{"B", "D"}}}}
	rp, err := evaluateSentences(m, "", c.Sentences, nil, false, []string{"A", "C", "D"})
	if err != nil {
		t.Fatal(err)
	}
	r := rp.Tokens
	if !slices.Equal(r.Tags, []string{"A", "B", "C", "D"}) {
		t.Fatalf("tags %q", r.Tags)
	}
	// The tagger tags every token B: B right once, D wrong once.
	want := [][]int{{0, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 0, 0}, {0, 1, 0, 0}}
	if !slices.EqualFunc(r.Confusion, want, slices.Equal) {
		t.Errorf("confusion %v, want %v", r.Confusion, want)
	}
	if a := r.PerTag[0]; a.Tag != "A" || !math.IsNaN(a.Precision) || !math.IsNaN(a.F1) || a.Support != 0 {
		t.Errorf("A: %+v", a)
	}
	if b := r.PerTag[1]; b.Tag != "B" || b.Precision != 0.5 || b.Recall != 1 || b.Support != 1 {
		t.Errorf("B: %+v", b)
	}
}

// fixedTagger tags every token B.
type fixedTagger struct{}

func (fixedTagger) Kind() string         { return "fixed" }
func (fixedTagger) Schema() *data.Schema { return nil }
func (fixedTagger) Tags() []string       { return []string{"B"} }
func (fixedTagger) TagTokens(tokens []string) ([]string, error) {
	out := make([]string, len(tokens))
	for i := range out {
		out[i] = "B"
	}
	return out, nil
}
func (f fixedTagger) TagAll(sentences [][]string) [][]string {
	out := make([][]string, len(sentences))
	for i, s := range sentences {
		out[i], _ = f.TagTokens(s)
	}
	return out
}
