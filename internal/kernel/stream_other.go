//go:build !amd64

package kernel

// streamAsm is false: there is no assembly kernel (a variable, as on
// amd64, for the tests).
var streamAsm = false

func streamLines(dst, src *float64, lines int) { panic("kernel: streamLines without assembly") }
