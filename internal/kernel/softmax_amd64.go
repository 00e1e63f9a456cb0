package kernel

import "golang.org/x/sys/cpu"

// softmaxAsm reports whether SoftmaxRows runs the AVX2/FMA assembly: where
// the processor has both. Tests turn it off to run the portable code.
var softmaxAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// softmax512 reports whether the assembly is the AVX-512 kernel: where the
// processor has AVX-512 (F, DQ, VL). Tests turn it off to run the AVX2 one.
var softmax512 = softmaxAsm && cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512VL

// softmaxAVX2 turns the rows of k values at x into probabilities in place
// up to the first row with a NaN or an infinite largest value, and returns
// that row's index, rows when there is none, using ms (rows values) as
// scratch (softmax_amd64.s).
//
//go:noescape
func softmaxAVX2(x *float64, rows, k int, ms *float64) int

// softmaxAVX512 is softmaxAVX2 on eight lanes.
//
//go:noescape
func softmaxAVX512(x *float64, rows, k int, ms *float64) int

// softmaxRowsAsm is SoftmaxRows with softmaxAVX512 or softmaxAVX2 on
// blocks of up to len(e) rows, other called on the rows they stop at.
func softmaxRowsAsm(x []float64, k int, e []float64, other func(row []float64)) {
	rows := len(x) / k
	kernel := softmaxAVX2
	if softmax512 {
		kernel = softmaxAVX512
	}
	for r := 0; r < rows; {
		n := min(rows-r, len(e))
		d := kernel(&x[r*k], n, k, &e[0])
		if r += d; d < n {
			other(x[r*k : (r+1)*k])
			r++
		}
	}
}
