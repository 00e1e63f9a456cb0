package logistic

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
)

// lbfgsStore is the number of correction pairs L-BFGS keeps: more than
// gonum's default 15, which saves a quarter of the passes on softmax
// problems at a cost of O(store × dim) per iteration.
const lbfgsStore = 30

// lbfgs minimises J by limited-memory BFGS: the directions come from the
// two-loop recursion over the last lbfgsStore correction pairs (lbfgsMemory),
// the steps from gonum's More–Thuente line search, which satisfies the
// strong Wolfe conditions (optimize.LinesearchMethod). Each trial point
// costs one pass over the data, which gives J and ∇J together. mem holds
// the pairs to start from (see warmStart), or none.
func (st *state) lbfgs(mem *lbfgsMemory) {
	if st.gradNorm() < st.tol {
		st.converged = true
		return
	}
	ls := &optimize.LinesearchMethod{NextDirectioner: mem, Linesearcher: &optimize.MoreThuente{}}
	loc := &optimize.Location{X: append([]float64(nil), st.theta...), F: st.ev.j, Gradient: append([]float64(nil), st.grad...)}
	// The last point evaluated, which the line search may ask for again.
	last := struct {
		x, g []float64
		ev   evaluation
	}{append([]float64(nil), loc.X...), append([]float64(nil), loc.Gradient...), st.ev}
	op, err := ls.Init(loc)
	for ; err == nil; op, err = ls.Iterate(loc) {
		if op&(optimize.FuncEvaluation|optimize.GradEvaluation) != 0 {
			if !floats.Equal(loc.X, last.x) {
				copy(last.x, loc.X)
				last.ev = st.eval(last.x, last.g)
			}
			loc.F = last.ev.j
			copy(loc.Gradient, last.g)
			continue
		}
		if op != optimize.MajorIteration {
			panic(fmt.Sprintf("logistic: unexpected operation %v of the line search", op))
		}
		st.iters++
		copy(st.theta, loc.X)
		copy(st.grad, loc.Gradient)
		st.ev = last.ev
		switch {
		case st.gradNorm() < st.tol:
			st.converged = true
			return
		case st.diverging():
			return
		case st.iters >= st.maxIter:
			st.stopAtLimit("iterations")
			return
		}
	}
	if st.gradNorm() < roundingGrad {
		st.converged = true // the line search hit the rounding of J
		return
	}
	st.warning = fmt.Sprintf("L-BFGS stopped at gradient norm %.3g: %v", st.gradNorm(), err)
}

// lbfgsMemory is the curvature L-BFGS has learnt: the last lbfgsStore
// correction pairs s_j = θ_{j+1} − θ_j, y_j = ∇J(θ_{j+1}) − ∇J(θ_j) with
// ρ_j = 1/(s_jᵀy_j), oldest first. As an optimize.NextDirectioner it
// gives the direction d = −H∇J of the two-loop recursion (Nocedal &
// Wright, algorithm 7.4), H the inverse-Hessian approximation built from
// the pairs on top of H₀ (h0, or (sᵀy / yᵀy) I of the newest pair), and
// adds a pair at each step; it goes along −∇J when it has neither.
type lbfgsMemory struct {
	s, y  [][]float64
	rho   []float64
	alpha []float64
	x, g  []float64 // the point of the last direction and its gradient
	// subPasses counts the passes over the subsample of a warm start.
	subPasses int
	// h0, when set, is the Cholesky factor of an approximation of the
	// Hessian divided by h0Scale; H₀ = h0Scale · h0⁻¹ replaces γI as the
	// recursion's initial matrix.
	h0      *mat.Cholesky
	h0Scale float64
}

// InitDirection implements optimize.NextDirectioner.
func (m *lbfgsMemory) InitDirection(loc *optimize.Location, dir []float64) float64 {
	m.x, m.g = append(m.x[:0], loc.X...), append(m.g[:0], loc.Gradient...)
	if len(m.s) == 0 && m.h0 == nil {
		floats.ScaleTo(dir, -1, loc.Gradient)
		return 1 / floats.Norm(dir, 2)
	}
	m.direction(loc.Gradient, dir)
	return 1
}

// NextDirection implements optimize.NextDirectioner.
func (m *lbfgsMemory) NextDirection(loc *optimize.Location, dir []float64) float64 {
	s, y := make([]float64, len(dir)), make([]float64, len(dir))
	if len(m.s) == lbfgsStore {
		s, y = m.s[0], m.y[0]
		m.s, m.y, m.rho = m.s[1:], m.y[1:], m.rho[1:]
	}
	floats.SubTo(s, loc.X, m.x)
	floats.SubTo(y, loc.Gradient, m.g)
	m.add(s, y)
	copy(m.x, loc.X)
	copy(m.g, loc.Gradient)
	m.direction(loc.Gradient, dir)
	return 1
}

// add appends the pair (s, y) when sᵀy > 0 (under the strong Wolfe
// conditions on a convex J it is; a pair without positive curvature
// would make H indefinite and is left out).
func (m *lbfgsMemory) add(s, y []float64) {
	sy := floats.Dot(s, y)
	if !(sy > 0) {
		return
	}
	m.s, m.y, m.rho = append(m.s, s), append(m.y, y), append(m.rho, 1/sy)
}

// direction sets d = −H g by the two-loop recursion, or to −g/‖g‖ when
// there is neither a pair nor h0 (every pair so far lacked curvature).
func (m *lbfgsMemory) direction(g, d []float64) {
	n := len(m.s)
	if n == 0 && m.h0 == nil {
		floats.ScaleTo(d, -1/floats.Norm(g, 2), g)
		return
	}
	if cap(m.alpha) < n {
		m.alpha = make([]float64, lbfgsStore)
	}
	m.alpha = m.alpha[:n]
	copy(d, g)
	for j := n - 1; j >= 0; j-- {
		m.alpha[j] = m.rho[j] * floats.Dot(m.s[j], d)
		floats.AddScaled(d, -m.alpha[j], m.y[j])
	}
	if m.h0 != nil {
		v := mat.NewVecDense(len(d), d)
		if err := m.h0.SolveVecTo(v, v); err != nil {
			panic("logistic: " + err.Error()) // h0 was factorised: not singular
		}
		floats.Scale(m.h0Scale, d)
	} else {
		floats.Scale(floats.Dot(m.s[n-1], m.y[n-1])/floats.Dot(m.y[n-1], m.y[n-1]), d)
	}
	for j := range n {
		b := m.rho[j] * floats.Dot(m.y[j], d)
		floats.AddScaled(d, m.alpha[j]-b, m.s[j])
	}
	floats.Scale(-1, d)
}

// scaleCurvature multiplies every y_j by c (and ρ_j by 1/c): the pairs of
// an objective that is c times smaller, applied to the full one.
func (m *lbfgsMemory) scaleCurvature(c float64) {
	for j := range m.y {
		floats.Scale(c, m.y[j])
		m.rho[j] /= c
	}
}

// Warm starts of L-BFGS on many rows. The penalised objective is a sum
// over rows, so on a random subsample S of rows with the penalty scaled
// alike, J_S(θ) = Σ_{i ∈ S} ℓ_i(θ) + (W_S/W)(λ/2)‖w‖² ≈ (W_S/W) J(θ), its
// minimiser lies within O(|S|^−½) of J's and its curvature is W_S/W times
// J's. L-BFGS first minimises J_S, loosely, for a fraction of a pass per
// iteration; the fit on every row then starts at its minimiser with its
// correction pairs, y_j scaled by W/W_S, and so with a good model of the
// curvature from the first step; with a Hessian formed at that minimiser
// as H₀, on 500,000 × 100 rows the fit takes 7 passes over all the rows
// (binary) and 8 (5 classes) instead of 20 and 22 from a cold start.
const (
	// warmRows is the least number of rows for which lbfgs warms up on
	// a subsample.
	warmRows = 100_000
	// warmShare is the subsample's share of the rows, 1/warmShare.
	warmShare = 16
	// warmTol is the gradient tolerance of the subsample's fit: its
	// minimiser is only as close to J's as the sampling allows.
	warmTol = 1e-4
	// precondMaxDim is the largest number of parameters for which the
	// warm start also forms a Hessian at the subsample's minimiser, for
	// the initial matrix H₀ of the recursion: L-BFGS then converges about
	// as fast as Newton's method does from there, in a handful of passes.
	// Dense columns only (the Hessian does not take the sparse ones).
	precondMaxDim = 512
	// warmMinRows is the least number of rows of positive weight every
	// class must have in the subsample: a class it lacks would send that
	// class's intercept off towards −∞ and leave a useless curvature
	// there, so a fit with a class that rare starts cold.
	warmMinRows = 10
)

// hessBudget bounds n_H·dim², n_H the rows the Hessian is formed on: the
// subsample's, or a random part of them when there are more than
// hessBudget/dim² (at least 8·dim, enough for H₀, at precondMaxDim).
// Forming it costs n_H·dim²/2 multiply-adds, a few passes' worth. A
// variable so that tests can take the second branch on small problems.
var hessBudget = 1 << 30

// warmStart returns the starting point and correction pairs of the fit of
// pr from theta: with at least warmRows rows and a penalty (without one
// the subsample could be separable where the data are not), the minimiser
// and the pairs, y_j scaled by W/W_S, of an L-BFGS fit on a random
// subsample of the rows; otherwise theta and empty pairs. The subsample is
// the same for the same data.
func warmStart(pr *problem, theta []float64, maxIter int) ([]float64, *lbfgsMemory) {
	mem := &lbfgsMemory{}
	if pr.n < warmRows || pr.lambda == 0 {
		return theta, mem
	}
	rng := rand.New(rand.NewPCG(uint64(pr.n), warmShare))
	sub := pr.subsample(pr.n/warmShare, rng)
	if !sub.everyClass(warmMinRows) {
		return theta, mem
	}
	ws := newState(sub, append([]float64(nil), theta...), warmTol, maxIter)
	ws.lbfgs(mem)
	if len(mem.s) == 0 || !allFinite(ws.theta) {
		return theta, &lbfgsMemory{}
	}
	mem.scaleCurvature(pr.wsum / sub.wsum)
	mem.subPasses = ws.evals
	if dim := pr.dim(); pr.sp == nil && dim <= precondMaxDim {
		// The Hessian of the subsample (or a part of it) at its minimiser,
		// W/W_H times, for H₀.
		hs := sub
		if nh := hessBudget / (dim * dim); nh < sub.n {
			hs = sub.subsample(nh, rng)
		}
		var chol mat.Cholesky
		if hs.factorHessian(&chol, mat.NewSymDense(dim, nil), ws.theta) {
			mem.h0, mem.h0Scale = &chol, hs.wsum/pr.wsum
		}
		mem.subPasses += (hs.n*warmShare + pr.n - 1) / pr.n // in passes over the subsample
	}
	return ws.theta, mem
}

// everyClass reports whether every class (both, for the sigmoid) has at
// least min rows of positive weight.
func (pr *problem) everyClass(min int) bool {
	count := make([]int, max(pr.k, 2))
	for i, c := range pr.y {
		if pr.v[i] > 0 {
			count[c]++
		}
	}
	for _, n := range count {
		if n < min {
			return false
		}
	}
	return true
}

// passes is the warm-up's cost in passes over all the rows: its passes
// over the subsample, each 1/warmShare of one, rounded up.
func (m *lbfgsMemory) passes() int {
	if m == nil {
		return 0
	}
	return (m.subPasses + warmShare - 1) / warmShare
}

// allFinite reports whether every x_i is finite.
func allFinite(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
