package logistic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/gendisc/gendisc/internal/mathx"
	"github.com/gendisc/gendisc/internal/parallel"
)

// Limits of the divergence monitor of an unpenalised fit (λ = 0).
const (
	// sepLoss is the mean log-loss under which a fit that classifies every
	// training row correctly stops: the data are separable.
	sepLoss = 1e-4
	// weightLimit is the largest standardised coefficient an unpenalised
	// fit may reach before it stops: the weights are growing without
	// bound (quasi-separable data).
	weightLimit = 1e3
	// roundingGrad is the gradient norm under which a line search that
	// finds no decrease counts as converged: the decrease it would find is
	// below the rounding of J in float64.
	roundingGrad = 1.5e-8 // √ε
	// growthWindow iterations in which max|w| grows by at least
	// growthMin while J changes by at most growthFlat relative mean that
	// the weights run off to infinity along a direction of constant
	// likelihood (quasi-separable data).
	growthWindow = 4
	growthMin    = 1.0
	growthFlat   = 1e-4
)

// objective is what the solvers minimise: J and ∇J at θ, and the Hessian
// of J, as sums over the rows of this process (*problem) or over rows
// elsewhere, in a driver's passes (external).
type objective interface {
	// eval computes J(θ) and writes ∇J(θ) to grad.
	eval(theta, grad []float64) evaluation
	// hessian writes the Hessian of J at θ to h (dim × dim, row major).
	hessian(theta, h []float64)
}

// shape is what the solvers know of an objective besides its values: k
// weight vectors of p weights then an intercept each, the total row
// weight W and λ.
type shape struct {
	k, p   int
	wsum   float64
	lambda float64
}

func (sh shape) dim() int { return sh.k * (sh.p + 1) }

// state is a solver's progress: the current point, J and ∇J there, and
// the counts that end up in Diagnostics.
type state struct {
	obj objective
	shape
	pr        *problem // the rows, for gd and sgd; nil for an external objective
	tol       float64
	maxIter   int
	theta     []float64
	grad      []float64
	ev        evaluation
	iters     int
	evals     int
	converged bool
	separable bool
	warning   string
	// The last growthWindow values of max|w| and J, oldest first, for
	// the divergence monitor.
	hist [growthWindow]struct{ w, j float64 }
	seen int
	// startHessian, when set, is the Hessian of the log-likelihood part
	// per unit of row weight with which Newton takes its first step
	// (FitFrom); lastHessian is the same of the last Hessian it computed,
	// or startHessian when it computed none.
	startHessian, lastHessian []float64
}

// newState starts a solver on the rows of pr at theta.
func newState(pr *problem, theta []float64, tol float64, maxIter int) *state {
	st := newStateOf(pr, shape{k: pr.k, p: pr.p, wsum: pr.wsum, lambda: pr.lambda}, theta, tol, maxIter)
	st.pr = pr
	return st
}

// newStateAt starts a solver on the rows of pr at theta, where last
// holds the log-likelihood part of the objective and its gradient: the
// first evaluation is last's with pr's penalty, without a pass over the
// rows.
func newStateAt(pr *problem, theta []float64, tol float64, maxIter int, last *lastEvaluation) *state {
	st := &state{obj: pr, shape: shape{k: pr.k, p: pr.p, wsum: pr.wsum, lambda: pr.lambda}, tol: tol, maxIter: maxIter,
		theta: theta, grad: slices.Clone(last.grad), pr: pr}
	st.ev = evaluation{nll: last.nll, wrong: last.wrong}
	st.ev.j = st.ev.nll + pr.penalty(theta, st.grad)
	return st
}

// newStateOf starts a solver on obj, of shape sh, at theta.
func newStateOf(obj objective, sh shape, theta []float64, tol float64, maxIter int) *state {
	st := &state{obj: obj, shape: sh, tol: tol, maxIter: maxIter, theta: theta, grad: make([]float64, len(theta))}
	st.ev = st.eval(theta, st.grad)
	return st
}

// eval evaluates J and ∇J at theta, counting the pass over the data.
func (st *state) eval(theta, grad []float64) evaluation {
	st.evals++
	return st.obj.eval(theta, grad)
}

// gradNorm is max_j |∂J/∂θ_j| / W, the gradient of the mean objective.
func (st *state) gradNorm() float64 { return maxAbs(st.grad) / st.wsum }

// diverging reports whether an unpenalised fit must stop because its
// maximum does not exist, and records why: every row is classified right
// with a mean log-loss under sepLoss (separable data); max|w| grew by
// growthMin over the last growthWindow iterations while J stayed flat, or
// passed weightLimit (weights growing without bound, quasi-separable
// data). Solvers call it once per iteration.
func (st *state) diverging() bool {
	if st.lambda != 0 {
		return false
	}
	w := st.maxWeight()
	copy(st.hist[:], st.hist[1:])
	st.hist[growthWindow-1].w, st.hist[growthWindow-1].j = w, st.ev.j
	st.seen++
	first := st.hist[0]
	grows := st.seen >= growthWindow && w-first.w >= growthMin && math.Abs(st.ev.j-first.j) <= growthFlat*math.Abs(st.ev.j)
	for i := 1; grows && i < growthWindow; i++ {
		grows = st.hist[i].w > st.hist[i-1].w
	}
	switch {
	case st.ev.wrong == 0 && st.ev.nll/st.wsum < sepLoss:
		st.separate(w)
	case grows || w > weightLimit:
		st.separable = true
		st.warning = fmt.Sprintf("the weights grow without bound while the likelihood stays flat (max |w| = %.3g in standardised units): "+
			"the data are quasi-separable and the maximum-likelihood weights do not exist; set an L2 penalty > 0 for a unique fit", w)
	default:
		return false
	}
	return true
}

// maxWeight is the largest standardised weight, max_c,j |w_cj|.
func (st *state) maxWeight() float64 {
	w, p, q := 0.0, st.p, st.p+1
	for c := range st.k {
		w = max(w, maxAbs(st.theta[c*q:c*q+p]))
	}
	return w
}

// separate records the warning for separable data.
func (st *state) separate(w float64) {
	st.separable, st.converged = true, false
	st.warning = fmt.Sprintf("the training data are linearly separable, so the maximum-likelihood weights do not exist (they grow without bound); "+
		"stopped at mean log-loss %.3g with max |w| = %.3g in standardised units: set an L2 penalty > 0 for a unique fit", st.ev.nll/st.wsum, w)
}

// finish checks, after any solver, that an unpenalised fit that stopped
// for another reason (the iteration limit, a tiny gradient) is not
// separating the data: if every row is classified right, it is.
func (st *state) finish() {
	if st.lambda != 0 || st.separable || st.ev.wrong != 0 {
		return
	}
	w := st.maxWeight()
	st.separate(w)
}

// diagnostics returns the Diagnostics of the solver s that ran to st.
func (st *state) diagnostics(s Solver) Diagnostics {
	return Diagnostics{
		Solver:        s,
		Iterations:    st.iters,
		Evaluations:   st.evals,
		Objective:     -st.ev.j,
		LogLikelihood: -st.ev.nll,
		GradNorm:      st.gradNorm(),
		Converged:     st.converged,
		Separable:     st.separable,
		Warning:       st.warning,
	}
}

// stopAtLimit records that the solver ran out of iterations.
func (st *state) stopAtLimit(what string) {
	st.warning = fmt.Sprintf("stopped after %d %s without converging (gradient norm %.3g, tolerance %.3g)", st.iters, what, st.gradNorm(), st.tol)
}

// gd is batch gradient descent on J/W (ascent on F):
//
//	θ ← θ − η ∇J(θ)/W
//
// A step that raises J is undone and η halved.
func (st *state) gd(step float64) {
	pr := st.pr
	if step == 0 {
		step = 1 / curvature(pr)
	}
	next, ng := make([]float64, len(st.theta)), make([]float64, len(st.theta))
	for st.iters = 0; st.iters < st.maxIter; {
		if st.diverging() {
			return
		}
		st.iters++
		floats.AddScaledTo(next, st.theta, -step/pr.wsum, st.grad)
		ev := st.eval(next, ng)
		if ev.j > st.ev.j {
			step /= 2
			continue
		}
		change := step * st.gradNorm()
		st.theta, next = next, st.theta
		st.grad, ng = ng, st.grad
		st.ev = ev
		if change < st.tol {
			st.converged = true
			return
		}
	}
	st.stopAtLimit("iterations")
}

// curvature returns L, an upper bound on the largest eigenvalue of the
// Hessian of J/W: c λ_max(Z̃ᵀVZ̃)/W + λ/W with c = 1/4 for the sigmoid and
// 1/2 for the softmax (the largest eigenvalue of diag(p) − ppᵀ). λ_max
// comes from 50 steps of power iteration, raised by 5% because power
// iteration approaches it from below.
func curvature(pr *problem) float64 {
	q, p, pd := pr.p+1, pr.p, pr.pd
	x := make([]float64, q)
	for j := range x {
		x[j] = 1
	}
	nb := parallel.Blocks(pr.n, minBlock)
	acc := make([][]float64, nb)
	for b := range acc {
		acc[b] = make([]float64, q)
	}
	ev := 0.0
	for range 50 {
		floats.Scale(1/floats.Norm(x, 2), x)
		parallel.For(pr.n, minBlock, func(b, lo, hi int) {
			a := acc[b]
			clear(a)
			for i := lo; i < hi; i++ {
				zi := pr.z[i*pd : (i+1)*pd]
				si, sv := pr.sparseRow(i)
				t := pr.v[i] * (floats.Dot(zi, x[:pd]) + sparseDot(si, sv, x[pd:p]) + x[p])
				floats.AddScaled(a[:pd], t, zi)
				sparseAdd(a[pd:p], t, si, sv)
				a[p] += t
			}
		})
		y := make([]float64, q)
		for _, a := range acc {
			floats.Add(y, a)
		}
		ev = floats.Dot(x, y)
		x = y
	}
	c := 0.25
	if pr.k > 1 {
		c = 0.5
	}
	return (1.05*c*ev + pr.lambda) / pr.wsum
}

// newton runs Newton's method on J with a backtracking (Armijo) line
// search. For the softmax the Hessian is singular along the shifts
// θ_c → θ_c + δ of every class at once, which leave the likelihood
// unchanged; the step solves
//
//	(H + μ Σ_j u_j u_jᵀ) Δ = −∇J,  u_j = Σ_c e_{c,j}
//
// instead, which leaves the component of Δ in the centred subspace
// (Σ_c θ_c fixed) equal to the Newton step there and sets the shift to
// zero, so iterates started centred stay centred.
func (st *state) newton() {
	st.lastHessian = st.startHessian
	dim := st.dim()
	sym := mat.NewSymDense(dim, nil)
	var chol mat.Cholesky
	dir := mat.NewVecDense(dim, nil)
	negGrad := mat.NewVecDense(dim, nil)
	next, ng := make([]float64, dim), make([]float64, dim)
	for st.iters = 0; ; st.iters++ {
		if st.diverging() {
			return
		}
		if st.gradNorm() < st.tol {
			st.converged = true
			return
		}
		if st.iters == st.maxIter {
			st.stopAtLimit("iterations")
			return
		}
		if h := sym.RawSymmetric().Data; st.iters == 0 && st.startHessian != nil {
			st.penalised(h, st.startHessian)
		} else {
			st.obj.hessian(st.theta, h)
			st.lastHessian = st.perWeight(h)
		}
		if !factorCentred(&chol, sym, st.shape) {
			st.warning = "the Hessian is not positive definite even with a ridge: the problem is degenerate"
			return
		}
		for u := range dim {
			negGrad.SetVec(u, -st.grad[u])
		}
		if err := chol.SolveVecTo(dir, negGrad); err != nil {
			st.warning = "the Newton system could not be solved: " + err.Error()
			return
		}
		d := dir.RawVector().Data
		slope := floats.Dot(st.grad, d)
		accepted := false
		for t := 1.0; t > 1e-12; t /= 2 {
			floats.AddScaledTo(next, st.theta, t, d)
			ev := st.eval(next, ng)
			if ev.j-st.ev.j <= 1e-4*t*slope+4e-16*math.Abs(st.ev.j) {
				st.theta, next = next, st.theta
				st.grad, ng = ng, st.grad
				st.ev = ev
				accepted = true
				break
			}
		}
		if !accepted {
			st.iters++
			if st.gradNorm() < roundingGrad {
				st.converged = true
				return
			}
			st.warning = fmt.Sprintf("the line search found no decrease at gradient norm %.3g: stopped at the limit of rounding", st.gradNorm())
			return
		}
	}
}

// perWeight returns the Hessian h of J without its penalty
// (λ on the diagonal of the weights, see problem.hessian) over the row
// weight W: the log-likelihood's part per unit of weight.
func (st *state) perWeight(h []float64) []float64 {
	dst := slices.Clone(h)
	q := st.p + 1
	for u := range st.dim() {
		if u%q != st.p {
			dst[u*st.dim()+u] -= st.lambda
		}
	}
	floats.Scale(1/st.wsum, dst)
	return dst
}

// penalised writes to h the Hessian of J whose log-likelihood part per
// unit of weight is per (perWeight): W·per + λ on the weights' diagonal.
func (st *state) penalised(h, per []float64) {
	floats.ScaleTo(h, st.wsum, per)
	q := st.p + 1
	for u := range st.dim() {
		if u%q != st.p {
			h[u*st.dim()+u] += st.lambda
		}
	}
}

// factorHessian computes the Hessian of J at θ into sym (whose backing
// array it overwrites) and factors it as factorCentred does.
func (pr *problem) factorHessian(chol *mat.Cholesky, sym *mat.SymDense, theta []float64) bool {
	pr.hessian(theta, sym.RawSymmetric().Data)
	return factorCentred(chol, sym, shape{k: pr.k, p: pr.p, wsum: pr.wsum, lambda: pr.lambda})
}

// factorCentred computes into chol the Cholesky factor of the Hessian in
// sym, of an objective of shape sh, with the softmax's shift directions
// made definite as newton describes (it overwrites sym's backing array);
// false when it is not positive definite even with a ridge.
func factorCentred(chol *mat.Cholesky, sym *mat.SymDense, sh shape) bool {
	dim, q := sh.dim(), sh.p+1
	h := sym.RawSymmetric().Data
	if sh.k > 1 {
		mu := sh.wsum / float64(sh.k)
		for u := range dim {
			for c := range sh.k {
				h[u*dim+c*q+u%q] += mu
			}
		}
	}
	return factorize(chol, sym, h, dim)
}

// factorize computes the Cholesky factor of the symmetric matrix h,
// adding a growing ridge to the diagonal when h is not numerically
// positive definite (a constant column, collinear indicators with λ = 0).
func factorize(chol *mat.Cholesky, sym *mat.SymDense, h []float64, dim int) bool {
	if chol.Factorize(sym) {
		return true
	}
	scale := 0.0
	for u := range dim {
		scale = max(scale, h[u*dim+u])
	}
	added := 0.0
	for tau := 1e-12 * max(scale, 1); tau < 1e6*max(scale, 1); tau *= 10 {
		for u := range dim {
			h[u*dim+u] += tau - added
		}
		added = tau
		if chol.Factorize(sym) {
			return true
		}
	}
	return false
}

// sgd runs stochastic gradient descent over shuffled epochs with SVRG
// variance reduction (Johnson & Zhang 2013). At the start of epoch e the
// snapshot θ̃ and the full mean gradient ḡ = ∇J(θ̃)/W are taken; then for
// each row i, in a fresh random order,
//
//	θ ← θ − η_e [ (N v_i/W)(r_i(θ) − r_i(θ̃)) ⊗ z̃_i + ḡ + (λ/W)(w − w̃) ]
//
// where r_ic = p_ic − [y_i = c] is the residual of row i, and
// η_e = η0 / (1 + e/100).
func (st *state) sgd(step float64, rng *rand.Rand) {
	pr := st.pr
	n, p, pd, q, k := pr.n, pr.p, pr.pd, pr.p+1, pr.k
	if step == 0 {
		lmax := 0.0
		for i := range n {
			zi := pr.z[i*pd : (i+1)*pd]
			_, sv := pr.sparseRow(i)
			lmax = max(lmax, pr.v[i]*(floats.Dot(zi, zi)+floats.Dot(sv, sv)+1))
		}
		c := 0.25
		if k > 1 {
			c = 0.5
		}
		step = 1 / ((c*lmax*float64(n) + pr.lambda) / pr.wsum)
	}
	perm := make([]int32, n)
	for i := range perm {
		perm[i] = int32(i)
	}
	resid := make([]float64, n*k) // r_i(θ̃)
	snap := make([]float64, len(st.theta))
	s := make([]float64, k)
	scale := float64(n) / pr.wsum
	for st.iters = 0; st.iters < st.maxIter; {
		if st.diverging() {
			return
		}
		st.iters++
		eta := step / (1 + float64(st.iters-1)/100)
		copy(snap, st.theta)
		residuals(pr, snap, resid)
		rng.Shuffle(n, func(a, b int) { perm[a], perm[b] = perm[b], perm[a] })
		for _, i32 := range perm {
			i := int(i32)
			zi := pr.z[i*pd : (i+1)*pd]
			si, sv := pr.sparseRow(i)
			th := st.theta
			rowResiduals(pr, th, i, s)
			// Dense part: the snapshot gradient and the penalty drift.
			floats.AddScaled(th, -eta/pr.wsum, st.grad)
			if pr.lambda != 0 {
				for c := range k {
					w, ws := th[c*q:c*q+p], snap[c*q:c*q+p]
					for j := range w {
						w[j] -= eta * pr.lambda / pr.wsum * (w[j] - ws[j])
					}
				}
			}
			for c := range k {
				a := -eta * scale * pr.v[i] * (s[c] - resid[i*k+c])
				floats.AddScaled(th[c*q:c*q+pd], a, zi)
				sparseAdd(th[c*q+pd:c*q+p], a, si, sv)
				th[c*q+p] += a
			}
		}
		floats.Sub(snap, st.theta)
		change := maxAbs(snap)
		st.ev = st.eval(st.theta, st.grad)
		if change < st.tol {
			st.converged = true
			return
		}
	}
	st.stopAtLimit("epochs")
}

// residuals writes r_i(θ) for every row to r (N × k), with the score
// space of each block's scratch.
func residuals(pr *problem, theta, r []float64) {
	k := pr.k
	pr.ensureBlocks()
	parallel.For(pr.n, minBlock, func(b, lo, hi int) {
		s := pr.blocks[b].s[:k]
		for i := lo; i < hi; i++ {
			rowResiduals(pr, theta, i, s)
			copy(r[i*k:(i+1)*k], s)
		}
	})
}

// rowResiduals writes r_c = p_c − [y_i = c] of row i to s (len k; for
// the sigmoid, s[0] = σ(θᵀz̃_i) − [y_i = 1]).
func rowResiduals(pr *problem, theta []float64, i int, s []float64) {
	p, pd, q, y := pr.p, pr.pd, pr.p+1, int(pr.y[i])
	z := pr.z[i*pd : (i+1)*pd]
	si, sv := pr.sparseRow(i)
	for c := range pr.k {
		th := theta[c*q : (c+1)*q]
		s[c] = floats.Dot(z, th[:pd]) + sparseDot(si, sv, th[pd:p]) + th[p]
	}
	if pr.k == 1 {
		s[0] = sigmoid(s[0]) - float64(y)
		return
	}
	m, lse := mathx.MaxLogSumExp(s)
	for c := range s {
		s[c] = math.Exp(s[c] - m - lse)
	}
	s[y]--
}

func maxAbs(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		m = max(m, math.Abs(v))
	}
	return m
}
