//go:build goexperiment.simd && amd64

package gda

import "simd/archsimd"

// simdSolver computes squared Mahalanobis distances 32 rows at a time with
// AVX-512 (Go's experimental simd/archsimd, GOEXPERIMENT=simd): the rows
// of a group are the lanes of four 8-wide vectors, so the forward
// substitution
//
//	z_j = (x_j − c_j − Σ_{i<j} U_ij z_i) / U_jj
//
// is one fused multiply-add per (i, j) for 32 rows, with no dependency
// between the lanes. Each lane follows the same operations whatever the
// other lanes hold, so a row's result does not depend on the rows
// predicted with it.
type simdSolver struct {
	p    int
	negL []float64   // −U_ij at j·p + i for i < j (Uᵀ, negated), padded by 2
	inv  []float64   // 1/U_jj, padded by 2
	nu   [][]float64 // the ν_a of the component, each padded by 2
}

// group is the number of rows solved together.
const group = 32

// newGroupSolver returns the AVX-512 solver for the factor f and offsets
// nu, or the lane solver when the processor lacks AVX-512.
func newGroupSolver(f *factor, nu [][]float64) groupSolver {
	if !archsimd.X86.AVX512() {
		return newLaneSolver(f, nu, defaultKernel())
	}
	p, u := f.u.N, f.u.Data
	s := &simdSolver{p: p, negL: make([]float64, p*p+2), inv: make([]float64, p+2), nu: make([][]float64, len(nu))}
	for j := range p {
		for i := range j {
			s.negL[j*p+i] = -u[i*f.u.Stride+j]
		}
		s.inv[j] = 1 / u[j*f.u.Stride+j]
	}
	for a, v := range nu {
		s.nu[a] = make([]float64, p+2)
		copy(s.nu[a], v)
	}
	return s
}

// distances implements groupSolver.
func (s *simdSolver) distances(q, z, x []float64, rows int, centre []float64) {
	p := s.p
	zt := z[:p*group]
	var sq [group]float64
	for g := 0; g < rows; g += group {
		n := min(group, rows-g)
		for j := range p {
			col := zt[j*group : (j+1)*group]
			for r := range col {
				v := 0.0
				if r < n {
					v = x[(g+r)*p+j] - centre[j]
				}
				if v != v {
					v = 0 // a missing cell: the row is redone by the marginal path
				}
				col[r] = v
			}
		}
		solve32(zt, s.negL, s.inv, p)
		for a, nu := range s.nu {
			dist32(&sq, zt, nu, p)
			copy(q[a*rows+g:a*rows+g+n], sq[:n])
		}
	}
}

// solve32 replaces the 32 columns of z (p×32, z[j·32 + r] = x_rj − c_j)
// by U⁻ᵀ applied to each. It solves two features j, j+1 at a time, so that
// each z_i loaded serves both sums, then adds the term of z_j to z_j+1.
func solve32(z, negL, inv []float64, p int) {
	j := 0
	for ; j+1 < p; j += 2 {
		row, row2 := negL[j*p:j*p+j:len(negL)], negL[(j+1)*p:(j+1)*p+j+1:len(negL)]
		zj := z[j*group : (j+2)*group]
		a0 := archsimd.LoadFloat64x8Slice(zj[0:8])
		a1 := archsimd.LoadFloat64x8Slice(zj[8:16])
		a2 := archsimd.LoadFloat64x8Slice(zj[16:24])
		a3 := archsimd.LoadFloat64x8Slice(zj[24:32])
		b0 := archsimd.LoadFloat64x8Slice(zj[32:40])
		b1 := archsimd.LoadFloat64x8Slice(zj[40:48])
		b2 := archsimd.LoadFloat64x8Slice(zj[48:56])
		b3 := archsimd.LoadFloat64x8Slice(zj[56:64])
		for i := range row {
			c, e := broadcast(row[i:i+2]), broadcast(row2[i:i+2])
			zi := z[i*group : (i+1)*group]
			z0 := archsimd.LoadFloat64x8Slice(zi[0:8])
			z1 := archsimd.LoadFloat64x8Slice(zi[8:16])
			z2 := archsimd.LoadFloat64x8Slice(zi[16:24])
			z3 := archsimd.LoadFloat64x8Slice(zi[24:32])
			a0, a1, a2, a3 = z0.MulAdd(c, a0), z1.MulAdd(c, a1), z2.MulAdd(c, a2), z3.MulAdd(c, a3)
			b0, b1, b2, b3 = z0.MulAdd(e, b0), z1.MulAdd(e, b1), z2.MulAdd(e, b2), z3.MulAdd(e, b3)
		}
		v := broadcast(inv[j : j+2])
		a0, a1, a2, a3 = a0.Mul(v), a1.Mul(v), a2.Mul(v), a3.Mul(v)
		a0.StoreSlice(zj[0:8])
		a1.StoreSlice(zj[8:16])
		a2.StoreSlice(zj[16:24])
		a3.StoreSlice(zj[24:32])
		c, w := broadcast(row2[j:j+2]), broadcast(inv[j+1:j+3])
		a0.MulAdd(c, b0).Mul(w).StoreSlice(zj[32:40])
		a1.MulAdd(c, b1).Mul(w).StoreSlice(zj[40:48])
		a2.MulAdd(c, b2).Mul(w).StoreSlice(zj[48:56])
		a3.MulAdd(c, b3).Mul(w).StoreSlice(zj[56:64])
	}
	if j < p { // the last feature of an odd p
		row := negL[j*p : j*p+j : len(negL)]
		zj := z[j*group : (j+1)*group]
		a0 := archsimd.LoadFloat64x8Slice(zj[0:8])
		a1 := archsimd.LoadFloat64x8Slice(zj[8:16])
		a2 := archsimd.LoadFloat64x8Slice(zj[16:24])
		a3 := archsimd.LoadFloat64x8Slice(zj[24:32])
		for i := range row {
			c := broadcast(row[i : i+2])
			zi := z[i*group : (i+1)*group]
			a0 = archsimd.LoadFloat64x8Slice(zi[0:8]).MulAdd(c, a0)
			a1 = archsimd.LoadFloat64x8Slice(zi[8:16]).MulAdd(c, a1)
			a2 = archsimd.LoadFloat64x8Slice(zi[16:24]).MulAdd(c, a2)
			a3 = archsimd.LoadFloat64x8Slice(zi[24:32]).MulAdd(c, a3)
		}
		v := broadcast(inv[j : j+2])
		a0.Mul(v).StoreSlice(zj[0:8])
		a1.Mul(v).StoreSlice(zj[8:16])
		a2.Mul(v).StoreSlice(zj[16:24])
		a3.Mul(v).StoreSlice(zj[24:32])
	}
	archsimd.ClearAVXUpperBits()
}

// broadcast returns x[0] in every lane, from a vector load of x[0:2]: a
// scalar load would be a legacy SSE instruction, slow next to AVX-512.
func broadcast(x []float64) archsimd.Float64x8 {
	return archsimd.LoadFloat64x2Slice(x).Broadcast1To8()
}

// dist32 writes ‖z_r − ν‖² for the 32 columns z_r of z to sq.
func dist32(sq *[group]float64, z, nu []float64, p int) {
	var s0, s1, s2, s3 archsimd.Float64x8
	for j := range p {
		c := broadcast(nu[j : j+2])
		zj := z[j*group : (j+1)*group]
		d0 := archsimd.LoadFloat64x8Slice(zj[0:8]).Sub(c)
		d1 := archsimd.LoadFloat64x8Slice(zj[8:16]).Sub(c)
		d2 := archsimd.LoadFloat64x8Slice(zj[16:24]).Sub(c)
		d3 := archsimd.LoadFloat64x8Slice(zj[24:32]).Sub(c)
		s0, s1, s2, s3 = d0.MulAdd(d0, s0), d1.MulAdd(d1, s1), d2.MulAdd(d2, s2), d3.MulAdd(d3, s3)
	}
	s0.StoreSlice(sq[0:8])
	s1.StoreSlice(sq[8:16])
	s2.StoreSlice(sq[16:24])
	s3.StoreSlice(sq[24:32])
	archsimd.ClearAVXUpperBits()
}

// clearUpper clears the upper halves of the vector registers. In this
// build the scalar code of prediction (math.Exp in the normalisation, the
// linear form) was measured to run several times slower, as after 256- or
// 512-bit instructions without VZEROUPPER: clearing first restored its
// speed (LDA predict: 4x less CPU).
func clearUpper() { archsimd.ClearAVXUpperBits() }
