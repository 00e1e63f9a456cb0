package mixture

import (
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/gendisc/gendisc/internal/parallel"
)

const (
	// blockRows is the number of rows evaluated together: their cells
	// are transposed into a D×blockRows block so that every kernel runs
	// over contiguous vectors of blockRows values that stay in cache.
	blockRows = 128
	// minParallelRows is the least number of rows a core is given.
	minParallelRows = 1024
)

// scratch is one worker's space for a block of rows. It is allocated once
// per engine, so that evaluating rows allocates nothing.
type scratch struct {
	xt []float64 // D×blockRows: the cells of the block, transposed
	// ct holds K blocks of D×blockRows: the block centred at every
	// component's mean, ct_kji = x_ij − μ_kj.
	ct []float64
	// packed holds D×blockRows: the columns of a centred block that
	// matter to a component (see accumulate).
	packed []float64
	z, r   []float64 // blockRows
	q      []float64 // blockRows: squared Mahalanobis distances
	// rs holds K×blockRows: the responsibilities before normalisation,
	// exp(lp_ki − m_i) (see logProbs); rs_ki·inv_i = P(k | x_i).
	rs   []float64
	inv  []float64 // blockRows: 1 / Σ_k rs_ki
	ll   []float64 // blockRows: log p(x_i) = log Σ_k exp(lp_ki)
	marg []marginal
	acc  *stats // M-step statistics of the rows this worker saw
	err  error
}

// engine evaluates the components of a model on the rows of a layout, in
// blocks, on all cores.
type engine struct {
	m *model
	// full holds every component's marginal over all coordinates, used
	// for the complete rows.
	full []marginal
	all  []int // 0, 1, …, D−1: the observed coordinates of a complete row
	work []*scratch
}

func newEngine(m *model) *engine {
	all := make([]int, m.d)
	for j := range all {
		all[j] = j
	}
	return &engine{m: m, full: newMarginals(m.k, m.d), all: all}
}

// setModel makes m the model the engine evaluates, computing the
// marginals of the complete rows. It returns the first component whose
// covariance is not positive definite, or -1.
func (e *engine) setModel(m *model) int {
	e.m = m
	for k := range m.k {
		if m.marginal(&e.full[k], k, e.all, nil, nil) != nil {
			return k
		}
	}
	return -1
}

// scratchFor returns the scratch space of n workers, growing it as needed.
func (e *engine) scratchFor(n int) []*scratch {
	k, d := e.m.k, e.m.d
	for len(e.work) < n {
		e.work = append(e.work, &scratch{
			xt: make([]float64, d*blockRows), ct: make([]float64, k*d*blockRows), packed: make([]float64, d*blockRows),
			z: make([]float64, blockRows), r: make([]float64, blockRows), q: make([]float64, blockRows),
			rs: make([]float64, k*blockRows), inv: make([]float64, blockRows), ll: make([]float64, blockRows),
			marg: newMarginals(k, d), acc: newStats(e.m.cov, k, d),
		})
	}
	return e.work[:n]
}

// run evaluates every row of lay: for each block of at most blockRows rows
// of one missing pattern it fills s.ct, s.rs, s.inv and s.ll and calls fn with the
// block's rows, segment and marginals. Blocks are handed to the workers in
// row order, fn of one worker is never called concurrently, and s.acc is
// reset first. It returns the workers' scratch space in worker order, or
// the error of a marginal that could not be computed.
func (e *engine) run(lay *layout, fn func(s *scratch, rows []int, seg *segment, marg []marginal)) ([]*scratch, error) {
	n := len(lay.order)
	work := e.scratchFor(parallel.Blocks(n, minParallelRows))
	for _, s := range work {
		s.acc.reset()
		s.err = nil
	}
	parallel.For(n, minParallelRows, func(w, lo, hi int) {
		s := work[w]
		for i := range lay.segs {
			seg := &lay.segs[i]
			a, b := max(lo, seg.lo), min(hi, seg.hi)
			if a >= b {
				continue
			}
			marg := e.full
			if seg.mis != nil {
				marg = s.marg
				for k := range e.m.k {
					if err := e.m.marginal(&marg[k], k, seg.obs, seg.mis, &e.full[k]); err != nil {
						s.err = err
						return
					}
				}
			}
			for c := a; c < b; c += blockRows {
				rows := lay.order[c:min(c+blockRows, b)]
				s.logProbs(e, lay, rows, seg, marg)
				fn(s, rows, seg, marg)
			}
		}
	})
	for _, s := range work {
		if s.err != nil {
			return nil, s.err
		}
	}
	return work, nil
}

// logProbs gathers the block rows into s.xt, centres them at every
// component's mean into s.ct, fills in the missing coordinates by their
// conditional expectation (see impute), and computes, for every component
// k and row i,
//
//	lp_ki = log π_k + log N(x_i,O; μ_k,O, Σ_k,OO) = logc_k − ½ q_ki
//	m_i   = max_k lp_ki
//	rs_ki = exp(lp_ki − m_i),  inv_i = 1 / Σ_k rs_ki
//	ll_i  = log Σ_k exp(lp_ki) = m_i − log inv_i
//
// so that P(k | x_i) = rs_ki·inv_i with one exponential per row and
// component. q_ki is ‖L_k⁻¹(x_i,O − μ_k,O)‖² with the Cholesky factor of
// Σ_k,OO, which for a full covariance with missing coordinates is the
// distance of the completed row under the full Σ_k (see fromPrecision). A
// row whose every lp_ki is −∞ gets ll_i = −∞ and inv_i = 0.
func (s *scratch) logProbs(e *engine, lay *layout, rows []int, seg *segment, marg []marginal) {
	m := e.m
	d, nb, obs := m.d, len(rows), seg.obs
	for i, r := range rows {
		x := lay.x[r*d : (r+1)*d]
		for _, j := range obs {
			s.xt[j*blockRows+i] = x[j]
		}
	}
	mx := s.ll[:nb]
	for i := range mx {
		mx[i] = math.Inf(-1)
	}
	for k := range m.k {
		ct := s.centred(k, d)
		center(ct, s.xt, m.mean(k), obs, nb)
		if seg.mis != nil {
			impute(ct, m, seg, &marg[k], nb)
		}
		q := s.q[:nb]
		switch {
		case m.cov.diagonal():
			sqNormDiag(q, ct, obs, marg[k].linv)
		default:
			sqNormTri(q, s.z[:nb], ct, e.all, e.full[k].linv)
		}
		lp := s.rs[k*blockRows : k*blockRows+nb]
		c := marg[k].logc
		for i, v := range q {
			lp[i] = c - 0.5*v
			mx[i] = max(mx[i], lp[i])
		}
	}
	sum := s.inv[:nb]
	clear(sum)
	for k := range m.k {
		rs := s.rs[k*blockRows : k*blockRows+nb]
		for i, v := range rs {
			rs[i] = math.Exp(v - mx[i])
			sum[i] += rs[i]
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

// sqNormTri writes q_i = ‖L⁻¹ c_i‖² = Σ_j z_ji², z_j = Σ_{l≤j} L⁻¹_jl c_l,
// for the columns c_i of ct's rows obs; linv is L⁻¹, |obs|×|obs| lower
// triangular. z is scratch of len(q).
func sqNormTri(q, z, ct []float64, obs []int, linv []float64) {
	p, nb := len(obs), len(q)
	clear(q)
	z = z[:nb]
	for j := range p {
		clear(z)
		for l, a := range linv[j*p : j*p+j+1] {
			floats.AddScaled(z, a, ct[obs[l]*blockRows:obs[l]*blockRows+nb])
		}
		addSquares(q, z)
	}
}

// sqNormDiag writes q_i = Σ_j (c_ji / σ_j)² for the columns c_i of ct's
// rows obs; inv holds 1/σ_j.
func sqNormDiag(q, ct []float64, obs []int, inv []float64) {
	nb := len(q)
	clear(q)
	for l, j := range obs {
		a := inv[l]
		c := ct[j*blockRows : j*blockRows+nb]
		q := q[:len(c)]
		for i, v := range c {
			v *= a
			q[i] += v * v
		}
	}
}

// addSquares adds z_i² to q_i. The loop is unrolled: the four
// independent updates run twice as fast as the plain loop.
func addSquares(q, z []float64) {
	z = z[:len(q)]
	i := 0
	for ; i+4 <= len(q); i += 4 {
		a, b, c, d := z[i], z[i+1], z[i+2], z[i+3]
		q[i] += a * a
		q[i+1] += b * b
		q[i+2] += c * c
		q[i+3] += d * d
	}
	for ; i < len(q); i++ {
		q[i] += z[i] * z[i]
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
// conditional covariance of the missing coordinates to the M-step
// statistics (see stats). Rows with
// P(k | x_i) < negligible are left out of component k's statistics; when
// they are many, the others are packed into a smaller block first.
func (s *scratch) accumulate(m *model, lay *layout, rows []int, seg *segment, marg []marginal) {
	d, nb := m.d, len(rows)
	ll, inv := s.ll[:nb], s.inv[:nb]
	for i, row := range rows {
		if w := lay.weight(row); w != 0 {
			s.acc.ll += w * ll[i]
		}
	}
	for k := range m.k {
		rs := s.rs[k*blockRows : k*blockRows+nb]
		r := s.r[:nb]
		sr, kept := 0.0, 0
		for i, row := range rows {
			p := rs[i] * inv[i]
			if p < negligible {
				r[i] = 0
				continue
			}
			r[i] = lay.weight(row) * p
			sr += r[i]
			kept++
		}
		if sr == 0 {
			continue
		}
		ct := s.centred(k, d)
		if kept < nb*3/4 {
			r = s.pack(ct, r, d)
			ct = s.packed
		}
		s.acc.add(k, ct, r, sr, s.z[:len(r)])
		if seg.mis != nil {
			s.acc.addConditional(k, seg.mis, marg[k].c, sr)
		}
	}
}

// pack copies the columns i of the d rows of the centred block ct whose
// r_i is not 0 to s.packed, and their r_i to the front of r, which it
// returns shortened to their number.
func (s *scratch) pack(ct, r []float64, d int) []float64 {
	n := 0
	for i, v := range r {
		if v == 0 {
			continue
		}
		for j := range d {
			s.packed[j*blockRows+n] = ct[j*blockRows+i]
		}
		r[n] = v
		n++
	}
	return r[:n]
}

// impute writes the rows mis of the centred block ct: the conditional expectation of the
// missing coordinates, centred, ĉ_M = A (x_O − μ_O) for a full covariance
// and 0 for a diagonal one.
func impute(ct []float64, m *model, seg *segment, g *marginal, nb int) {
	p := len(seg.obs)
	for j, mj := range seg.mis {
		c := ct[mj*blockRows : mj*blockRows+nb]
		clear(c)
		if m.cov.diagonal() {
			continue
		}
		a := g.a[j*p : (j+1)*p]
		for l, ol := range seg.obs {
			floats.AddScaled(c, a[l], ct[ol*blockRows:ol*blockRows+nb])
		}
	}
}
