package gda

import "golang.org/x/sys/cpu"

// solve32AVX2 is the kernel with AVX2 and FMA instructions over 32 lanes:
// eight 4-wide accumulators, one fused multiply-add each per coefficient
// (predict_amd64.s). It needs len(z) ≥ 32p, len(coef) ≥ p(p−1)/2 and
// len(inv) ≥ p, which laneSolver guarantees.
//
//go:noescape
func solve32AVX2(z, coef, inv []float64, p int)

// defaultKernel returns the AVX2 kernel where the processor has AVX2 and
// FMA, the portable one otherwise.
func defaultKernel() laneKernel {
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		return laneKernel{32, solve32AVX2}
	}
	return portableKernel
}
