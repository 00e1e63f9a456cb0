package kernel

import "golang.org/x/sys/cpu"

func init() {
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		syrkAsm["AVX2"] = tileAVX2
	}
	if cpu.X86.HasAVX512F {
		syrkAsm["AVX-512"] = tileAVX512
	}
}

func init() {
	if cpu.X86.HasAVX {
		rowAsmKernels["AVX"] = rowAVX
	}
	if cpu.X86.HasAVX512F {
		rowAsmKernels["AVX-512"] = rowAVX512
	}
}
