package hmm

import (
	"iter"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// suffixModel is TnT's model of new words (see Suffixes): the tag counts
// of the rare words by class and suffix.
type suffixModel struct {
	T         int
	maxSuffix int
	// The suffixes of the rare words by class are the nodes of a trie
	// of the words read backwards, byte by byte: the nodes 0 to 3 are the
	// classes' (wordClass) empty suffixes, and child[node<<8 | b] is the
	// node of the suffix b + node's suffix, whose byte is first[node] and
	// whose parent is parent[node]. A node is an entry when it ends a
	// whole letter of a rare word (as utf8.DecodeLastRuneInString reads
	// them, up to maxSuffix letters): its tag counts are sparse, the
	// states tags[start[node]:start[node+1]], increasing, with the counts
	// n[start[node]:start[node+1]], all positive.
	child  map[uint64]int32
	parent []int32
	first  []byte
	entry  []bool
	start  []int32
	tags   []int32
	n      []float64
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
		_, lowerKnown = slices.BinarySearch(m.sp.words, strings.ToLower(w))
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

// classNodes is the number of classes of words, whose empty suffixes
// are the first nodes of the suffix model's trie.
const classNodes = 4

// letter returns the node of the suffix of one more letter, the bytes
// w[from:to] before that of node, or -1 when the model has none.
func (s *suffixModel) letter(node int32, w string, from, to int) int32 {
	for k := to - 1; k >= from && node >= 0; k-- {
		c, ok := s.child[uint64(node)<<8|uint64(w[k])]
		node = c
		if !ok {
			node = -1
		}
	}
	return node
}

// addLetter is letter that makes the nodes missing.
func (s *suffixModel) addLetter(node int32, w string, from, to int) int32 {
	for k := to - 1; k >= from; k-- {
		key := uint64(node)<<8 | uint64(w[k])
		c, ok := s.child[key]
		if !ok {
			c = int32(len(s.parent))
			s.child[key] = c
			s.parent, s.first, s.entry = append(s.parent, node), append(s.first, w[k]), append(s.entry, false)
		}
		node = c
	}
	return node
}

// suffixOf returns the class and the suffix of a node.
func (s *suffixModel) suffixOf(node int32) (byte, string) {
	var suffix []byte
	for ; node >= classNodes; node = s.parent[node] {
		suffix = append(suffix, s.first[node])
	}
	return byte(node), string(suffix)
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
		node int32
		emit int32 // the index in m.c.emit
	}
	emit := m.c.emit
	// The map and the notes are made about as large as they grow (on
	// EWT, 3 nodes and 7 notes a rare word).
	rare := 0
	for run := range wordRuns(emit) {
		if run.n <= float64(m.cfg.Rare) {
			rare++
		}
	}
	s.child = make(map[uint64]int32, 3*rare)
	s.parent, s.first, s.entry = make([]int32, classNodes), make([]byte, classNodes), make([]bool, classNodes)
	for c := range s.parent {
		s.parent[c] = -1
	}
	notes := make([]note, 0, 8*rare)
	for run := range wordRuns(emit) {
		if run.n <= 1 {
			once++
		}
		if run.n <= float64(m.cfg.Rare) {
			w := m.sp.words[emit[run.from].Word]
			node := int32(m.wordClass(w))
			mark := func() {
				s.entry[node] = true
				for k := run.from; k < run.to; k++ {
					notes = append(notes, note{node, int32(k)})
				}
			}
			mark()
			end := len(w)
			for range s.maxSuffix {
				if end == 0 {
					break
				}
				_, size := utf8.DecodeLastRuneInString(w[:end])
				node = s.addLetter(node, w, end-size, end)
				end -= size
				mark()
			}
		}
	}
	s.logNew = math.Log((once + 1) / (total + 1))
	// The notes by node, each node's in their order (a counting sort).
	first := make([]int32, len(s.entry)+1)
	for _, x := range notes {
		first[x.node+1]++
	}
	for e := range len(s.entry) {
		first[e+1] += first[e]
	}
	sorted := make([]int32, len(notes))
	for _, x := range notes {
		sorted[first[x.node]] = x.emit
		first[x.node]++
	}
	row := make([]float64, T)
	s.start = make([]int32, 1, len(s.entry)+1)
	from := 0
	for e := range len(s.entry) {
		// first[e] is now the end of node e's notes.
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
		if !s.row(row, int32(class)) {
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
func wordRuns(emit []emission) iter.Seq[wordRun] {
	return func(yield func(wordRun) bool) {
		for from, to := range runs(emit, func(e emission) int32 { return e.Word }) {
			r := wordRun{from: from, to: to}
			for _, e := range emit[from:to] {
				r.n += e.N
			}
			if !yield(r) {
				return
			}
		}
	}
}

// runs returns the bounds from, to of the runs xs[from:to] of elements
// of the same key, in order.
func runs[E any](xs []E, key func(E) int32) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for from := 0; from < len(xs); {
			to := from + 1
			for to < len(xs) && key(xs[to]) == key(xs[from]) {
				to++
			}
			if !yield(from, to) {
				return
			}
			from = to
		}
	}
}

// row writes the tag counts of the entry node to dst (len T), or
// reports that the node is not an entry.
func (s *suffixModel) row(dst []float64, node int32) bool {
	if !s.entry[node] {
		return false
	}
	clear(dst)
	for i := s.start[node]; i < s.start[node+1]; i++ {
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
// word.
func (s *suffixModel) posterior(p []float64, w string, class byte) bool {
	theta := s.theta[class]
	node, end, found := int32(class), len(w), false
	for i := 0; i <= s.maxSuffix; i++ {
		if i > 0 {
			if end == 0 {
				break
			}
			_, size := utf8.DecodeLastRuneInString(w[:end])
			node = s.letter(node, w, end-size, end)
			end -= size
		}
		if node < 0 || !s.entry[node] {
			break
		}
		e := node
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
	return found
}

// logEmit writes log P(w | t) of the new word w of the class to dst (len
// T).
func (s *suffixModel) logEmit(dst []float64, w string, class byte) {
	found := s.posterior(dst, w, class)
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
}
