package ngram

import (
	"encoding/json"
	"fmt"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/modelfile"
)

// modelJSON is the saved form of a model: its configuration and its raw
// statistics, from which loading derives everything else.
type modelJSON struct {
	Order     int             `json:"order"`
	Smoothing string          `json:"smoothing"`
	Alpha     modelfile.Float `json:"alpha"`
	MinCount  int             `json:"min_count"`
	KeepPunct bool            `json:"keep_punct"`
	Column    string          `json:"column,omitempty"`
	Words     []string        `json:"words"`
	Docs      []int64         `json:"docs"`
	// NGrams[k] holds class k's n-grams of the highest order, Order ids
	// each, one after the other; Counts[k] their counts.
	NGrams [][]int32 `json:"ngrams"`
	Counts [][]int64 `json:"counts"`
}

// MarshalJSON writes the model's parameters for a model file: the
// configuration and the raw counts.
func (m *Model) MarshalJSON() ([]byte, error) {
	s := m.stats
	c := s.cfg
	j := modelJSON{Order: c.Order, Smoothing: c.Smoothing.String(), Alpha: modelfile.Float(c.Alpha), MinCount: c.MinCount,
		KeepPunct: c.KeepPunct, Column: c.Column, Words: s.words, Docs: s.docs}
	for _, t := range s.grams {
		j.NGrams = append(j.NGrams, t.keys)
		j.Counts = append(j.Counts, t.counts)
	}
	return json.Marshal(j)
}

// maxTotal bounds the documents and the sum of the n-gram counts of a
// class in a model file: 2⁵³, below which float64 holds every count and
// every sum of them exactly, and int64 sums cannot overflow.
const maxTotal = 1 << 53

// UnmarshalModel rebuilds a model from a model file's schema and the
// parameters MarshalJSON wrote, checking them: a valid configuration
// (Config, with alpha at most 1e100), a word list that begins with the
// special words and names no word twice, for every class of the schema
// its documents and n-grams of the model's order over known words, each
// n-gram once with a positive count, the counts of a class summing to at
// most 2⁵³.
func UnmarshalModel(schema *data.Schema, params []byte) (*Model, error) {
	m, err := unmarshalModel(schema, params)
	if err != nil {
		return nil, fmt.Errorf("ngram: model parameters: %w", err)
	}
	return m, nil
}

func unmarshalModel(schema *data.Schema, params []byte) (*Model, error) {
	var j modelJSON
	if err := json.Unmarshal(params, &j); err != nil {
		return nil, err
	}
	sm, err := ParseSmoothing(j.Smoothing)
	if err != nil {
		return nil, err
	}
	c := Config{Order: j.Order, Smoothing: sm, Alpha: float64(j.Alpha), MinCount: j.MinCount, KeepPunct: j.KeepPunct, Column: j.Column}
	if nc, err := c.normalized(); err != nil {
		return nil, err
	} else if nc != c {
		return nil, fmt.Errorf("incomplete configuration")
	}
	a := newAcc(c)
	a.schema = schema
	if len(j.Words) < int(nSpecial) || j.Words[idStart] != Start || j.Words[idEnd] != End || j.Words[idUnk] != Unknown {
		return nil, fmt.Errorf("the word list does not begin with %s, %s, %s", Start, End, Unknown)
	}
	for _, w := range j.Words[nSpecial:] {
		if _, dup := a.index[w]; dup {
			return nil, fmt.Errorf("word %q twice", w)
		}
		a.addWord(w)
	}
	K := classes(schema)
	if len(j.Docs) != K || len(j.NGrams) != K || len(j.Counts) != K {
		return nil, fmt.Errorf("statistics for %d, %d and %d classes, want %d", len(j.Docs), len(j.NGrams), len(j.Counts), K)
	}
	a.grow(K)
	for k := range K {
		keys, counts := j.NGrams[k], j.Counts[k]
		if len(keys) != len(counts)*c.Order {
			return nil, fmt.Errorf("class %d: %d ids for %d n-grams of order %d", k, len(keys), len(counts), c.Order)
		}
		if j.Docs[k] < 0 || j.Docs[k] > maxTotal {
			return nil, fmt.Errorf("docs[%d]: %d is outside [0, 2^53]", k, j.Docs[k])
		}
		a.docs[k] = j.Docs[k]
		for _, id := range keys {
			if id < 0 || int(id) >= len(a.words) {
				return nil, fmt.Errorf("class %d: word id %d of %d words", k, id, len(a.words))
			}
		}
		t, total := a.grams[k], int64(0)
		for e, n := range counts {
			if n < 1 || n > maxTotal-total {
				return nil, fmt.Errorf("counts[%d][%d]: %d: want a count ≥ 1, the counts of a class summing to at most 2^53", k, e, n)
			}
			total += n
			if g := keys[e*c.Order : (e+1)*c.Order]; !documentGram(g) {
				return nil, fmt.Errorf("ngrams[%d][%d:%d]: %v is not an n-gram of a document (%s only first, %s only last)", k, e*c.Order, (e+1)*c.Order, g, Start, End)
			}
			if t.add(keys[e*c.Order:(e+1)*c.Order], n) != e {
				return nil, fmt.Errorf("class %d: an n-gram twice", k)
			}
		}
	}
	return a.model(true)
}

// documentGram reports whether the n-gram g (word ids) is one that a
// document gives: none or more Start, then at least one id, none of which
// is Start and only the last of which may be End.
func documentGram(g []int32) bool {
	i := 0
	for i < len(g) && g[i] == idStart {
		i++
	}
	if i == len(g) {
		return false
	}
	for p := i; p < len(g); p++ {
		if g[p] == idStart || g[p] == idEnd && p != len(g)-1 {
			return false
		}
	}
	return true
}
