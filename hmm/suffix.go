package hmm

import (
	"iter"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// suffixModel is TnT's model of new words (see Suffixes): the tag counts
// of the rare words by class and suffix.
type suffixModel struct {
	T         int
	maxSuffix int
	// entry[class + suffix] is the entry of the rare words of the class
	// (a byte, wordClass) that end in suffix; the empty suffix's has the
	// class's counts. The tag counts of entry e are sparse: the states
	// tags[start[e]:start[e+1]], increasing, with the counts
	// n[start[e]:start[e+1]], all positive.
	entry map[string]int32
	start []int32
	tags  []int32
	n     []float64
	// theta[class] is θ of the class.
	theta [4]float64
	// logPrior[t] is log P̂(t) of all tokens, logNew log P(new word).
	logPrior []float64
	logNew   float64
}

// wordClass returns the class of a word in the suffix model: 1 for a
// capital first letter (unless the word in lower case is known: a
// capital that begins a sentence) plus 2 for a digit anywhere.
func (m *Model) wordClass(w string) byte {
	lowerKnown := false
	if capitalised(w) { // else classOf does not ask
		_, lowerKnown = m.words[strings.ToLower(w)]
	}
	return classOf(w, lowerKnown)
}

// classOf is wordClass of a word whose lower case is known or not.
func classOf(w string, lowerKnown bool) byte {
	var c byte
	if capitalised(w) && !lowerKnown {
		c = 1
	}
	for _, r := range w {
		if unicode.IsDigit(r) {
			return c + 2
		}
	}
	return c
}

// suffixes calls f with the suffixes of w of 0 to max letters, shortest
// first, until f returns false.
func suffixes(w string, max int, f func(string) bool) {
	end := len(w)
	if !f("") {
		return
	}
	for range max {
		if end == 0 {
			return
		}
		_, size := utf8.DecodeLastRuneInString(w[:end])
		end -= size
		if !f(w[end:]) {
			return
		}
	}
}

// newSuffixModel counts the suffixes of m's rare words; tagCount are
// the tags' counts over all words.
func newSuffixModel(m *Model, tagCount []float64) *suffixModel {
	T := m.T
	s := &suffixModel{T: T, maxSuffix: m.cfg.MaxSuffix, logPrior: make([]float64, T)}
	total, once := 0.0, 0.0
	for _, n := range tagCount {
		total += n
	}
	for t, n := range tagCount {
		s.logPrior[t] = math.Log(n / total)
	}
	// Each rare word's emissions are noted for the entry of each of its
	// suffixes, then summed by entry in the order of the words, the
	// order in which dense rows summed them.
	type note struct {
		entry int32
		emit  int32 // the index in m.c.emit
	}
	emit := m.c.emit
	// The map and the notes are made about as large as they grow (on
	// EWT, 3 entries and 7 notes a rare word): growing them took a
	// third of the time.
	rare := 0
	for _, run := range wordRuns(emit) {
		if run.n <= float64(m.cfg.Rare) {
			rare++
		}
	}
	s.entry = make(map[string]int32, 3*rare)
	notes := make([]note, 0, 8*rare)
	var key []byte
	for _, run := range wordRuns(emit) {
		if run.n <= 1 {
			once++
		}
		if run.n <= float64(m.cfg.Rare) {
			w := m.sp.words[emit[run.from].Word]
			class := '0' + m.wordClass(w)
			suffixes(w, s.maxSuffix, func(suffix string) bool {
				key = append(append(key[:0], class), suffix...)
				e, ok := s.entry[string(key)] // no allocation to look up
				if !ok {
					e = int32(len(s.entry))
					s.entry[string(key)] = e
				}
				for k := run.from; k < run.to; k++ {
					notes = append(notes, note{e, int32(k)})
				}
				return true
			})
		}
	}
	s.logNew = math.Log((once + 1) / (total + 1))
	// The notes by entry, each entry's in their order (a counting sort).
	first := make([]int32, len(s.entry)+1)
	for _, x := range notes {
		first[x.entry+1]++
	}
	for e := range len(s.entry) {
		first[e+1] += first[e]
	}
	sorted := make([]int32, len(notes))
	for _, x := range notes {
		sorted[first[x.entry]] = x.emit
		first[x.entry]++
	}
	row := make([]float64, T)
	s.start = make([]int32, 1, len(s.entry)+1)
	from := 0
	for e := range len(s.entry) {
		// first[e] is now the end of entry e's notes.
		for _, k := range sorted[from:first[e]] {
			row[emit[k].Tag] += emit[k].N
		}
		from = int(first[e])
		for t, x := range row {
			if x != 0 {
				s.tags, s.n = append(s.tags, int32(t)), append(s.n, x)
				row[t] = 0
			}
		}
		s.start = append(s.start, int32(len(s.tags)))
	}
	for class := range s.theta {
		if !s.row(row, string(rune('0'+class))) {
			continue
		}
		p := normalised(row)
		mean := 1 / float64(T)
		ss := 0.0
		for _, x := range p {
			ss += (x - mean) * (x - mean)
		}
		if T > 1 {
			s.theta[class] = math.Sqrt(ss/float64(T-1)) * m.cfg.ThetaFactor
		}
	}
	return s
}

// wordRun is the emissions emit[from:to] of one word, whose counts sum
// to n.
type wordRun struct {
	from, to int
	n        float64
}

// wordRuns returns the runs of the words of emit, sorted by word.
func wordRuns(emit []emission) iter.Seq2[int, wordRun] {
	return func(yield func(int, wordRun) bool) {
		for i, k := 0, 0; i < len(emit); k++ {
			r := wordRun{from: i, to: i}
			for ; r.to < len(emit) && emit[r.to].Word == emit[i].Word; r.to++ {
				r.n += emit[r.to].N
			}
			if !yield(k, r) {
				return
			}
			i = r.to
		}
	}
}

// row writes the tag counts of the entry of key (a class's digit and a
// suffix) to dst (len T), or reports that there is no such entry.
func (s *suffixModel) row(dst []float64, key string) bool {
	e, ok := s.entry[key]
	if !ok {
		return false
	}
	clear(dst)
	for i := s.start[e]; i < s.start[e+1]; i++ {
		dst[s.tags[i]] = s.n[i]
	}
	return true
}

// normalised returns n divided by its sum (uniform for a zero sum).
func normalised(n []float64) []float64 {
	p := make([]float64, len(n))
	sum := 0.0
	for _, x := range n {
		sum += x
	}
	for t, x := range n {
		if sum > 0 {
			p[t] = x / sum
		} else {
			p[t] = 1 / float64(len(n))
		}
	}
	return p
}

// posterior writes P(t | suffix(w)) of the word w of the class to p
// (len T) and returns true, or returns false when the class has no rare
// word. key is scratch memory, grown as needed and returned.
func (s *suffixModel) posterior(p []float64, key []byte, w string, class byte) (bool, []byte) {
	theta := s.theta[class]
	// key holds the class's digit and then w: the key of the suffix
	// w[end:] is key[end:] with the digit moved to key[end].
	key = append(append(key[:0], 0), w...)
	digit := '0' + class
	end, found := len(w), false
	for i := 0; i <= s.maxSuffix; i++ {
		if i > 0 {
			if end == 0 {
				break
			}
			_, size := utf8.DecodeLastRuneInString(w[:end])
			end -= size
		}
		saved := key[end]
		key[end] = digit
		e, ok := s.entry[string(key[end:])]
		key[end] = saved
		if !ok {
			break
		}
		// The sums and shares of a dense row of counts, its zeros
		// skipped: adding +0 changes no sum, and 0/sum is +0.
		tags, n := s.tags[s.start[e]:s.start[e+1]], s.n[s.start[e]:s.start[e+1]]
		sum := 0.0
		for _, x := range n {
			sum += x
		}
		if !found {
			clear(p)
			for i, t := range tags {
				p[t] = n[i] / sum
			}
			found = true
			continue
		}
		next := 0 // the next of tags
		for t := range p {
			x := 0.0
			if next < len(tags) && int(tags[next]) == t {
				x = n[next] / sum
				next++
			}
			p[t] = (x + theta*p[t]) / (1 + theta)
		}
	}
	return found, key
}

// logEmit writes log P(w | t) of the new word w of the class to dst (len
// T); key is posterior's scratch memory, returned.
func (s *suffixModel) logEmit(dst []float64, key []byte, w string, class byte) []byte {
	found, key := s.posterior(dst, key, w, class)
	for t := range dst {
		if !found {
			dst[t] = s.logNew
			if math.IsInf(s.logPrior[t], -1) {
				dst[t] = math.Inf(-1)
			}
			continue
		}
		dst[t] = math.Log(dst[t]) - s.logPrior[t] + s.logNew
		if math.IsNaN(dst[t]) {
			dst[t] = math.Inf(-1)
		}
	}
	return key
}
