package hmm

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Boundary names the start of a sentence (as a previous tag) and its
// end (as a next tag) in TagTransitions.
const Boundary = "<s>"

// TagTransitions returns the counted first-order transition probabilities
// between tags, P(t | s) = c(s → t) / c(s → ·), the states of a tag taken
// together: rows are the tags and then Boundary (the start), columns the
// tags and then Boundary (the end). A row of a tag never followed is zero.
// These are the counts' estimates that inspect shows, not the smoothed
// probabilities that the model tags with.
func (m *Model) TagTransitions() [][]float64 {
	K := len(m.tags)
	tagOf := func(s int) int {
		if s == m.T {
			return K
		}
		return m.stateTag[s]
	}
	p := make([][]float64, K+1)
	for i := range p {
		p[i] = make([]float64, K+1)
	}
	B := m.T + 1
	for i, n := range m.c.trans {
		if n != 0 {
			b, t := i/B%B, i%B
			p[tagOf(b)][tagOf(t)] += n
		}
	}
	for _, row := range p {
		sum := 0.0
		for _, x := range row {
			sum += x
		}
		for j := range row {
			if sum > 0 {
				row[j] /= sum
			}
		}
	}
	return p
}

// WordProb is a word with a probability.
type WordProb struct {
	Word string
	P    float64
}

// TopWords returns the n words most often tagged tag, with their counted
// P(w | tag), most likely first (ties by word); nil for a tag the model
// does not have.
func (m *Model) TopWords(tag string, n int) []WordProb {
	t, ok := slices.BinarySearch(m.tags, tag)
	if !ok {
		return nil
	}
	counts := map[int32]float64{}
	total := 0.0
	for _, e := range m.c.emit {
		if m.stateTag[e.Tag] == t {
			counts[e.Word] += e.N
			total += e.N
		}
	}
	out := make([]WordProb, 0, len(counts))
	for w, c := range counts {
		out = append(out, WordProb{m.sp.words[w], c / total})
	}
	slices.SortFunc(out, func(a, b WordProb) int { return cmp.Or(cmp.Compare(b.P, a.P), cmp.Compare(a.Word, b.Word)) })
	return out[:min(n, len(out))]
}

// SuffixGuess returns the suffix model's P(t | suffix(w)) of a new word w
// by tag (nil without the suffix model): what the model assumes of a word
// it never saw, before the context.
func (m *Model) SuffixGuess(w string) []float64 {
	pr := m.probs()
	suffix := pr.suffix
	if suffix == nil {
		return nil
	}
	p := make([]float64, m.T)
	if !suffix.posterior(p, w, m.wordClass(w)) {
		return nil
	}
	out := make([]float64, len(m.tags))
	for s, x := range p {
		out[m.stateTag[s]] += x
	}
	return out
}

// WordClasses names the classes of words of the suffix model, by index:
// a capital first letter (of a word whose lower case is unknown) adds 1,
// a digit 2.
var WordClasses = [4]string{"lower", "capitalised", "digit", "capitalised digit"}

// SuffixEntry is an entry of the suffix model: the rare training words of
// a class that end in a suffix, their number of tokens and their most
// frequent tag with its share, P̂(Tag | Suffix) before smoothing.
type SuffixEntry struct {
	Class  string // one of WordClasses
	Suffix string
	Count  float64
	Tag    string
	P      float64
}

// TopSuffixes returns the n entries of the suffix model of suffixes of
// the given number of letters (0: the classes' totals) with the most
// tokens, most first (ties by class and suffix); nil without the suffix
// model.
func (m *Model) TopSuffixes(n, letters int) []SuffixEntry {
	pr := m.probs()
	sm := pr.suffix
	if sm == nil {
		return nil
	}
	var out []SuffixEntry
	row := make([]float64, m.T)
	for node, entry := range sm.entry {
		class, suffix := sm.suffixOf(int32(node))
		if !entry || utf8.RuneCountInString(suffix) != letters {
			continue
		}
		sm.row(row, int32(node))
		byTag := make([]float64, len(m.tags))
		sum := 0.0
		for s, x := range row {
			byTag[m.stateTag[s]] += x
			sum += x
		}
		best := 0
		for t, x := range byTag {
			if x > byTag[best] {
				best = t
			}
		}
		out = append(out, SuffixEntry{WordClasses[class], suffix, sum, m.tags[best], byTag[best] / sum})
	}
	slices.SortFunc(out, func(a, b SuffixEntry) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(slices.Index(WordClasses[:], a.Class), slices.Index(WordClasses[:], b.Class)), strings.Compare(a.Suffix, b.Suffix))
	})
	return out[:min(n, len(out))]
}

// SuffixThetas returns θ of the suffix model's recursive smoothing by
// class (WordClasses' order; 0 for a class without rare words), nil
// without the suffix model.
func (m *Model) SuffixThetas() []float64 {
	pr := m.probs()
	suffix := pr.suffix
	if suffix == nil {
		return nil
	}
	return slices.Clone(suffix.theta[:])
}
