package ngram

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
)

// Accumulator gathers the sufficient statistics of n-gram language models:
// for each class (one when the data has no target), the number of
// documents and the count of every n-gram of the highest order in the
// padded documents, over the words as tokenized (before the vocabulary's
// minimum count applies). Every lower-order count, the vocabulary and the
// smoothed probabilities follow from them at Model, so that adding rows,
// merging accumulators and finishing gives exactly the model of all the
// rows. It implements gendisc.Accumulator.
type Accumulator struct {
	cfg    Config
	schema *data.Schema // nil until the first Add
	words  []string     // the words by id; the special tokens first
	index  map[string]int32
	docs   []int64      // documents per class
	grams  []*gramTable // the highest-order n-grams per class

	workers int // the cores Add and Model use; 0: GOMAXPROCS
}

// NewAccumulator returns an empty accumulator of the configuration c, or
// an error wrapping ErrConfig.
func NewAccumulator(c Config) (*Accumulator, error) {
	c, err := c.normalized()
	if err != nil {
		return nil, err
	}
	return newAcc(c), nil
}

// Fit fits the models of c to d: one language model per class of d's
// target, or one model when d has none.
func (c Config) Fit(d *data.Dataset) (*Model, error) {
	a, err := NewAccumulator(c)
	if err != nil {
		return nil, err
	}
	if err := a.Add(d); err != nil {
		return nil, err
	}
	return a.model(true)
}

func (a *Accumulator) addWord(w string) int32 {
	id := int32(len(a.words))
	a.words = append(a.words, w)
	a.index[w] = id
	return id
}

// classes returns the number of classes of a schema: its target's, or 1.
func classes(s *data.Schema) int {
	if s.Target == nil {
		return 1
	}
	return len(s.Target.Levels)
}

// grow makes room for k classes.
func (a *Accumulator) grow(k int) {
	for len(a.grams) < k {
		a.grams = append(a.grams, newGramTable(a.cfg.Order, 0))
		a.docs = append(a.docs, 0)
	}
}

// ErrWeights is the error for rows with weights other than 1: the counts
// of a language model are whole numbers.
var ErrWeights = errors.New("ngram: rows have weights, but n-gram counts are whole numbers")

// Add adds the documents of d's text column, each to its row's class. A
// row whose class is missing or whose text is "" (a missing cell) is
// skipped. Rows with weights other than 1 are refused (ErrWeights).
func (a *Accumulator) Add(d *data.Dataset) error {
	if a.schema == nil {
		a.schema = d.Schema
	} else {
		u, rm, err := a.schema.Extend(d.Schema)
		if err != nil {
			return fmt.Errorf("ngram: %w", err)
		}
		d, a.schema = rm.Apply(d, u), u
	}
	col, err := a.cfg.textColumn(d.Schema)
	if err != nil {
		return err
	}
	for _, w := range d.Weight {
		if w != 1 {
			return ErrWeights
		}
	}
	a.grow(classes(a.schema))
	if a.schema.Target == nil && a.grams[0].len() == 0 {
		// Room for the n-grams of a text of b bytes: fewer than its
		// tokens, about b/5 in English.
		b := 0
		for _, doc := range d.Text[col] {
			b += len(doc)
		}
		a.grams[0] = newGramTable(a.cfg.Order, b/5)
	}
	a.addTexts(d.Text[col], d.Y, a.schema.Target != nil)
	return nil
}

// describe names the settings of c for a gendisc.MergeError.
func (c Config) describe() string {
	return fmt.Sprintf("order %d, %v (alpha %v), minimum count %d, keep punctuation %v, column %q",
		c.Order, c.Smoothing, c.Alpha, c.MinCount, c.KeepPunct, c.Column)
}

// Merge adds the statistics of o, an *Accumulator of the same
// configuration (else a *gendisc.MergeError). Classes and words that only o saw
// come after a's own.
func (a *Accumulator) Merge(o gendisc.Accumulator) error {
	b, ok := o.(*Accumulator)
	if !ok {
		return &gendisc.MergeError{Package: "ngram", Kind: Kind, Other: fmt.Sprintf("%T", o), Reason: "not an n-gram accumulator"}
	}
	if a.cfg != b.cfg {
		return &gendisc.MergeError{Package: "ngram", Kind: Kind, Other: Kind,
			Reason: fmt.Sprintf("other settings: %s, want %s", b.cfg.describe(), a.cfg.describe())}
	}
	if b.schema == nil {
		return nil
	}
	classMap := func(k int) int { return k }
	if a.schema == nil {
		a.schema = b.schema
	} else {
		u, rm, err := a.schema.Extend(b.schema)
		if err != nil {
			return fmt.Errorf("ngram: %w", err)
		}
		a.schema = u
		if rm != nil && rm.Target != nil {
			classMap = func(k int) int { return rm.Target[k] }
		}
	}
	a.grow(classes(a.schema))
	ids := make([]int32, len(b.words))
	for i, w := range b.words {
		id, ok := a.index[w]
		if !ok {
			id = a.addWord(w)
		}
		ids[i] = id
	}
	g := make([]int32, a.cfg.Order)
	for k, t := range b.grams {
		ak := classMap(k)
		a.docs[ak] += b.docs[k]
		for e := range t.counts {
			for i, id := range t.gram(e) {
				g[i] = ids[id]
			}
			a.grams[ak].add(g, t.counts[e])
		}
	}
	return nil
}

// Model finishes the fit: the smoothed models of the statistics so far.
// The accumulator stays usable.
func (a *Accumulator) Model() (gendisc.Model, error) { return a.model(false) }

// clone returns a deep copy of a's statistics.
func (a *Accumulator) clone() *Accumulator {
	c := &Accumulator{cfg: a.cfg, schema: a.schema, words: append([]string(nil), a.words...),
		index: make(map[string]int32, len(a.index)), docs: append([]int64(nil), a.docs...)}
	for w, id := range a.index {
		c.index[w] = id
	}
	for _, t := range a.grams {
		u := &gramTable{n: t.n, keys: append([]int32(nil), t.keys...), counts: append([]int64(nil), t.counts...),
			slots: append([]gramSlot(nil), t.slots...)}
		c.grams = append(c.grams, u)
	}
	return c
}

// The binary encoding: a magic string and version, the configuration, the
// schema as JSON, the words, then per class its document count and its
// n-grams (ids, count) in the order they were first seen. Integers are
// unsigned varints (the counts and ids are never negative).
const magic = "gendisc-ngram-acc\x01"

// MarshalBinary encodes the statistics and the configuration.
func (a *Accumulator) MarshalBinary() ([]byte, error) {
	var b []byte
	b = append(b, magic...)
	c := a.cfg
	b = binary.AppendUvarint(b, uint64(c.Order))
	b = binary.AppendUvarint(b, uint64(c.Smoothing))
	b = binary.BigEndian.AppendUint64(b, math.Float64bits(c.Alpha))
	b = binary.AppendUvarint(b, uint64(c.MinCount))
	b = appendBool(b, c.KeepPunct)
	b = appendString(b, c.Column)
	schema := []byte("null")
	if a.schema != nil {
		var err error
		if schema, err = json.Marshal(a.schema); err != nil {
			return nil, err
		}
	}
	b = appendString(b, string(schema))
	b = binary.AppendUvarint(b, uint64(len(a.words)))
	for _, w := range a.words {
		b = appendString(b, w)
	}
	b = binary.AppendUvarint(b, uint64(len(a.grams)))
	for k, t := range a.grams {
		b = binary.AppendUvarint(b, uint64(a.docs[k]))
		b = binary.AppendUvarint(b, uint64(t.len()))
		for _, id := range t.keys {
			b = binary.AppendUvarint(b, uint64(id))
		}
		for _, n := range t.counts {
			b = binary.AppendUvarint(b, uint64(n))
		}
	}
	return b, nil
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// ErrEncoding is wrapped by the errors of an encoding that does not read.
var ErrEncoding = errors.New("ngram: invalid accumulator encoding")

// UnmarshalBinary replaces a's statistics and configuration by those that
// MarshalBinary encoded, or returns an error wrapping ErrEncoding.
func (a *Accumulator) UnmarshalBinary(b []byte) error {
	r := &reader{b: b}
	if !bytes.HasPrefix(b, []byte(magic)) {
		return fmt.Errorf("%w: not an n-gram accumulator", ErrEncoding)
	}
	r.b = b[len(magic):]
	var c Config
	c.Order = int(r.uvarint())
	c.Smoothing = Smoothing(r.uvarint())
	c.Alpha = math.Float64frombits(r.uint64())
	c.MinCount = int(r.uvarint())
	c.KeepPunct = r.byte() == 1
	c.Column = r.string()
	schemaJSON := r.string()
	if r.err != nil {
		return r.err
	}
	if nc, err := c.normalized(); err != nil || nc != c {
		return fmt.Errorf("%w: configuration: %v", ErrEncoding, err)
	}
	n := newAcc(c)
	if schemaJSON != "null" {
		n.schema = new(data.Schema)
		if err := json.Unmarshal([]byte(schemaJSON), n.schema); err != nil {
			return fmt.Errorf("%w: schema: %v", ErrEncoding, err)
		}
	}
	nw := r.count()
	n.words, n.index = n.words[:0], map[string]int32{}
	for range nw {
		if r.err != nil {
			break
		}
		w := r.string()
		if _, dup := n.index[w]; dup {
			return fmt.Errorf("%w: word %q twice", ErrEncoding, w)
		}
		n.addWord(w)
	}
	if r.err == nil && (len(n.words) < int(nSpecial) || n.words[idStart] != Start || n.words[idEnd] != End || n.words[idUnk] != Unknown) {
		return fmt.Errorf("%w: the special tokens are not first", ErrEncoding)
	}
	nk := r.count()
	for k := 0; k < nk && r.err == nil; k++ {
		n.grow(k + 1)
		n.docs[k] = int64(r.uvarint())
		ng := r.count()
		g := make([]int32, c.Order)
		keys := make([]int32, 0, min(ng*c.Order, len(r.b)))
		for range ng * c.Order {
			id := r.uvarint()
			if id >= uint64(len(n.words)) {
				return fmt.Errorf("%w: word id %d of %d words", ErrEncoding, id, len(n.words))
			}
			keys = append(keys, int32(id))
		}
		t, total := n.grams[k], uint64(0)
		for e := 0; e < ng && r.err == nil; e++ {
			copy(g, keys[e*c.Order:])
			n := r.uvarint()
			if n < 1 || n > maxTotal-total {
				return fmt.Errorf("%w: n-gram count %d (the counts of a class sum to at most 2^53)", ErrEncoding, n)
			}
			total += n
			if !documentGram(g) {
				return fmt.Errorf("%w: %v is not an n-gram of a document", ErrEncoding, g)
			}
			if t.add(g, int64(n)) != e {
				return fmt.Errorf("%w: an n-gram twice", ErrEncoding)
			}
		}
	}
	if r.err != nil {
		return r.err
	}
	if len(r.b) != 0 {
		return fmt.Errorf("%w: %d bytes after the statistics", ErrEncoding, len(r.b))
	}
	if n.schema != nil && classes(n.schema) != len(n.grams) {
		return fmt.Errorf("%w: %d classes of statistics for a schema of %d", ErrEncoding, len(n.grams), classes(n.schema))
	}
	*a = *n
	return nil
}

// newAcc returns an empty accumulator of the normalized configuration c.
func newAcc(c Config) *Accumulator {
	a := &Accumulator{cfg: c, index: map[string]int32{}}
	for _, w := range []string{Start, End, Unknown} {
		a.addWord(w)
	}
	return a
}

// reader decodes MarshalBinary's encoding, keeping the first error.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail() {
	if r.err == nil {
		r.err = fmt.Errorf("%w: truncated", ErrEncoding)
	}
	r.b = nil
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count reads a length, which cannot exceed the bytes left.
func (r *reader) count() int {
	v := r.uvarint()
	if v > uint64(len(r.b)) {
		r.fail()
		return 0
	}
	return int(v)
}

func (r *reader) uint64() uint64 {
	if len(r.b) < 8 {
		r.fail()
		return 0
	}
	v := binary.BigEndian.Uint64(r.b)
	r.b = r.b[8:]
	return v
}

func (r *reader) byte() byte {
	if len(r.b) < 1 {
		r.fail()
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *reader) string() string {
	n := r.count()
	if r.err != nil {
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}
