package kernel

import "math"

// Exp sets x_j ← math.Exp(x_j) for every j, in place, bit for bit:
// where the processor has AVX2 and FMA (where math.Exp itself takes its
// FMA path) four lanes at a time by expExactAVX2 (exp_amd64.s), which
// performs math.Exp's operations in math.Exp's order, and math.Exp itself
// elsewhere and for the values it leaves (NaN, and arguments above 709,
// whose result may overflow). It is the exponential of the
// log-probabilities that the classifiers' Proba writes: exactly what
// exp(LogProba) gives, at a fraction of the cost of a call per value.
func Exp(x []float64) {
	if expExactAsm {
		expExactRows(x)
		return
	}
	ExpGo(x)
}

// ExpGo is the portable Exp: math.Exp on each value.
func ExpGo(x []float64) {
	for j, v := range x {
		x[j] = math.Exp(v)
	}
}
