package compare

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// PairedTTest returns the p-value of the one-sided paired t-test that the
// mean of the differences diff is positive: with n differences of mean d̄
// and sample standard deviation s,
//
//	t = d̄ / (s / √n),   p = P(T ≥ t),   T ~ Student's t with n − 1 degrees of freedom.
//
// compare passes the generative minus the discriminative test error of
// each split of one size: the learners share each split's training and
// test rows, so the differences are paired. p is 1 for fewer than two
// differences (no test), and when s = 0 it is 0 if d̄ > 0 and 1
// otherwise.
func PairedTTest(diff []float64) float64 {
	n := len(diff)
	if n < 2 {
		return 1
	}
	var mean float64
	for _, v := range diff {
		mean += v
	}
	mean /= float64(n)
	var ss float64
	for _, v := range diff {
		ss += (v - mean) * (v - mean)
	}
	sd := math.Sqrt(ss / float64(n-1))
	if sd == 0 {
		if mean > 0 {
			return 0
		}
		return 1
	}
	t := mean / (sd / math.Sqrt(float64(n)))
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Survival(t)
}
