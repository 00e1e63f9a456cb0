package text

import "github.com/gendisc/gendisc/internal/parallel"

// Fit builds the vocabulary of docs under the settings of c (see
// Counter.Vocabulary for the pruning). The documents are split across the
// cores, each counted by its own Counter, and the Counters are merged.
func (c VectorizerConfig) Fit(docs []string) (*Vocabulary, error) {
	v, _, err := c.fit(docs, false)
	return v, err
}

// FitTransform builds the vocabulary of docs, as Fit does, and returns the
// count matrix of docs in its columns, as Transform would, from one pass
// over the text.
func (c VectorizerConfig) FitTransform(docs []string) (*Vocabulary, *CSR, error) {
	return c.fit(docs, true)
}

func (c VectorizerConfig) fit(docs []string, matrix bool) (*Vocabulary, *CSR, error) {
	if err := c.Validate(); err != nil {
		return nil, nil, err
	}
	counters := make([]*Counter, parallel.Blocks(len(docs), minBlock))
	parts := make([]*CSR, len(counters))
	parallel.For(len(docs), minBlock, func(w, lo, hi int) {
		counters[w], _ = NewCounter(c)
		if matrix {
			parts[w] = newCSR(hi - lo)
		}
		counters[w].count(docs[lo:hi], parts[w])
	})
	all := counters[0]
	ids := make([][]int32, len(counters)) // ids[w][local id] = id in all; nil for w = 0
	for w, o := range counters[1:] {
		ids[w+1], _ = all.Merge(o) // same settings
	}
	v, col, err := all.Vocabulary()
	if err != nil || !matrix {
		return v, nil, err
	}
	parallel.For(len(parts), 1, func(_, lo, hi int) {
		for w := lo; w < hi; w++ {
			to := col
			if ids[w] != nil {
				to = make([]int32, len(ids[w]))
				for i, id := range ids[w] {
					to[i] = col[id]
				}
			}
			parts[w].Cols = v.Len()
			parts[w].mapInPlace(to)
		}
	})
	return v, concat(parts, v.Len()), nil
}
