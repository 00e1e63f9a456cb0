package kernel

import "golang.org/x/sys/cpu"

// centredAsm reports whether Centred.Dots runs assembly: where the
// processor has AVX2 and FMA. Tests turn it off.
var centredAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// centred512 reports whether the assembly is the AVX-512 kernel: where the
// processor has AVX-512 (F, DQ, VL). Tests turn it off to run the AVX2
// one.
var centred512 = centredAsm && cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512VL

// centredDots writes the scores of rows rows of n features at x against
// the k ≥ 4 classes packed at w (npad values each, the centre at c) to out
// (centred_amd64.s).
//
//go:noescape
func centredDots(out, x *float64, rows, n int, c, w *float64, k, npad int)

// centredDotsAVX2 is centredDots in AVX2/FMA, with the same bits.
//
//go:noescape
func centredDotsAVX2(out, x *float64, rows, n int, c, w *float64, k, npad int)

// centredDotsAsm calls the kernel in use.
func centredDotsAsm(out, x *float64, rows, n int, c, w *float64, k, npad int) {
	if centred512 {
		centredDots(out, x, rows, n, c, w, k, npad)
		return
	}
	centredDotsAVX2(out, x, rows, n, c, w, k, npad)
}
