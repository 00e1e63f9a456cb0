//go:build !amd64

package kernel

const streamAsm = false

func streamLines(dst, src *float64, lines int) { panic("kernel: streamLines without assembly") }
