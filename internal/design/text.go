package design

import (
	"fmt"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/text"
)

// textColumn is the bag-of-words encoding of one text feature: one count
// column per term of its training vocabulary.
type textColumn struct {
	feature int
	vocab   *text.Vocabulary
	offset  int // of its first count column among the sparse columns
}

// fitText builds the vocabulary of text feature j of d under cfg.
func fitText(d *data.Dataset, j int, cfg text.VectorizerConfig, offset int) (textColumn, error) {
	v, err := cfg.Fit(documents(d, j))
	if err != nil {
		return textColumn{}, fmt.Errorf("%s: column %q: %w", d.Source, d.Schema.Features[j].Name, err)
	}
	return textColumn{feature: j, vocab: v, offset: offset}, nil
}

// documents returns the cells of text feature j of d, N empty documents
// when d holds none.
func documents(d *data.Dataset, j int) []string {
	if d.Text == nil || d.Text[j] == nil {
		return make([]string, d.N)
	}
	return d.Text[j]
}

// V is the number of sparse columns: the term counts of the text
// features, which follow the P dense columns.
func (e *Encoder) V() int {
	v := 0
	for _, tc := range e.text {
		v += tc.vocab.Len()
	}
	return v
}

// Vocabularies returns the vocabulary of each text feature, in the order
// of the features; their columns follow one another among the sparse
// columns.
func (e *Encoder) Vocabularies() []*text.Vocabulary {
	out := make([]*text.Vocabulary, len(e.text))
	for c, tc := range e.text {
		out[c] = tc.vocab
	}
	return out
}

// EncodeText returns the sparse part of d's design matrix, N × V: the term
// counts of each text feature (Vocabulary.Transform) side by side, in the
// order of the features; nil when the encoder has no text feature. Terms
// outside the training vocabulary are left out. The entries of a row are
// not sorted by column.
func (e *Encoder) EncodeText(d *data.Dataset) *text.CSR {
	if len(e.text) == 0 {
		return nil
	}
	parts := make([]*text.CSR, len(e.text))
	for c, tc := range e.text {
		parts[c], _ = tc.vocab.Transform(documents(d, tc.feature))
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return hstack(parts, e.V())
}

// hstack places the matrices parts, which have the same rows, side by
// side in one matrix of cols columns: the columns of parts[c] are shifted
// by the columns of the parts before it.
func hstack(parts []*text.CSR, cols int) *text.CSR {
	rows, nnz := parts[0].Rows, 0
	for _, p := range parts {
		nnz += p.NNZ()
	}
	m := &text.CSR{Rows: rows, Cols: cols, Indptr: make([]int, 1, rows+1),
		Indices: make([]int32, 0, nnz), Data: make([]float64, 0, nnz)}
	for i := range rows {
		offset := int32(0)
		for _, p := range parts {
			idx, val := p.Row(i)
			for _, j := range idx {
				m.Indices = append(m.Indices, offset+j)
			}
			m.Data = append(m.Data, val...)
			offset += int32(p.Cols)
		}
		m.Indptr = append(m.Indptr, len(m.Indices))
	}
	return m
}

// textName returns the name of sparse column k: "feature:term".
func (e *Encoder) textName(k int) string {
	for _, tc := range e.text {
		if k < tc.offset+tc.vocab.Len() {
			return e.schema.Features[tc.feature].Name + ":" + tc.vocab.Term(k-tc.offset)
		}
	}
	panic("design: sparse column out of range")
}
