// Package kernel holds the dense floating-point kernels that several models
// run over their rows: linear scores and gradient sums (logistic
// regression's passes, LDA's posteriors) and exponentials.
//
// They run on a chunk of consecutive rows x_0, …, x_{m−1} (row-major, each
// of length n) and two weight vectors at a time:
//
//	scores (DotRows2):    out[2r + c] = x_rᵀ w_c
//	gradient (AxpyRows2): g_c ← g_c + Σ_r coef[2r + c] x_r
//
// for c = 0, 1. The scores stream the rows from memory one at a time
// (reading several rows at once, interleaved, defeats the hardware
// prefetchers and halves the bandwidth); the gradient takes the rows
// again while they are in cache, four at a time, so that each element of
// g_c is loaded and stored once per four rows. The amd64 build runs them
// as AVX2/FMA assembly where the processor has it (kernel_amd64.s); the
// portable versions below are the reference and the fallback. The two
// sum in different orders, so their results differ in the last bits.
package kernel

import "math"

// DotRows2Go is the portable DotRows2.
func DotRows2Go(x []float64, n int, w0, w1, out []float64) {
	w0, w1 = w0[:n], w1[:n]
	for r := range len(x) / n {
		var s0, s1 float64
		for j, a := range x[r*n : (r+1)*n] {
			s0 += a * w0[j]
			s1 += a * w1[j]
		}
		out[2*r], out[2*r+1] = s0, s1
	}
}

// AxpyRows2Go is the portable AxpyRows2.
func AxpyRows2Go(g0, g1, coef, x []float64) {
	n := len(g0)
	g1 = g1[:n]
	for r := range len(x) / n {
		c0, c1 := coef[2*r], coef[2*r+1]
		for j, a := range x[r*n : (r+1)*n] {
			g0[j] += c0 * a
			g1[j] += c1 * a
		}
	}
}

// ExpFloor is the smallest argument of ExpFloored: exp(−708) ≈ 3.3e−308
// is still a normal number, so 2ᵏ can be built from its exponent bits.
// ExpFloored(x) is exp(max(x_j, ExpFloor)) for every x_j, in place: an
// argument below the floor (or NaN) gives exp(−708), not 0, so it is for
// arguments known to be finite (log-odds, scores minus their maximum) and
// results that may be a 3e−308 off; it is within 2 ulp of math.Exp on
// [ExpFloor, 709].
const ExpFloor = -708

// ExpFlooredGo is the portable ExpFloored: x_j ← exp(max(x_j, ExpFloor)).
func ExpFlooredGo(x []float64) {
	for j, v := range x {
		x[j] = math.Exp(max(v, ExpFloor))
	}
}
