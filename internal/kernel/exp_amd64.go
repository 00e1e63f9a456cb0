package kernel

import "golang.org/x/sys/cpu"

// expExactAsm reports whether Exp runs the AVX2/FMA assembly: where the
// processor has AVX, AVX2 and FMA, as math.Exp takes its FMA path where
// it has AVX and FMA (math.useFMA). Tests turn it off to run the
// portable code.
var expExactAsm = cpu.X86.HasAVX && cpu.X86.HasAVX2 && cpu.X86.HasFMA

// expExactAVX2 sets x[j] = math.Exp(x[j]) for j < n, n a multiple of 4,
// four at a time, up to the first group of four that holds a NaN or a
// value above 709, and returns that group's index j (n when there is
// none).
//
//go:noescape
func expExactAVX2(x *float64, n int) int

// expExactRows is Exp with expExactAVX2 on the whole groups of four and
// math.Exp on the groups it stops at and on the rest.
func expExactRows(x []float64) {
	n := len(x) &^ 3
	for j := 0; j < n; {
		j += expExactAVX2(&x[j], n-j)
		if j < n {
			ExpGo(x[j : j+4])
			j += 4
		}
	}
	ExpGo(x[n:])
}
