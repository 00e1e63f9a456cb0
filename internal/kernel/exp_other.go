//go:build !amd64

package kernel

// expExactAsm is false: there is no assembly kernel for Exp (a variable,
// as on amd64, for the tests).
var expExactAsm = false

func expExactRows(x []float64) { panic("kernel: no expExactRows on this architecture") }
