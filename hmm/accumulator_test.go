package hmm

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/registry"
	"github.com/gendisc/gendisc/seq"
	"github.com/gendisc/gendisc/seqio"
)

// sameModel fails t unless a and b have bit for bit the same states,
// words, counts and derived probabilities.
func sameModel(t *testing.T, what string, a, b *Model) {
	t.Helper()
	same := func(x, y []float64) bool {
		return slices.EqualFunc(x, y, func(p, q float64) bool { return math.Float64bits(p) == math.Float64bits(q) })
	}
	switch {
	case !slices.Equal(a.sp.states, b.sp.states) || !slices.Equal(a.sp.words, b.sp.words) || !slices.Equal(a.tags, b.tags):
		t.Fatalf("%s: the states or words differ", what)
	case !same(a.c.trans, b.c.trans) || !slices.Equal(a.c.emit, b.c.emit):
		t.Fatalf("%s: the counts differ", what)
	case !same(a.probs().logTrans, b.probs().logTrans) || !same(a.probs().emitLog, b.probs().emitLog) || !same(a.probs().logNew, b.probs().logNew) || !same(a.probs().lambdas, b.probs().lambdas):
		t.Fatalf("%s: the probabilities differ", what)
	case a.cfg != b.cfg:
		t.Fatalf("%s: configurations %+v, %+v", what, a.cfg, b.cfg)
	}
}

// TestMergeShards checks that merging the accumulators of three shards
// of EWT sentences, one of them sent through MarshalBinary, gives the
// model of all the sentences bit for bit, for every configuration.
func TestMergeShards(t *testing.T) {
	all := bundled.Treebank(t, "ud_english_ewt_dev", seqio.Options{}).Sentences[:600]
	for name, cfg := range configs {
		whole, err := cfg.Fit(all)
		if err != nil {
			t.Fatal(err)
		}
		var merged *Accumulator
		for i, shard := range [][]seq.Sentence{all[:100], all[100:450], all[450:]} {
			acc, err := cfg.NewAccumulator()
			if err != nil {
				t.Fatal(err)
			}
			if err := acc.AddSentences(shard); err != nil {
				t.Fatal(err)
			}
			if i == 1 {
				b, err := acc.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				acc = &Accumulator{}
				if err := acc.UnmarshalBinary(b); err != nil {
					t.Fatal(err)
				}
			}
			if merged == nil {
				merged = acc
			} else if err := merged.Merge(acc); err != nil {
				t.Fatal(err)
			}
		}
		m, err := merged.Model()
		if err != nil {
			t.Fatal(err)
		}
		sameModel(t, name+": merged", m.(*Model), whole)
		again, err := whole.Accumulator().Model()
		if err != nil {
			t.Fatal(err)
		}
		sameModel(t, name+": the model's accumulator", again.(*Model), whole)
	}
}

// TestModelFile checks that a model reads back from its file bit for bit
// through package registry, as every command loads models.
func TestModelFile(t *testing.T) {
	train := bundled.Treebank(t, "ud_english_ewt_dev", seqio.Options{}).Sentences[:300]
	for name, cfg := range configs {
		m, err := cfg.Fit(train)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := modelfile.Write(&buf, m); err != nil {
			t.Fatal(err)
		}
		got, err := registry.Read(&buf, "m.json")
		if err != nil {
			t.Fatal(err)
		}
		sameModel(t, name, got.(*Model), m)
	}
}

// TestAccumulatorRefusals checks the errors of what a fit cannot take.
func TestAccumulatorRefusals(t *testing.T) {
	acc, err := Config{}.NewAccumulator()
	if err != nil {
		t.Fatal(err)
	}
	var _ gendisc.Accumulator = acc
	if err := acc.Add(&data.Dataset{}); !errors.Is(err, ErrNotSequences) {
		t.Errorf("Add of table rows: %v", err)
	}
	for _, tc := range []struct {
		s    seq.Sentence
		want string
		is   error
	}{
		{seq.Sentence{Line: 7}, "sentence 2 (line 7): sentence without tokens", ErrNoTokens},
		{seq.Sentence{Tokens: []string{"a"}}, "sentence 2: sentence without tags: a fit by counting takes tagged sentences (Baum–Welch takes untagged ones)", ErrUntagged},
		{seq.Sentence{Tokens: []string{"a"}, Tags: []string{"X", "Y"}}, "sentence 2: number of tags differs from the number of tokens: 2 tags, 1 tokens", ErrTags},
		{seq.Sentence{Tokens: []string{"a"}, Tags: []string{""}}, "sentence 2: empty tag, or a tag with a NUL byte", ErrEmptyTag},
	} {
		err := acc.AddSentences([]seq.Sentence{toy[0], tc.s})
		if err == nil || err.Error() != tc.want || !errors.Is(err, tc.is) {
			t.Errorf("%+v: error %v, want %s", tc.s, err, tc.want)
		}
	}
	if _, err := acc.Model(); !errors.Is(err, ErrNoData) {
		t.Errorf("a refused sentence was added: %v", err)
	}
	other, _ := Config{Order: 1}.NewAccumulator()
	if err := acc.Merge(other); err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("merge of another configuration: %v", err)
	}
	if _, err := (Config{Order: 3}).NewAccumulator(); !errors.Is(err, ErrConfig) {
		t.Errorf("order 3: %v", err)
	}
}

// TestSilentState checks that a state that emits no word (a tag of
// Baum–Welch's EM.Tags that no count reaches) gives no NaN.
func TestSilentState(t *testing.T) {
	m, err := emConfig(1).FitEM(toy, nil, EM{Tags: []string{"ZZZ"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range append(slices.Clone(m.probs().logNew), m.probs().emitLog...) {
		if math.IsNaN(x) {
			t.Fatal("NaN emission")
		}
	}
	m2, err := Config{Order: 1, Transitions: AddAlpha, Unknown: Uniform, NoCapitalization: true}.FitEM(toy, nil, EM{Tags: []string{"ZZZ"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range m2.probs().logNew {
		if math.IsNaN(x) {
			t.Fatal("NaN emission of a new word without α")
		}
	}
	if lp := m2.LogProb([]string{"the", "zebra"}); math.IsNaN(lp) {
		t.Fatal("NaN log p")
	}
}

// TestIndexTokensInParts checks that indexing the tokens in two parts at
// once gives every token the state and word of indexing them in one, and
// the fit the same counts, on sentences of random words (capitalised or
// not) and tags.
func TestIndexTokensInParts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"the", "The", "dog", "Dog", "runs", "fast", "Paris", "été", "Été", "1999"}
	tags := []string{"DET", "NOUN", "VERB", "ADV", "PROPN", "NUM"}
	var sentences []seq.Sentence
	for n := 0; n < 3000; {
		s := seq.Sentence{}
		for range 1 + rng.IntN(12) {
			s.Tokens = append(s.Tokens, words[rng.IntN(len(words))])
			s.Tags = append(s.Tags, tags[rng.IntN(len(tags))])
		}
		n += len(s.Tokens)
		sentences = append(sentences, s)
	}
	n := 0
	for _, s := range sentences {
		n += len(s.Tokens)
	}
	named := func(parts int) []string {
		state, word := make([]uint8, n), make([]uint32, n)
		l, err := indexTokens(Config{}, sentences, state, word, parts)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]string, n)
		for k := range out {
			out[k] = l.states[state[k]] + "/" + l.words[word[k]]
		}
		return out
	}
	if one, two := named(1), named(2); !slices.Equal(one, two) {
		t.Fatalf("the tokens' states and words in two parts differ from one")
	}
	_, c1, err := countSentences(Config{}, sentences)
	if err != nil {
		t.Fatal(err)
	}
	big := slices.Repeat(sentences, splitTokens/n+1) // counted in two parts
	_, c2, err := countSentences(Config{}, big)
	if err != nil {
		t.Fatal(err)
	}
	times := float64(splitTokens/n + 1)
	for i, x := range c1.trans {
		if c2.trans[i] != times*x {
			t.Fatalf("trigram %d: %g, want %g", i, c2.trans[i], times*x)
		}
	}
	for i, e := range c1.emit {
		if f := c2.emit[i]; f.Word != e.Word || f.Tag != e.Tag || f.N != times*e.N {
			t.Fatalf("emission %d: %+v, want %+v times %g", i, f, e, times)
		}
	}
}
