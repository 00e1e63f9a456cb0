package kernel

import "golang.org/x/sys/cpu"

// centredAsm reports whether Centred.Dots runs its AVX-512 kernel: where
// the processor has AVX-512 (F, DQ, VL). Tests turn it off.
var centredAsm = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512VL

// centredDots writes the scores of rows rows of n features at x against
// the k ≥ 4 classes packed at w (npad values each, the centre at c) to out
// (centred_amd64.s).
//
//go:noescape
func centredDots(out, x *float64, rows, n int, c, w *float64, k, npad int)
