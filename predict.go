package gendisc

import (
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/mathx"
)

// Predict returns the most probable class of each row of d: the index
// into c.Classes() of the largest log P(y = k | x_i) of c.LogProba (see
// ArgmaxRows for ties).
func Predict(c Classifier, d *data.Dataset) []int {
	return ArgmaxRows(nil, c.LogProba(nil, d), len(c.Classes()))
}

// ArgmaxRows writes to dst[i] the column of the largest value of row i of
// v, a row-major matrix of k columns (such as the output of LogProba),
// and returns dst: the lowest such column on ties, NaN values left out,
// and 0 for a row of NaN. A nil dst is allocated; otherwise
// len(dst) must be len(v)/k. It panics when k < 1 or len(v) is not a
// multiple of k.
func ArgmaxRows(dst []int, v []float64, k int) []int {
	if k < 1 || len(v)%k != 0 {
		panic("gendisc: ArgmaxRows of a matrix that does not have rows of k ≥ 1 columns")
	}
	n := len(v) / k
	if dst == nil {
		dst = make([]int, n)
	}
	if len(dst) != n {
		panic("gendisc: ArgmaxRows: len(dst) is not the number of rows")
	}
	for i := range dst {
		dst[i] = mathx.Argmax(v[i*k : (i+1)*k])
	}
	return dst
}
