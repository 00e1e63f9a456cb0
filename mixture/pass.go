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
	xt   []float64 // D×blockRows: the cells of the block, transposed
	ct   []float64 // D×blockRows: the block centred at a component's mean
	z, r []float64 // blockRows
	q    []float64 // blockRows: squared Mahalanobis distances
	lp   []float64 // K×blockRows: log π_k + log N(x_i; μ_k, Σ_k)
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
		if m.marginal(&e.full[k], k, e.all, nil) != nil {
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
			xt: make([]float64, d*blockRows), ct: make([]float64, d*blockRows),
			z: make([]float64, blockRows), r: make([]float64, blockRows), q: make([]float64, blockRows),
			lp: make([]float64, k*blockRows), ll: make([]float64, blockRows),
			marg: newMarginals(k, d), acc: newStats(e.m.cov, k, d),
		})
	}
	return e.work[:n]
}

// run evaluates every row of lay: for each block of at most blockRows rows
// of one missing pattern it fills s.lp and s.ll and calls fn with the
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
					if err := e.m.marginal(&marg[k], k, seg.obs, seg.mis); err != nil {
						s.err = err
						return
					}
				}
			}
			for c := a; c < b; c += blockRows {
				rows := lay.order[c:min(c+blockRows, b)]
				s.logProbs(e.m, lay, rows, seg.obs, marg)
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

// logProbs gathers the block rows into s.xt and writes, for every
// component k and row i,
//
//	lp_ki = log π_k + log N(x_i,O; μ_k,O, Σ_k,OO) = logc_k − ½ ‖L_k⁻¹(x_i,O − μ_k,O)‖²
//	ll_i  = log Σ_k exp(lp_ki) = m_i + log Σ_k exp(lp_ki − m_i),  m_i = max_k lp_ki
func (s *scratch) logProbs(m *model, lay *layout, rows []int, obs []int, marg []marginal) {
	d, nb := m.d, len(rows)
	for i, r := range rows {
		x := lay.x[r*d : (r+1)*d]
		for _, j := range obs {
			s.xt[j*blockRows+i] = x[j]
		}
	}
	ll := s.ll[:nb]
	for i := range ll {
		ll[i] = math.Inf(-1)
	}
	for k := range m.k {
		s.center(m, k, obs, nb)
		q := s.q[:nb]
		if m.cov.diagonal() {
			sqNormDiag(q, s.ct, obs, marg[k].linv)
		} else {
			sqNormTri(q, s.z[:nb], s.ct, obs, marg[k].linv)
		}
		lp := s.lp[k*blockRows : k*blockRows+nb]
		c := marg[k].logc
		for i, v := range q {
			lp[i] = c - 0.5*v
			ll[i] = max(ll[i], lp[i])
		}
	}
	// ll holds m_i; add log Σ_k exp(lp_ki − m_i).
	sum := s.r[:nb]
	clear(sum)
	for k := range m.k {
		lp := s.lp[k*blockRows : k*blockRows+nb]
		for i, v := range lp {
			sum[i] += math.Exp(v - ll[i])
		}
	}
	for i, v := range sum {
		if !math.IsInf(ll[i], 0) {
			ll[i] += math.Log(v)
		}
	}
}

// center writes rows obs of s.ct: the block centred at component k's
// mean, ct_ji = x_ij − μ_kj.
func (s *scratch) center(m *model, k int, obs []int, nb int) {
	mu := m.mean(k)
	for _, j := range obs {
		x := s.xt[j*blockRows : j*blockRows+nb]
		c := s.ct[j*blockRows : j*blockRows+nb]
		for i, v := range x {
			c[i] = v - mu[j]
		}
	}
}

// sqNormTri writes q_i = ‖L⁻¹ c_i‖² = Σ_j z_ji², z_j = Σ_{l≤j} L⁻¹_jl c_l,
// for the columns c_i of ct's rows obs; linv is L⁻¹, |obs|×|obs| lower
// triangular. z is scratch of len(q).
func sqNormTri(q, z, ct []float64, obs []int, linv []float64) {
	p, nb := len(obs), len(q)
	clear(q)
	for j := range p {
		row := linv[j*p : j*p+j+1]
		c := ct[obs[0]*blockRows : obs[0]*blockRows+nb]
		a := row[0]
		for i, v := range c {
			z[i] = a * v
		}
		for l := 1; l <= j; l++ {
			floats.AddScaled(z, row[l], ct[obs[l]*blockRows:obs[l]*blockRows+nb])
		}
		for i, v := range z {
			q[i] += v * v
		}
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
		for i, v := range c {
			v *= a
			q[i] += v * v
		}
	}
}

// accumulate is the E-step's handler of a block during a fit: with the
// responsibilities r_ki = w_i exp(lp_ki − ll_i), it adds w_i ll_i to the
// log-likelihood and, for every component, the row's expected centred
// coordinates ĉ_i = E[x_i − μ_k | x_i,O] and conditional covariance of the
// missing coordinates to the M-step statistics (see stats).
func (s *scratch) accumulate(m *model, lay *layout, rows []int, seg *segment, marg []marginal) {
	nb := len(rows)
	r := s.r[:nb]
	ll := s.ll[:nb]
	for i, row := range rows {
		s.acc.ll += lay.weight(row) * ll[i]
	}
	for k := range m.k {
		lp := s.lp[k*blockRows : k*blockRows+nb]
		sr := 0.0
		for i, row := range rows {
			r[i] = lay.weight(row) * math.Exp(lp[i]-ll[i])
			sr += r[i]
		}
		if sr == 0 {
			continue
		}
		s.center(m, k, seg.obs, nb)
		if seg.mis != nil {
			s.impute(m, seg, &marg[k], nb)
		}
		s.acc.add(k, s.ct, r, sr, s.z[:nb])
		if seg.mis != nil {
			s.acc.addConditional(k, seg.mis, marg[k].c, sr)
		}
	}
}

// impute writes the rows mis of s.ct: the conditional expectation of the
// missing coordinates, centred, ĉ_M = A (x_O − μ_O) for a full covariance
// and 0 for a diagonal one.
func (s *scratch) impute(m *model, seg *segment, g *marginal, nb int) {
	p := len(seg.obs)
	for j, mj := range seg.mis {
		c := s.ct[mj*blockRows : mj*blockRows+nb]
		clear(c)
		if m.cov.diagonal() {
			continue
		}
		a := g.a[j*p : (j+1)*p]
		for l, ol := range seg.obs {
			floats.AddScaled(c, a[l], s.ct[ol*blockRows:ol*blockRows+nb])
		}
	}
}
