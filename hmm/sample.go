package hmm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gendisc/gendisc/seq"
)

// Prompt is the beginning of a sampled sentence (seq.Prompt).
type Prompt = seq.Prompt

// Sample draws a tagged sentence from the model, the generative story of
// an HMM: from the start, a state (tag) from the transitions of the two
// (order 1: one) before it, then a word from that state's emissions,
// until the end of the sentence is drawn or the sentence has maxLen
// tokens (under NoEnd, only then). The sentence begins with the prompt.
// Words are drawn among the known words, in proportion to P(w | t). It
// returns an error for a prompt of both words and tags, or of a tag the
// model does not have, and for maxLen < 1.
func (m *Model) Sample(rng *rand.Rand, prompt Prompt, maxLen int) (seq.Sentence, error) {
	pr := m.probs()
	var s seq.Sentence
	if maxLen < 1 {
		return s, fmt.Errorf("hmm: sample of at most %d tokens", maxLen)
	}
	if prompt.Words != nil && prompt.Tags != nil {
		return s, fmt.Errorf("hmm: a prompt of both words and tags")
	}
	a, b := m.T, m.T
	push := func(state int, word string) {
		s.Tokens = append(s.Tokens, word)
		s.Tags = append(s.Tags, m.tags[m.stateTag[state]])
		a, b = b, state
	}
	if prompt.Words != nil {
		ws := m.workspace()
		defer m.pool.Put(ws)
		for i, state := range m.viterbi(ws, nil, prompt.Words) {
			push(state, prompt.Words[i])
		}
	}
	for _, tag := range prompt.Tags {
		state, ok := m.stateOf(tag)
		if !ok {
			return s, fmt.Errorf("hmm: prompt tag %q: not a tag of the model (%d tags)", tag, len(m.tags))
		}
		push(state, m.drawWord(rng, b, state))
	}
	weights := make([]float64, m.T+1)
	for len(s.Tokens) < maxLen {
		row := m.c.tri(a, b, 0)
		copy(weights, pr.trans[row:row+m.T+1])
		if m.cfg.NoEnd {
			weights[m.T] = 0
		}
		state := draw(rng, weights)
		if state < 0 || state == m.T {
			break
		}
		push(state, m.drawWord(rng, b, state))
	}
	return s, nil
}

// stateOf returns a state of the tag: that of lower-case words when
// there is one.
func (m *Model) stateOf(tag string) (int, bool) {
	t, ok := slices.BinarySearch(m.tags, tag)
	if !ok {
		return 0, false
	}
	return slices.Index(m.stateTag, t), true
}

// drawWord draws a known word in proportion to P(w | prev, state).
func (m *Model) drawWord(rng *rand.Rand, prev, state int) string {
	pr := m.probs()
	weights := make([]float64, len(m.sp.words))
	for w := range weights {
		weights[w] = math.Exp(pr.ctxEmit(int32(w), prev*m.T+state, pr.logEmit(int32(w), state)))
	}
	if w := draw(rng, weights); w >= 0 {
		return m.sp.words[w]
	}
	return ""
}

// draw returns an index drawn in proportion to weights, −1 when they sum
// to 0.
func draw(rng *rand.Rand, weights []float64) int {
	sum := 0.0
	for _, x := range weights {
		sum += x
	}
	if !(sum > 0) || math.IsInf(sum, 0) {
		return -1
	}
	u := rng.Float64() * sum
	last := -1
	for i, x := range weights {
		if x > 0 {
			last = i
		}
		if u -= x; u < 0 && x > 0 {
			return i
		}
	}
	return last
}
