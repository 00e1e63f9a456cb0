package text

import (
	"encoding/json"
	"fmt"
	"hash/maphash"
	"slices"
	"sync"

	"github.com/gendisc/gendisc/internal/parallel"
)

// Vocabulary is a fitted bag-of-words vocabulary: the settings that turn a
// document into terms and the kept terms, sorted by code point, whose
// positions are the columns of the count matrices Transform returns (the
// order of CountVectorizer's vocabulary_ indices). A Vocabulary is
// immutable and safe for concurrent use.
//
// With hashed columns (VectorizerConfig.HashFeatures) it keeps no terms:
// Transform hashes each term to its column, Len is the number of columns
// and Term(j) is "#j".
type Vocabulary struct {
	cfg   VectorizerConfig
	grams NGrams
	stop  map[string]struct{}
	terms []string
	index *termTable

	scratch *sync.Pool // of *transformScratch sized for the terms
}

// minBlock is the smallest number of documents a worker takes.
const minBlock = 256

// newVocabulary returns the vocabulary of the sorted, distinct terms
// under the valid settings cfg.
func newVocabulary(cfg VectorizerConfig, terms []string) *Vocabulary {
	stop, _ := stopList(cfg.StopWords)
	v := &Vocabulary{cfg: cfg, grams: cfg.NGrams.orDefault(), stop: stop, terms: terms,
		index: newTermTable(len(terms))}
	for i, t := range terms {
		v.index.put(maphash.String(v.index.seed, t), int32(i), terms)
	}
	v.scratch = &sync.Pool{New: func() any {
		s := new(transformScratch)
		s.row.grow(v.Len())
		return s
	}}
	return v
}

// NewHashing returns the vocabulary of hashed columns under the settings
// cfg, which must have HashFeatures > 0: no fitting is needed, the columns
// being the hashes of the terms.
func NewHashing(cfg VectorizerConfig) (*Vocabulary, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if !cfg.Hashed() {
		return nil, fmt.Errorf("text: NewHashing without hashed columns")
	}
	return newVocabulary(cfg, nil), nil
}

// Config returns the settings the vocabulary was fitted with.
func (v *Vocabulary) Config() VectorizerConfig { return v.cfg }

// Len is the number of terms (columns).
func (v *Vocabulary) Len() int {
	if v.cfg.Hashed() {
		return v.cfg.HashFeatures
	}
	return len(v.terms)
}

// Term returns the term of column i, "#i" with hashed columns; it panics
// when i is out of range.
func (v *Vocabulary) Term(i int) string {
	if v.cfg.Hashed() {
		if i < 0 || i >= v.cfg.HashFeatures {
			panic(fmt.Sprintf("text: column %d of %d hashed columns", i, v.cfg.HashFeatures))
		}
		return hashedTerm(i)
	}
	return v.terms[i]
}

// Terms returns a copy of the terms in column order ("#0", "#1", … with
// hashed columns).
func (v *Vocabulary) Terms() []string {
	if v.cfg.Hashed() {
		t := make([]string, v.cfg.HashFeatures)
		for i := range t {
			t[i] = hashedTerm(i)
		}
		return t
	}
	return slices.Clone(v.terms)
}

// Index returns the column of term and whether the vocabulary has it;
// with hashed columns, the column it hashes to and true.
func (v *Vocabulary) Index(term string) (int, bool) {
	b := []byte(term)
	if v.cfg.Hashed() {
		j, _ := hashColumn(b, v.cfg.HashFeatures, false)
		return int(j), true
	}
	i := v.index.get(b, v.index.hash(b), v.terms)
	return int(i), i >= 0
}

// Transform returns the count matrix of docs, one row per document and one
// column per term (X_ij = occurrences of term j in docs[i]), and the
// number of term occurrences that are not in the vocabulary (words never
// seen in training, or pruned): they are ignored, and the count is for
// --verbose reports. The documents are split across the cores.
func (v *Vocabulary) Transform(docs []string) (*CSR, int) {
	return v.transformAll(docs, nil)
}

// TransformUnseen is Transform with the term occurrences that are not in
// the vocabulary counted per document: unseen[i] for docs[i].
func (v *Vocabulary) TransformUnseen(docs []string) (m *CSR, unseen []int) {
	unseen = make([]int, len(docs))
	m, _ = v.transformAll(docs, unseen)
	return m, unseen
}

// transformAll is Transform, writing the unseen occurrences of docs[i]
// to perDoc[i] when perDoc is not nil.
func (v *Vocabulary) transformAll(docs []string, perDoc []int) (*CSR, int) {
	parts := make([]*CSR, parallel.Blocks(len(docs), minBlock))
	unseen := make([]int, len(parts))
	parallel.For(len(docs), minBlock, func(w, lo, hi int) {
		var pd []int
		if perDoc != nil {
			pd = perDoc[lo:hi]
		}
		parts[w], unseen[w] = v.transform(docs[lo:hi], pd)
	})
	total := 0
	for _, u := range unseen {
		total += u
	}
	return concat(parts, v.Len()), total
}

// transform counts the terms of docs on the calling goroutine, and the
// unseen ones of docs[k] in perDoc[k] when perDoc is not nil.
func (v *Vocabulary) transform(docs []string, perDoc []int) (*CSR, int) {
	s := v.scratch.Get().(*transformScratch)
	defer v.scratch.Put(s)
	m := newCSR(len(docs))
	m.Cols = v.Len()
	unseen := 0
	for k, doc := range docs {
		if k == len(docs)/16 && k > 0 {
			reserve(m, docs[:k], docs[k:])
		}
		s.sc.scan(doc, v.cfg.MinLen, v.stop)
		s.row.next(len(m.Indices))
		before := unseen
		if v.cfg.Hashed() {
			addHashed(&s.row, m, &s.sc, v.grams, v.cfg)
		} else {
			unseen += v.addTerms(s, m)
		}
		if perDoc != nil {
			perDoc[k] = unseen - before
		}
		m.Indptr = append(m.Indptr, len(m.Indices))
	}
	return m, unseen
}

// addTerms adds the terms of the document scanned into s.sc that the
// vocabulary has to its row in m, and returns the number of the others.
func (v *Vocabulary) addTerms(s *transformScratch, m *CSR) (unseen int) {
	for _, sp := range s.sc.terms(v.grams) {
		key := s.sc.buf[sp.lo:sp.hi]
		if j := v.index.get(key, v.index.hash(key), v.terms); j >= 0 {
			s.row.add(m, j, 1)
		} else {
			unseen++
		}
	}
	return unseen
}

// transformScratch is the reusable state of one transforming goroutine.
type transformScratch struct {
	sc  scanner
	row rowCounts
}

// vocabularyJSON is the form of a Vocabulary in a model file.
type vocabularyJSON struct {
	Config VectorizerConfig `json:"config"`
	Terms  []string         `json:"terms"`
}

// MarshalJSON writes the settings and the terms in column order.
func (v *Vocabulary) MarshalJSON() ([]byte, error) {
	return json.Marshal(vocabularyJSON{Config: v.cfg, Terms: v.terms})
}

// UnmarshalVocabulary reads a Vocabulary written by MarshalJSON and checks
// it: valid settings, at least one term, terms strictly increasing and
// each one a term the settings can produce; no terms with hashed columns.
func UnmarshalVocabulary(b []byte) (*Vocabulary, error) {
	var j vocabularyJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return nil, fmt.Errorf("text: vocabulary: %w", err)
	}
	if err := j.Config.Validate(); err != nil {
		return nil, fmt.Errorf("text: vocabulary: %w", err)
	}
	if j.Config.Hashed() {
		if len(j.Terms) > 0 {
			return nil, fmt.Errorf("text: vocabulary of hashed columns has %d terms, want none", len(j.Terms))
		}
		return newVocabulary(j.Config, nil), nil
	}
	if len(j.Terms) == 0 {
		return nil, fmt.Errorf("text: vocabulary has no terms")
	}
	if k := j.Config.MaxFeatures; k > 0 && len(j.Terms) > k {
		return nil, fmt.Errorf("text: vocabulary has %d terms, more than its max_features %d", len(j.Terms), k)
	}
	var sc scanner
	stop, _ := stopList(j.Config.StopWords)
	for i, t := range j.Terms {
		if !sc.isTerm(t, j.Config.MinLen, stop, j.Config.NGrams.orDefault()) {
			return nil, fmt.Errorf("text: vocabulary term %d, %q, is not one its settings produce", i, t)
		}
		if i > 0 && t <= j.Terms[i-1] {
			return nil, fmt.Errorf("text: vocabulary terms %d and %d (%q, %q) are not in increasing order", i-1, i, j.Terms[i-1], t)
		}
	}
	return newVocabulary(j.Config, j.Terms), nil
}
