//go:build !amd64

package kernel

// logExactAsm is false: there is no assembly kernel for Log (a variable,
// as on amd64, for the tests).
var logExactAsm = false

func logExactRows(x []float64) { panic("kernel: no logExactRows on this architecture") }
