package kernel

import "golang.org/x/sys/cpu"

// DotRows2, AxpyRows2 and ExpFloored are the kernels of kernel.go: the
// AVX2/FMA assembly where the processor has AVX2 and FMA, the portable Go
// otherwise. They are set when the package is initialised; callers must not
// assign them.
var (
	DotRows2   = DotRows2Go
	AxpyRows2  = AxpyRows2Go
	ExpFloored = ExpFlooredGo
)

func init() {
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		DotRows2, AxpyRows2, ExpFloored = dotRows2Asm, axpyRows2Asm, expAsm
	}
}

// dotRows2AVX2 sets out[2r+c] = Σ_{j<n} x[r·n+j]·w_c[j] for r < rows.
//
//go:noescape
func dotRows2AVX2(x *float64, rows, n int, w0, w1, out *float64)

// axpyRows2AVX2 adds Σ_r coef[2r+c]·x[r·n+j] to g_c[j] for j < n, over
// 4·quads rows.
//
//go:noescape
func axpyRows2AVX2(g0, g1, coef, x *float64, quads, n int)

// expAVX2 sets x[j] = exp(max(x[j], ExpFloor)) for j < n, n a multiple
// of 4.
//
//go:noescape
func expAVX2(x *float64, n int)

// dotRows2Asm checks the lengths and calls dotRows2AVX2.
func dotRows2Asm(x []float64, n int, w0, w1, out []float64) {
	rows := len(x) / n
	if rows == 0 {
		return
	}
	_, _, _ = w0[n-1], w1[n-1], out[2*rows-1]
	dotRows2AVX2(&x[0], rows, n, &w0[0], &w1[0], &out[0])
}

// axpyRows2Asm checks the lengths, calls axpyRows2AVX2 on the whole groups
// of four rows and the portable kernel on the rest.
func axpyRows2Asm(g0, g1, coef, x []float64) {
	n := len(g0)
	if n == 0 {
		return
	}
	rows := len(x) / n
	quads := rows / 4
	if quads > 0 {
		_, _ = g1[n-1], coef[8*quads-1]
		axpyRows2AVX2(&g0[0], &g1[0], &coef[0], &x[0], quads, n)
	}
	AxpyRows2Go(g0, g1, coef[8*quads:], x[4*quads*n:rows*n])
}

// expAsm is ExpFloored with expAVX2 on the whole groups of four.
func expAsm(x []float64) {
	n := len(x) &^ 3
	if n > 0 {
		expAVX2(&x[0], n)
	}
	ExpFlooredGo(x[n:])
}
