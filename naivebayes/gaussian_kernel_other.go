//go:build !amd64

package naivebayes

// quadAsm is false: there is no assembly kernel on this architecture.
var quadAsm = false

// quadRows is the portable kernel on this architecture (gaussian_kernel.go).
func quadRows(q, x []float64, g *gaussianFamily) { quadRowsGo(q, x, g) }
