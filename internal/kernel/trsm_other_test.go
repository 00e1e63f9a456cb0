//go:build !amd64

package kernel

// solveLanesKernels are the SolveLanes of this build: the portable one.
func solveLanesKernels() map[string]func(t *Tri, z, q, x []float64, ld int, c []float64, n int) {
	return map[string]func(t *Tri, z, q, x []float64, ld int, c []float64, n int){"portable": SolveLanesGo}
}
