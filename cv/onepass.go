package cv

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
)

// addBlock is the span of rows that a worker of the one-pass path reads
// at a time (2.6 MB of 50 features), copying each fold's rows of the span
// into a buffer of the fold: one sequential read of the span, and buffers
// that stay in cache until they are added.
const addBlock = 1 << 13

// foldAccumulators takes one pass over the rows of d, adding each row to
// the accumulator of its fold under f, and returns for every fold i the
// merge of the other folds' accumulators, M_i = P_i ⊕ S_{i+1}, where
// P_i = A_0 ⊕ … ⊕ A_{i−1} and S_i = A_i ⊕ … ⊕ A_{k−1}. The suffixes are
// built once from the back and the prefix grows as i advances: 3k merges
// and copies in all. Every accumulator comes from newAcc; copies go
// through MarshalBinary and UnmarshalBinary.
//
// The spans of addBlock rows are read by up to workers goroutines at once;
// each fold's rows of a span are added to the fold's accumulator in one
// call, span after span in row order (a worker waits for the previous
// span's call on the fold), so that an accumulator sees the same calls
// whatever the parallelism.
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
	spans := (d.N + addBlock - 1) / addBlock
	added := make([]int, k) // added[fold]: the spans added to acc[fold]
	errs := make([]error, k)
	var mu sync.Mutex
	turn := sync.NewCond(&mu)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(max(workers, 1), spans) {
		wg.Go(func() {
			rows := make([][]int, k)
			bufs := make([]*data.Dataset, k)
			for {
				span := int(next.Add(1)) - 1
				if span >= spans {
					return
				}
				for fold := range rows {
					rows[fold] = rows[fold][:0]
				}
				for i := span * addBlock; i < min((span+1)*addBlock, d.N); i++ {
					rows[f[i]] = append(rows[f[i]], i)
				}
				for fold, idx := range rows {
					bufs[fold] = d.SubsetInto(bufs[fold], idx)
				}
				for fold := range k {
					mu.Lock()
					for added[fold] < span {
						turn.Wait()
					}
					failed := errs[fold] != nil
					mu.Unlock()
					if !failed && bufs[fold].N > 0 {
						if err := acc[fold].Add(bufs[fold]); err != nil {
							errs[fold] = fmt.Errorf("fold %d: %w", fold, err) // written before the turn passes
						}
					}
					mu.Lock()
					added[fold]++
					turn.Broadcast()
					mu.Unlock()
				}
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
