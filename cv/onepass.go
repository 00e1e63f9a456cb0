package cv

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
)

// addBlock is the span of rows whose rows of a fold the one-pass path
// adds to the fold's accumulator in one call, through a buffer reused
// from call to call: about a tenth of it per fold for ten folds (650 KB
// of 50 features), enough to make the cost of a call to Add small, and
// small enough to stay in cache.
const addBlock = 1 << 14

// foldAccumulators takes one pass over the rows of d, adding each row to
// the accumulator of its fold under f, and returns for every fold i the
// merge of the other folds' accumulators, M_i = P_i ⊕ S_{i+1}, where
// P_i = A_0 ⊕ … ⊕ A_{i−1} and S_i = A_i ⊕ … ⊕ A_{k−1}. The suffixes are
// built once from the back and the prefix grows as i advances: 3k merges
// and copies in all. Every accumulator comes from newAcc; copies go
// through MarshalBinary and UnmarshalBinary.
//
// The folds are filled in parallel, up to workers at once, each by one
// goroutine that adds the fold's rows of every span of addBlock rows in
// turn: an accumulator sees the same calls whatever the parallelism.
func foldAccumulators(d *data.Dataset, f Folds, newAcc func() (gendisc.Accumulator, error), workers int) ([]gendisc.Accumulator, error) {
	k := f.K()
	acc := make([]gendisc.Accumulator, k)
	for i := range acc {
		a, err := newAcc()
		if err != nil {
			return nil, err
		}
		acc[i] = a
	}
	rows := make([][]int, k)
	for i, fold := range f {
		rows[fold] = append(rows[fold], i)
	}
	errs := make([]error, k)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(max(workers, 1), k) {
		wg.Go(func() {
			var buf *data.Dataset
			for {
				fold := int(next.Add(1)) - 1
				if fold >= k {
					return
				}
				for idx := rows[fold]; len(idx) > 0; {
					n := 1 // the fold's rows in the span of idx[0]
					for n < len(idx) && idx[n]/addBlock == idx[0]/addBlock {
						n++
					}
					buf = d.SubsetInto(buf, idx[:n])
					if err := acc[fold].Add(buf); err != nil {
						errs[fold] = fmt.Errorf("fold %d: %w", fold, err)
						break
					}
					idx = idx[n:]
				}
				rows[fold] = nil
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	clone := func(a gendisc.Accumulator) (gendisc.Accumulator, error) {
		b, err := a.MarshalBinary()
		if err != nil {
			return nil, err
		}
		c, err := newAcc()
		if err != nil {
			return nil, err
		}
		return c, c.UnmarshalBinary(b)
	}
	// merged returns a copy of a merged with b.
	merged := func(a, b gendisc.Accumulator) (gendisc.Accumulator, error) {
		c, err := clone(a)
		if err != nil {
			return nil, err
		}
		return c, c.Merge(b)
	}
	suffix := make([]gendisc.Accumulator, k+1)
	suffix[k-1] = acc[k-1]
	for i := k - 2; i >= 1; i-- {
		s, err := merged(acc[i], suffix[i+1])
		if err != nil {
			return nil, fmt.Errorf("merging folds %d to %d: %w", i, k-1, err)
		}
		suffix[i] = s
	}
	out := make([]gendisc.Accumulator, k)
	var prefix gendisc.Accumulator
	for i := range k {
		var m gendisc.Accumulator
		var err error
		switch {
		case prefix == nil:
			m, err = clone(suffix[1])
		case suffix[i+1] == nil:
			m = prefix
		default:
			m, err = merged(prefix, suffix[i+1])
		}
		if err != nil {
			return nil, fmt.Errorf("fold %d: merging the other folds: %w", i, err)
		}
		out[i] = m
		suffix[i+1] = nil
		if i == k-1 {
			break
		}
		if prefix == nil {
			prefix, err = clone(acc[i])
		} else {
			err = prefix.Merge(acc[i])
		}
		if err != nil {
			return nil, fmt.Errorf("fold %d: merging the folds before it: %w", i+1, err)
		}
		acc[i] = nil
	}
	return out, nil
}
