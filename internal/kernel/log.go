package kernel

import "math"

// Log sets x_j ← math.Log(x_j) for every j, in place, bit for bit: where
// the processor has AVX2, four lanes at a time by logExactAVX2
// (log_amd64.s), which performs the operations of math.Log's amd64
// assembly (src/math/log_amd64.s: the reduction to f·2ᵏ, f in
// [√2/2, √2), and the polynomial in s = (f − 1)/(f + 1), without fused
// products) in its order, and math.Log itself elsewhere and for the
// values it leaves (zero, negative, denormal, infinite or NaN). It is
// the logarithm of the log-sum-exp of the rows (NormalizeLogRows).
func Log(x []float64) {
	if logExactAsm {
		logExactRows(x)
		return
	}
	LogGo(x)
}

// LogGo is the portable Log: math.Log on each value.
func LogGo(x []float64) {
	for j, v := range x {
		x[j] = math.Log(v)
	}
}
