package logistic

import "github.com/gendisc/gendisc/internal/kernel"

// The kernels of an evaluation (package kernel: AVX2/FMA assembly where
// the processor has it, portable Go otherwise), as variables so that a test
// can run the fits on the portable ones.
var (
	dotRows2   = kernel.DotRows2
	axpyRows2  = kernel.AxpyRows2
	expInPlace = kernel.ExpFloored
)
