// Package parallel splits loops over rows across the available cores.
package parallel

import (
	"runtime"
	"sync"
)

// Workers is the number of goroutines For uses: runtime.GOMAXPROCS(0).
func Workers() int { return runtime.GOMAXPROCS(0) }

// For calls fn(worker, lo, hi) for consecutive blocks [lo, hi) that cover
// [0, n), at most Workers() blocks at once, and returns when all have
// returned. Blocks hold at least minBlock rows (except when n is smaller), so
// small inputs run on the calling goroutine. worker is the index of the
// block, in [0, Blocks(n, minBlock)), and may index per-block scratch space;
// the blocks are in row order.
func For(n, minBlock int, fn func(worker, lo, hi int)) {
	b := Blocks(n, minBlock)
	if b <= 1 {
		fn(0, 0, n)
		return
	}
	var wg sync.WaitGroup
	for w := range b {
		lo, hi := w*n/b, (w+1)*n/b
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(w, lo, hi)
		}()
	}
	wg.Wait()
}

// Blocks is the number of blocks For splits n rows into.
func Blocks(n, minBlock int) int {
	if minBlock < 1 {
		minBlock = 1
	}
	b := min(Workers(), n/minBlock)
	return max(b, 1)
}
