package kernel

import "fmt"

// SyrkRow writes s·(x − o) as column r of a matrix A packed for
// SyrkPacked (groups of SyrkGroup rows, gs values apart):
//
//	p[(j/16)·gs + 16r + j%16] = s·(x_j − o_j)        for j < len(x)
//
// leaving every other value of p as it was, and reports whether every x_j
// is finite (no NaN, no ±Inf); where one is not, the values written are
// not to be used. It is how a caller that gathers vectors one at a time
// (the rows of a class, centred on an origin o and scaled by a weight's
// square root) fills the blocks of SyrkPacked, the finiteness check on
// the way: x_j − x_j is +0 for a finite x_j and NaN otherwise, and the
// bits of those differences are or-ed together. The amd64 build runs it
// in AVX-512 assembly (the last part of a group under opmasks), or in
// AVX the whole groups and the rest in Go, where the processor has them
// (syrk_amd64.s); rowGo, the portable kernel, is their reference. The
// values are the same bit for bit (a subtraction, then a product). It panics if o is shorter
// than x or p too short.
func SyrkRow(p []float64, gs, r int, x, o []float64, s float64) bool {
	n := len(x)
	if n == 0 {
		return true
	}
	if r < 0 || gs < groupRows*(r+1) || len(o) < n || len(p) < (n-1)/groupRows*gs+groupRows*r+(n-1)%groupRows+1 {
		panic(fmt.Sprintf("kernel: SyrkRow of %d values into column %d of groups %d apart in %d values, %d in the origin",
			n, r, gs, len(p), len(o)))
	}
	return syrkRow(p[groupRows*r:], gs, x, o[:n], s)
}

// rowFunc is SyrkRow on p from column r's first value, with len(o) =
// len(x) ≥ 1 and p long enough.
type rowFunc func(p []float64, gs int, x, o []float64, s float64) bool

// syrkRow is the kernel of SyrkRow; syrk_amd64.go replaces it where the
// processor has AVX-512 or AVX.
var syrkRow rowFunc = rowGo

// rowGo is the portable rowFunc.
func rowGo(p []float64, gs int, x, o []float64, s float64) bool {
	bad := false
	for j0 := 0; j0 < len(x); j0 += groupRows {
		src := x[j0:min(len(x), j0+groupRows)]
		oj := o[j0 : j0+len(src)]
		dst := p[j0/groupRows*gs:]
		dst = dst[:len(src)]
		for t, v := range src {
			if v-v != 0 {
				bad = true
			}
			dst[t] = (v - oj[t]) * s
		}
	}
	return !bad
}
