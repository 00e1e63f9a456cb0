package hmm

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/seq"
	"github.com/gendisc/gendisc/seqio"
)

// toy are a few tagged sentences.
var toy = sentences(
	"the/DET dog/NOUN barks/VERB ./PUNCT",
	"a/DET cat/NOUN sleeps/VERB ./PUNCT",
	"dogs/NOUN bark/VERB",
	"the/DET old/ADJ dog/NOUN sleeps/VERB ./PUNCT",
	"cats/NOUN sleep/VERB quietly/ADV ./PUNCT",
	"Rex/PROPN barks/VERB ./PUNCT",
	"the/DET dog/NOUN and/CCONJ the/DET cat/NOUN sleep/VERB",
)

// sentences reads sentences of word/TAG tokens.
func sentences(lines ...string) []seq.Sentence {
	out := make([]seq.Sentence, len(lines))
	for i, l := range lines {
		for tok := range strings.FieldsSeq(l) {
			w, t, _ := strings.Cut(tok, "/")
			out[i].Tokens = append(out[i].Tokens, w)
			out[i].Tags = append(out[i].Tags, t)
		}
	}
	return out
}

// configs are configurations that every property holds for.
var configs = map[string]Config{
	"tnt":           {},
	"tnt no beam":   {Beam: NoBeam},
	"context 0.5":   {Beam: NoBeam, Context: 0.5},
	"no context":    {Context: NoContext},
	"order 1":       {Order: 1},
	"order 1 alpha": {Order: 1, Transitions: AddAlpha, Alpha: 0.5, EmissionAlpha: 0.1, Unknown: Uniform},
	"order 2 alpha": {Transitions: AddAlpha, Alpha: 1, EmissionAlpha: 0.2, NoEnd: true, Beam: NoBeam},
	"nltk":          nltkConfig(0.1),
}

// allTagSequences calls f with every sequence of n tags of T.
func allTagSequences(n, T int, f func([]int)) {
	tags := make([]int, n)
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			f(tags)
			return
		}
		for t := range T {
			tags[i] = t
			rec(i + 1)
		}
	}
	rec(0)
}

// TestViterbiForwardBruteForce checks Viterbi against the best of all
// tag sequences, the forward algorithm against the sum over all of them
// and the marginals against their shares, on short sentences with known
// and new words.
func TestViterbiForwardBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"the", "dog", "barks", ".", "cat", "quietly", "Zorro", "jumped", "and", "old"}
	for name, cfg := range configs {
		m, err := cfg.Fit(toy)
		if err != nil {
			t.Fatal(err)
		}
		for range 20 {
			tokens := make([]string, 1+rng.IntN(4))
			for i := range tokens {
				tokens[i] = words[rng.IntN(len(words))]
			}
			best, bestTags := math.Inf(-1), []int(nil)
			var all []float64
			marg := make([][]float64, len(tokens))
			for i := range marg {
				marg[i] = make([]float64, m.T)
			}
			allTagSequences(len(tokens), m.T, func(tags []int) {
				lp := m.jointLogProb(tokens, tags)
				all = append(all, lp)
				if lp > best {
					best, bestTags = lp, slices.Clone(tags)
				}
				for i, tg := range tags {
					marg[i][tg] += math.Exp(lp)
				}
			})
			logZ := logSumExp(all)
			if got := m.LogProb(tokens); math.Abs(got-logZ) > 1e-12*math.Abs(logZ) {
				t.Errorf("%s %q: forward %v, sum over the tag sequences %v", name, tokens, got, logZ)
			}
			got := m.viterbi(m.workspace(), nil, tokens)
			if lp := m.jointLogProb(tokens, got); cfg.Beam == NoBeam || cfg.Order == 1 {
				if math.Abs(lp-best) > 1e-12*math.Abs(best) {
					t.Errorf("%s %q: Viterbi %v (log p %v), best %v (log p %v)", name, tokens, got, lp, bestTags, best)
				}
			}
			for i, row := range m.Marginals(tokens) {
				want := make([]float64, len(m.tags))
				for s, p := range marg[i] {
					want[m.stateTag[s]] += p / math.Exp(logZ)
				}
				for tg, p := range row {
					if !(math.Abs(p-want[tg]) <= 1e-12) { // NaN fails too
						t.Errorf("%s %q: marginal of %d at %d: %v, want %v", name, tokens, tg, i, p, want[tg])
					}
				}
			}
		}
	}
}

func logSumExp(x []float64) float64 {
	top := slices.Max(x)
	s := 0.0
	for _, v := range x {
		s += math.Exp(v - top)
	}
	return top + math.Log(s)
}

// TestTransitionsSumToOne checks that every row of the transitions is a
// distribution over the tags that can follow.
func TestTransitionsSumToOne(t *testing.T) {
	for name, cfg := range configs {
		m, err := cfg.Fit(toy)
		if err != nil {
			t.Fatal(err)
		}
		B := m.T + 1
		for a := range B {
			for b := range B {
				if b == m.T && a != m.T {
					continue
				}
				sum := 0.0
				for c := range B {
					sum += m.probs().trans[m.c.tri(a, b, c)]
				}
				if math.Abs(sum-1) > 1e-12 {
					t.Errorf("%s: P(· | %d, %d) sums to %v", name, a, b, sum)
				}
			}
		}
	}
}

// TestLongSentence checks that a sentence of 10,000 tokens neither
// underflows the Viterbi search and the forward algorithm nor loses the
// tags.
func TestLongSentence(t *testing.T) {
	var tokens, tags []string
	for range 2500 {
		tokens = append(tokens, "the", "dog", "barks", ".")
		tags = append(tags, "DET", "NOUN", "VERB", "PUNCT")
	}
	for name, cfg := range configs {
		m, err := cfg.Fit(toy)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Tag(tokens); !slices.Equal(got, tags) {
			t.Errorf("%s: tags of the long sentence differ", name)
		}
		lp := m.LogProb(tokens)
		if math.IsInf(lp, 0) || math.IsNaN(lp) || lp > -1000 {
			t.Errorf("%s: log p of 10,000 tokens %v", name, lp)
		}
		joint := m.jointLogProb(tokens, m.viterbi(m.workspace(), nil, tokens))
		if !(joint <= lp+1e-12*math.Abs(lp)) || math.IsInf(joint, 0) {
			t.Errorf("%s: log p(words, best tags) %v, log p(words) %v", name, joint, lp)
		}
	}
}

// TestTagAll checks that tagging in parallel gives each sentence's Tag.
func TestTagAll(t *testing.T) {
	m, err := Config{}.Fit(toy)
	if err != nil {
		t.Fatal(err)
	}
	var sentences [][]string
	for i := range 100 {
		tokens := toy[i%len(toy)].Tokens
		sentences = append(sentences, tokens[:min(len(tokens), 1+i%4)])
	}
	for i, tags := range m.TagAll(sentences) {
		if want := m.Tag(sentences[i]); !slices.Equal(tags, want) {
			t.Fatalf("sentence %d: %q, Tag %q", i, tags, want)
		}
	}
}

// TestMarginalsOfTreebank checks the marginals of sentences of the
// treebank under each configuration fitted on others: finite, and a
// distribution at every token. Known words have emissions of probability
// 0 from the tags never seen with them, whose context emissions the
// backward pass must leave out rather than multiply 0 by exp(−Inf + Inf)
// (NaN).
func TestMarginalsOfTreebank(t *testing.T) {
	ss := bundled.Treebank(t, "ud_english_ewt_dev", seqio.Options{}).Sentences
	for name, cfg := range configs {
		m, err := cfg.Fit(ss[:300])
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range ss[300:330] {
			m.Tag(s.Tokens)
			for i, row := range m.Marginals(s.Tokens) {
				sum := 0.0
				for _, p := range row {
					sum += p
				}
				if !(math.Abs(sum-1) <= 1e-9) { // NaN too
					t.Fatalf("%s %q: the marginals of token %d sum to %v: %v", name, s.Tokens, i, sum, row)
				}
			}
		}
	}
}
