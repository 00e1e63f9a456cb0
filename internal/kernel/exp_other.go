//go:build !amd64

package kernel

// expExactAsm is false: there is no assembly kernel for Exp.
const expExactAsm = false

func expExactRows(x []float64) { panic("kernel: no expExactRows on this architecture") }
