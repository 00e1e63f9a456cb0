package text

import "github.com/gendisc/gendisc/internal/parallel"

// Fit builds the vocabulary of docs under the settings of c (see
// Counter.Vocabulary for the pruning). The documents are split across the
// cores, each part counted by its own Counter, and the Counters are
// merged.
func (c VectorizerConfig) Fit(docs []string) (*Vocabulary, error) {
	all, _, _, err := c.countParts(docs, false)
	if err != nil {
		return nil, err
	}
	v, _, err := all.Vocabulary()
	return v, err
}

// FitTransform builds the vocabulary of docs, as Fit does, and returns the
// count matrix of docs in its columns, as Transform would, from one pass
// over the text.
func (c VectorizerConfig) FitTransform(docs []string) (*Vocabulary, *CSR, error) {
	all, parts, ids, err := c.countParts(docs, true)
	if err != nil {
		return nil, nil, err
	}
	v, col, err := all.Vocabulary()
	if err != nil {
		return nil, nil, err
	}
	return v, assemble(parts, ids, col, v.Len()), nil
}

// Count counts the terms of docs, split across the cores, and returns the
// Counter (every term, before pruning) and the count matrix in its term
// ids: what a model that can be updated keeps, since pruning by MinDF,
// MaxDF or MaxFeatures must be done again over all the data. Counting docs
// with one Counter gives the same ids and matrix.
func (c VectorizerConfig) Count(docs []string) (*Counter, *CSR, error) {
	all, parts, ids, err := c.countParts(docs, true)
	if err != nil {
		return nil, nil, err
	}
	return all, assemble(parts, ids, nil, all.Len()), nil
}

// countParts counts docs with one Counter per block of documents and
// merges them, in block order, into the first. With matrix, it also
// returns the count matrix of each block in its own Counter's ids and, for
// the blocks after the first, the merged id of each of their ids.
func (c VectorizerConfig) countParts(docs []string, matrix bool) (*Counter, []*CSR, [][]int32, error) {
	if err := c.Validate(); err != nil {
		return nil, nil, nil, err
	}
	counters := make([]*Counter, parallel.Blocks(len(docs), minBlock))
	parts := make([]*CSR, len(counters))
	parallel.For(len(docs), minBlock, func(w, lo, hi int) {
		counters[w], _ = NewCounter(c) // c is valid
		if matrix {
			parts[w] = newCSR(hi - lo)
		}
		counters[w].count(docs[lo:hi], parts[w])
	})
	all := counters[0]
	ids := make([][]int32, len(counters)) // nil for the first block: its ids are the merged ones
	for w, o := range counters[1:] {
		ids[w+1], _ = all.Merge(o) // same settings
	}
	return all, parts, ids, nil
}

// assemble renames the columns of the block matrices to the merged ids
// (ids[w], or unchanged when nil) and then through to (unless nil; −1
// drops a column), and stacks them into one matrix with cols columns.
func assemble(parts []*CSR, ids [][]int32, to []int32, cols int) *CSR {
	parallel.For(len(parts), 1, func(_, lo, hi int) {
		for w := lo; w < hi; w++ {
			m := parts[w]
			m.Cols = cols
			switch {
			case ids[w] == nil && to == nil:
			case ids[w] == nil:
				m.mapInPlace(to)
			case to == nil:
				m.mapInPlace(ids[w])
			default:
				composed := make([]int32, len(ids[w]))
				for i, id := range ids[w] {
					composed[i] = to[id]
				}
				m.mapInPlace(composed)
			}
		}
	})
	return concat(parts, cols)
}
