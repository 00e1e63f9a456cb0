//go:build !amd64

package kernel

// DotRows2, AxpyRows2 and ExpFloored are the portable kernels (kernel.go)
// on this architecture; callers must not assign them.
var (
	DotRows2   = DotRows2Go
	AxpyRows2  = AxpyRows2Go
	ExpFloored = ExpFlooredGo
)
