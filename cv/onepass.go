package cv

import (
	"fmt"
	"sync"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
)

// addBlock is the span of rows that a worker of the one-pass path reads
// at a time (3.3 MB of 50 features), copying the rows of each of its
// folds in the span into a buffer of the fold: a read of the span in row
// order, and buffers that stay in cache until they are added.
const addBlock = 1 << 13

// foldAccumulators takes one pass over the rows of d, adding each row to
// the accumulator of its fold under f, and returns for every fold i the
// merge of the other folds' accumulators, M_i = P_i ⊕ S_{i+1}, where
// P_i = A_0 ⊕ … ⊕ A_{i−1} and S_i = A_i ⊕ … ⊕ A_{k−1}. The suffixes are
// built once from the back and the prefix grows as i advances: 3k merges
// and copies in all. Every accumulator comes from newAcc; a copy is the
// merge of an accumulator into a new one (for text naive Bayes 2.5 times
// faster than a round trip through MarshalBinary, whose JSON was most of
// cv's time; the figures the same bit for bit).
//
// An accumulator with gendisc.FoldAdder adds every row to its fold's
// accumulator itself, without copying the rows; the others take copies of
// the rows (addFolds).
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
	if fa, ok := acc[0].(gendisc.FoldAdder); ok {
		if err := fa.AddFolds(d, f, acc); err != nil {
			return nil, err
		}
	} else if err := addFolds(d, f, acc, workers); err != nil {
		return nil, err
	}
	return otherFolds(acc, newAcc)
}

// addFolds adds each row of d to the accumulator of its fold under f,
// acc[f[i]], for accumulators without gendisc.FoldAdder: up to workers
// goroutines share the folds, each reading every span of addBlock rows in
// turn, copying the rows of each of its folds in the span into a buffer
// and adding them to the fold's accumulator in one call, so that an
// accumulator sees the same calls whatever the parallelism, and no
// goroutine waits for another. The first error in fold order is
// returned, naming its fold.
func addFolds(d *data.Dataset, f Folds, acc []gendisc.Accumulator, workers int) error {
	k := len(acc)
	// Worker w owns the folds w, w + W, w + 2W, …: it reads every span,
	// copying and adding the rows of its folds alone.
	errs := make([]error, k)
	W := min(max(workers, 1), k)
	var wg sync.WaitGroup
	for w := range W {
		wg.Go(func() {
			rows := make([][]int, k)
			bufs := make([]*data.Dataset, k)
			for lo := 0; lo < d.N; lo += addBlock {
				for i := lo; i < min(lo+addBlock, d.N); i++ {
					if fold := f[i]; fold%W == w {
						rows[fold] = append(rows[fold], i)
					}
				}
				for fold := w; fold < k; fold += W {
					if len(rows[fold]) == 0 || errs[fold] != nil {
						continue
					}
					bufs[fold] = d.SubsetInto(bufs[fold], rows[fold])
					if err := acc[fold].Add(bufs[fold]); err != nil {
						errs[fold] = fmt.Errorf("fold %d: %w", fold, err)
					}
					rows[fold] = rows[fold][:0]
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// otherFolds returns for every fold i the merge of the accumulators of
// the other folds, M_i = P_i ⊕ S_{i+1} (see foldAccumulators); it takes
// acc over.
func otherFolds(acc []gendisc.Accumulator, newAcc func() (gendisc.Accumulator, error)) ([]gendisc.Accumulator, error) {
	k := len(acc)
	clone := func(a gendisc.Accumulator) (gendisc.Accumulator, error) {
		c, err := newAcc()
		if err != nil {
			return nil, err
		}
		return c, c.Merge(a)
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
