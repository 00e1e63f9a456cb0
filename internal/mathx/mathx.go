// Package mathx holds small numerical helpers shared by the model packages.
package mathx

import "math"

// LogSumExp returns log Σ_i exp(x_i), computed stably by factoring out the
// largest term m:
//
//	log Σ_i exp(x_i) = m + log Σ_i exp(x_i − m)
//
// so that no term overflows and the largest one is exp(0) = 1. It returns
// −Inf when x is empty or every x_i is −Inf, +Inf when some x_i is +Inf, and
// NaN when some x_i is NaN.
func LogSumExp(x []float64) float64 {
	m, logS := logSumExp(x)
	return m + logS
}

// NormalizeLog turns unnormalised log-probabilities into log-probabilities
// whose exponentials sum to 1, in place:
//
//	x_i ← (x_i − m) − log Σ_l exp(x_l − m),  m = max_l x_l
//
// Subtracting m first keeps the precision of the largest terms when the x_i
// are large (a joint log-likelihood of −10⁵ is normal for many features).
// The result is NaN where the sum is not finite.
func NormalizeLog(x []float64) {
	m, logS := logSumExp(x)
	for i := range x {
		x[i] = (x[i] - m) - logS
	}
}

// Softmax turns unnormalised log-probabilities into probabilities, in
// place:
//
//	x_i ← exp(x_i − m) / Σ_l exp(x_l − m),  m = max_l x_l
//
// the exponential of NormalizeLog's result up to rounding, the
// exponentials of the sum serving again for the numerators. A term more
// than 745 below the largest (math.Exp would give 0) is 0, and so is one
// of −Inf. Where m is not finite every x_i becomes exp(x_i − m), as the
// exponential of NormalizeLog's result: NaN everywhere when some x_i is
// NaN or every x_i is −Inf; NaN where x_i = +Inf and 0 elsewhere when some
// x_i is +Inf.
func Softmax(x []float64) {
	m := maxNaN(x)
	if math.IsInf(m, 0) || m != m {
		for i, v := range x {
			x[i] = math.Exp(v - m)
		}
		return
	}
	s := 0.0
	for i, v := range x {
		e := 0.0
		if v -= m; v == 0 {
			e = 1
		} else if v >= minExp {
			e = math.Exp(v)
		}
		x[i] = e
		s += e
	}
	for i := range x {
		x[i] /= s
	}
}

// maxNaN returns max_i x_i, NaN when some x_i is NaN (the max builtin
// propagates it) and −Inf when x is empty.
func maxNaN(x []float64) float64 {
	m := math.Inf(-1)
	for _, v := range x {
		m = max(m, v)
	}
	return m
}

// logSumExp returns m = max_i x_i and log Σ_i exp(x_i − m); a NaN or an
// infinite m is returned with logS 0. The largest term, exp(0) = 1, is
// added without calling math.Exp.
func logSumExp(x []float64) (m, logS float64) {
	m = maxNaN(x)
	if math.IsInf(m, 0) || m != m {
		return m, 0
	}
	s := 0.0
	for _, v := range x {
		if v -= m; v == 0 {
			s++
		} else if v >= minExp {
			s += math.Exp(v)
		}
	}
	return m, math.Log(s)
}

// minExp is the smallest x for which math.Exp(x) is not 0: terms further
// below the largest one add nothing and are skipped.
const minExp = -7.45133219101941108420e+02

// HasNaN reports whether some x_i is NaN (a missing cell). It sums x
// first, which is NaN only when some x_i is NaN or the sum meets +Inf and
// −Inf, and looks for the NaN only then.
func HasNaN(x []float64) bool {
	s := 0.0
	for _, v := range x {
		s += v
	}
	if s == s {
		return false
	}
	for _, v := range x {
		if v != v {
			return true
		}
	}
	return false // an overflow or ±Inf, not a missing cell
}
