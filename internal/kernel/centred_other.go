//go:build !amd64

package kernel

// centredAsm is false: there is no assembly kernel for Centred.Dots.
const centredAsm = false

func centredDotsAsm(out, x *float64, rows, n int, c, w *float64, k, npad int) {
	panic("kernel: no centredDots on this architecture")
}
