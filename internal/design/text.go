package design

import (
	"slices"
	"strings"
	"unicode"

	"github.com/gendisc/gendisc/data"
)

// Tokens returns the words of s as scikit-learn's CountVectorizer finds
// them by default: s lowercased, then every maximal run of at least two
// word characters (letters, digits, underscore), in order.
func Tokens(s string) []string {
	var out []string
	s = strings.ToLower(s)
	start := -1
	for i, r := range s + " " {
		word := r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsNumber(r)
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			if w := s[start:i]; len([]rune(w)) >= 2 {
				out = append(out, w)
			}
			start = -1
		}
	}
	return out
}

// textColumn is the bag-of-words encoding of one text feature: one count
// column per word of its training vocabulary.
type textColumn struct {
	feature int
	vocab   []string // sorted
	index   map[string]int32
	offset  int // of its first count column among the sparse columns
}

func newTextColumn(feature int, vocab []string, offset int) textColumn {
	tc := textColumn{feature: feature, vocab: vocab, index: make(map[string]int32, len(vocab)), offset: offset}
	for w, s := range vocab {
		tc.index[s] = int32(w)
	}
	return tc
}

// fitText builds the vocabulary of text feature j of d: every word of its
// cells, sorted.
func fitText(d *data.Dataset, j, offset int) textColumn {
	seen := map[string]bool{}
	for _, cell := range d.Text[j] {
		for _, w := range Tokens(cell) {
			seen[w] = true
		}
	}
	vocab := make([]string, 0, len(seen))
	for w := range seen {
		vocab = append(vocab, w)
	}
	slices.Sort(vocab)
	return newTextColumn(j, vocab, offset)
}

// CSR holds the sparse columns of a design matrix, row by row: the
// entries of row i are Idx[k], Val[k] for k in [Ptr[i], Ptr[i+1]), Idx
// counting from the first sparse column, increasing within a row.
type CSR struct {
	Ptr []int
	Idx []int32
	Val []float64
}

// Row returns the sparse entries of row i, views.
func (c *CSR) Row(i int) ([]int32, []float64) {
	lo, hi := c.Ptr[i], c.Ptr[i+1]
	return c.Idx[lo:hi:hi], c.Val[lo:hi:hi]
}

// V is the number of sparse columns: the word counts of the text
// features, which follow the P dense columns.
func (e *Encoder) V() int {
	v := 0
	for _, tc := range e.text {
		v += len(tc.vocab)
	}
	return v
}

// EncodeText appends the sparse entries of row i of d (the word counts of
// its text cells, by increasing column) to idx and val and returns them.
// Words outside the training vocabulary are left out.
func (e *Encoder) EncodeText(idx []int32, val []float64, d *data.Dataset, i int) ([]int32, []float64) {
	for _, tc := range e.text {
		if d.Text == nil || d.Text[tc.feature] == nil {
			continue
		}
		start := len(idx)
		for _, w := range Tokens(d.Text[tc.feature][i]) {
			if k, ok := tc.index[w]; ok {
				idx = append(idx, int32(tc.offset)+k)
			}
		}
		row := idx[start:]
		slices.Sort(row)
		// Runs of one column become one entry holding the count.
		n := 0
		for k := 0; k < len(row); {
			run := k
			for k < len(row) && row[k] == row[run] {
				k++
			}
			row[n] = row[run]
			val = append(val, float64(k-run))
			n++
		}
		idx = idx[:start+n]
	}
	return idx, val
}

// encodeText returns the sparse part of d's design matrix.
func (e *Encoder) encodeText(d *data.Dataset) *CSR {
	c := &CSR{Ptr: make([]int, d.N+1)}
	for i := range d.N {
		c.Idx, c.Val = e.EncodeText(c.Idx, c.Val, d, i)
		c.Ptr[i+1] = len(c.Idx)
	}
	return c
}

// textName returns the name of sparse column k: "feature:word".
func (e *Encoder) textName(k int) string {
	for _, tc := range e.text {
		if k < tc.offset+len(tc.vocab) {
			return e.schema.Features[tc.feature].Name + ":" + tc.vocab[k-tc.offset]
		}
	}
	panic("design: sparse column out of range")
}
