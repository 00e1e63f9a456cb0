package stats

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/floats"

	"github.com/gendisc/gendisc/internal/parallel"
)

// Moment holds the weighted sufficient statistics of one set of observations
// x_i with weights w_i:
//
//	W = Σ_i w_i
//	M = Σ_i w_i x_i / W        (0 when W = 0)
//	S = Σ_i w_i (x_i − M)²     (0 when W = 0)
//
// so that S/W is the maximum-likelihood variance.
type Moment struct{ W, M, S float64 }

// Merge returns the statistics of the union of the observations of a and b
// by Chan, Golub and LeVeque's pairwise formula:
//
//	W = Wa + Wb
//	δ = Mb − Ma
//	M = Ma + δ·Wb/W
//	S = Sa + Sb + δ²·Wa·Wb/W
//
// An empty side (W = 0) returns the other side unchanged.
func (a Moment) Merge(b Moment) Moment {
	if b.W == 0 {
		return a
	}
	if a.W == 0 {
		return b
	}
	w := a.W + b.W
	d := b.M - a.M
	return Moment{W: w, M: a.M + d*(b.W/w), S: a.S + b.S + d*d*(a.W*b.W/w)}
}

// Var returns the maximum-likelihood variance S/W, NaN when W = 0.
func (a Moment) Var() float64 { return a.S / a.W }

// Moments holds the sufficient statistics of diagonal Gaussians per class:
// for every class k < K and feature j < D, the Moment of feature j over the
// rows of class k where it is observed (not NaN), stored at index k·D + j of
// W, M and S, and the total weight of the rows of each class, observed
// cells or not (the counts behind the class priors).
//
// Statistics of disjoint sets of rows merge exactly (up to rounding), so
// they can be accumulated per chunk, per core, or per file and combined.
type Moments struct {
	// D is the number of features.
	D int
	// ClassWeight[k] = Σ w_i over the rows i with label k.
	ClassWeight []float64
	// W, M and S hold the Moment of class k and feature j at k·D + j.
	W, M, S []float64
}

// NewMoments returns empty statistics for k classes and d features.
func NewMoments(k, d int) *Moments {
	return &Moments{D: d, ClassWeight: make([]float64, k),
		W: make([]float64, k*d), M: make([]float64, k*d), S: make([]float64, k*d)}
}

// K is the number of classes.
func (m *Moments) K() int { return len(m.ClassWeight) }

// At returns the Moment of class k and feature j.
func (m *Moments) At(k, j int) Moment {
	i := k*m.D + j
	return Moment{m.W[i], m.M[i], m.S[i]}
}

func (m *Moments) set(k, j int, a Moment) {
	i := k*m.D + j
	m.W[i], m.M[i], m.S[i] = a.W, a.M, a.S
}

// Feature returns the Moment of feature j over the rows of every class,
// merged in class order.
func (m *Moments) Feature(j int) Moment {
	var a Moment
	for k := range m.K() {
		a = a.Merge(m.At(k, j))
	}
	return a
}

// Clone returns a deep copy of m.
func (m *Moments) Clone() *Moments {
	return &Moments{D: m.D, ClassWeight: slices.Clone(m.ClassWeight),
		W: slices.Clone(m.W), M: slices.Clone(m.M), S: slices.Clone(m.S)}
}

// Grow appends empty classes so that m has k classes; the statistics of the
// existing classes are unchanged. It panics if k < m.K().
func (m *Moments) Grow(k int) {
	if k < m.K() {
		panic(fmt.Sprintf("stats: Grow to %d classes, have %d", k, m.K()))
	}
	add := k - m.K()
	m.ClassWeight = append(m.ClassWeight, make([]float64, add)...)
	m.W = append(m.W, make([]float64, add*m.D)...)
	m.M = append(m.M, make([]float64, add*m.D)...)
	m.S = append(m.S, make([]float64, add*m.D)...)
}

// Remap renumbers and grows the classes of m to k classes: the statistics
// of class l move to class classMap[l], and the classes that no l maps to
// are empty. classMap is the class map of a data.Remap (its Target) from
// the schema of m's rows to one that extends it, so that statistics of
// shards whose classes came in different orders can be merged; nil is the
// identity (Grow). It panics if classMap has not one entry per class, or
// maps two classes to one or outside [0, k).
func (m *Moments) Remap(classMap []int, k int) {
	if classMap == nil {
		m.Grow(k)
		return
	}
	checkClassMap(classMap, m.K(), k)
	o := NewMoments(k, m.D)
	for l, t := range classMap {
		o.ClassWeight[t] = m.ClassWeight[l]
		copy(o.W[t*m.D:(t+1)*m.D], m.W[l*m.D:(l+1)*m.D])
		copy(o.M[t*m.D:(t+1)*m.D], m.M[l*m.D:(l+1)*m.D])
		copy(o.S[t*m.D:(t+1)*m.D], m.S[l*m.D:(l+1)*m.D])
	}
	*m = *o
}

// MergeRemap adds the statistics of o, about rows disjoint from those of
// m, whose class l is class classMap[l] of m, to m: o's classes moved by
// Remap to m.K() classes, then Merge. classMap is the class map (Target)
// of the data.Remap from the schema of o's rows to m's, which extends it,
// so that shards that saw the classes in different orders, or classes
// the others did not, merge; nil is the identity. o is unchanged. It
// panics as Remap and Merge do: m must have at least o.K() classes.
func (m *Moments) MergeRemap(o *Moments, classMap []int) {
	if classMap != nil || o.K() != m.K() {
		o = o.Clone()
		o.Remap(classMap, m.K())
	}
	m.Merge(o)
}

// Reset empties the statistics, keeping their shape and storage.
func (m *Moments) Reset() {
	clear(m.ClassWeight)
	clear(m.W)
	clear(m.M)
	clear(m.S)
}

// AddColumns adds to class k the n = len(w) rows held as the columns of x,
// feature-major: feature j of row i at x[j·stride + i], with weights
// w_i ≥ 0 and no missing cell. The block's weight, means and centred sums
// of squares,
//
//	Wb = Σ_i w_i,  Mb_j = Σ_i w_i x_ij / Wb,  Sb_j = Σ_i w_i (x_ij − Mb_j)²,
//
// are merged into those of class k by the formula of Moment.Merge, and
// Wb added to its class weight. Unlike Merge, the sums of squares of an
// empty class are kept (those of AddConditional, which may come first).
// It panics if k is out of range or x is too short.
func (m *Moments) AddColumns(k int, x []float64, stride int, w []float64) {
	n, d := len(w), m.D
	if k < 0 || k >= m.K() || (d > 0 && (stride < n || len(x) < (d-1)*stride+n)) {
		panic(fmt.Sprintf("stats: AddColumns to class %d of %d, %d rows of %d features in %d values of stride %d",
			k, m.K(), n, d, len(x), stride))
	}
	wb := floats.Sum(w)
	if wb == 0 {
		return
	}
	m.ClassWeight[k] += wb
	for j := range d {
		col := x[j*stride : j*stride+n]
		mean := floats.Dot(w, col) / wb
		a := m.At(k, j)
		wa := a.W + wb
		delta := mean - a.M
		m.set(k, j, Moment{W: wa, M: a.M + delta*(wb/wa), S: a.S + weightedSquares(col, w, mean) + delta*delta*(a.W*wb/wa)})
	}
}

// weightedSquares returns Σ_i w_i (x_i − mu)², with four sums in flight.
func weightedSquares(x, w []float64, mu float64) float64 {
	w = w[:len(x)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		e0, e1, e2, e3 := x[i]-mu, x[i+1]-mu, x[i+2]-mu, x[i+3]-mu
		s0 += w[i] * e0 * e0
		s1 += w[i+1] * e1 * e1
		s2 += w[i+2] * e2 * e2
		s3 += w[i+3] * e3 * e3
	}
	for ; i < len(x); i++ {
		e := x[i] - mu
		s0 += w[i] * e * e
	}
	return (s0 + s1) + (s2 + s3)
}

// AddConditional adds w·C to the centred sums of squares of class k at the
// features idx: S[k, idx[a]] += w·C[a]. With AddColumns of a row whose
// missing cells were replaced by their conditional expectations, it
// accumulates the expected statistics of the row given its observed cells,
// C being the conditional variances of the missing cells (the E-step of
// EM with a diagonal covariance). The weights and means are unchanged.
func (m *Moments) AddConditional(k int, idx []int, cond []float64, w float64) {
	if len(cond) < len(idx) {
		panic(fmt.Sprintf("stats: AddConditional of %d values for %d indices", len(cond), len(idx)))
	}
	s := m.S[k*m.D : (k+1)*m.D]
	for a, j := range idx {
		s[j] += w * cond[a]
	}
}

// Merge adds the statistics of o, about rows disjoint from those of m, to m
// by Moment.Merge for every class and feature. It panics if the shapes
// differ.
func (m *Moments) Merge(o *Moments) {
	if m.D != o.D || m.K() != o.K() {
		panic(fmt.Sprintf("stats: Merge of %d×%d statistics into %d×%d", o.K(), o.D, m.K(), m.D))
	}
	for k := range m.K() {
		m.ClassWeight[k] += o.ClassWeight[k]
		for j := range m.D {
			m.set(k, j, m.At(k, j).Merge(o.At(k, j)))
		}
	}
}

// Add accumulates rows into m. x holds the rows, row-major with m.D
// columns, NaN for a missing cell, which is left out of that feature's
// statistics. y[i] is the class of row i: NaN (the row is skipped) or an
// integer in [0, K); nil y puts every row in class 0 of statistics of one
// class (the number of rows is then len(w), or len(x)/D when w is nil). w
// holds the row weights, nil meaning 1 each; rows of weight 0 are skipped.
// The caller validates labels and weights: Add panics on an out-of-range
// label, on nil y with K ≠ 1 or with nil w and D = 0, and trusts that
// weights are finite and non-negative.
//
// The rows are cut into at most 16 segments processed in parallel and
// merged in order, so the result depends on the rows only, not on the
// number of cores. Within a segment, each block of rows small enough to
// stay in cache is summarised in two passes (weighted sums and means, then
// centred squares about the block's means) and merged into the segment's
// statistics by Moment.Merge.
func (m *Moments) Add(x, y, w []float64) {
	n := len(y)
	if y == nil {
		switch {
		case m.K() != 1:
			panic(fmt.Sprintf("stats: Add without labels to statistics of %d classes", m.K()))
		case w != nil:
			n = len(w)
		case m.D == 0:
			panic("stats: Add without labels, weights or features")
		default:
			n = len(x) / m.D
		}
	}
	if len(x) != n*m.D || (w != nil && len(w) != n) {
		panic(fmt.Sprintf("stats: Add of %d cells, %d labels, %d weights with %d features", len(x), len(y), len(w), m.D))
	}
	if n == 0 {
		return
	}
	nseg := segments(n, m.K())
	seg := make([]*Moments, nseg)
	parallel.For(nseg, 1, func(_, lo, hi int) {
		s := newScratch(m.K(), m.D)
		for g := lo; g < hi; g++ {
			seg[g] = NewMoments(m.K(), m.D)
			a, b := g*n/nseg, (g+1)*n/nseg
			s.addRows(seg[g], x[a*m.D:b*m.D], sub(y, a, b), sub(w, a, b), b-a)
		}
	})
	for _, s := range seg {
		m.Merge(s)
	}
}

// label returns the class of row i and whether it has one: y[i] (none
// when NaN), or 0 for nil y.
func label(y []float64, i int) (int, bool) {
	if y == nil {
		return 0, true
	}
	yi := y[i]
	return int(yi), yi == yi
}

// blockCells is the number of cells of a block of rows summarised in two
// passes: 1 MiB of float64, which stays in the L2 cache between the passes.
var blockCells = 1 << 17 // a variable so that tests can use small blocks

// scratch holds the per-block sums of one goroutine.
type scratch struct {
	d    int
	cw   []float64 // class weights of the block
	w    []float64 // per class and feature: weight of the observed cells
	sum  []float64 // per class and feature: Σ w x, then Σ w (x − mean)²
	mean []float64 // per class and feature: the block's means
}

func newScratch(k, d int) *scratch {
	return &scratch{d: d, cw: make([]float64, k),
		w: make([]float64, k*d), sum: make([]float64, k*d), mean: make([]float64, k*d)}
}

// addRows accumulates the n rows of x into acc, block by block.
func (s *scratch) addRows(acc *Moments, x, y, w []float64, n int) {
	rows := max(1, blockCells/max(1, s.d))
	for lo := 0; lo < n; lo += rows {
		hi := min(n, lo+rows)
		s.block(acc, x[lo*s.d:hi*s.d], sub(y, lo, hi), sub(w, lo, hi), hi-lo)
	}
}

// block summarises one block of rows and merges it into acc. The first
// attempt assumes no missing cell; a NaN shows up in the block's sums, and
// then the block is summarised again with a test per cell.
func (s *scratch) block(acc *Moments, x, y, w []float64, n int) {
	clear(s.cw)
	clear(s.sum)
	d := s.d
	for i := range n {
		k, ok := label(y, i)
		wi := weight(w, i)
		if !ok || wi == 0 {
			continue
		}
		s.cw[k] += wi
		addScaled(s.sum[k*d:(k+1)*d], x[i*d:(i+1)*d], wi)
	}
	observed := true
	for k, cw := range s.cw {
		for j := k * d; j < (k+1)*d; j++ {
			s.w[j] = cw
			if cw > 0 {
				s.mean[j] = s.sum[j] / cw
				observed = observed && s.mean[j] == s.mean[j]
			}
		}
	}
	if !observed {
		s.sumsObserved(x, y, w, n)
	}
	clear(s.sum)
	for i := range n {
		k, ok := label(y, i)
		wi := weight(w, i)
		if !ok || wi == 0 {
			continue
		}
		if observed {
			addSquares(s.sum[k*d:(k+1)*d], x[i*d:(i+1)*d], s.mean[k*d:(k+1)*d], wi)
		} else {
			addSquaresObserved(s.sum[k*d:(k+1)*d], x[i*d:(i+1)*d], s.mean[k*d:(k+1)*d], wi)
		}
	}
	for k, cw := range s.cw {
		if cw == 0 {
			continue
		}
		acc.ClassWeight[k] += cw
		for j := range d {
			i := k*d + j
			acc.set(k, j, acc.At(k, j).Merge(Moment{s.w[i], s.mean[i], s.sum[i]}))
		}
	}
}

// sumsObserved recomputes the block's weights and means per class and
// feature over the observed cells only.
func (s *scratch) sumsObserved(x, y, w []float64, n int) {
	clear(s.w)
	clear(s.sum)
	d := s.d
	for i := range n {
		k, ok := label(y, i)
		wi := weight(w, i)
		if !ok || wi == 0 {
			continue
		}
		sw, ss := s.w[k*d:(k+1)*d], s.sum[k*d:(k+1)*d]
		for j, v := range x[i*d : (i+1)*d] {
			if v == v {
				sw[j] += wi
				ss[j] += wi * v
			}
		}
	}
	for j, sw := range s.w {
		s.mean[j] = 0
		if sw > 0 {
			s.mean[j] = s.sum[j] / sw
		}
	}
}

// addScaled adds a·x to dst.
func addScaled(dst, x []float64, a float64) {
	dst = dst[:len(x)]
	j := 0
	for ; j+4 <= len(x); j += 4 {
		xs, ds := x[j:j+4:j+4], dst[j:j+4:j+4]
		ds[0] += a * xs[0]
		ds[1] += a * xs[1]
		ds[2] += a * xs[2]
		ds[3] += a * xs[3]
	}
	for ; j < len(x); j++ {
		dst[j] += a * x[j]
	}
}

// addSquares adds a·(x − mu)² to dst.
func addSquares(dst, x, mu []float64, a float64) {
	dst, mu = dst[:len(x)], mu[:len(x)]
	j := 0
	for ; j+4 <= len(x); j += 4 {
		xs, ds, ms := x[j:j+4:j+4], dst[j:j+4:j+4], mu[j:j+4:j+4]
		e0, e1, e2, e3 := xs[0]-ms[0], xs[1]-ms[1], xs[2]-ms[2], xs[3]-ms[3]
		ds[0] += a * e0 * e0
		ds[1] += a * e1 * e1
		ds[2] += a * e2 * e2
		ds[3] += a * e3 * e3
	}
	for ; j < len(x); j++ {
		e := x[j] - mu[j]
		dst[j] += a * e * e
	}
}

// addSquaresObserved adds a·(x − mu)² to dst where x is not NaN.
func addSquaresObserved(dst, x, mu []float64, a float64) {
	dst, mu = dst[:len(x)], mu[:len(x)]
	for j, v := range x {
		if v == v {
			e := v - mu[j]
			dst[j] += a * e * e
		}
	}
}
