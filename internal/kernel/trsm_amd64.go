package kernel

import "golang.org/x/sys/cpu"

// SolveLanes is the batched triangular solve of trsm.go: the AVX-512
// assembly where the processor has AVX-512 (F, DQ, VL), the AVX2/FMA one
// where it has those, the portable Go otherwise. It is set when the
// package is initialised; callers must not assign it (tests may, to force
// the portable path, and must restore it).
var SolveLanes = SolveLanesGo

func init() {
	switch {
	case cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512VL:
		SolveLanes = solveLanesAVX512Asm
	case cpu.X86.HasAVX2 && cpu.X86.HasFMA:
		SolveLanes = solveLanesAVX2Asm
	}
}

// solveLanesAVX512 runs SolveLanes over tiles·32 lanes (trsm_amd64.s).
//
//go:noescape
func solveLanesAVX512(pk *float64, p int, z, q, x *float64, ld int, c *float64, tiles int)

// solveLanesAVX2 runs SolveLanes over groups·8 lanes (trsm_amd64.s).
//
//go:noescape
func solveLanesAVX2(pk *float64, p int, z, q, x *float64, ld int, c *float64, groups int)

// solveLanesAVX512Asm checks the lengths and calls solveLanesAVX512.
func solveLanesAVX512Asm(t *Tri, z, q, x []float64, ld int, c []float64, n int) {
	lanes := roundLanes(n)
	if lanes == 0 || t.p == 0 {
		return
	}
	checkLanes(t, z, q, x, ld, c, lanes)
	solveLanesAVX512(&t.pk[0], t.p, &z[0], &q[0], &x[0], ld, &c[0], lanes/32)
}

// solveLanesAVX2Asm checks the lengths and calls solveLanesAVX2.
func solveLanesAVX2Asm(t *Tri, z, q, x []float64, ld int, c []float64, n int) {
	lanes := roundLanes(n)
	if lanes == 0 || t.p == 0 {
		return
	}
	checkLanes(t, z, q, x, ld, c, lanes)
	solveLanesAVX2(&t.pk[0], t.p, &z[0], &q[0], &x[0], ld, &c[0], lanes/8)
}
