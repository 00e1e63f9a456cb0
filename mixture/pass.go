package mixture

import (
	"math"
	"sort"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/floats"

	"github.com/gendisc/gendisc/gauss"
	"github.com/gendisc/gendisc/internal/kernel"
	"github.com/gendisc/gendisc/internal/parallel"
	core "github.com/gendisc/gendisc/stats"
)

const (
	// blockRows is the number of rows evaluated together: their cells
	// are transposed into a D×blockRows block so that every kernel runs
	// over contiguous vectors of blockRows values that stay in cache
	// (a multiple of kernel.LaneBlock).
	blockRows = 128
	// minParallelRows is the least number of rows of a chunk (see
	// engine.chunked), and maxChunks the most chunks.
	minParallelRows = 1024
	maxChunks       = 32
)

// scratch is one worker's space for a block of rows. It is allocated once
// per engine and grows to the largest block seen, so that evaluating rows
// allocates nothing once warm.
type scratch struct {
	xt []float64 // D×blockRows: room for the cells of a block, transposed
	xb []float64 // the cells of the block being evaluated: xt or a view of the layout's (layout.block)
	// ct holds K blocks of D×blockRows: the block centred at every
	// component's mean, with its missing cells filled in by their
	// conditional expectation, ct_kji = E[x_ij | x_i,O, k] − μ_kj.
	// logProbs fills it for a block with missing cells only (imputed);
	// a complete block is centred by the solves themselves, and by
	// accumulate for the components whose statistics it adds to.
	ct []float64
	// imputed reports that ct holds the block centred at every
	// component.
	imputed bool
	// kept holds blockRows: the indices of the columns of a block that
	// matter to a component (see accumulate).
	kept []int
	// cols holds K blocks of D×blockRows: the centred columns that
	// accumulate gathered for each component and has not yet added to
	// acc, colR their responsibilities (K×blockRows) and colN their
	// number per component (the diagonal types).
	cols, colR []float64
	colN       []int
	// rows takes the rows of each component one at a time, with their
	// responsibilities, about the component's mean, for the full and tied
	// types; cond holds the conditional covariances of their missing
	// cells until the chunk's rows are added to acc (see endChunk), and
	// row is room for one row.
	rows *core.Rows
	cond *core.Classes
	row  []float64
	// zt holds D×blockRows: the solves L⁻¹ ĉ_i of a component
	// (kernel.SolveLanes).
	zt []float64
	r  []float64 // blockRows
	w  []float64 // blockRows: the rows' weights
	q  []float64 // blockRows: squared Mahalanobis distances
	// rs holds K×blockRows: the responsibilities before normalisation,
	// exp(lp_ki − m_i) (see logProbs); rs_ki·inv_i = P(k | x_i).
	rs  []float64
	inv []float64 // blockRows: 1 / Σ_k rs_ki
	ll  []float64 // blockRows: log p(x_i) = log Σ_k exp(lp_ki)
	// pats are the runs of rows of one missing pattern in the block.
	pats []blockPattern
	// margs holds the marginals of the block's patterns with missing
	// cells, K per pattern.
	margs []marginal
	// own holds the Patterns of the block's short runs (gauss.PatternTo),
	// reused from block to block.
	own []*gauss.Pattern
	acc *stats // M-step statistics of the chunk being evaluated
	err error
}

// blockPattern is a run of rows [lo, hi) of a block that share a missing
// pattern, with their marginals (the engine's complete ones when nothing
// is missing).
type blockPattern struct {
	lo, hi int
	seg    *segment
	marg   []marginal
}

// engine evaluates the components of a model on the rows of a layout, in
// blocks, on all cores.
type engine struct {
	m *model
	// covs holds every component's covariance matrix in the Gaussian
	// core, which caches the patterns of missing cells.
	covs []*gauss.Cov
	// tris holds the factors L of the full covariance matrices packed
	// for kernel.SolveLanes (nil for the diagonal types), in the Tris of
	// own, which setModel reuses from model to model.
	tris, own []*kernel.Tri
	zero      []float64 // D zeros: the blocks are centred already
	// full holds every component's marginal over all coordinates.
	full []marginal
	all  []int // 0, 1, …, D−1
	work []*scratch
	// chunks holds the statistics of every chunk of rows (chunked),
	// sum their merge.
	chunks []*stats
	sum    *stats
}

func newEngine(m *model) *engine {
	all := make([]int, m.d)
	for j := range all {
		all[j] = j
	}
	return &engine{m: m, covs: make([]*gauss.Cov, m.k), tris: make([]*kernel.Tri, m.k), zero: make([]float64, m.d),
		full: make([]marginal, m.k), all: all}
}

// setModel makes m the model the engine evaluates, factoring its
// covariances (gauss.Cov) and computing the marginals over all
// coordinates. It returns the first component whose covariance is not
// positive definite, or -1.
func (e *engine) setModel(m *model) int {
	e.m = m
	clear(e.covs)
	clear(e.tris)
	for k := range m.k {
		c, err := m.gaussCov(k, e.covs)
		if err != nil {
			return k
		}
		e.covs[k] = c
		switch {
		case m.cov.diagonal():
		case k > 0 && c == e.covs[0]:
			e.tris[k] = e.tris[0] // Tied
		default:
			if e.own == nil {
				e.own = make([]*kernel.Tri, m.k)
			}
			if e.own[k] == nil {
				e.own[k] = new(kernel.Tri)
			}
			e.tris[k] = e.own[k]
			e.tris[k].Set(c.L(), m.d)
		}
		e.full[k] = marginal{logc: m.logc(k, c.LogDet(), m.d)}
	}
	return -1
}

// scratchFor returns the scratch space of n workers, growing it as needed.
func (e *engine) scratchFor(n int) []*scratch {
	k, d := e.m.k, e.m.d
	for len(e.work) < n {
		e.work = append(e.work, &scratch{
			xt: make([]float64, d*blockRows), ct: make([]float64, k*d*blockRows), zt: make([]float64, d*blockRows),
			kept: make([]int, blockRows), w: make([]float64, blockRows),
			r: make([]float64, blockRows), q: make([]float64, blockRows),
			rs: make([]float64, k*blockRows), inv: make([]float64, blockRows), ll: make([]float64, blockRows),
		})
		s := e.work[len(e.work)-1]
		if e.m.cov.diagonal() {
			s.cols, s.colR, s.colN = make([]float64, k*d*blockRows), make([]float64, k*blockRows), make([]int, k)
		} else {
			s.rows, s.cond, s.row = core.NewRows(k, d), core.NewClasses(k, d, false), make([]float64, d)
		}
	}
	return e.work[:n]
}

// chunked cuts the rows [0, n) into chunks of whole blocks, one per
// minParallelRows rows and at most maxChunks, which the workers (at most
// parallel.Workers()) take in turn: fn(s, lo, hi) is called on each chunk
// [lo, hi) with the scratch space s of its worker, s.acc the chunk's own
// statistics, empty; then the columns that accumulate gathered go to
// them. It returns the chunks' statistics merged in chunk order (valid
// until the next call), so that the results depend neither on the number
// of cores nor on which core ran which chunk, and a core that the machine
// slows down leaves its chunks to the others; or the error that a worker
// left in s.err (fn returns at once after setting it).
func (e *engine) chunked(n int, fn func(s *scratch, lo, hi int)) (*stats, error) {
	m := e.m
	if e.sum == nil {
		e.sum = newStats(m.cov, m.k, m.d)
	}
	e.sum.reset()
	if n == 0 {
		return e.sum, nil
	}
	nc := min(maxChunks, max(1, n/minParallelRows))
	per := ((n+nc-1)/nc + blockRows - 1) / blockRows * blockRows
	nc = (n + per - 1) / per
	for len(e.chunks) < nc {
		e.chunks = append(e.chunks, newStats(m.cov, m.k, m.d))
	}
	work := e.scratchFor(min(parallel.Workers(), nc))
	var next atomic.Int64
	worker := func(s *scratch) {
		s.err = nil
		for {
			c := int(next.Add(1) - 1)
			if c >= nc {
				return
			}
			s.acc = e.chunks[c]
			s.acc.reset()
			s.startChunk(m)
			if fn(s, c*per, min((c+1)*per, n)); s.err != nil {
				return
			}
			s.endChunk(m)
		}
	}
	if len(work) == 1 {
		worker(work[0])
	} else {
		var wg sync.WaitGroup
		for _, s := range work {
			wg.Go(func() { worker(s) })
		}
		wg.Wait()
	}
	for _, s := range work {
		if s.err != nil {
			return nil, s.err
		}
	}
	for _, st := range e.chunks[:nc] {
		e.sum.merge(st)
	}
	return e.sum, nil
}

// run evaluates every row of lay in blocks of at most blockRows rows
// (taken in the layout's order, so that rows of one missing pattern are
// together), in chunks (see chunked): for each block it fills the
// scratch space (see logProbs) and calls fn with it and the block's rows.
// fn of one worker is never called concurrently. It returns the merged
// statistics that fn accumulated in s.acc, or the error of a marginal
// that could not be computed.
func (e *engine) run(lay *layout, fn func(s *scratch, rows []int)) (*stats, error) {
	return e.chunked(len(lay.order), func(s *scratch, lo, hi int) {
		seg := sort.Search(len(lay.segs), func(i int) bool { return lay.segs[i].hi > lo })
		for c := lo; c < hi; c += blockRows {
			b := min(c+blockRows, hi)
			for lay.segs[seg].hi <= c {
				seg++
			}
			if s.err = s.patterns(e, lay, c, b, seg); s.err != nil {
				return
			}
			rows := lay.order[c:b]
			s.logProbs(e, lay, c, rows)
			fn(s, rows)
		}
	})
}

// patterns fills s.pats with the runs of missing patterns of the block
// lay.order[lo:hi], whose first row is in segment seg, and computes the
// marginals of the patterns with missing cells: from the Gaussian core's
// cache (gauss.Cov.Pattern, once per model and pattern) for a pattern of
// more than blockRows rows, which several blocks share, and into the
// worker's own Patterns (gauss.Cov.PatternTo, no allocation once warm)
// for the others, which are mostly one row each when the missing cells
// fall at random.
func (s *scratch) patterns(e *engine, lay *layout, lo, hi, seg int) error {
	m := e.m
	s.pats, s.margs = s.pats[:0], s.margs[:0]
	own := 0
	for i := seg; i < len(lay.segs) && lay.segs[i].lo < hi; i++ {
		sg := &lay.segs[i]
		bp := blockPattern{lo: max(lo, sg.lo) - lo, hi: min(hi, sg.hi) - lo, seg: sg, marg: e.full}
		if sg.mis != nil {
			start := len(s.margs)
			for k := range m.k {
				var (
					pat *gauss.Pattern
					err error
				)
				if sg.hi-sg.lo > blockRows {
					pat, err = e.covs[k].Pattern(sg.obs)
				} else {
					if own == len(s.own) {
						s.own = append(s.own, new(gauss.Pattern))
					}
					pat = s.own[own]
					own++
					err = e.covs[k].PatternTo(pat, sg.obs)
				}
				if err != nil {
					return errNotPD
				}
				s.margs = append(s.margs, marginal{logc: m.logc(k, pat.LogDetObs(), len(sg.obs)), pat: pat})
			}
			bp.marg = s.margs[start : start+m.k]
		}
		s.pats = append(s.pats, bp)
	}
	return nil
}

// logProbs gathers the block rows lay.order[lo:lo+len(rows)] transposed
// into s.xb (layout.block) and computes, for every
// component k and row i,
//
//	lp_ki = log π_k + log N(x_i,O; μ_k,O, Σ_k,OO) = logc_k − ½ ‖L_k⁻¹ ĉ_ki‖²
//
// with ĉ_ki = x_i − μ_k for a complete row (kernel.SolveLanes subtracts
// the mean, for full covariances); for a block with missing cells, the
// block centred at every component's mean with the missing coordinates
// filled in by their conditional expectation given the observed ones
// (see marginal) goes to s.ct first, and the solves start from it. Then
//
//	m_i   = max_k lp_ki
//	rs_ki = exp(lp_ki − m_i),  inv_i = 1 / Σ_k rs_ki
//	ll_i  = log Σ_k exp(lp_ki) = m_i − log inv_i
//
// with logc_k that of the row's pattern, so that P(k | x_i) = rs_ki·inv_i
// with one exponential per row and component, by kernel.ExpFloored: a
// component 708 or more under the row's best gets exp(−708) ≈ 3e−308
// for 0, which changes neither the sum (at least 1) nor whether the row
// is negligible to it. A row whose every lp_ki is −∞ gets ll_i = −∞ and
// inv_i = 0.
func (s *scratch) logProbs(e *engine, lay *layout, lo int, rows []int) {
	m := e.m
	d, nb := m.d, len(rows)
	s.xb = lay.block(s.xt, lo, rows)
	mx := s.ll[:nb]
	for i := range mx {
		mx[i] = math.Inf(-1)
	}
	s.imputed = false
	for _, p := range s.pats {
		s.imputed = s.imputed || p.seg.mis != nil
	}
	for k := range m.k {
		// The solves read x − mu: the block and the mean, or the
		// imputed block and zero.
		x, mu := s.xb, m.mean(k)
		if s.imputed {
			ct := s.centred(k, d)
			center(ct, s.xb, mu, e.all, nb)
			for _, p := range s.pats {
				if p.seg.mis != nil {
					impute(ct, m.cov.diagonal(), p.seg, p.marg[k].pat.A(), p.lo, p.hi)
				}
			}
			x, mu = ct, e.zero
		}
		q := s.q[:nb]
		if m.cov.diagonal() {
			sqNormDiag(q, x, mu, e.all, e.covs[k].LInv())
		} else {
			kernel.SolveLanes(e.tris[k], s.zt, s.q, x, blockRows, mu, nb)
		}
		lp := s.rs[k*blockRows : k*blockRows+nb]
		for _, p := range s.pats {
			c := p.marg[k].logc
			for i := p.lo; i < p.hi; i++ {
				lp[i] = c - 0.5*q[i]
				mx[i] = max(mx[i], lp[i])
			}
		}
	}
	sum := s.inv[:nb]
	clear(sum)
	// The exponentials over the lanes rounded up to ExpFloored's groups
	// of four, so that a row's bits do not depend on its place in the
	// block.
	lanes := (nb + 3) &^ 3
	for k := range m.k {
		rs := s.rs[k*blockRows : k*blockRows+lanes]
		for i, v := range s.ll[:lanes] {
			rs[i] -= v
		}
		kernel.ExpFloored(rs)
		for i, v := range rs[:nb] {
			sum[i] += v
		}
	}
	for i, v := range sum {
		if math.IsInf(mx[i], -1) {
			sum[i] = 0
			continue
		}
		mx[i] += math.Log(v)
		sum[i] = 1 / v
	}
}

// impute writes the missing coordinates of the rows [lo, hi) of the
// centred block ct, which share the pattern seg: their conditional
// expectation, centred, ĉ_M = A c_O for a full covariance (A is |M|×|O|)
// and 0 for a diagonal one.
func impute(ct []float64, diagonal bool, seg *segment, a []float64, lo, hi int) {
	p := len(seg.obs)
	for j, mj := range seg.mis {
		c := ct[mj*blockRows+lo : mj*blockRows+hi]
		clear(c)
		if diagonal {
			continue
		}
		for l, ol := range seg.obs {
			floats.AddScaled(c, a[j*p+l], ct[ol*blockRows+lo:ol*blockRows+hi])
		}
	}
}

// centred returns component k's centred block of s.ct.
func (s *scratch) centred(k, d int) []float64 {
	return s.ct[k*d*blockRows : (k+1)*d*blockRows]
}

// center writes rows obs of ct: the block xt centred at mu,
// ct_ji = x_ij − μ_j.
func center(ct, xt, mu []float64, obs []int, nb int) {
	for _, j := range obs {
		c := ct[j*blockRows : j*blockRows+nb]
		copy(c, xt[j*blockRows:j*blockRows+nb])
		floats.AddConst(-mu[j], c)
	}
}

// sqNormDiag writes q_i = Σ_j ((x_ji − μ_j) / σ_j)² for the columns x_i
// of the block x's rows obs; inv holds 1/σ_j.
func sqNormDiag(q, x, mu []float64, obs []int, inv []float64) {
	nb := len(q)
	clear(q)
	for l, j := range obs {
		a, m := inv[l], mu[j]
		c := x[j*blockRows : j*blockRows+nb]
		q := q[:len(c)]
		for i, v := range c {
			v = (v - m) * a
			q[i] += v * v
		}
	}
}

// negligible is the responsibility under which a row is left out of a
// component's M-step statistics. Since r ∝ exp(−q/2) for the squared
// Mahalanobis distance q, a row with r < 2⁻⁶⁰ has q > 80 and adds at most
// r·q < 10⁻¹⁶ (in units of the component's covariance) to a scatter of
// weight W_k: nothing, at double precision, once W_k ≥ 1. With separated
// components most rows matter to one component only, and the M-step
// skips the others.
const negligible = 0x1p-60

// accumulate is the E-step's handler of a block during a fit: with the
// responsibilities r_ki = w_i P(k | x_i), it adds w_i ll_i to the
// log-likelihood and, for every component, the row's expected centred
// coordinates ĉ_i = E[x_i − μ_k | x_i,O] (filled in by logProbs) and the
// conditional covariance of its missing coordinates to the M-step
// statistics (see stats). Rows with P(k | x_i) < negligible (or r_ki = 0)
// are left out of component k's statistics: the others go to s.rows one
// at a time (full and tied types), or are gathered into the component's
// s.cols, blocks' columns following each other, which go to the
// statistics blockRows columns at a time (and the rest by flush); either
// way, with separated components, where a block has a few rows for each,
// the scatter's rank-k updates still run over many rows.
func (s *scratch) accumulate(e *engine, lay *layout, rows []int) {
	m := e.m
	d, nb := m.d, len(rows)
	ll, inv, w := s.ll[:nb], s.inv[:nb], s.w[:nb]
	for i, row := range rows {
		w[i] = lay.weight(row)
		if w[i] != 0 {
			s.acc.ll += w[i] * ll[i]
		}
	}
	for k := range m.k {
		rs := s.rs[k*blockRows : k*blockRows+nb]
		r, kept := s.r[:nb], s.kept[:nb]
		sr, n := 0.0, 0
		for i, p := range rs {
			p *= inv[i]
			v := 0.0
			if !(p < negligible) {
				v = w[i] * p
			}
			r[i] = v
			sr += v
			kept[n] = i
			if v != 0 {
				n++
			}
		}
		if sr == 0 {
			continue
		}
		for _, p := range s.pats {
			if p.seg.mis != nil {
				if s.rows != nil {
					s.cond.AddConditional(k, p.seg.mis, p.marg[k].pat.CondCov(), floats.Sum(r[p.lo:p.hi]))
				} else {
					s.acc.addConditional(k, p.seg.mis, p.marg[k].pat.CondVar(), floats.Sum(r[p.lo:p.hi]))
				}
			}
		}
		// The rows centred at μ_k: from s.ct when logProbs imputed it,
		// else x_i − μ_k.
		x, mu := s.xb, m.mean(k)
		if s.imputed {
			x, mu = s.centred(k, d), e.zero
		}
		if s.rows == nil {
			s.gather(k, x, mu, r, kept[:n], d)
			continue
		}
		// The rows themselves, about the origin μ_k (startChunk): the
		// imputed ones from s.ct, μ_k added back.
		mk := m.mean(k)
		for _, i := range kept[:n] {
			row := lay.x[rows[i]*d : (rows[i]+1)*d]
			if s.imputed {
				row = s.row
				for j := range row {
					row[j] = x[j*blockRows+i] + mk[j]
				}
			}
			s.rows.Add(k, row, r[i])
		}
	}
}

// gather appends the columns kept of the d rows of the block x − mu, with
// their responsibilities r_i, to component k's s.cols, adding them to the
// statistics whenever blockRows columns are there.
func (s *scratch) gather(k int, x, mu, r []float64, kept []int, d int) {
	cols, colR := s.cols[k*d*blockRows:(k+1)*d*blockRows], s.colR[k*blockRows:(k+1)*blockRows]
	for len(kept) > 0 {
		at := s.colN[k]
		part := kept[:min(len(kept), blockRows-at)]
		for c, i := range part {
			colR[at+c] = r[i]
		}
		for j := range d {
			src, dst, m := x[j*blockRows:(j+1)*blockRows], cols[j*blockRows+at:j*blockRows+at+len(part)], mu[j]
			for c, i := range part {
				dst[c] = src[i] - m
			}
		}
		s.colN[k] += len(part)
		if s.colN[k] == blockRows {
			s.flush(k, d)
		}
		kept = kept[len(part):]
	}
}

// startChunk empties what a chunk gathers before it goes to s.acc, and
// makes the means of m the origins of the rows of its components.
func (s *scratch) startChunk(m *model) {
	clear(s.colN)
	if s.rows != nil {
		s.rows.Flush()
		s.cond.Reset()
		for k := range m.k {
			s.rows.Origin(k, m.mean(k))
		}
	}
}

// endChunk adds what the chunk gathered to s.acc: the columns of every
// component (flush), or the statistics of the rows, their means shifted
// by the components' means of m (ĉ = x − μ_k, see stats), with the
// conditional covariances added to their scatters.
func (s *scratch) endChunk(m *model) {
	if s.rows == nil {
		for k := range s.colN {
			s.flush(k, m.d)
		}
		return
	}
	seg := s.rows.Flush()
	for k, c := range seg.Class {
		if c.W > 0 {
			floats.Sub(c.Mean, m.mean(k))
		}
		floats.Add(c.S, s.cond.Class[k].S)
	}
	s.acc.full.Merge(seg)
}

// flush adds the columns gathered for component k to the statistics.
func (s *scratch) flush(k, d int) {
	if n := s.colN[k]; n > 0 {
		s.acc.add(k, s.cols[k*d*blockRows:(k+1)*d*blockRows], s.colR[k*blockRows:k*blockRows+n])
		s.colN[k] = 0
	}
}
