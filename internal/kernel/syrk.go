package kernel

import (
	"fmt"
	"sync"

	"github.com/gendisc/gendisc/internal/parallel"
)

// Syrk adds A Aᵀ to the upper triangle of C:
//
//	C[i,j] ← C[i,j] + Σ_{k<n} A[i,k]·A[j,k]        for 0 ≤ i ≤ j < d
//
// with A d×n row-major (A[i,k] at a[i·lda + k]) and C d×d row-major
// (C[i,j] at c[i·ldc + j]); the strict lower triangle of C is not read or
// written. It is the scatter matrix of n centred vectors held as the
// columns of A (gonum's blas64.Syrk with NoTrans, Upper, α = β = 1).
//
// The default build runs the blocked kernel below with the AVX-512 or
// AVX2/FMA micro-kernel where the processor has it (syrk_amd64.s) and the
// portable Go one otherwise (SyrkGo); the openblas build (tag openblas)
// calls OpenBLAS's dsyrk. The blocking: the columns of A are taken in
// panels of kc (sized so that the packed panel, dp×kc values with dp = d
// rounded up to 16, fits in about half of the L2 cache); each panel is
// packed, transposed, into groups of 16 rows (P[g][k][t] = A[16g+t, k],
// zero past d), so that the micro-kernel reads both of its operands with
// unit stride. The micro-kernel accumulates a tile of 8 rows × 16
// columns of C in registers over the whole panel, the 8 rows broadcast
// from the packed group that holds them and the 16 columns loaded from
// the packed group of the tile, and adds the tile to C under a mask per
// row that keeps the upper triangle and the columns below d. The row
// tiles of a large product are shared out between the cores.
func Syrk(d, n int, a []float64, lda int, c []float64, ldc int) {
	if blasSyrk != nil {
		checkSyrk(d, n, a, lda, c, ldc)
		if d > 0 && n > 0 {
			blasSyrk(d, n, a, lda, c, ldc)
		}
		return
	}
	syrk(syrkTile, d, n, a, lda, c, ldc)
}

// SyrkGo is the portable Syrk: the same blocking with the micro-kernel in
// Go. It is the reference of the assembly and the fallback elsewhere.
func SyrkGo(d, n int, a []float64, lda int, c []float64, ldc int) {
	syrk(tileGo, d, n, a, lda, c, ldc)
}

// The shape of the micro-kernel's tile of C: tileRows rows of a packed
// group of groupRows.
const (
	groupRows = 16
	tileRows  = 8
)

// tileFunc adds a tileRows×groupRows tile of A Aᵀ over a panel of kc
// columns to C: for r < tileRows and t < groupRows with bit t of mask[r]
// set,
//
//	c[r·ldc + t] += Σ_{k<kc} a[k·groupRows + r]·b[k·groupRows + t]
//
// a and b being packed groups (a from the tile's first row). Elements of
// C whose bit is clear are not accessed.
type tileFunc func(kc int, a, b, c []float64, ldc int, mask [tileRows]uint16)

// syrkTile is the micro-kernel of Syrk; syrk_amd64.go replaces it where
// the processor has AVX2/FMA or AVX-512. blasSyrk, set in the openblas
// build, replaces the whole kernel.
var (
	syrkTile tileFunc = tileGo
	blasSyrk func(d, n int, a []float64, lda int, c []float64, ldc int)
)

// panelValues bounds the packed panel (dp × kc values): 512 KB, half of
// the L2 cache of the processors this is tuned on. The tests shrink it.
var panelValues = 1 << 16

// minKC and maxKC bound the panel width: below minKC the tiles of C are
// loaded and stored too often for their products; maxKC keeps the 8 rows
// the micro-kernel broadcasts (64 bytes a column) in 32 KB of L1.
const (
	minKC = 32
	maxKC = 512
)

// parallelWork is the number of multiply-adds (d²·n/2) above which Syrk
// shares a panel's row tiles out between the cores.
const parallelWork = 1 << 24

// packPool holds the packed panels, so that a Syrk does not allocate.
var packPool = sync.Pool{New: func() any { return new([]float64) }}

func checkSyrk(d, n int, a []float64, lda int, c []float64, ldc int) {
	if d < 0 || n < 0 || (d > 0 && n > 0 && (lda < n || len(a) < (d-1)*lda+n)) ||
		(d > 0 && (ldc < d || len(c) < (d-1)*ldc+d)) {
		panic(fmt.Sprintf("kernel: Syrk of %d×%d in %d values of stride %d into %d values of stride %d",
			d, n, len(a), lda, len(c), ldc))
	}
}

// syrk is Syrk with the micro-kernel tile.
func syrk(tile tileFunc, d, n int, a []float64, lda int, c []float64, ldc int) {
	checkSyrk(d, n, a, lda, c, ldc)
	if d == 0 || n == 0 {
		return
	}
	groups := (d + groupRows - 1) / groupRows
	dp := groups * groupRows
	kc := min(n, max(minKC, min(maxKC, panelValues/dp)))
	pp := packPool.Get().(*[]float64)
	if cap(*pp) < dp*kc {
		*pp = make([]float64, dp*kc)
	}
	p := (*pp)[:dp*kc]
	tiles := (d + tileRows - 1) / tileRows
	workers := 1
	if d*d/2*n > parallelWork {
		workers = min(parallel.Workers(), tiles)
	}
	for k0 := 0; k0 < n; k0 += kc {
		w := min(kc, n-k0)
		pack(p[:dp*w], d, w, a[k0:], lda)
		if workers == 1 {
			for ti := range tiles {
				rowTile(tile, d, w, p, ti, c, ldc)
			}
		} else {
			rowTilesParallel(tile, d, w, p, tiles, workers, c, ldc)
		}
	}
	packPool.Put(pp)
}

// SyrkGroup is the number of rows of A in a packed group of SyrkPacked.
const SyrkGroup = groupRows

// SyrkPacked adds A Aᵀ to the upper triangle of C, as Syrk, from A (d×n)
// already packed as Syrk packs its panels, in groups of SyrkGroup rows
// transposed:
//
//	A[16g+t, k] at p[g·gs + k·16 + t]        for k < n, t < 16
//
// with zeros for the rows 16g+t ≥ d, and gs ≥ 16n the distance between
// groups. A caller that gathers its vectors one at a time (the rows of a
// class) writes them in this layout directly, each vector in runs of 16
// contiguous values, and saves the strided writes of a row-major A and
// Syrk's packing. The whole of A is one panel, so n should stay within
// the panel widths of Syrk (at most a few hundred). It runs the
// micro-kernel of Syrk's default build, on one core, in every build.
func SyrkPacked(d, n int, p []float64, gs int, c []float64, ldc int) {
	groups := (d + groupRows - 1) / groupRows
	if d < 0 || n < 0 || (d > 0 && n > 0 && (gs < groupRows*n || len(p) < (groups-1)*gs+groupRows*n)) ||
		(d > 0 && (ldc < d || len(c) < (d-1)*ldc+d)) {
		panic(fmt.Sprintf("kernel: SyrkPacked of %d×%d in %d values of group stride %d into %d values of stride %d",
			d, n, len(p), gs, len(c), ldc))
	}
	if d == 0 || n == 0 {
		return
	}
	for ti := range (d + tileRows - 1) / tileRows {
		rowTileStride(syrkTile, d, n, gs, p, ti, c, ldc)
	}
}

// rowTilesParallel runs rowTile on tiles row tiles with workers
// goroutines, round-robin, which balances the triangle (the first rows
// have the most tiles).
func rowTilesParallel(tile tileFunc, d, w int, p []float64, tiles, workers int, c []float64, ldc int) {
	parallel.For(workers, 1, func(_, lo, hi int) {
		for s := lo; s < hi; s++ {
			for ti := s; ti < tiles; ti += workers {
				rowTile(tile, d, w, p, ti, c, ldc)
			}
		}
	})
}

// rowTile adds the tiles of row tile ti (rows 8ti to 8ti+7) on and above
// the diagonal, from the packed panel p of w columns.
func rowTile(tile tileFunc, d, w int, p []float64, ti int, c []float64, ldc int) {
	rowTileStride(tile, d, w, groupRows*w, p, ti, c, ldc)
}

// rowTileStride is rowTile on packed groups gs values apart.
func rowTileStride(tile tileFunc, d, w, gs int, p []float64, ti int, c []float64, ldc int) {
	i0 := ti * tileRows
	gi := i0 / groupRows
	a := p[gi*gs+i0-gi*groupRows:]
	var mask [tileRows]uint16
	for g := gi; g*groupRows < d; g++ {
		j0 := g * groupRows
		for r := range mask {
			i := i0 + r
			// columns j0+t with i ≤ j0+t < d
			hi := min(groupRows, d-j0)
			lo := max(0, i-j0)
			if i >= d || lo >= hi {
				mask[r] = 0
			} else {
				mask[r] = uint16((1<<hi - 1) &^ (1<<lo - 1))
			}
		}
		tile(w, a, p[g*gs:], c[i0*ldc+j0:], ldc, mask)
	}
}

// pack sets p[g·16·w + k·16 + t] = A[16g+t, k] for k < w, zero for rows
// at or past d.
func pack(p []float64, d, w int, a []float64, lda int) {
	for g := 0; g*groupRows < d; g++ {
		q := p[g*groupRows*w : (g+1)*groupRows*w]
		for t := range groupRows {
			i := g*groupRows + t
			if i >= d {
				for k := range w {
					q[k*groupRows+t] = 0
				}
				continue
			}
			for k, v := range a[i*lda : i*lda+w] {
				q[k*groupRows+t] = v
			}
		}
	}
}

// tileGo is the portable micro-kernel: the tile in blocks of 4×4
// accumulators.
func tileGo(kc int, a, b, c []float64, ldc int, mask [tileRows]uint16) {
	for r0 := 0; r0 < tileRows; r0 += 4 {
		if mask[r0]|mask[r0+1]|mask[r0+2]|mask[r0+3] == 0 {
			continue
		}
		for t0 := 0; t0 < groupRows; t0 += 4 {
			var s [4][4]float64
			var s00, s01, s02, s03, s10, s11, s12, s13 float64
			var s20, s21, s22, s23, s30, s31, s32, s33 float64
			for k := range kc {
				ar := a[k*groupRows+r0 : k*groupRows+r0+4]
				bt := b[k*groupRows+t0 : k*groupRows+t0+4]
				a0, a1, a2, a3 := ar[0], ar[1], ar[2], ar[3]
				b0, b1, b2, b3 := bt[0], bt[1], bt[2], bt[3]
				s00 += a0 * b0
				s01 += a0 * b1
				s02 += a0 * b2
				s03 += a0 * b3
				s10 += a1 * b0
				s11 += a1 * b1
				s12 += a1 * b2
				s13 += a1 * b3
				s20 += a2 * b0
				s21 += a2 * b1
				s22 += a2 * b2
				s23 += a2 * b3
				s30 += a3 * b0
				s31 += a3 * b1
				s32 += a3 * b2
				s33 += a3 * b3
			}
			s[0] = [4]float64{s00, s01, s02, s03}
			s[1] = [4]float64{s10, s11, s12, s13}
			s[2] = [4]float64{s20, s21, s22, s23}
			s[3] = [4]float64{s30, s31, s32, s33}
			addMasked(c[r0*ldc:], ldc, s[:], t0, mask[r0:r0+4])
		}
	}
}

// addMasked adds the 4-wide rows s[r] to c[r·ldc + t0 + t] where bit
// t0 + t of mask[r] is set.
func addMasked(c []float64, ldc int, s [][4]float64, t0 int, mask []uint16) {
	for r, m := range mask {
		for t, v := range s[r] {
			if m>>(t0+t)&1 != 0 {
				c[r*ldc+t0+t] += v
			}
		}
	}
}
