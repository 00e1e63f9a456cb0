package kernel

import "golang.org/x/sys/cpu"

func init() {
	switch {
	case cpu.X86.HasAVX512F:
		syrkTile = tileAVX512
	case cpu.X86.HasAVX2 && cpu.X86.HasFMA:
		syrkTile = tileAVX2
	}
}

// tile512 is the tileFunc of AVX-512 on pointers (syrk_amd64.s).
//
//go:noescape
func tile512(kc int, a, b, c *float64, ldc int, mask [tileRows]uint16)

// tile4x8AVX2 adds the 4×8 block of A Aᵀ over a panel of kc columns to
// C: c[r·ldc + t] += Σ_k a[16k + r]·b[16k + t] for r < 4, t < 8.
//
//go:noescape
func tile4x8AVX2(kc int, a, b, c *float64, ldc int)

// tile512x8 is tile512 on the first 8 columns of the tile, for masks
// that keep none of the other 8.
//
//go:noescape
func tile512x8(kc int, a, b, c *float64, ldc int, mask [tileRows]uint16)

// tileAVX512 checks the lengths of the packed groups and calls tile512,
// or tile512x8 when the masks keep only the first 8 columns or only the
// last 8 (the tile of the odd row tile on the diagonal: rows 8 to 15 of
// a group need the columns from their own on), then on the columns from
// the eighth: b and C moved on by 8 values and the masks by 8 bits.
func tileAVX512(kc int, a, b, c []float64, ldc int, mask [tileRows]uint16) {
	_, _ = a[(kc-1)*groupRows+tileRows-1], b[kc*groupRows-1]
	var low, high uint16
	for _, m := range mask {
		low |= m & 0xff
		high |= m >> 8
	}
	switch {
	case high == 0:
		tile512x8(kc, &a[0], &b[0], &c[0], ldc, mask)
	case low == 0:
		for r := range mask {
			mask[r] >>= 8
		}
		tile512x8(kc, &a[0], &b[8], &c[8], ldc, mask)
	default:
		tile512(kc, &a[0], &b[0], &c[0], ldc, mask)
	}
}

// tileAVX2 is the tile in four 4×8 blocks: added to C directly when the
// whole tile is kept, else summed into a zeroed tile on the stack and
// added under the masks.
func tileAVX2(kc int, a, b, c []float64, ldc int, mask [tileRows]uint16) {
	_, _ = a[(kc-1)*groupRows+tileRows-1], b[kc*groupRows-1]
	full := true
	for _, m := range mask {
		full = full && m == 1<<groupRows-1
	}
	if full {
		for r0 := 0; r0 < tileRows; r0 += 4 {
			_ = c[(r0+3)*ldc+groupRows-1]
			for t0 := 0; t0 < groupRows; t0 += 8 {
				tile4x8AVX2(kc, &a[r0], &b[t0], &c[r0*ldc+t0], ldc)
			}
		}
		return
	}
	var s [tileRows * groupRows]float64
	for r0 := 0; r0 < tileRows; r0 += 4 {
		m := mask[r0] | mask[r0+1] | mask[r0+2] | mask[r0+3]
		for t0 := 0; t0 < groupRows; t0 += 8 {
			if m>>t0&0xff != 0 {
				tile4x8AVX2(kc, &a[r0], &b[t0], &s[r0*groupRows+t0], groupRows)
			}
		}
	}
	for r, m := range mask {
		for t := range groupRows {
			if m>>t&1 != 0 {
				c[r*ldc+t] += s[r*groupRows+t]
			}
		}
	}
}

func init() {
	switch {
	case cpu.X86.HasAVX512F:
		syrkRow = rowAVX512
	case cpu.X86.HasAVX:
		syrkRow = rowAVX
	}
}

// row512 writes s·(x − o) for the n ≥ 1 values of x, the group g of 16
// at p + g·gs, the last part of a group under opmasks, and returns a
// non-zero value if some x_j is not finite (syrk_amd64.s).
//
//go:noescape
func row512(p *float64, gs int, x, o *float64, n int, s float64) uint64

// row256 is row512 in AVX on the whole groups of 16 of the n values, for
// groups = n/16 ≥ 1 (syrk_amd64.s).
//
//go:noescape
func row256(p *float64, gs int, x, o *float64, groups int, s float64) uint64

// rowAVX512 is the rowFunc of row512.
func rowAVX512(p []float64, gs int, x, o []float64, s float64) bool {
	n := len(x)
	_, _ = p[(n-1)/groupRows*gs+(n-1)%groupRows], o[n-1]
	return row512(&p[0], gs, &x[0], &o[0], n, s) == 0
}

// rowAVX is the rowFunc of row256: the whole groups in assembly, the rest
// in Go.
func rowAVX(p []float64, gs int, x, o []float64, s float64) bool {
	full := len(x) / groupRows
	finite := true
	if full > 0 {
		_ = p[(full-1)*gs+groupRows-1]
		finite = row256(&p[0], gs, &x[0], &o[0], full, s) == 0
	}
	if j := full * groupRows; j < len(x) {
		finite = rowGo(p[full*gs:], gs, x[j:], o[j:], s) && finite
	}
	return finite
}
