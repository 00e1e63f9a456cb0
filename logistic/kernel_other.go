//go:build !amd64

package logistic

// dotRows2, axpyRows2 and expInPlace are the portable kernels (kernel.go)
// on this architecture.
var (
	dotRows2   = dotRows2Go
	axpyRows2  = axpyRows2Go
	expInPlace = expGo
)
