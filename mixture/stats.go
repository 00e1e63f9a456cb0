package mixture

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	core "github.com/gendisc/gendisc/stats"
)

// stats are the M-step's sufficient statistics: the log-likelihood and,
// for every component k, with the responsibilities r_ki as weights and the
// rows centred at a fixed shift a_k (the component's mean when the
// responsibilities were computed),
//
//	W_k = Σ_i r_ki
//	δ_k = Σ_i r_ki ĉ_ki / W_k,          ĉ_ki = E[x_i | x_i,O, k] − a_k
//	S_k = Σ_i r_ki ((ĉ_ki − δ_k)(ĉ_ki − δ_k)ᵀ + C_ki)
//
// (C_ki: the conditional covariance of the missing coordinates, else 0),
// from which the new mean is μ_k = a_k + δ_k and S_k the scatter about
// it. They are package stats' statistics with the components as classes.
// Full and tied covariances keep a scatter matrix per component
// (Classes): a chunk's rows go to stats.Rows one at a time, each with its
// responsibility, accumulated about the component's mean a_k (rows near
// it keep the subtraction well conditioned) and written straight into
// the layout of the symmetric rank-k update, the means shifted by −a_k at
// the end of the chunk (scratch.endChunk). The other types keep its
// diagonal (Moments): blocks of rows summarised about their own means and
// merged by Chan's formula (Moments.AddColumns). Statistics of disjoint
// rows with the same shifts merge.
type stats struct {
	cov  Covariance
	ll   float64       // Σ_i w_i log p(x_i)
	full *core.Classes // Full, Tied
	diag *core.Moments // Diag, Spherical, Identity
	buf  []float64     // scratch of Scatter.AddColumns
}

func newStats(cov Covariance, k, d int) *stats {
	st := &stats{cov: cov}
	if cov == Full || cov == Tied {
		st.full = core.NewClasses(k, d, false)
		st.buf = make([]float64, blockRows+d)
	} else {
		st.diag = core.NewMoments(k, d)
	}
	return st
}

func (st *stats) reset() {
	st.ll = 0
	if st.full != nil {
		st.full.Reset()
	} else {
		st.diag.Reset()
	}
}

// merge adds the statistics of o, about other rows, to st.
func (st *stats) merge(o *stats) {
	st.ll += o.ll
	if st.full != nil {
		st.full.Merge(o.full)
	} else {
		st.diag.Merge(o.diag)
	}
}

// marshalBinary encodes the statistics of the components (not ll) in
// package stats' encoding.
func (st *stats) marshalBinary() ([]byte, error) {
	if st.full != nil {
		return st.full.MarshalBinary()
	}
	return st.diag.MarshalBinary()
}

// unmarshalBinary reads the statistics that marshalBinary encoded into
// st, checking that they are of k components in d dimensions.
func (st *stats) unmarshalBinary(b []byte, k, d int) error {
	var err error
	var gotK, gotD int
	if st.full != nil {
		err = st.full.UnmarshalBinary(b)
		gotK, gotD = st.full.K(), st.full.D
	} else {
		err = st.diag.UnmarshalBinary(b)
		gotK, gotD = st.diag.K(), st.diag.D
	}
	if err != nil {
		return err
	}
	if gotK != k || gotD != d {
		return fmt.Errorf("statistics of %d components in %d dimensions, want %d in %d", gotK, gotD, k, d)
	}
	return nil
}

// add adds the centred block ct (all D rows of blockRows stride, len(r)
// columns) with responsibilities r to component k, overwriting ct.
func (st *stats) add(k int, ct, r []float64) {
	if st.full != nil {
		st.full.Class[k].AddColumns(ct, blockRows, r, st.buf)
	} else {
		st.diag.AddColumns(k, ct, blockRows, r)
	}
}

// addConditional adds sr·C, the conditional covariance of the missing
// coordinates mis (|mis|×|mis|, or its diagonal for a diagonal type)
// weighted by the block's summed responsibility, to S_k.
func (st *stats) addConditional(k int, mis []int, c []float64, sr float64) {
	switch {
	case st.cov == Identity:
	case st.full != nil:
		st.full.AddConditional(k, mis, c, sr)
	default:
		st.diag.AddConditional(k, mis, c, sr)
	}
}

// weight returns W_k.
func (st *stats) weight(k int) float64 {
	if st.full != nil {
		return st.full.Class[k].W
	}
	return st.diag.ClassWeight[k]
}

// mstep returns the maximum-likelihood parameters given the statistics,
// whose shifts are the means of prev, with the covariances regularised by
// reg (see regularize):
//
//	π_k = W_k / Σ_l W_l
//	μ_k = a_k + δ_k
//	Full:       Σ_k = S_k / W_k
//	Tied:       Σ   = Σ_k S_k / Σ_k W_k
//	Diag:       Σ_k = diag(S_k) / W_k
//	Spherical:  Σ_k = tr(S_k) / (D·W_k) · I
//	Identity:   Σ_k = I
//
// A component with W_k = 0 keeps prev's mean and covariance; the caller
// re-seeds it.
func (st *stats) mstep(prev *model, reg float64, how Regularization) *model {
	k, d := prev.k, prev.d
	m := newModel(prev.cov, k, d)
	total := 0.0
	for c := range k {
		total += st.weight(c)
	}
	var tied []float64
	if st.cov == Tied {
		tied = make([]float64, d*d)
	}
	for c := range k {
		w := st.weight(c)
		m.weights[c] = w / total
		mu, sig := m.mean(c), m.cov1(c)
		copy(mu, prev.mean(c))
		if !(w > 0) {
			copy(sig, prev.cov1(c))
			continue
		}
		switch st.cov {
		case Full, Tied:
			sc := st.full.Class[c]
			for j := range d {
				mu[j] += sc.Mean[j]
			}
			if st.cov == Full {
				// The rank-k updates keep S's lower triangle: Σ's upper
				// one is its mirror.
				sc.Covariance(sig)
				for j := range d {
					for l := range j {
						sig[l*d+j] = sig[j*d+l]
					}
				}
				break
			}
			for j := range d {
				for l := range j + 1 {
					tied[j*d+l] += sc.S[j*d+l]
				}
			}
		case Diag, Spherical:
			tr := 0.0
			for j := range d {
				a := st.diag.At(c, j)
				mu[j] += a.M
				v := a.S / w
				sig[j*d+j] = v
				tr += v
			}
			if st.cov == Spherical {
				for j := range d {
					sig[j*d+j] = tr / float64(d)
				}
			}
		case Identity:
			for j := range d {
				mu[j] += st.diag.At(c, j).M
			}
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
