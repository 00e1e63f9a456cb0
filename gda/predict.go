package gda

import "github.com/gendisc/gendisc/internal/kernel"

// laneSolver computes the squared Mahalanobis distances of a component for
// blocks of rows with the batched triangular solve of package kernel
// (kernel.SolveLanes: AVX-512 or AVX2 assembly, or portable Go): the rows
// of a group of kernel.LaneBlock are the lanes of a p×LaneBlock matrix,
// solved at once by forward substitution,
//
//	z_j = (x_j − c_j − Σ_{i<j} L_ji z_i) / L_jj
//
// Every lane goes through the same operations whatever the other lanes
// hold, so a row's result does not depend on the rows predicted with it.
type laneSolver struct {
	tri *kernel.Tri
	nu  [][]float64 // the ν_a of the component
	// zero is set when the only offset is 0 (QDA): the distances are
	// then the kernel's squared norms ‖z‖².
	zero bool
}

func newLaneSolver(f *factor, nu [][]float64) *laneSolver {
	s := &laneSolver{tri: kernel.NewTri(f.g.L(), f.u.N), nu: nu, zero: len(nu) == 1}
	for _, v := range nu[0] {
		s.zero = s.zero && v == 0
	}
	return s
}

// lanes is kernel.LaneBlock, the rows of a group.
const lanes = kernel.LaneBlock

// transposeRows writes the rows of x (row-major, p columns) to xt as
// groups of lanes rows, each a p×lanes matrix: row lanes·g + l is at
// xt[g·lanes·p + lanes·j + l]. The lanes of the last group past the rows
// are 0.
func transposeRows(xt, x []float64, p int) {
	rows := len(x) / p
	for g := 0; g < rows; g += lanes {
		n := min(lanes, rows-g)
		blk := xt[g*p : (g+lanes)*p]
		for l := range n {
			for j, v := range x[(g+l)*p : (g+l+1)*p] {
				blk[lanes*j+l] = v
			}
		}
		if n < lanes {
			for j := range p {
				clear(blk[lanes*j+n : lanes*(j+1)])
			}
		}
	}
}

// distances writes ‖L⁻¹(x_r − c) − ν_a‖² to q[a·rows + r] for the rows r
// of a block transposed by transposeRows into xt (p features), using z
// (lanes·p values) as scratch. Rows with a missing cell get NaN.
func (s *laneSolver) distances(q, z, xt []float64, p, rows int, centre []float64) {
	var sq [lanes]float64
	z = z[:lanes*p]
	for g := 0; g < rows; g += lanes {
		n := min(lanes, rows-g)
		kernel.SolveLanes(s.tri, z, sq[:], xt[g*p:(g+lanes)*p], lanes, centre, lanes)
		if s.zero {
			copy(q[g:g+n], sq[:n])
			continue
		}
		for a, nu := range s.nu {
			clear(sq[:])
			for j, c := range nu {
				for l, v := range z[lanes*j : lanes*(j+1)] {
					sq[l] += (v - c) * (v - c)
				}
			}
			copy(q[a*rows+g:a*rows+g+n], sq[:n])
		}
	}
}
