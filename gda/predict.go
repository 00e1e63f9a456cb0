package gda

// laneSolver is the groupSolver of builds without the SIMD one (and of
// processors without AVX-512). It computes squared Mahalanobis distances
// for blocks of rows that are the lanes of a p×lanes matrix z
// (z[lanes·j + l] = x_lj − c_j), by the forward substitution
//
//	z_j = (x_j − c_j − Σ_{i<j} U_ij z_i) / U_jj
//
// done for all the lanes at once by its kernel: each coefficient U_ij
// loaded serves every lane, and the lanes' sums are independent, so the
// processor overlaps them where a row-by-row solve chains each sum on the
// previous term. Every lane goes through the same operations whatever the
// other lanes hold, so a row's result does not depend on the rows
// predicted with it.
type laneSolver struct {
	p    int
	coef []float64   // −U_ij, i < j, row j of Uᵀ after row j−1
	inv  []float64   // 1/U_jj
	nu   [][]float64 // the ν_a of the component
	k    laneKernel
}

// maxLanes is the largest number of lanes of a kernel.
const maxLanes = 32

// laneKernel is a forward substitution over lanes (≤ maxLanes) rows: solve replaces
// the columns of z (p×lanes) by U⁻ᵀ applied to each, given coef and inv
// packed as in laneSolver.
type laneKernel struct {
	lanes int
	solve func(z, coef, inv []float64, p int)
}

// portableKernel is the kernel in plain Go.
var portableKernel = laneKernel{8, solve8}

func newLaneSolver(f *factor, nu [][]float64, k laneKernel) *laneSolver {
	p, u, st := f.u.N, f.u.Data, f.u.Stride
	s := &laneSolver{p: p, coef: make([]float64, 0, p*(p-1)/2), inv: make([]float64, p), nu: nu, k: k}
	for j := range p {
		for i := range j {
			s.coef = append(s.coef, -u[i*st+j])
		}
		s.inv[j] = 1 / u[j*st+j]
	}
	return s
}

// distances implements groupSolver.
func (s *laneSolver) distances(q, z, x []float64, rows int, centre []float64) {
	p, lanes := s.p, s.k.lanes
	zt := z[:lanes*p]
	var buf [maxLanes]float64
	sq := buf[:lanes]
	for g := 0; g < rows; g += lanes {
		n := min(lanes, rows-g)
		for l := range lanes {
			if l >= n {
				for j := range p {
					zt[lanes*j+l] = 0
				}
				continue
			}
			for j, v := range x[(g+l)*p : (g+l+1)*p] {
				v -= centre[j]
				if v != v {
					v = 0 // a missing cell: the row is redone by the marginal path
				}
				zt[lanes*j+l] = v
			}
		}
		s.k.solve(zt, s.coef, s.inv, p)
		for a, nu := range s.nu {
			clear(sq)
			for j, c := range nu {
				for l, v := range zt[lanes*j : lanes*(j+1)] {
					sq[l] += (v - c) * (v - c)
				}
			}
			copy(q[a*rows+g:a*rows+g+n], sq[:n])
		}
	}
}

// solve8 is the portable kernel, over eight lanes.
func solve8(z, coef, inv []float64, p int) {
	for j := range p {
		cs := coef[:j]
		coef = coef[j:]
		zj := (*[8]float64)(z[8*j:])
		a0, a1, a2, a3, a4, a5, a6, a7 := zj[0], zj[1], zj[2], zj[3], zj[4], zj[5], zj[6], zj[7]
		for i, c := range cs {
			zi := (*[8]float64)(z[8*i:])
			a0, a1, a2, a3 = a0+c*zi[0], a1+c*zi[1], a2+c*zi[2], a3+c*zi[3]
			a4, a5, a6, a7 = a4+c*zi[4], a5+c*zi[5], a6+c*zi[6], a7+c*zi[7]
		}
		v := inv[j]
		zj[0], zj[1], zj[2], zj[3], zj[4], zj[5], zj[6], zj[7] = a0*v, a1*v, a2*v, a3*v, a4*v, a5*v, a6*v, a7*v
	}
}
