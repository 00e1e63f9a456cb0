package stats

import "fmt"

// segments is the number of segments that Moments.Add and Classes.Add cut
// n rows of k classes into: at most 16, each of at least max(1024, 4k)
// rows, so that the statistics of a segment stay smaller than its data.
// Segment g holds rows [g·n/s, (g+1)·n/s); the segments are accumulated in
// parallel and merged in order, so the result depends on the rows only, not
// on the number of cores.
func segments(n, k int) int {
	return max(1, min(16, n/max(1024, 4*k)))
}

// sub returns w[a:b], or nil for nil w (weights all 1, labels all 0).
func sub(w []float64, a, b int) []float64 {
	if w == nil {
		return nil
	}
	return w[a:b]
}

// weight returns the weight of row i, 1 when w is nil.
func weight(w []float64, i int) float64 {
	if w == nil {
		return 1
	}
	return w[i]
}

// checkClassMap panics unless classMap maps the from classes one to one
// into [0, to).
func checkClassMap(classMap []int, from, to int) {
	if len(classMap) != from {
		panic(fmt.Sprintf("stats: Remap of %d classes with a map of %d", from, len(classMap)))
	}
	seen := make([]bool, to)
	for l, t := range classMap {
		if t < 0 || t >= to || seen[t] {
			panic(fmt.Sprintf("stats: Remap of class %d to %d of %d (or twice)", l, t, to))
		}
		seen[t] = true
	}
}
