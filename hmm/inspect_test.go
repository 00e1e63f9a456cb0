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
	// The rare words (all of toy's) of the lower-case class ending in
	// "s": barks 2, sleeps 2 VERB, dogs, cats 1 NOUN; in ".": 5 PUNCT;
	// in "e": the 4 DET. Of three letters: the 4, dog 3, then 2 each.
	suffixes := m.TopSuffixes(3, 1)
	want := []SuffixEntry{{"lower", "s", 6, "VERB", 4.0 / 6}, {"lower", ".", 5, "PUNCT", 1}, {"lower", "e", 4, "DET", 1}}
	if !slices.Equal(suffixes, want) {
		t.Errorf("top suffixes %v, want %v", suffixes, want)
	}
	want = []SuffixEntry{{"lower", "the", 4, "DET", 1}, {"lower", "dog", 3, "NOUN", 1}}
	if top := m.TopSuffixes(2, 3); !slices.Equal(top, want) {
		t.Errorf("top suffixes of 3 letters %v, want %v", top, want)
	}
	// θ of the lower-case class: the standard deviation of its tags'
	// shares (ADJ, ADV, CCONJ, DET, NOUN, PUNCT, VERB, PROPN on a
	// capital: 1, 1, 1, 5, 7, 5, 7, 0 of 27) times ThetaFactor's 10.
	ss := 0.0
	for _, n := range []float64{1, 1, 1, 5, 7, 5, 7, 0} {
		ss += (n/27 - 1.0/8) * (n/27 - 1.0/8)
	}
	if got := m.SuffixThetas()[0]; math.Abs(got-10*math.Sqrt(ss/7)) > 1e-14 {
		t.Errorf("θ of the lower-case class %v, want %v", got, 10*math.Sqrt(ss/7))
	}
	nltk, err := nltkConfig(0.1).Fit(toy)
	if err != nil {
		t.Fatal(err)
	}
	if nltk.TopSuffixes(3, 1) != nil || nltk.SuffixThetas() != nil {
		t.Error("suffix entries without the suffix model")
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
