package naivebayes

import "golang.org/x/sys/cpu"

// quadAsm reports whether quadRows runs the AVX2/FMA assembly: where the
// processor has both. Tests turn it off to run the portable kernel.
var quadAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// quad512 reports whether the assembly is the AVX-512 kernel: where the
// processor has AVX-512 (F, DQ, VL). Tests turn it off to run the AVX2
// one.
var quad512 = quadAsm && cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512VL

// quadRows sets q[r·stride + k] = Σ_j h_kj (x_rj − μ_kj)² for every row x_r
// of x and class k (gaussian_kernel.go). It is a plain function rather than
// a function variable so that q, a buffer on the caller's stack, stays
// there.
func quadRows(q, x []float64, g *gaussianFamily) {
	if quadAsm {
		quadRowsAsm(q, x, g)
		return
	}
	quadRowsGo(q, x, g)
}

// quadRowsAVX2 writes the quadratic forms of rows rows of d features at x
// against groups groups of four classes packed at p (pack) to q, one row
// every stride values, group g's four at min(4g, lastBase).
//
//go:noescape
func quadRowsAVX2(q, x *float64, rows, d int, p *float64, groups, stride, lastBase int)

// quadRowsAVX512 is quadRowsAVX2 with the parameters packed for it
// (packed512): groups groups of four classes, then a pair alone when half
// is 1.
//
//go:noescape
func quadRowsAVX512(q, x *float64, rows, d int, p *float64, groups, half, stride int)

// quadRowsAsm checks the lengths and calls quadRowsAVX512 or quadRowsAVX2.
func quadRowsAsm(q, x []float64, g *gaussianFamily) {
	rows := len(x) / g.d
	if rows == 0 {
		return
	}
	_, _ = q[rows*g.stride-1], x[rows*g.d-1]
	if quad512 {
		quadRowsAVX512(&q[0], &x[0], rows, g.d, &g.packed512[0], g.groups512, g.half512, g.stride)
		return
	}
	quadRowsAVX2(&q[0], &x[0], rows, g.d, &g.packed[0], g.groups, g.stride, g.lastBase)
}
