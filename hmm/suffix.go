package hmm

import (
	"bytes"
	"cmp"
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
	// classes' (wordClass) empty suffixes, and a node's children, the
	// suffixes of one more byte, are kid[kidFrom[node]:kidFrom[node+1]],
	// whose bytes kidByte[...] increase. The byte of a node is
	// first[node], its parent parent[node]. A node is an entry when it
	// ends a whole letter of a rare word (as utf8.DecodeLastRuneInString
	// reads them, up to maxSuffix letters): its tag counts are sparse,
	// the states tags[rowFrom[node]:rowTo[node]], increasing, with the
	// counts n[rowFrom[node]:rowTo[node]], all positive.
	kidFrom        []int32
	kid            []int32
	kidByte        []byte
	parent         []int32
	first          []byte
	entry          []bool
	rowFrom, rowTo []int32
	tags           []int32
	n              []float64
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
		lo, hi := s.kidFrom[node], s.kidFrom[node+1]
		i, ok := slices.BinarySearch(s.kidByte[lo:hi], w[k])
		node = -1
		if ok {
			node = s.kid[int(lo)+i]
		}
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
//
// The rare words are sorted by class and by their last maxSuffix letters
// read backwards, so that the words below each node of the trie come one
// after the other: one sweep makes the nodes, depth first, and sums the
// counts of the words of each node of the path from the word's class, in
// a dense row by depth, written out sparse when the sweep leaves the
// node.
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
	emit := m.c.emit
	var rare []rareWord
	var keys []byte
	var depths []int32
	for run := range wordRuns(emit) {
		if run.n <= 1 {
			once++
		}
		if run.n > float64(m.cfg.Rare) {
			continue
		}
		w := m.sp.words[emit[run.from].Word]
		r := rareWord{class: m.wordClass(w), from: int32(run.from), to: int32(run.to), at: int32(len(keys)), d0: int32(len(depths))}
		end := len(w)
		for range s.maxSuffix {
			if end == 0 {
				break
			}
			_, size := utf8.DecodeLastRuneInString(w[:end])
			end -= size
			depths = append(depths, int32(len(w)-end))
		}
		for k := len(w) - 1; k >= end; k-- {
			keys = append(keys, w[k])
		}
		r.n, r.nd = int32(len(w)-end), int32(len(depths))-r.d0
		rare = append(rare, r)
	}
	s.logNew = math.Log((once + 1) / (total + 1))
	rare = sortRare(rare, keys)

	s.parent, s.first, s.entry = make([]int32, classNodes), make([]byte, classNodes), make([]bool, classNodes)
	s.rowFrom, s.rowTo = make([]int32, classNodes), make([]int32, classNodes)
	for c := range s.parent {
		s.parent[c] = -1
	}
	// path[d] is the node at depth d (bytes) of the path of the word,
	// rows[d] its counts so far, touched[d] their states.
	maxDepth := 0
	for _, r := range rare {
		maxDepth = max(maxDepth, int(r.n))
	}
	path := make([]int32, maxDepth+1)
	rows, touched := make([][]float64, maxDepth+1), make([][]int32, maxDepth+1)
	for d := range rows {
		rows[d] = make([]float64, T)
	}
	depth := -1 // the depth of the path; -1 before the first word
	// leave writes out the counts of the nodes of the path below depth d.
	leave := func(d int) {
		for ; depth > d; depth-- {
			node, row := path[depth], rows[depth]
			if !s.entry[node] {
				continue
			}
			slices.Sort(touched[depth])
			s.rowFrom[node] = int32(len(s.tags))
			for _, t := range touched[depth] {
				if row[t] != 0 { // else a count of 0, or a state listed twice after one
					s.tags, s.n = append(s.tags, t), append(s.n, row[t])
					row[t] = 0
				}
			}
			s.rowTo[node] = int32(len(s.tags))
			touched[depth] = touched[depth][:0]
		}
	}
	for i, r := range rare {
		// The depth down to which r's path is the previous word's.
		common := -1
		if i > 0 && r.class == rare[i-1].class {
			a, b := keys[rare[i-1].at:rare[i-1].at+rare[i-1].n], keys[r.at:r.at+r.n]
			common = 0
			for common < len(a) && common < len(b) && a[common] == b[common] {
				common++
			}
		}
		leave(common)
		if depth < 0 {
			path[0], depth = int32(r.class), 0
		}
		for k := r.at + int32(depth); k < r.at+r.n; k++ {
			node := int32(len(s.parent))
			s.parent, s.first, s.entry = append(s.parent, path[depth]), append(s.first, keys[k]), append(s.entry, false)
			s.rowFrom, s.rowTo = append(s.rowFrom, 0), append(s.rowTo, 0)
			depth++
			path[depth] = node
		}
		add := func(d int) {
			s.entry[path[d]] = true
			for _, e := range emit[r.from:r.to] {
				if rows[d][e.Tag] == 0 {
					touched[d] = append(touched[d], e.Tag)
				}
				rows[d][e.Tag] += e.N
			}
		}
		add(0)
		for _, d := range depths[r.d0 : r.d0+r.nd] {
			add(int(d))
		}
	}
	leave(-1)
	// The children of each node, by parent, then by byte (the order in
	// which the sweep made them): a counting sort.
	nodes := len(s.parent)
	s.kidFrom = make([]int32, nodes+1)
	for _, p := range s.parent[classNodes:] {
		s.kidFrom[p+1]++
	}
	for v := range nodes {
		s.kidFrom[v+1] += s.kidFrom[v]
	}
	s.kid, s.kidByte = make([]int32, nodes-classNodes), make([]byte, nodes-classNodes)
	next := slices.Clone(s.kidFrom[:nodes])
	for v := classNodes; v < nodes; v++ {
		p := s.parent[v]
		s.kid[next[p]], s.kidByte[next[p]] = int32(v), s.first[v]
		next[p]++
	}
	row := make([]float64, T)
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

// rareWord is a rare word of a suffix model: its class, its emissions
// emit[from:to], its key (the bytes of its last letters, backwards)
// keys[at:at+n], and the lengths in bytes of its suffixes of 1, 2, …
// letters, depths[d0:d0+nd], the depths of its entries below its class.
type rareWord struct {
	class         byte
	from, to      int32
	at, n, d0, nd int32
}

// sortRare returns the rare words sorted by class, key (in keys) and
// emissions: first by a number made of the class and the key's first 7
// bytes, the keys compared whole only on a tie.
func sortRare(rare []rareWord, keys []byte) []rareWord {
	type sortKey struct {
		prefix uint64
		i      int32
	}
	key := func(r rareWord) []byte { return keys[r.at : r.at+r.n] }
	order := make([]sortKey, len(rare))
	for i, r := range rare {
		p := uint64(r.class)
		for j := range int32(7) {
			p <<= 8
			if j < r.n {
				p |= uint64(keys[r.at+j])
			}
		}
		order[i] = sortKey{p, int32(i)}
	}
	slices.SortFunc(order, func(a, b sortKey) int {
		if a.prefix != b.prefix {
			return cmp.Compare(a.prefix, b.prefix)
		}
		x, y := rare[a.i], rare[b.i]
		return cmp.Or(bytes.Compare(key(x), key(y)), cmp.Compare(x.from, y.from))
	})
	sorted := make([]rareWord, len(rare))
	for i, o := range order {
		sorted[i] = rare[o.i]
	}
	return sorted
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
	for i := s.rowFrom[node]; i < s.rowTo[node]; i++ {
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
		tags, n := s.tags[s.rowFrom[e]:s.rowTo[e]], s.n[s.rowFrom[e]:s.rowTo[e]]
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
