package stats

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"

	"github.com/gendisc/gendisc/internal/kernel"
)

// Scatter holds the weighted sufficient statistics of a set of vectors x_i
// in R^D with weights w_i > 0:
//
//	N = the number of vectors
//	W = Σ_i w_i
//	M = Σ_i w_i x_i / W                           (0 when W = 0)
//	S = Σ_i w_i (x_i − M)(x_i − M)ᵀ               the scatter matrix
//
// and, when Fourth is set, the central cross-moments of order three and
// four that the Ledoit–Wolf shrinkage needs (e_i = x_i − M):
//
//	M3[j,l] = Σ_i w_i e_ij² e_il
//	M4[j,l] = Σ_i w_i e_ij² e_il²
//
// S/W is the maximum-likelihood covariance. The matrices are D×D, row
// major, both triangles stored.
type Scatter struct {
	D      int
	N      int
	W      float64
	Mean   []float64
	S      []float64
	M3, M4 []float64 // nil unless the fourth moments are kept
}

// NewScatter returns empty statistics of dimension d, with the third and
// fourth moments when fourth is set.
func NewScatter(d int, fourth bool) *Scatter {
	s := &Scatter{D: d, Mean: make([]float64, d), S: make([]float64, d*d)}
	if fourth {
		s.M3, s.M4 = make([]float64, d*d), make([]float64, d*d)
	}
	return s
}

// Covariance writes the maximum-likelihood covariance matrix
//
//	Σ = S/W
//
// to dst (D×D, row major; made when nil), entry by entry, and returns it;
// NaN where W = 0. It is the estimate of a class's (or a component's)
// covariance that gda (before shrinkage and pooling) and mixture (before
// regularisation) start from. The pooled estimates stay theirs: gda pools
// the shrunk class covariances, Σ_k (W_k/W) Σ_k, mixture's tied
// covariance is Σ_k S_k / Σ_k W_k, and the two round differently.
func (s *Scatter) Covariance(dst []float64) []float64 {
	if dst == nil {
		dst = make([]float64, len(s.S))
	}
	for i, v := range s.S {
		dst[i] = v / s.W
	}
	return dst
}

// Fourth reports whether s keeps the third and fourth moments.
func (s *Scatter) Fourth() bool { return s.M4 != nil }

// Clone returns a deep copy of s.
func (s *Scatter) Clone() *Scatter {
	return &Scatter{D: s.D, N: s.N, W: s.W, Mean: slices.Clone(s.Mean), S: slices.Clone(s.S),
		M3: slices.Clone(s.M3), M4: slices.Clone(s.M4)}
}

// Reset empties s, keeping its dimension and storage.
func (s *Scatter) Reset() {
	s.N, s.W = 0, 0
	clear(s.Mean)
	clear(s.S)
	clear(s.M3)
	clear(s.M4)
}

// Merge adds the statistics of b, about vectors disjoint from those of s,
// to s:
//
//	W = Wa + Wb,  δ = Mb − Ma,  M = Ma + δ·Wb/W
//	S = Sa + Sb + (Wa·Wb/W)·δδᵀ
//
// The third and fourth moments are merged by shifting each side's moments
// to the common mean (deviations e + t with t_a = −δ·Wb/W, t_b = δ·Wa/W)
// and adding:
//
//	M3'[j,l] = M3[j,l] + t_l S_jj + 2 t_j S_jl + W t_j² t_l
//	M4'[j,l] = M4[j,l] + 2 t_l M3[j,l] + 2 t_j M3[l,j]
//	           + t_l² S_jj + t_j² S_ll + 4 t_j t_l S_jl + W t_j² t_l²
//
// An empty side (W = 0) changes nothing. It panics if the dimensions
// differ or only one side keeps fourth moments.
func (s *Scatter) Merge(b *Scatter) {
	if s.D != b.D || s.Fourth() != b.Fourth() {
		panic(fmt.Sprintf("stats: Merge of statistics of dimension %d (fourth %v) into %d (fourth %v)",
			b.D, b.Fourth(), s.D, s.Fourth()))
	}
	if b.W == 0 {
		return
	}
	if s.W == 0 {
		s.N, s.W = b.N, b.W
		copy(s.Mean, b.Mean)
		copy(s.S, b.S)
		copy(s.M3, b.M3)
		copy(s.M4, b.M4)
		return
	}
	w := s.W + b.W
	fa, fb := b.W/w, s.W/w
	if s.Fourth() {
		// t_a = −δ·fa and t_b = δ·fb, with δ = Mb − Ma; the mean is
		// updated last, so δ is read from the means as they were.
		t := make([]float64, s.D)
		for j := range t {
			t[j] = -(b.Mean[j] - s.Mean[j]) * fa
		}
		s.shift(t)
		for j := range t {
			t[j] = (b.Mean[j] - s.Mean[j]) * fb
		}
		s.addShifted(b, t)
	} else {
		c := s.W * fa // Wa·Wb/W
		d := s.D
		for j := range d {
			dj := (b.Mean[j] - s.Mean[j]) * c
			row, brow := s.S[j*d:(j+1)*d], b.S[j*d:(j+1)*d]
			for l := range d {
				row[l] += brow[l] + dj*(b.Mean[l]-s.Mean[l])
			}
		}
	}
	for j := range s.Mean {
		s.Mean[j] += (b.Mean[j] - s.Mean[j]) * fa
	}
	s.N += b.N
	s.W = w
}

// shift replaces the moments of s, in place, by those of the deviations
// e + t (the formulas of Merge with the fourth moments first, since each
// order reads the lower orders as they were). The mean is not changed.
func (s *Scatter) shift(t []float64) {
	d := s.D
	for j := range d {
		for l := range d {
			s.M4[j*d+l] += shifted4(s, t, j, l)
		}
	}
	for j := range d {
		for l := range d {
			s.M3[j*d+l] += shifted3(s, t, j, l)
		}
	}
	for j := range d {
		for l := range d {
			s.S[j*d+l] += s.W * t[j] * t[l]
		}
	}
}

// addShifted adds the moments of the deviations e + t of b to those of s.
func (s *Scatter) addShifted(b *Scatter, t []float64) {
	d := s.D
	for j := range d {
		for l := range d {
			i := j*d + l
			s.M4[i] += b.M4[i] + shifted4(b, t, j, l)
			s.M3[i] += b.M3[i] + shifted3(b, t, j, l)
			s.S[i] += b.S[i] + b.W*t[j]*t[l]
		}
	}
}

// shifted3 is the change of M3[j,l] of s when its deviations move by t.
func shifted3(s *Scatter, t []float64, j, l int) float64 {
	d := s.D
	return t[l]*s.S[j*d+j] + 2*t[j]*s.S[j*d+l] + s.W*t[j]*t[j]*t[l]
}

// shifted4 is the change of M4[j,l] of s when its deviations move by t.
func shifted4(s *Scatter, t []float64, j, l int) float64 {
	d := s.D
	return 2*t[l]*s.M3[j*d+l] + 2*t[j]*s.M3[l*d+j] +
		t[l]*t[l]*s.S[j*d+j] + t[j]*t[j]*s.S[l*d+l] + 4*t[j]*t[l]*s.S[j*d+l] +
		s.W*t[j]*t[j]*t[l]*t[l]
}

// LedoitWolf returns the Ledoit–Wolf shrinkage intensity of the vectors of
// s after standardisation, as scikit-learn's LinearDiscriminantAnalysis
// computes it for shrinkage='auto' (ledoit_wolf on StandardScaler output).
// With σ_j² = S_jj/W (σ_j = 1 where it is below 10·ε, as StandardScaler
// does), z_ij = e_ij/σ_j, R = Σ_i w_i z_i z_iᵀ / W and μ = tr(R)/D:
//
//	β̃ = (Σ_i w_i ‖z_i‖⁴ / W − ‖R‖²_F) / (D·W)
//	δ = ‖R − μI‖²_F / D
//	r = min(β̃, δ) / δ            (0 when β̃ = 0)
//
// where Σ_i w_i ‖z_i‖⁴ = Σ_{j,l} M4[j,l] / (σ_j² σ_l²). It panics if s has
// no fourth moments; it returns 0 when W = 0.
func (s *Scatter) LedoitWolf() float64 {
	if !s.Fourth() {
		panic("stats: LedoitWolf needs the fourth moments")
	}
	if s.W == 0 {
		return 0
	}
	d := s.D
	v := make([]float64, d) // σ_j²
	for j := range d {
		v[j] = s.S[j*d+j] / s.W
		if math.Sqrt(v[j]) < 10*eps {
			v[j] = 1
		}
	}
	var norm4, frob, trace float64
	for j := range d {
		for l := range d {
			norm4 += s.M4[j*d+l] / (v[j] * v[l])
			r := s.S[j*d+l] / s.W / math.Sqrt(v[j]*v[l])
			frob += r * r
		}
		trace += s.S[j*d+j] / s.W / v[j]
	}
	mu := trace / float64(d)
	beta := (norm4/s.W - frob) / (float64(d) * s.W)
	delta := (frob - 2*mu*trace + float64(d)*mu*mu) / float64(d)
	beta = min(beta, delta)
	if beta == 0 {
		return 0
	}
	return beta / delta
}

// eps is the machine epsilon of float64 (numpy's finfo(float64).eps).
const eps = 0x1p-52

// AddColumns adds to s the n = len(w) vectors held as the columns of x,
// feature-major: coordinate j of vector i at x[j·stride + i], with
// weights w_i ≥ 0 and no missing coordinate. With the block's weight, mean
// and scatter about its own mean computed by a rank-n update of its
// centred columns scaled by √w_i,
//
//	Wb = Σ_i w_i,  Mb = Σ_i w_i x_i / Wb,  E = [√w_i (x_i − Mb)],
//	Sb = E Eᵀ                                             (kernel.Syrk)
//
// the block is merged into s by Chan's formula (see Merge), Sb added
// straight into the scatter matrix of s. Vectors of weight 0 add nothing;
// N counts those of positive weight. x is overwritten by E, and buf (at
// least n + D values) is scratch, so that AddColumns does not allocate.
// It panics if s keeps the fourth moments, or if x or buf is too short.
func (s *Scatter) AddColumns(x []float64, stride int, w, buf []float64) {
	n, d := len(w), s.D
	if s.Fourth() {
		panic("stats: AddColumns of statistics with fourth moments")
	}
	if n == 0 {
		return
	}
	if len(buf) < n+d || (d > 0 && (stride < n || len(x) < (d-1)*stride+n)) {
		panic(fmt.Sprintf("stats: AddColumns of %d vectors of dimension %d in %d values of stride %d, %d scratch",
			n, d, len(x), stride, len(buf)))
	}
	sw, delta := buf[:n], buf[n:n+d]
	wb, nb := 0.0, 0
	for i, v := range w {
		wb += v
		sw[i] = math.Sqrt(v)
		if v > 0 {
			nb++
		}
	}
	if wb == 0 {
		return
	}
	for j := range d {
		col := x[j*stride : j*stride+n]
		m := floats.Dot(w, col) / wb
		delta[j] = m - s.Mean[j]
		sw := sw[:len(col)]
		for i, v := range col {
			col[i] = (v - m) * sw[i]
		}
	}
	kernel.Syrk(d, n, x, stride, s.S, d)
	w2 := s.W + wb
	fa := wb / w2 // Wb/W
	c := s.W * fa // Wa·Wb/W
	for j := range d {
		row, dj := s.S[j*d:(j+1)*d], delta[j]*c
		for l := j; l < d; l++ {
			v := row[l] + dj*delta[l]
			row[l], s.S[l*d+j] = v, v
		}
		s.Mean[j] += delta[j] * fa
	}
	s.N += nb
	s.W = w2
}
