package hmm

import (
	"maps"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/gendisc/gendisc/seq"
)

// TestSuffixTrie checks the suffix model's trie against the tag counts
// summed naively by class and suffix string, on words of one-byte and
// longer letters and invalid UTF-8, and the lookups of posterior against
// those counts.
func TestSuffixTrie(t *testing.T) {
	sentences := append([]seq.Sentence{
		{Tokens: []string{"été", "thé", "café", "Café", "x\xff", "\xe9t\xc3", "\xa9t\xc3\xa9", "naïve", "walked", "talked", "Walked", "2nd", "3rd"},
			Tags: []string{"NOUN", "NOUN", "NOUN", "PROPN", "X", "X", "X", "ADJ", "VERB", "VERB", "PROPN", "ADJ", "ADJ"}},
	}, toy...)
	m, err := Config{MaxSuffix: 3}.Fit(sentences)
	if err != nil {
		t.Fatal(err)
	}
	sm := m.probs().suffix
	// want[class + suffix] are the tag counts of the rare words.
	want := map[string][]float64{}
	for run := range wordRuns(m.c.emit) {
		if run.n > float64(m.cfg.Rare) {
			continue
		}
		w := m.sp.words[m.c.emit[run.from].Word]
		end := len(w)
		for i := 0; i <= sm.maxSuffix && (i == 0 || end > 0); i++ {
			if i > 0 {
				_, size := utf8.DecodeLastRuneInString(w[:end])
				end -= size
			}
			key := string(rune('0'+m.wordClass(w))) + w[end:]
			if want[key] == nil {
				want[key] = make([]float64, m.T)
			}
			for _, e := range m.c.emit[run.from:run.to] {
				want[key][e.Tag] += e.N
			}
		}
	}
	got := map[string][]float64{}
	for node, entry := range sm.entry {
		if entry {
			class, suffix := sm.suffixOf(int32(node))
			row := make([]float64, m.T)
			sm.row(row, int32(node))
			got[string(rune('0'+class))+suffix] = row
		}
	}
	if !maps.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("entries\n%v\nwant\n%v", got, want)
	}
	// posterior's first lookup is the class's; the last, the longest
	// suffix counted.
	p := make([]float64, m.T)
	for _, w := range []string{"thé", "\xc3\xa9t\xc3", "zzz", "Talked", "4th"} {
		class := m.wordClass(w)
		_, hasClass := want[string(rune('0'+class))]
		if got := sm.posterior(p, w, class); got != hasClass {
			t.Errorf("%q: posterior found %v, want %v", w, got, hasClass)
		}
	}
}
