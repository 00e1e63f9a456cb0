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
func (st *stats) mstep(prev *model, reg float64, floor bool) *model {
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
			regularize(sig, d, reg, floor, st.cov.diagonal())
		}
	}
	if st.cov == Tied {
		for j := range d {
			for l := range j + 1 {
				v := tied[j*d+l] / total
				tied[j*d+l], tied[l*d+j] = v, v
			}
		}
		regularize(tied, d, reg, floor, false)
		for c := range k {
			copy(m.cov1(c), tied)
		}
	}
	return m
}

// regularize applies the regularisation reg to the D×D covariance matrix
// s, in place. By default it is added to the diagonal, as scikit-learn's
// reg_covar,
//
//	Σ ← Σ + reg·I;
//
// with floor, it is a floor on the eigenvalues, Σ = V Λ Vᵀ ←
// V max(Λ, reg) Vᵀ (for a diagonal Σ: σ_j² ← max(σ_j², reg)), which is the
// maximiser of the M-step's objective −½ W (log|Σ| + tr(Σ⁻¹ S/W)) over the
// matrices Σ ⪰ reg·I. The floor changes nothing where every eigenvalue
// is at least reg.
func regularize(s []float64, d int, reg float64, floor, diagonal bool) {
	switch {
	case reg == 0:
	case !floor:
		addDiag(s, d, reg)
	case diagonal:
		for j := range d {
			s[j*d+j] = max(s[j*d+j], reg)
		}
	default:
		var eig mat.EigenSym
		if !eig.Factorize(mat.NewSymDense(d, slices.Clone(s)), true) {
			// No decomposition: fall back on the ridge, which keeps Σ
			// positive definite.
			addDiag(s, d, reg)
			return
		}
		lambda := eig.Values(nil)
		if lambda[0] >= reg {
			return
		}
		var v mat.Dense
		eig.VectorsTo(&v)
		clear(s)
		for e, l := range lambda {
			l = max(l, reg)
			for j := range d {
				a := l * v.At(j, e)
				for i := range j + 1 {
					s[j*d+i] += a * v.At(i, e)
				}
			}
		}
		for j := range d {
			for i := range j {
				s[i*d+j] = s[j*d+i]
			}
		}
	}
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
