package stats

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/gendisc/gendisc/internal/kernel"
	"github.com/gendisc/gendisc/internal/mathx"
	"github.com/gendisc/gendisc/internal/parallel"
)

// Classes holds one Scatter per class, all of dimension D.
type Classes struct {
	D     int
	Class []*Scatter
}

// NewClasses returns empty statistics for k classes and d features, with the
// third and fourth moments when fourth is set.
func NewClasses(k, d int, fourth bool) *Classes {
	c := &Classes{D: d, Class: make([]*Scatter, k)}
	for i := range c.Class {
		c.Class[i] = NewScatter(d, fourth)
	}
	return c
}

// K is the number of classes.
func (c *Classes) K() int { return len(c.Class) }

// Fourth reports whether the statistics keep the fourth moments.
func (c *Classes) Fourth() bool { return c.K() > 0 && c.Class[0].Fourth() }

// Clone returns a deep copy of c.
func (c *Classes) Clone() *Classes {
	o := &Classes{D: c.D, Class: make([]*Scatter, c.K())}
	for k, s := range c.Class {
		o.Class[k] = s.Clone()
	}
	return o
}

// Grow appends empty classes so that c has k classes. It panics if
// k < c.K().
func (c *Classes) Grow(k int) {
	if k < c.K() {
		panic(fmt.Sprintf("stats: Grow to %d classes, have %d", k, c.K()))
	}
	fourth := c.Fourth()
	for c.K() < k {
		c.Class = append(c.Class, NewScatter(c.D, fourth))
	}
}

// Remap renumbers and grows the classes of c to k classes, as
// Moments.Remap: the statistics of class l move to class classMap[l]
// (classMap is a data.Remap's Target; nil is the identity, Grow). It
// panics if classMap has not one entry per class, or maps two classes to
// one or outside [0, k).
func (c *Classes) Remap(classMap []int, k int) {
	if classMap == nil {
		c.Grow(k)
		return
	}
	checkClassMap(classMap, c.K(), k)
	fourth := c.Fourth()
	class := make([]*Scatter, k)
	for l, t := range classMap {
		class[t] = c.Class[l]
	}
	for t, s := range class {
		if s == nil {
			class[t] = NewScatter(c.D, fourth)
		}
	}
	c.Class = class
}

// MergeRemap adds the statistics of o, about rows disjoint from those of
// c, whose class l is class classMap[l] of c, to c, as
// Moments.MergeRemap: o's classes moved by Remap to c.K() classes (o's
// Scatters themselves, not copies), then Merge. nil classMap is the
// identity. o is unchanged. It panics as Remap and Merge do.
func (c *Classes) MergeRemap(o *Classes, classMap []int) {
	if o.K() == 0 {
		checkClassMap(classMap, 0, c.K())
		return
	}
	if classMap != nil || o.K() != c.K() {
		o = &Classes{D: o.D, Class: slices.Clone(o.Class)}
		o.Remap(classMap, c.K())
	}
	c.Merge(o)
}

// Reset empties the statistics of every class, keeping their shape and
// storage.
func (c *Classes) Reset() {
	for _, s := range c.Class {
		s.Reset()
	}
}

// Merge adds the statistics of o, about rows disjoint from those of c, to
// c, class by class (Scatter.Merge). It panics if the shapes differ.
func (c *Classes) Merge(o *Classes) {
	if c.D != o.D || c.K() != o.K() {
		panic(fmt.Sprintf("stats: Merge of %d×%d statistics into %d×%d", o.K(), o.D, c.K(), c.D))
	}
	for k, s := range c.Class {
		s.Merge(o.Class[k])
	}
}

// Total returns the statistics of all rows, whatever their class: the
// classes merged in order.
func (c *Classes) Total() *Scatter {
	t := NewScatter(c.D, c.Fourth())
	for _, s := range c.Class {
		t.Merge(s)
	}
	return t
}

// Add accumulates rows into c. x holds the rows, row-major with c.D
// columns; y[i] is the class of row i: NaN (the row is skipped) or an
// integer in [0, K); w holds the row weights, nil meaning 1 each, and rows
// of weight 0 are skipped. A row with a NaN cell is not accumulated: Add
// returns the indices of those rows (labelled, of positive weight), in
// increasing order. An infinite cell, in any row, skipped or not, is an
// error of the data: Add then returns the index in x of the first one, in
// row-major order, as inf, and leaves c unchanged; inf is −1 otherwise.
// The caller validates labels and weights: Add panics on an out-of-range
// label and trusts that weights are finite and non-negative.
//
// The rows are cut into at most 16 segments, which the cores take one at a
// time as they finish the one before (a core slowed by other work takes
// fewer), and whose statistics are merged in order, so the result depends
// on the rows only, not on the number of cores or who took what. Within a segment the rows of each class are gathered
// into blocks, in one pass that also finds the missing and infinite cells
// (a segment stops at its first infinite cell): without the fourth
// moments each row is written centred on a provisional origin of its
// class and scaled by √w, in the layout of kernel.SyrkPacked (by
// kernel.SyrkRow), and a full block is added to the class's scatter by
// one SyrkPacked (see blocks); with them a full block is centred at its
// own weighted mean, summarised by rank-k updates and merged into the
// segment's statistics (Scatter.Merge).
func (c *Classes) Add(x, y, w []float64) (incomplete []int, inf int) {
	n := len(y)
	if len(x) != n*c.D || (w != nil && len(w) != n) {
		panic(fmt.Sprintf("stats: Add of %d cells, %d labels, %d weights with %d features", len(x), n, len(w), c.D))
	}
	if n == 0 {
		return nil, -1
	}
	nseg := segments(n, c.K())
	seg := make([]*Classes, nseg)
	skipped := make([][]int, nseg)
	infs := make([]int, nseg) // per segment, its first infinite cell or −1
	var next atomic.Int32     // the next segment to take
	parallel.For(min(nseg, parallel.Workers()), 1, func(_, _, _ int) {
		b := getBlocks(c.K(), c.D, c.Fourth())
		for g := int(next.Add(1)) - 1; g < nseg; g = int(next.Add(1)) - 1 {
			seg[g] = getClasses(c.K(), c.D, c.Fourth())
			a, e := g*n/nseg, (g+1)*n/nseg
			skipped[g], infs[g] = b.addRows(seg[g], x, y, w, a, e)
		}
		blocksPool.Put(b)
	})
	inf = -1
	for _, i := range infs {
		if i >= 0 {
			inf = i
			break
		}
	}
	for g, s := range seg {
		if inf < 0 {
			c.Merge(s)
			incomplete = append(incomplete, skipped[g]...)
		}
		classesPool.Put(s)
	}
	return incomplete, inf
}

// blocksPool and classesPool keep the row buffers and the per-segment
// statistics of Add from one call to the next: allocated afresh (about
// 1 MB a goroutine and 80 KB a class and segment at 100 features), their
// first writes cost page faults, a tenth of a fit's time.
var blocksPool, classesPool sync.Pool

// getBlocks returns row buffers for k classes of d features from
// blocksPool, or new ones.
func getBlocks(k, d int, fourth bool) *blocks {
	if b, ok := blocksPool.Get().(*blocks); ok && b.k == k && b.d == d && (b.block != nil) == fourth {
		return b
	}
	return newBlocks(k, d, fourth)
}

// getClasses returns empty statistics from classesPool, or new ones.
func getClasses(k, d int, fourth bool) *Classes {
	if c, ok := classesPool.Get().(*Classes); ok && c.K() == k && c.D == d && c.Fourth() == fourth {
		c.Reset()
		return c
	}
	return NewClasses(k, d, fourth)
}

// AddConditional adds w·C to the scatter matrix of class k at the rows and
// columns idx: S[idx[a], idx[b]] += w·C[a·m + b], m = len(idx). With
// Add of a row whose missing cells were replaced by their conditional
// expectations, it accumulates the expected statistics of the row given its
// observed cells, C being the conditional covariance of the missing cells
// (the E-step of EM). The mean, weight and higher moments are unchanged.
func (c *Classes) AddConditional(k int, idx []int, cond []float64, w float64) {
	m := len(idx)
	if len(cond) != m*m {
		panic(fmt.Sprintf("stats: AddConditional of %d values for %d indices", len(cond), m))
	}
	s, d := c.Class[k].S, c.D
	for a, ia := range idx {
		for b, ib := range idx {
			s[ia*d+ib] += w * cond[a*m+b]
		}
	}
}

// blockBytes bounds the memory of the per-class row buffers of one
// goroutine: half of a core's L2 (1 MB on Zen 5), so that the buffers, into
// which addRows writes each row, and kernel.Syrk's packed panel stay in L2
// (with 2 MB, blocks of 256 rows of 100 features in 5 classes, an Add took
// 1.4 times as long).
const blockBytes = 512 << 10

// blocks gathers the rows of a segment per class into buffers of cap rows.
// A buffer holds its rows in groups of g features (feature j = g·a + t of
// its r-th row at a·gs + r·g + t, gs = g·cap): without the fourth moments
// g is kernel.SyrkGroup, the layout kernel.SyrkPacked reads, so that a row
// is written in runs of 16 contiguous values and its block's product needs
// no packing; with them g is 1 (feature-major: feature j of row r at
// j·cap + r), the layout of the products of flushFourth.
//
// Without the fourth moments each class of a segment is accumulated about
// a provisional origin o, its first complete row in the segment, then
// (centre) the weighted mean of its first block: the buffer holds the
// rows of A, d+1 values a row, a_i = (√w_i·(x_i − o), √w_i), and one
// SyrkPacked per block adds A Aᵀ to the class's accumulator C of order
// d+1, without a merge per block, so that until finish
//
//	C = [ S  T ],  S = Σ w (x − o)(x − o)ᵀ,  T = Σ w (x − o)
//	    [ Tᵀ · ]
//
// (W = Σ w is summed apart, exactly); finish turns them into the mean and
// the scatter about it:
//
//	M = o + T/W,  S ← S − T Tᵀ/W
//
// The origin being the mean of a block of the class, T is small and the
// subtraction loses next to nothing.
type blocks struct {
	k, d, cap int
	g, gs     int         // features per group, values between groups
	buf       [][]float64 // per class, the buffered rows
	wt        [][]float64 // per class, the weights of the buffered rows
	fill      []int       // per class, the number of buffered rows
	have      []bool      // per class, whether the segment has a row of it
	centred   []bool      // per class, whether its origin is its first block's mean
	origin    [][]float64 // per class, o (zero with the fourth moments)
	acc       [][]float64 // per class, C, (d+1)×(d+1) (upper triangle)
	mean      []float64   // the mean of a first block (centre)
	sw        []float64   // √w of the rows of the block being flushed
	// With the fourth moments:
	sq    []float64 // d × cap: √w·e², for the fourth moments
	block *Scatter  // the statistics of one block
}

func newBlocks(k, d int, fourth bool) *blocks {
	c := min(256, max(16, blockBytes/(8*max(1, k*d))))
	g, rows := kernel.SyrkGroup, d+1 // the features and √w
	if fourth {
		g, rows = 1, d
	}
	groups := (rows + g - 1) / g
	b := &blocks{k: k, d: d, cap: c, g: g, gs: g * c, buf: make([][]float64, k), wt: make([][]float64, k),
		fill: make([]int, k), have: make([]bool, k), centred: make([]bool, k), origin: make([][]float64, k),
		acc: make([][]float64, k), mean: make([]float64, groups*g), sw: make([]float64, c)}
	for i := range b.buf {
		b.buf[i] = make([]float64, groups*g*c)
		b.wt[i] = make([]float64, c)
		b.origin[i] = make([]float64, groups*g)
		if !fourth {
			b.acc[i] = make([]float64, rows*rows)
		}
	}
	if fourth {
		b.sq, b.block = make([]float64, d*c), NewScatter(d, fourth)
	}
	return b
}

// addRows accumulates rows [lo, hi) into acc, whose classes must be empty,
// and returns the labelled rows of positive weight with a missing cell and
// −1, or, at the first infinite cell of the rows, nil and the cell's index
// in x (acc is then to be dropped).
func (b *blocks) addRows(acc *Classes, x, y, w []float64, lo, hi int) (incomplete []int, inf int) {
	d, fourth := b.d, b.block != nil
	for i := lo; i < hi; i++ {
		row := x[i*d : (i+1)*d]
		yi, wi := y[i], weight(w, i)
		if yi != yi || wi == 0 {
			if j := firstInf(row); j >= 0 {
				return nil, b.abandon(i*d + j)
			}
			continue
		}
		k := int(yi)
		if k < 0 || k >= b.k {
			panic(fmt.Sprintf("stats: label %v out of range [0, %d)", yi, b.k))
		}
		if !b.have[k] {
			if j := firstInf(row); j >= 0 {
				return nil, b.abandon(i*d + j)
			}
			if mathx.HasNaN(row) {
				incomplete = append(incomplete, i)
				continue
			}
			b.begin(k, row)
		}
		sw := 1.0
		if !fourth && w != nil {
			sw = math.Sqrt(wi)
		}
		if !b.put(acc, k, row, wi, sw) {
			if j := firstInf(row); j >= 0 {
				return nil, b.abandon(i*d + j)
			}
			incomplete = append(incomplete, i)
			continue
		}
	}
	b.end(acc)
	return incomplete, -1
}

// begin starts class k of a segment at its first complete row: the
// class's provisional origin, without the fourth moments.
func (b *blocks) begin(k int, row []float64) {
	b.have[k] = true
	if b.block == nil {
		copy(b.origin[k], row)
	}
}

// put writes row, of weight wi (sw = √wi, or 1 with the fourth moments),
// into the buffer of class k, begun: √w·(x − o) into row r's place
// (kernel.SyrkRow), or the row as it is with the fourth moments, the check
// for missing and infinite cells on the way. It reports whether the row is
// finite; the place is only taken when it is, and a full buffer is
// flushed into acc.
func (b *blocks) put(acc *Classes, k int, row []float64, wi, sw float64) bool {
	r, buf, d, g := b.fill[k], b.buf[k], b.d, b.g
	if b.block != nil {
		finite := true
		for j, v := range row {
			if v-v != 0 { // NaN for NaN and ±Inf, 0 otherwise
				finite = false
			}
			buf[j*b.gs+r] = v
		}
		if !finite {
			return false
		}
	} else {
		if !kernel.SyrkRow(buf, b.gs, r, row, b.origin[k], sw) {
			return false
		}
		buf[d/g*b.gs+r*g+d%g] = sw
	}
	b.wt[k][r] = wi
	b.fill[k]++
	if b.fill[k] == b.cap {
		b.flush(acc, k)
	}
	return true
}

// end flushes every class into acc, finishes their statistics and readies
// b for the next segment.
func (b *blocks) end(acc *Classes) {
	for k := range b.k {
		b.flush(acc, k)
		if b.block == nil {
			b.finish(acc.Class[k], k)
		}
		b.have[k], b.centred[k] = false, false
	}
}

// Rows accumulates weighted rows into classes one row at a time, for a
// caller whose rows come with a weight per class (the responsibilities of
// a mixture's E-step) rather than one label: Add writes each row into its
// class's buffer as Classes.Add does (kernel.SyrkRow, one SyrkPacked per
// full buffer, about a provisional origin; see blocks), and Flush returns
// the statistics of the rows added since the last Flush. It keeps no
// fourth moments. A Rows is for one goroutine.
type Rows struct {
	b     *blocks
	acc   *Classes
	fresh bool // acc holds a Flush's result: to be emptied before the next Add
}

// NewRows returns an empty Rows of k classes of d features.
func NewRows(k, d int) *Rows {
	return &Rows{b: newBlocks(k, d, false), acc: NewClasses(k, d, false)}
}

// ready empties the statistics of the last Flush before they are added
// to again.
func (r *Rows) ready() {
	if r.fresh {
		r.acc.Reset()
		r.fresh = false
	}
}

// Origin makes o the origin about which the rows of class k are
// accumulated until the next Flush, in place of the class's first row
// and then its first buffer's mean (see blocks): for rows whose mean is
// expected near o, o keeps the subtraction S − T Tᵀ/W well conditioned
// and saves the recentring. It is for before the class's first Add after
// a Flush.
func (r *Rows) Origin(k int, o []float64) {
	r.ready()
	b := r.b
	b.have[k], b.centred[k] = true, true
	copy(b.origin[k], o[:b.d])
}

// Add adds row x (len D, finite) with weight w > 0 to class k. It panics
// if a value of x is NaN or infinite.
func (r *Rows) Add(k int, x []float64, w float64) {
	r.ready()
	if !r.b.have[k] {
		r.b.begin(k, x)
	}
	if !r.b.put(r.acc, k, x, w, math.Sqrt(w)) {
		panic("stats: Rows.Add of a row with a NaN or an infinite value")
	}
}

// Flush returns the statistics of the rows added since the last Flush,
// per class (empty classes have W = 0), valid until the next Add or
// Origin.
func (r *Rows) Flush() *Classes {
	r.ready()
	r.b.end(r.acc)
	r.fresh = true
	return r.acc
}

// abandon readies b for the next segment after addRows stopped at an
// infinite cell, dropping the rows buffered so far, and returns inf.
func (b *blocks) abandon(inf int) int {
	for k := range b.k {
		b.fill[k] = 0
		b.have[k], b.centred[k] = false, false
		clear(b.acc[k])
	}
	return inf
}

// firstInf returns the index of the first infinite value of x, or −1.
func firstInf(x []float64) int {
	for j, v := range x {
		if math.IsInf(v, 0) {
			return j
		}
	}
	return -1
}

// flush adds the buffered rows of class k to acc: without the fourth
// moments the block A of buffered rows to C (see blocks), A Aᵀ by
// kernel.SyrkPacked, its weight to W and its rows to N; with them by
// flushFourth.
func (b *blocks) flush(acc *Classes, k int) {
	r := b.fill[k]
	if r == 0 {
		return
	}
	b.fill[k] = 0
	if b.block != nil {
		b.flushFourth(acc, k, r)
		return
	}
	s := acc.Class[k]
	wb := 0.0
	for _, v := range b.wt[k][:r] {
		wb += v
	}
	if !b.centred[k] {
		b.centre(k, r, wb)
	}
	s.W += wb
	s.N += r
	kernel.SyrkPacked(b.d+1, r, b.buf[k], b.gs, b.acc[k], b.d+1)
}

// centre moves the origin of class k to the weighted mean of its first
// block of r rows and weight wb, o ← o + m, and the block's rows with it,
// (x_i − o) ← (x_i − o) − m, with m = Σ_i √w_i·√w_i(x_i − o) / wb; the
// rows of the first block are then centred at their own mean, as all
// blocks were before they had a provisional origin, and those that follow
// nearly so.
func (b *blocks) centre(k, r int, wb float64) {
	b.centred[k] = true
	buf, o, g, m := b.buf[k], b.origin[k], b.g, b.mean
	w := b.d / g * b.gs // the group of √w
	for j0 := 0; j0 < b.d; j0 += g {
		mj := m[j0 : j0+g]
		clear(mj)
		grp := buf[j0/g*b.gs:]
		for i := range r {
			v := buf[w+i*g+b.d%g]
			for a, x := range grp[i*g : i*g+g] {
				mj[a] += v * x
			}
		}
		for a := range mj {
			mj[a] /= wb
		}
		for i := range r {
			v := buf[w+i*g+b.d%g]
			e := grp[i*g : i*g+g]
			for a := range e {
				e[a] -= v * mj[a]
			}
		}
	}
	for j := range b.d {
		o[j] += m[j]
	}
}

// finish turns the statistics of class k accumulated about its origin
// into its mean and scatter matrix s (see blocks), and readies the class
// for the next segment.
func (b *blocks) finish(s *Scatter, k int) {
	o, c, d := b.origin[k], b.acc[k], b.d
	if s.W > 0 {
		for j := range d {
			m := c[j*(d+1)+d] / s.W // T_j/W
			s.Mean[j] = o[j] + m
			row, crow := s.S[j*d:(j+1)*d], c[j*(d+1):j*(d+1)+d]
			for l := j; l < d; l++ {
				row[l] = crow[l] - m*c[l*(d+1)+d]
			}
		}
		symmetrize(s.S, d)
	}
	clear(c)
}

// flushFourth summarises the r buffered rows of class k (feature-major,
// not centred, not scaled) and merges them into acc. With E the d×r block
// of rows centred at their weighted mean and D_w the diagonal of weights,
//
//	S = (E D_w^½)(E D_w^½)ᵀ                              (Syrk)
//	M3 = (E∘E D_w^½)(E D_w^½)ᵀ,  M4 = (E∘E D_w^½)(E∘E D_w^½)ᵀ
func (b *blocks) flushFourth(acc *Classes, k, r int) {
	s, buf, wt, d, c := b.block, b.buf[k], b.wt[k][:r], b.d, b.cap
	s.Reset()
	sw := b.sw[:r]
	for i, v := range wt {
		s.W += v
		sw[i] = math.Sqrt(v)
	}
	s.N = r
	for j := range d {
		row := buf[j*c : j*c+r]
		m := 0.0
		for i, v := range row {
			m += wt[i] * v
		}
		m /= s.W
		s.Mean[j] = m
		for i, v := range row {
			e := (v - m) * sw[i]
			row[i] = e
			b.sq[j*c+i] = e * (v - m)
		}
	}
	kernel.Syrk(d, r, buf, c, s.S, d) // s.S is zero after Reset
	e := blas64.General{Rows: d, Cols: r, Stride: c, Data: buf}
	q := blas64.General{Rows: d, Cols: r, Stride: c, Data: b.sq}
	blas64.Gemm(blas.NoTrans, blas.Trans, 1, q, e, 0, blas64.General{Rows: d, Cols: d, Stride: d, Data: s.M3})
	kernel.Syrk(d, r, b.sq, c, s.M4, d)
	symmetrize(s.M4, d)
	symmetrize(s.S, d)
	acc.Class[k].Merge(s)
}

// symmetrize copies the upper triangle of the d×d matrix a to the lower.
func symmetrize(a []float64, d int) {
	for j := range d {
		for l := j + 1; l < d; l++ {
			a[l*d+j] = a[j*d+l]
		}
	}
}
