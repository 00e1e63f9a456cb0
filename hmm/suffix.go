package hmm

import (
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
	// counts[class + suffix] are the tag counts of the rare words of the
	// class (a byte, wordClass) that end in suffix; the empty suffix has
	// the class's counts.
	counts map[string][]float64
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
	_, lowerKnown := m.words[strings.ToLower(w)]
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

// suffixSlabRows is the number of rows of the suffix model allocated at
// once.
const suffixSlabRows = 1024

// newSuffixModel counts the suffixes of m's rare words; tagCount are
// the tags' counts over all words.
func newSuffixModel(m *Model, tagCount []float64) *suffixModel {
	T := m.T
	s := &suffixModel{T: T, maxSuffix: m.cfg.MaxSuffix, counts: map[string][]float64{}, logPrior: make([]float64, T)}
	total, once := 0.0, 0.0
	for _, n := range tagCount {
		total += n
	}
	for t, n := range tagCount {
		s.logPrior[t] = math.Log(n / total)
	}
	emit := m.c.emit
	var key []byte
	var slab []float64 // the rows' memory, allocated suffixSlabRows at a time
	for i := 0; i < len(emit); {
		j, n := i, 0.0
		for ; j < len(emit) && emit[j].Word == emit[i].Word; j++ {
			n += emit[j].N
		}
		if n <= 1 {
			once++
		}
		if n <= float64(m.cfg.Rare) {
			w := m.sp.words[emit[i].Word]
			class := '0' + m.wordClass(w)
			suffixes(w, s.maxSuffix, func(suffix string) bool {
				key = append(append(key[:0], class), suffix...)
				row := s.counts[string(key)] // no allocation to look up
				if row == nil {
					if len(slab) < T {
						slab = make([]float64, T*suffixSlabRows)
					}
					row, slab = slab[:T:T], slab[T:]
					s.counts[string(key)] = row
				}
				for _, e := range emit[i:j] {
					row[e.Tag] += e.N
				}
				return true
			})
		}
		i = j
	}
	s.logNew = math.Log((once + 1) / (total + 1))
	for class := range s.theta {
		row := s.counts[string(rune('0'+class))]
		if row == nil {
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
		row := s.counts[string(key[end:])]
		key[end] = saved
		if row == nil {
			break
		}
		sum := 0.0
		for _, x := range row {
			sum += x
		}
		if !found {
			for t, x := range row {
				p[t] = x / sum
			}
			found = true
			continue
		}
		for t, x := range row {
			p[t] = (x/sum + theta*p[t]) / (1 + theta)
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
