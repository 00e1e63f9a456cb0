package kernel

// Batched triangular solves (SolveLanes): the squared Mahalanobis
// distances of QDA's prediction and of the Gaussian mixtures' E-step. For
// a lower triangular p×p factor L of a covariance matrix (Σ = L Lᵀ) and a
// block of rows held as the lanes of a p×lanes matrix x (x[j·ld + l] =
// cell j of row l), it solves L z_l = x_l − c for every lane at once, by
// forward substitution,
//
//	z_j = (x_j − c_j − Σ_{i<j} L_ji z_i) / L_jj
//
// and returns the squared norms q_l = Σ_j z_jl² = (x_l − c)ᵀ Σ⁻¹ (x_l − c).
//
// Blocking: the features are taken four at a time (j0 … j0+3, then one at
// a time for the last p mod 4). For a block, the sums over the solved
// features i < j0 are a small matrix product, done for 32 lanes at once
// in registers: each z_i loaded (32 lanes) serves the four features, and
// each coefficient broadcast serves the 32 lanes (16 fused multiply-adds
// per 8 loads with AVX-512). The triangle inside the block then follows in
// registers, and each z_j is stored once and its square added to q. Tri
// holds L packed in that order, negated and with the reciprocals of the
// diagonal, so that the coefficients stream through once per 32 lanes.
// Every lane goes through the same operations whatever the other lanes
// hold (a NaN stays in its lane), and each sum runs over i in increasing
// order, as a row-by-row forward substitution would.

// LaneBlock is the number of lanes the kernels take at a time: SolveLanes
// works on the lanes 0 … n rounded up to a multiple of LaneBlock, which
// its arguments must hold.
const LaneBlock = 32

// Tri is a lower triangular p×p factor L packed for SolveLanes: for each
// block of four features j0 … j0+3 (j0 a multiple of 4, j0+4 ≤ p), the
// coefficients −L_{j0+t,i} for i < j0 (i major, t minor), then
// −L_{j0+u,j0+t} for t < u in the order (0,1) (0,2) (0,3) (1,2) (1,3)
// (2,3), then 1/L_{j0+t,j0+t}; then for each remaining feature j, −L_ji for
// i < j and 1/L_jj.
type Tri struct {
	p  int
	pk []float64
}

// NewTri packs the lower triangle of the p×p row-major matrix l (L_ji =
// l[j·p + i], i ≤ j; the upper triangle is not read).
func NewTri(l []float64, p int) *Tri {
	t := new(Tri)
	t.Set(l, p)
	return t
}

// Set packs l into t as NewTri does, reusing t's storage when it is large
// enough.
func (t *Tri) Set(l []float64, p int) {
	t.p, t.pk = p, t.pk[:0]
	j := 0
	for ; j+4 <= p; j += 4 {
		for i := range j {
			for u := range 4 {
				t.pk = append(t.pk, -l[(j+u)*p+i])
			}
		}
		for a := range 3 {
			for b := a + 1; b < 4; b++ {
				t.pk = append(t.pk, -l[(j+b)*p+j+a])
			}
		}
		for u := range 4 {
			t.pk = append(t.pk, 1/l[(j+u)*p+j+u])
		}
	}
	for ; j < p; j++ {
		for i := range j {
			t.pk = append(t.pk, -l[j*p+i])
		}
		t.pk = append(t.pk, 1/l[j*p+j])
	}
}

// Dim returns p.
func (t *Tri) Dim() int { return t.p }

// SolveLanesGo is the portable SolveLanes: for the lanes l < n rounded up
// to a multiple of LaneBlock, it writes z_l = L⁻¹(x_l − c) to z (p×lanes,
// z[j·ld + l]) and q_l = ‖z_l‖² to q[l]. x and z have row stride ld
// (ld ≥ n rounded up to LaneBlock) and must not overlap; c has length p.
func SolveLanesGo(t *Tri, z, q, x []float64, ld int, c []float64, n int) {
	p, lanes := t.p, roundLanes(n)
	checkLanes(t, z, q, x, ld, c, lanes)
	q = q[:lanes]
	clear(q)
	pk := t.pk
	j := 0
	for ; j+4 <= p; j += 4 {
		gemm, tri, inv := pk[:4*j], pk[4*j:4*j+6], pk[4*j+6:4*j+10]
		pk = pk[4*j+10:]
		a0, a1, a2, a3 := z[j*ld:j*ld+lanes], z[(j+1)*ld:(j+1)*ld+lanes], z[(j+2)*ld:(j+2)*ld+lanes], z[(j+3)*ld:(j+3)*ld+lanes]
		for u, a := range [4][]float64{a0, a1, a2, a3} {
			for l, v := range x[(j+u)*ld : (j+u)*ld+lanes] {
				a[l] = v - c[j+u]
			}
		}
		for i := range j {
			g := gemm[4*i : 4*i+4]
			for l, v := range z[i*ld : i*ld+lanes] {
				a0[l] += g[0] * v
				a1[l] += g[1] * v
				a2[l] += g[2] * v
				a3[l] += g[3] * v
			}
		}
		for l := range q {
			v0 := a0[l] * inv[0]
			v1 := (a1[l] + tri[0]*v0) * inv[1]
			v2 := (a2[l] + tri[1]*v0 + tri[3]*v1) * inv[2]
			v3 := (a3[l] + tri[2]*v0 + tri[4]*v1 + tri[5]*v2) * inv[3]
			a0[l], a1[l], a2[l], a3[l] = v0, v1, v2, v3
			q[l] += v0 * v0
			q[l] += v1 * v1
			q[l] += v2 * v2
			q[l] += v3 * v3
		}
	}
	for ; j < p; j++ {
		row, inv := pk[:j], pk[j]
		pk = pk[j+1:]
		a := z[j*ld : j*ld+lanes]
		for l, v := range x[j*ld : j*ld+lanes] {
			a[l] = v - c[j]
		}
		for i, g := range row {
			for l, v := range z[i*ld : i*ld+lanes] {
				a[l] += g * v
			}
		}
		for l, v := range a {
			v *= inv
			a[l] = v
			q[l] += v * v
		}
	}
}

// roundLanes returns n rounded up to a multiple of LaneBlock.
func roundLanes(n int) int { return (n + LaneBlock - 1) &^ (LaneBlock - 1) }

// checkLanes panics unless the arguments of SolveLanes hold lanes lanes.
func checkLanes(t *Tri, z, q, x []float64, ld int, c []float64, lanes int) {
	if lanes == 0 {
		return
	}
	if ld < lanes || len(c) < t.p || len(q) < lanes || len(x) < (t.p-1)*ld+lanes || len(z) < (t.p-1)*ld+lanes {
		panic("kernel: SolveLanes: arguments too short for the lanes")
	}
}
