//go:build !(goexperiment.simd && amd64)

package gda

// newGroupSolver returns nil: without GOEXPERIMENT=simd on amd64,
// prediction solves with BLAS Trsm.
func newGroupSolver(*factor, [][]float64) groupSolver { return nil }
