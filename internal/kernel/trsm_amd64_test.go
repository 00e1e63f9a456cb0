package kernel

import "golang.org/x/sys/cpu"

// solveLanesKernels are the SolveLanes of this build and processor: the
// portable one and each assembly one the processor runs.
func solveLanesKernels() map[string]func(t *Tri, z, q, x []float64, ld int, c []float64, n int) {
	k := map[string]func(t *Tri, z, q, x []float64, ld int, c []float64, n int){"portable": SolveLanesGo}
	if cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512VL {
		k["avx512"] = solveLanesAVX512Asm
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		k["avx2"] = solveLanesAVX2Asm
	}
	return k
}
