package text

import "math/bits"

// numpyArgsort returns the permutation that numpy 1.24's argsort of an
// int64 array with kind="quicksort" (its default) returns: an introsort
// (median-of-three quicksort, insertion sort for at most 16 elements, heapsort
// past a depth of 2·⌊log₂ n⌋). It is not stable, and CountVectorizer's
// max_features keeps the first entries of argsort(-tf), so matching its
// choice among terms of equal frequency needs this very algorithm. The
// port follows numpy/core/src/npysort/quicksort.cpp (aquicksort_) and
// heapsort.cpp (aheapsort_), BSD-3-Clause.
func numpyArgsort(v []int64) []int {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	if len(v) < 2 {
		return idx
	}
	const small = 15 // SMALL_QUICKSORT
	type frame struct{ lo, hi, depth int }
	var stack []frame
	lo, hi := 0, len(v)-1
	depth := 2 * (bits.Len(uint(len(v))) - 1)
	for {
		if depth < 0 {
			numpyHeapsort(v, idx[lo:hi+1])
		} else {
			for hi-lo > small {
				m := lo + (hi-lo)>>1
				if v[idx[m]] < v[idx[lo]] {
					idx[m], idx[lo] = idx[lo], idx[m]
				}
				if v[idx[hi]] < v[idx[m]] {
					idx[hi], idx[m] = idx[m], idx[hi]
				}
				if v[idx[m]] < v[idx[lo]] {
					idx[m], idx[lo] = idx[lo], idx[m]
				}
				pivot := v[idx[m]]
				i, j := lo, hi-1
				idx[m], idx[j] = idx[j], idx[m]
				for {
					for i++; v[idx[i]] < pivot; i++ {
					}
					for j--; pivot < v[idx[j]]; j-- {
					}
					if i >= j {
						break
					}
					idx[i], idx[j] = idx[j], idx[i]
				}
				idx[i], idx[hi-1] = idx[hi-1], idx[i]
				depth--
				// Push the larger partition, go on with the smaller.
				if i-lo < hi-i {
					stack = append(stack, frame{i + 1, hi, depth})
					hi = i - 1
				} else {
					stack = append(stack, frame{lo, i - 1, depth})
					lo = i + 1
				}
			}
			for i := lo + 1; i <= hi; i++ {
				vi := idx[i]
				x := v[vi]
				j := i
				for j > lo && x < v[idx[j-1]] {
					idx[j] = idx[j-1]
					j--
				}
				idx[j] = vi
			}
		}
		if len(stack) == 0 {
			return idx
		}
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		lo, hi, depth = f.lo, f.hi, f.depth
	}
}

// numpyHeapsort sorts idx by v[idx[·]] as numpy's aheapsort_ does.
func numpyHeapsort(v []int64, idx []int) {
	n := len(idx)
	a := func(k int) *int { return &idx[k-1] } // 1-based heap indexing
	sift := func(tmp, i, n int) {
		for j := 2 * i; j <= n; {
			if j < n && v[*a(j)] < v[*a(j + 1)] {
				j++
			}
			if !(v[tmp] < v[*a(j)]) {
				break
			}
			*a(i) = *a(j)
			i, j = j, 2*j
		}
		*a(i) = tmp
	}
	for l := n >> 1; l > 0; l-- {
		sift(*a(l), l, n)
	}
	for ; n > 1; n-- {
		tmp := *a(n)
		*a(n) = *a(1)
		sift(tmp, 1, n-1)
	}
}
