//go:build !(goexperiment.simd && amd64)

package gda

// newGroupSolver returns the lane solver: without GOEXPERIMENT=simd on
// amd64 there is no AVX-512 one.
func newGroupSolver(f *factor, nu [][]float64) groupSolver {
	return newLaneSolver(f, nu, defaultKernel())
}

// clearUpper does nothing: only the GOEXPERIMENT=simd build needs it.
func clearUpper() {}
