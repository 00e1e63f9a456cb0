package kernel

import "golang.org/x/sys/cpu"

// normAsm reports whether NormalizeLogRows runs the AVX2 kernels of
// rows_amd64.s on groups of four rows. Tests turn it off to run the
// portable code.
var normAsm = cpu.X86.HasAVX && cpu.X86.HasAVX2

// normDiffAVX2, normSumAVX2 and normOutAVX2 are the three steps of
// normalizeGroups (rows_amd64.s).
//
//go:noescape
func normDiffAVX2(x *float64, k, groups int, off *int64, e, m *float64) (bad uint64)

//go:noescape
func normSumAVX2(x *float64, k, groups int, off *int64, e, m *float64)

//go:noescape
func normOutAVX2(x *float64, k, groups int, off *int64, ls, m *float64, bad uint64, best *int)

// normalizeGroups normalises the whole groups of four rows of x (k ≥ 2
// values a row, at most normBlock rows) as normalizeRows does, bit for
// bit, with the rows of a group as the lanes of the AVX2 kernels, and
// returns the number of rows it took and a mask of the groups it left to
// normalizeRows (bit g: rows 4g to 4g + 3; a row with a NaN, or whose
// largest term is 0 or infinite). It writes the column of each row's
// largest log-probability to best, for the groups it did not leave: the
// first column equal to 0 − log s, the largest (the row's largest term
// gives (m − m) − log s; every other (x_i − m) − log s is no larger, the
// roundings being monotone), which is mathx.Argmax's.
func normalizeGroups(x []float64, k int, e []float64, m *[normBlock]float64, best *[normBlock]int) (done int, bad uint64) {
	groups := len(x) / k / 4
	if !normAsm || k < 2 || groups == 0 {
		return 0, 0
	}
	off := [4]int64{0, int64(8 * k), int64(16 * k), int64(24 * k)}
	n := groups * 4 * k
	e = e[:n]
	bad = normDiffAVX2(&x[0], k, groups, &off[0], &e[0], &m[0])
	ExpFloored(e)
	normSumAVX2(&x[0], k, groups, &off[0], &e[0], &m[0])
	Log(e[:groups*4])
	normOutAVX2(&x[0], k, groups, &off[0], &e[0], &m[0], bad, &best[0])
	return groups * 4, bad
}
