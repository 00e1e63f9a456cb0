package text

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"strings"
)

// Counter accumulates the terms of documents given in any number of
// chunks, with each term's corpus frequency (occurrences) and document
// frequency (documents it occurs in), as the vocabulary of a streamed fit
// or of an updated model needs. A term keeps the id it was first given
// (ids are in order of first occurrence and never change), so statistics a
// caller keeps per term (per-class counts) can grow with the Counter;
// Vocabulary applies MinDF, MaxDF and MaxFeatures at the end and maps ids
// to the alphabetical columns of the fitted vocabulary.
//
// Counting the documents of a corpus in chunks, or in parts whose Counters
// are merged in order, gives the same terms, frequencies and ids as
// counting it at once. A Counter is not safe for concurrent use.
//
// With hashed columns (VectorizerConfig.HashFeatures), a term's id is its
// column, Len is the number of columns from the start, and the Counter
// keeps neither the terms nor their frequencies: its memory is that of the
// columns, however many distinct terms the documents have.
type Counter struct {
	cfg   VectorizerConfig
	grams NGrams
	stop  map[string]struct{}
	ids   *termTable
	terms []string
	freq  []termFreq
	docs  int // documents counted

	sc  scanner
	row rowCounts
}

// termFreq is the corpus frequency (occurrences) and document frequency
// (documents it occurs in) of a term.
type termFreq struct{ tf, df int64 }

// NewCounter returns an empty Counter for the settings of cfg, or an error
// when cfg is invalid.
func NewCounter(cfg VectorizerConfig) (*Counter, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	stop, _ := stopList(cfg.StopWords)
	return &Counter{cfg: cfg, grams: cfg.NGrams.orDefault(), stop: stop, ids: newTermTable(0)}, nil
}

// Config returns the settings the Counter was made with.
func (c *Counter) Config() VectorizerConfig { return c.cfg }

// Len is the number of distinct terms counted so far; with hashed
// columns, the number of columns.
func (c *Counter) Len() int {
	if c.cfg.Hashed() {
		return c.cfg.HashFeatures
	}
	return len(c.terms)
}

// Docs is the number of documents counted so far.
func (c *Counter) Docs() int { return c.docs }

// Term returns the term with id i, "#i" with hashed columns; it panics
// when i is out of range.
func (c *Counter) Term(i int) string {
	if c.cfg.Hashed() {
		return hashedTerm(c.checkColumn(i))
	}
	return c.terms[i]
}

// checkColumn returns i, a column of hashed columns, or panics.
func (c *Counter) checkColumn(i int) int {
	if i < 0 || i >= c.cfg.HashFeatures {
		panic(fmt.Sprintf("text: column %d of %d hashed columns", i, c.cfg.HashFeatures))
	}
	return i
}

// ID returns the id of term and whether it has been counted; with hashed
// columns, its column and true.
func (c *Counter) ID(term string) (int, bool) {
	b := []byte(term)
	if c.cfg.Hashed() {
		j, _ := hashColumn(b, c.cfg.HashFeatures, false)
		return int(j), true
	}
	id := c.ids.get(b, c.ids.hash(b), c.terms)
	return int(id), id >= 0
}

// Frequency returns the number of occurrences of term i and the number of
// documents it occurs in; 0, 0 with hashed columns, which keep no
// frequencies.
func (c *Counter) Frequency(i int) (tf, df int64) {
	if c.cfg.Hashed() {
		c.checkColumn(i)
		return 0, 0
	}
	return c.freq[i].tf, c.freq[i].df
}

// Add counts the terms of docs.
func (c *Counter) Add(docs []string) { c.count(docs, nil) }

// Count counts the terms of docs and returns their count matrix: row i
// holds the terms of docs[i], columns are term ids, and Cols is c.Len()
// after the call (ids given to new terms are ≥ the Len before it).
func (c *Counter) Count(docs []string) *CSR {
	m := newCSR(len(docs))
	c.count(docs, m)
	m.Cols = c.Len()
	return m
}

// count adds docs to the statistics and, when m is not nil, their rows to
// m.
func (c *Counter) count(docs []string, m *CSR) {
	if c.cfg.Hashed() {
		// On the first count, not in NewCounter: a Counter read from a
		// model file (UnmarshalCounter) that claims 2³¹−1 columns
		// takes no memory for them until it counts.
		c.row.grow(c.cfg.HashFeatures)
	}
	for k, doc := range docs {
		if m != nil && k == len(docs)/16 && k > 0 {
			reserve(m, docs[:k], docs[k:])
		}
		c.sc.scan(doc, c.cfg.MinLen, c.stop)
		c.docs++
		if m != nil {
			c.row.next(len(m.Indices))
		} else {
			c.row.next(0)
		}
		if c.cfg.Hashed() {
			addHashed(&c.row, m, &c.sc, c.grams, c.cfg)
		} else {
			c.addTerms(m)
		}
		if m != nil {
			m.Indptr = append(m.Indptr, len(m.Indices))
		}
	}
}

// addTerms adds the terms of the document scanned into c.sc to the
// statistics and to its row, in m unless m is nil.
func (c *Counter) addTerms(m *CSR) {
	for _, sp := range c.sc.terms(c.grams) {
		key := c.sc.buf[sp.lo:sp.hi]
		h := c.ids.hash(key)
		id := c.ids.get(key, h, c.terms)
		if id < 0 {
			id = c.newTerm(string(key), h)
		}
		f := &c.freq[id]
		f.tf++
		if c.row.add(m, id, 1) {
			f.df++
		}
	}
}

// addHashed adds the terms of the document scanned into sc, hashed as cfg
// says, to its row, in m unless m is nil.
func addHashed(row *rowCounts, m *CSR, sc *scanner, grams NGrams, cfg VectorizerConfig) {
	for _, sp := range sc.terms(grams) {
		j, v := hashColumn(sc.buf[sp.lo:sp.hi], cfg.HashFeatures, cfg.AlternateSign)
		row.add(m, j, v)
	}
}

// reserve grows m's entries, filled for the documents done, to the size
// the rest will probably need, extrapolating from the entries per byte of
// text so far (and 5% more), so that the matrix is not copied again and
// again as it grows.
func reserve(m *CSR, done, rest []string) {
	doneBytes, restBytes := 0, 0
	for _, d := range done {
		doneBytes += len(d)
	}
	for _, d := range rest {
		restBytes += len(d)
	}
	if doneBytes == 0 {
		return
	}
	more := int(float64(len(m.Indices)) / float64(doneBytes) * float64(restBytes) * 1.05)
	m.Indices = slices.Grow(m.Indices, more)
	m.Data = slices.Grow(m.Data, more)
}

// newTerm gives term, whose hash is h, the next id.
func (c *Counter) newTerm(term string, h uint64) int32 {
	if len(c.terms) == math.MaxInt32 {
		panic("text: more than 2³¹-1 distinct terms")
	}
	id := int32(len(c.terms))
	c.terms = append(c.terms, term)
	c.ids.put(h, id, c.terms)
	c.freq = append(c.freq, termFreq{})
	c.row.grow(len(c.terms))
	return id
}

// Merge adds the statistics of o, which must have the same settings, to c,
// as though c had also counted o's documents, and returns the ids in c of
// o's terms (index: o's id). Terms new to c get ids in o's order; with
// hashed columns the ids are the identity.
func (c *Counter) Merge(o *Counter) ([]int32, error) {
	if c.cfg != o.cfg {
		return nil, fmt.Errorf("text: cannot merge term counts made with different settings (%+v and %+v)", c.cfg, o.cfg)
	}
	if c.cfg.Hashed() {
		c.docs += o.docs
		return identity(c.cfg.HashFeatures), nil
	}
	ids := make([]int32, len(o.terms))
	for i, t := range o.terms {
		h := maphash.String(c.ids.seed, t)
		id := c.ids.get([]byte(t), h, c.terms)
		if id < 0 {
			id = c.newTerm(t, h)
		}
		ids[i] = id
		c.freq[id].tf += o.freq[i].tf
		c.freq[id].df += o.freq[i].df
	}
	c.docs += o.docs
	return ids, nil
}

// Clone returns a copy of c that counts on apart from it: the same terms
// with the same ids and counts, what Merge of c into a new Counter gives,
// without hashing every term again.
func (c *Counter) Clone() *Counter {
	d := &Counter{cfg: c.cfg, grams: c.grams, stop: c.stop, ids: c.ids.clone(),
		terms: slices.Clone(c.terms), freq: slices.Clone(c.freq), docs: c.docs}
	d.row.grow(len(d.terms))
	return d
}

// Vocabulary returns the fitted vocabulary of the terms counted so far and
// the column of each term id in it (−1 for a term that was pruned). As in
// CountVectorizer, the terms are sorted by code point, then those outside
// the document-frequency bounds are dropped,
//
//	MinDF ≤ df ≤ MaxDF  (a fraction f stands for f·Docs()),
//
// then, when more than MaxFeatures remain, the MaxFeatures with the largest
// corpus frequency tf are kept; terms of equal tf at the cut are chosen
// exactly as numpy's argsort(-tf) (an introsort, not stable) chooses them,
// so that the kept terms are CountVectorizer's.
//
// It is an error when no term was counted, when MaxDF is below MinDF, or
// when no term survives the bounds. With hashed columns, the vocabulary is
// the hashing of the same settings and the columns are the ids.
func (c *Counter) Vocabulary() (*Vocabulary, []int32, error) {
	if c.cfg.Hashed() {
		return newVocabulary(c.cfg, nil), identity(c.cfg.HashFeatures), nil
	}
	if len(c.terms) == 0 {
		return nil, nil, fmt.Errorf("text: empty vocabulary: the %d documents have no terms (only separators or stop words)", c.docs)
	}
	// Sort by the first 8 bytes as an integer first (big-endian, padded
	// with zeros, which no term contains), so that most comparisons do not
	// reach the terms' bytes.
	type entry struct {
		prefix uint64
		term   string
		id     int32
	}
	sorted := make([]entry, len(c.terms))
	for i, t := range c.terms {
		var p [8]byte
		copy(p[:], t)
		sorted[i] = entry{binary.BigEndian.Uint64(p[:]), t, int32(i)}
	}
	slices.SortFunc(sorted, func(a, b entry) int {
		if a.prefix != b.prefix {
			return cmp.Compare(a.prefix, b.prefix)
		}
		return strings.Compare(a.term, b.term)
	})
	hi, hasHi := c.cfg.MaxDF.threshold(c.docs)
	lo, hasLo := c.cfg.MinDF.threshold(c.docs)
	if hasHi && hasLo && hi < lo {
		return nil, nil, fmt.Errorf("text: max_df %v corresponds to fewer documents than min_df %v", c.cfg.MaxDF, c.cfg.MinDF)
	}
	kept := make([]int32, 0, len(sorted))
	for _, e := range sorted {
		id := e.id
		df := float64(c.freq[id].df)
		if (!hasHi || df <= hi) && (!hasLo || df >= lo) {
			kept = append(kept, id)
		}
	}
	if k := c.cfg.MaxFeatures; k > 0 && len(kept) > k {
		neg := make([]int64, len(kept))
		for i, id := range kept {
			neg[i] = -c.freq[id].tf
		}
		top := numpyArgsort(neg)[:k]
		slices.Sort(top)
		for i, p := range top {
			kept[i] = kept[p]
		}
		kept = kept[:k]
	}
	if len(kept) == 0 {
		return nil, nil, fmt.Errorf("text: no terms remain after pruning (%d counted); lower min_df or raise max_df", len(c.terms))
	}
	col := make([]int32, len(c.terms))
	for i := range col {
		col[i] = -1
	}
	terms := make([]string, len(kept))
	for j, id := range kept {
		col[id] = int32(j)
		terms[j] = c.terms[id]
	}
	return newVocabulary(c.cfg, terms), col, nil
}

// counterJSON is the form of a Counter in a model file: the terms in id
// order with their frequencies.
type counterJSON struct {
	Config VectorizerConfig `json:"config"`
	Docs   int              `json:"docs"`
	Terms  []string         `json:"terms"`
	TF     []int64          `json:"tf"`
	DF     []int64          `json:"df"`
}

// MarshalJSON writes the settings, the number of documents and every term
// in id order with its corpus and document frequency.
func (c *Counter) MarshalJSON() ([]byte, error) {
	j := counterJSON{Config: c.cfg, Docs: c.docs, Terms: c.terms, TF: make([]int64, len(c.terms)), DF: make([]int64, len(c.terms))}
	for i, f := range c.freq {
		j.TF[i], j.DF[i] = f.tf, f.df
	}
	return json.Marshal(j)
}

// UnmarshalCounter reads a Counter written by MarshalJSON, with the same
// ids, and checks it: valid settings, distinct terms that the settings can
// produce, and 1 ≤ df ≤ tf, df ≤ docs for every term; no terms with
// hashed columns.
func UnmarshalCounter(b []byte) (*Counter, error) {
	var j counterJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return nil, fmt.Errorf("text: term counts: %w", err)
	}
	c, err := NewCounter(j.Config)
	if err != nil {
		return nil, fmt.Errorf("text: term counts: %w", err)
	}
	if len(j.TF) != len(j.Terms) || len(j.DF) != len(j.Terms) {
		return nil, fmt.Errorf("text: term counts: %d terms, %d tf, %d df", len(j.Terms), len(j.TF), len(j.DF))
	}
	if j.Docs < 0 {
		return nil, fmt.Errorf("text: term counts: %d documents", j.Docs)
	}
	if c.cfg.Hashed() && len(j.Terms) > 0 {
		return nil, fmt.Errorf("text: term counts: %d terms with hashed columns, which keep none", len(j.Terms))
	}
	c.docs = j.Docs
	for i, t := range j.Terms {
		switch tf, df := j.TF[i], j.DF[i]; {
		case !c.sc.isTerm(t, c.cfg.MinLen, c.stop, c.grams):
			return nil, fmt.Errorf("text: term counts: term %d, %q, is not one the settings produce", i, t)
		case df < 1 || df > tf || df > int64(j.Docs):
			return nil, fmt.Errorf("text: term counts: term %q has tf %d, df %d in %d documents", t, tf, df, j.Docs)
		}
		h := maphash.String(c.ids.seed, t)
		if c.ids.get([]byte(t), h, c.terms) >= 0 {
			return nil, fmt.Errorf("text: term counts: term %q appears twice", t)
		}
		c.freq[c.newTerm(t, h)] = termFreq{j.TF[i], j.DF[i]}
	}
	return c, nil
}

// rowCounts builds the row of one document in a CSR: the first occurrence
// of a column appends an entry with its value (1 for a count), later ones
// add theirs to it. Each
// column has one slot holding the stamp of the latest document it occurred
// in and the position of its entry in that document's row, so that a
// token touches one cache line.
type rowCounts struct {
	slots []rowSlot
	stamp uint32 // the current document's stamp, never 0
	start int    // where the current document's row starts in the CSR
}

type rowSlot struct{ stamp, pos uint32 }

// grow makes room for columns [0, n).
func (r *rowCounts) grow(n int) {
	if n > len(r.slots) {
		r.slots = append(r.slots, make([]rowSlot, n-len(r.slots))...)
	}
}

// next starts the row of a new document, which will begin at entry start
// of the CSR.
func (r *rowCounts) next(start int) {
	r.stamp++
	if r.stamp == 0 { // wrapped around: forget every stamp
		clear(r.slots)
		r.stamp = 1
	}
	r.start = start
}

// add adds v to column j in the current document, in m unless m is nil,
// and reports whether it is the column's first occurrence in the
// document.
func (r *rowCounts) add(m *CSR, j int32, v float64) bool {
	s := &r.slots[j]
	if s.stamp == r.stamp {
		if m != nil {
			m.Data[r.start+int(s.pos)] += v
		}
		return false
	}
	s.stamp = r.stamp
	if m != nil {
		s.pos = uint32(len(m.Indices) - r.start)
		m.Indices = append(m.Indices, j)
		m.Data = append(m.Data, v)
	}
	return true
}

// identity returns the ids 0, 1, …, n−1.
func identity(n int) []int32 {
	ids := make([]int32, n)
	for i := range ids {
		ids[i] = int32(i)
	}
	return ids
}
