package hmm

import (
	"math"
	"slices"
	"testing"

	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/seqio"
)

func TestInspect(t *testing.T) {
	m, err := Config{}.Fit(toy)
	if err != nil {
		t.Fatal(err)
	}
	tags := m.Tags()
	at := func(tag string) int { return slices.Index(tags, tag) }
	p := m.TagTransitions()
	// DET is followed by NOUN 4 times and ADJ once in toy; the start by
	// DET 4 times of 7 sentences.
	if got := p[at("DET")][at("NOUN")]; got != 0.8 {
		t.Errorf("P(NOUN | DET) %v, want 0.8", got)
	}
	if got := p[len(tags)][at("DET")]; math.Abs(got-4.0/7) > 1e-15 {
		t.Errorf("P(DET | start) %v, want 4/7", got)
	}
	// PUNCT ends 5 sentences and is followed by nothing else.
	if got := p[at("PUNCT")][len(tags)]; got != 1 {
		t.Errorf("P(end | PUNCT) %v", got)
	}
	// NOUN: dog 3, cat 2, dogs 1, cats 1 of 7.
	top := m.TopWords("NOUN", 2)
	if len(top) != 2 || top[0] != (WordProb{"dog", 3.0 / 7}) || top[1] != (WordProb{"cat", 2.0 / 7}) {
		t.Errorf("top NOUN words %v", top)
	}
	if m.TopWords("NOPE", 3) != nil {
		t.Error("top words of an unknown tag")
	}
	ewt, err := Config{}.Fit(bundled.Treebank(t, "ud_english_ewt_dev", seqio.Options{}).Sentences)
	if err != nil {
		t.Fatal(err)
	}
	guess := ewt.SuffixGuess("flurbishly")
	if best := ewt.Tags()[slices.Index(guess, slices.Max(guess))]; best != "ADV" {
		t.Errorf("a new word in -ly guessed %s (%v)", best, guess)
	}
}
