package mixture

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// stats are the M-step's sufficient statistics, with every component's
// rows centred at a fixed shift a_k (the component's mean when the
// responsibilities were computed):
//
//	W_k = Σ_i r_ki
//	s_k = Σ_i r_ki ĉ_ki,                ĉ_ki = E[x_i | x_i,O, k] − a_k
//	S_k = Σ_i r_ki (ĉ_ki ĉ_kiᵀ + C_ki)  (C_ki: conditional covariance of
//	                                      the missing coordinates, else 0)
//
// from which the new mean and centred scatter are
//
//	μ_k = a_k + δ_k,  δ_k = s_k / W_k,   Σ_i r_ki (x̂ − μ_k)(x̂ − μ_k)ᵀ = S_k − W_k δ_k δ_kᵀ
//
// The shift keeps the subtraction well conditioned: δ_k is small next to
// the spread of the rows once EM is under way. S_k holds the lower
// triangle of a D×D matrix for the full and tied types, the diagonal for
// diag and spherical, and nothing for identity. Statistics of disjoint
// rows with the same shifts add up.
type stats struct {
	cov  Covariance
	k, d int
	ll   float64   // Σ_i w_i log p(x_i)
	w    []float64 // K
	sum  []float64 // K×D
	scat []float64 // K×D×D, K×D or nil
}

func newStats(cov Covariance, k, d int) *stats {
	st := &stats{cov: cov, k: k, d: d, w: make([]float64, k), sum: make([]float64, k*d)}
	switch {
	case cov == Identity:
	case cov.diagonal():
		st.scat = make([]float64, k*d)
	default:
		st.scat = make([]float64, k*d*d)
	}
	return st
}

func (st *stats) reset() {
	st.ll = 0
	clear(st.w)
	clear(st.sum)
	clear(st.scat)
}

// merge adds the statistics of o, about other rows, to st.
func (st *stats) merge(o *stats) {
	st.ll += o.ll
	floats.Add(st.w, o.w)
	floats.Add(st.sum, o.sum)
	floats.Add(st.scat, o.scat)
}

// add adds the centred block ct (all D rows of blockRows stride, len(r)
// columns) with responsibilities r, whose sum is sr, to component k. rc is
// scratch of len(r).
func (st *stats) add(k int, ct, r []float64, sr float64, rc []float64) {
	d, nb := st.d, len(r)
	st.w[k] += sr
	sum := st.sum[k*d : (k+1)*d]
	for j := range d {
		cj := ct[j*blockRows : j*blockRows+nb]
		mulTo(rc, r, cj)
		sum[j] += floats.Sum(rc)
		switch {
		case st.scat == nil:
		case st.cov.diagonal():
			st.scat[k*d+j] += floats.Dot(rc, cj)
		default:
			row := st.scat[(k*d+j)*d : (k*d+j)*d+j+1]
			for l := range row {
				row[l] += floats.Dot(rc, ct[l*blockRows:l*blockRows+nb])
			}
		}
	}
}

// mulTo writes a_i·b_i to dst_i, unrolled as addSquares.
func mulTo(dst, a, b []float64) {
	a, b = a[:len(dst)], b[:len(dst)]
	i := 0
	for ; i+4 <= len(dst); i += 4 {
		dst[i] = a[i] * b[i]
		dst[i+1] = a[i+1] * b[i+1]
		dst[i+2] = a[i+2] * b[i+2]
		dst[i+3] = a[i+3] * b[i+3]
	}
	for ; i < len(dst); i++ {
		dst[i] = a[i] * b[i]
	}
}

// addConditional adds sr·C, the conditional covariance of the missing
// coordinates mis (|mis|×|mis|, or its diagonal for a diagonal type)
// weighted by the block's summed responsibility, to S_k.
func (st *stats) addConditional(k int, mis []int, c []float64, sr float64) {
	d, q := st.d, len(mis)
	switch {
	case st.scat == nil:
	case st.cov.diagonal():
		for j, mj := range mis {
			st.scat[k*d+mj] += sr * c[j]
		}
	default:
		s := st.scat[k*d*d : (k+1)*d*d]
		for j, mj := range mis {
			for l, ml := range mis[:j+1] {
				// mis is increasing, so (mj, ml) is in the lower triangle.
				s[mj*d+ml] += sr * c[j*q+l]
			}
		}
	}
}

// mstep returns the maximum-likelihood parameters given the statistics,
// whose shifts are the means of prev, with the covariances regularised by
// reg (see regularize):
//
//	π_k = W_k / Σ_l W_l
//	μ_k = a_k + s_k / W_k
//	Full:       Σ_k = (S_k − W_k δ_k δ_kᵀ) / W_k
//	Tied:       Σ   = Σ_k (S_k − W_k δ_k δ_kᵀ) / Σ_k W_k
//	Diag:       Σ_k = diag(S_k − W_k δ_k δ_kᵀ) / W_k
//	Spherical:  Σ_k = tr(S_k − W_k δ_k δ_kᵀ) / (D·W_k) · I
//	Identity:   Σ_k = I
//
// A component with W_k = 0 keeps prev's mean and covariance; the caller
// re-seeds it.
func (st *stats) mstep(prev *model, reg float64, how Regularization) *model {
	k, d := st.k, st.d
	m := newModel(prev.cov, k, d)
	total := floats.Sum(st.w)
	var tied []float64
	if st.cov == Tied {
		tied = make([]float64, d*d)
	}
	delta := make([]float64, d)
	for c := range k {
		w := st.w[c]
		m.weights[c] = w / total
		mu, sig := m.mean(c), m.cov1(c)
		copy(mu, prev.mean(c))
		if !(w > 0) {
			copy(sig, prev.cov1(c))
			continue
		}
		for j := range d {
			delta[j] = st.sum[c*d+j] / w
			mu[j] += delta[j]
		}
		switch st.cov {
		case Full, Tied:
			s := st.scat[c*d*d : (c+1)*d*d]
			for j := range d {
				for l := range j + 1 {
					v := s[j*d+l] - w*delta[j]*delta[l]
					if st.cov == Tied {
						tied[j*d+l] += v
						continue
					}
					sig[j*d+l], sig[l*d+j] = v/w, v/w
				}
			}
		case Diag, Spherical:
			s := st.scat[c*d : (c+1)*d]
			tr := 0.0
			for j := range d {
				v := (s[j] - w*delta[j]*delta[j]) / w
				sig[j*d+j] = v
				tr += v
			}
			if st.cov == Spherical {
				for j := range d {
					sig[j*d+j] = tr / float64(d)
				}
			}
		case Identity:
			addDiag(sig, d, 1)
		}
		if st.cov != Tied && st.cov != Identity {
			regularize(sig, d, reg, how, st.cov.diagonal())
		}
	}
	if st.cov == Tied {
		for j := range d {
			for l := range j + 1 {
				v := tied[j*d+l] / total
				tied[j*d+l], tied[l*d+j] = v, v
			}
		}
		regularize(tied, d, reg, how, false)
		for c := range k {
			copy(m.cov1(c), tied)
		}
	}
	return m
}

// regularize applies the regularisation reg to the D×D covariance matrix
// s, in place, in the way how says (see Regularization): with Floor a
// floor on its eigenvalues, Σ = V Λ Vᵀ ← V max(Λ, reg) Vᵀ (for a
// diagonal Σ: σ_j² ← max(σ_j², reg)); with Ridge an addition to its
// diagonal, Σ ← Σ + reg·I.
func regularize(s []float64, d int, reg float64, how Regularization, diagonal bool) {
	switch {
	case reg == 0:
	case how == Ridge:
		addDiag(s, d, reg)
	case diagonal:
		for j := range d {
			s[j*d+j] = max(s[j*d+j], reg)
		}
	default:
		floorEigen(s, d, reg)
	}
}

// floorEigen raises the eigenvalues of the symmetric d×d matrix s under
// reg to reg, in place:
//
//	V max(Λ, reg) Vᵀ = Σ + Σ_{λ_e < reg} (reg − λ_e) v_e v_eᵀ.
//
// Adding the correction of the small eigenvalues keeps Σ's own entries,
// where rebuilding it from V and Λ would round every entry at the scale of
// its largest eigenvalue. The eigenvalues come from Jacobi's method (see
// jacobiEigen), which finds the small eigenvalues of a matrix whose
// variances differ by many orders of magnitude (raw features: 1e10 and
// 0 on adult) to their own precision, where LAPACK's tridiagonal methods
// find them only to ε·λ_max and can leave the floored Σ indefinite.
// Nothing is done, and no eigenvalue computed, when the Cholesky
// factorisation of Σ − reg·I shows that every eigenvalue is at least reg:
// Jacobi's sweeps (several times the work of LAPACK's dsyev) are spent
// only on covariances that the floor changes.
func floorEigen(s []float64, d int, reg float64) {
	shifted := mat.NewSymDense(d, slices.Clone(s))
	for j := range d {
		shifted.SetSym(j, j, shifted.At(j, j)-reg)
	}
	var chol mat.Cholesky
	if chol.Factorize(shifted) {
		return
	}
	lambda, v := jacobiEigen(slices.Clone(s), d)
	for e, l := range lambda {
		if l >= reg {
			continue
		}
		for j := range d {
			a := (reg - l) * v[j*d+e]
			for i := range j + 1 {
				s[j*d+i] += a * v[i*d+e]
			}
		}
	}
	for j := range d {
		for i := range j {
			s[i*d+j] = s[j*d+i]
		}
	}
}

// jacobiEigen returns the eigenvalues λ_e of the symmetric d×d matrix a
// and the eigenvectors, column e of the row-major V, by the cyclic Jacobi
// method, overwriting a. Every rotation zeroes one off-diagonal a_pq:
//
//	θ = (a_qq − a_pp) / (2 a_pq),  t = sign(θ) / (|θ| + √(θ² + 1)),
//	c = 1/√(t² + 1),  s = t c,     a_pp −= t a_pq,  a_qq += t a_pq,
//
// and the sweeps stop when every |a_pq| ≤ ε √|a_pp a_qq|, the criterion
// under which the eigenvalues of a graded positive semi-definite matrix
// D A D come out with a relative error of order ε κ(A), whatever D
// (Demmel and Veselić 1992).
func jacobiEigen(a []float64, d int) (lambda, v []float64) {
	v = make([]float64, d*d)
	addDiag(v, d, 1)
	const eps = 0x1p-52
	for range 60 {
		rotated := false
		for p := range d {
			for q := p + 1; q < d; q++ {
				apq := a[p*d+q]
				if math.Abs(apq) <= eps*math.Sqrt(math.Abs(a[p*d+p]*a[q*d+q])) {
					continue
				}
				rotated = true
				theta := (a[q*d+q] - a[p*d+p]) / (2 * apq)
				t := 1 / (math.Abs(theta) + math.Hypot(theta, 1))
				if theta < 0 {
					t = -t
				}
				c := 1 / math.Hypot(t, 1)
				sn := t * c
				a[p*d+p] -= t * apq
				a[q*d+q] += t * apq
				a[p*d+q], a[q*d+p] = 0, 0
				for r := range d {
					if r != p && r != q {
						arp, arq := a[r*d+p], a[r*d+q]
						a[r*d+p] = c*arp - sn*arq
						a[r*d+q] = sn*arp + c*arq
						a[p*d+r], a[q*d+r] = a[r*d+p], a[r*d+q]
					}
					vrp, vrq := v[r*d+p], v[r*d+q]
					v[r*d+p] = c*vrp - sn*vrq
					v[r*d+q] = sn*vrp + c*vrq
				}
			}
		}
		if !rotated {
			break
		}
	}
	lambda = make([]float64, d)
	for j := range d {
		lambda[j] = a[j*d+j]
	}
	return lambda, v
}

// addDiag adds v to the diagonal of the d×d matrix a.
func addDiag(a []float64, d int, v float64) {
	for j := range d {
		a[j*d+j] += v
	}
}

// finite reports whether every value of x is finite.
func finite(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
