package crf

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/optimize"
)

// The line search constants of libLBFGS, which CRFsuite keeps.
const (
	lsDecrease = 1e-4  // ftol, sufficient decrease
	lsCurv     = 0.9   // gtol (Moré–Thuente), wolfe
	lsStepTol  = 1e-16 // xtol
	lsMinStep  = 1e-20
	lsMaxStep  = 1e20
)

// stopReason is how a run of the optimiser ended.
type stopReason int

const (
	stopConverged  stopReason = iota // ‖g‖/max(1, ‖w‖) ≤ ε
	stopDelta                        // relative improvement over Period below δ
	stopMaxIter                      // MaxIter iterations
	stopLinesearch                   // the line search failed; w is the last iterate
)

// optimum is the outcome of a minimisation.
type optimum struct {
	iters  int
	f      float64 // the objective at w, with the L1 term
	reason stopReason
	err    error // the line search's failure, for stopLinesearch
}

// lbfgsSettings are CRFsuite's lbfgs parameters.
type lbfgsSettings struct {
	c1            float64 // > 0: OWL-QN on f + c1 ‖w‖₁
	memory        int
	epsilon       float64
	period        int
	delta         float64
	maxIter       int // 0: no limit
	maxLinesearch int
	progress      func(iter int, f, wnorm, gnorm float64, trials int)
}

// minimise minimises eval (which returns f(w) and writes ∇f(w)) from w,
// in place, by L-BFGS, or by OWL-QN when c1 > 0, as libLBFGS does (see
// the package documentation).
func minimise(eval func(w, g []float64) float64, w []float64, set lbfgsSettings) optimum {
	n := len(w)
	g, pg := make([]float64, n), make([]float64, n)
	xp, gp, d := make([]float64, n), make([]float64, n), make([]float64, n)
	s, y := make([][]float64, set.memory), make([][]float64, set.memory)
	ys, alpha := make([]float64, set.memory), make([]float64, set.memory)
	for i := range s {
		s[i], y[i] = make([]float64, n), make([]float64, n)
	}
	owl := set.c1 > 0
	fx := eval(w, g)
	if owl {
		fx += set.c1 * floats.Norm(w, 1)
		pseudoGradient(pg, w, g, set.c1)
	} else {
		copy(pg, g)
	}
	past := make([]float64, max(1, set.period))
	past[0] = fx
	for i := range d {
		d[i] = -pg[i]
	}
	if floats.Norm(pg, 2)/max(1, floats.Norm(w, 2)) <= set.epsilon {
		return optimum{f: fx, reason: stopConverged}
	}
	step := 1 / floats.Norm(d, 2)
	end := 0
	for k := 1; ; k++ {
		copy(xp, w)
		copy(gp, g)
		fprev := fx
		var trials int
		var err error
		if owl {
			fx, trials, err = owlqnBacktrack(eval, w, g, d, xp, pg, fx, step, set)
			if err == nil {
				pseudoGradient(pg, w, g, set.c1)
			}
		} else {
			fx, trials, err = moreThuente(eval, w, g, d, xp, fx, step, set.maxLinesearch)
			copy(pg, g)
		}
		if err != nil {
			copy(w, xp)
			copy(g, gp)
			return optimum{iters: k - 1, f: fprev, reason: stopLinesearch, err: err}
		}
		wnorm, gnorm := floats.Norm(w, 2), floats.Norm(pg, 2)
		if set.progress != nil {
			set.progress(k, fx, wnorm, gnorm, trials)
		}
		if gnorm/max(1, wnorm) <= set.epsilon {
			return optimum{iters: k, f: fx, reason: stopConverged}
		}
		if set.period > 0 {
			if set.period <= k && (past[k%set.period]-fx)/fx < set.delta {
				return optimum{iters: k, f: fx, reason: stopDelta}
			}
			past[k%set.period] = fx
		} else {
			past[0] = fx
		}
		if set.maxIter != 0 && set.maxIter < k+1 {
			return optimum{iters: k, f: fx, reason: stopMaxIter}
		}
		// The newest correction pair and the two-loop recursion
		// (Nocedal 1980), d = −H·pg with H₀ = (sᵀy / yᵀy) I.
		floats.SubTo(s[end], w, xp)
		floats.SubTo(y[end], g, gp)
		ys[end] = floats.Dot(y[end], s[end])
		yy := floats.Dot(y[end], y[end])
		bound := min(set.memory, k)
		end = (end + 1) % set.memory
		for i := range d {
			d[i] = -pg[i]
		}
		j := end
		for range bound {
			j = (j + set.memory - 1) % set.memory
			alpha[j] = floats.Dot(s[j], d) / ys[j]
			floats.AddScaled(d, -alpha[j], y[j])
		}
		floats.Scale(ys[(end+set.memory-1)%set.memory]/yy, d)
		for range bound {
			beta := floats.Dot(y[j], d) / ys[j]
			floats.AddScaled(d, alpha[j]-beta, s[j])
			j = (j + 1) % set.memory
		}
		if owl {
			for i := range d {
				if d[i]*pg[i] >= 0 {
					d[i] = 0
				}
			}
		}
		step = 1
	}
}

// moreThuente searches along d from xp (where f is finit and the gradient
// is in g) with gonum's Moré–Thuente line search and libLBFGS's constants,
// leaving the accepted point in w and its gradient in g; it returns f there
// and the number of evaluations. A step that satisfies the strong Wolfe
// conditions at the last allowed trial is accepted (libLBFGS refuses it).
func moreThuente(eval func(w, g []float64) float64, w, g, d, xp []float64, finit, step float64, maxTrials int) (float64, int, error) {
	dginit := floats.Dot(g, d)
	if !(dginit < 0) {
		return 0, 0, errors.New("the search direction does not descend")
	}
	mt := &optimize.MoreThuente{DecreaseFactor: lsDecrease, CurvatureFactor: lsCurv, StepTolerance: lsStepTol,
		MinimumStep: lsMinStep, MaximumStep: lsMaxStep}
	mt.Init(finit, dginit, step)
	for trials := 1; ; trials++ {
		floats.AddScaledTo(w, xp, step, d)
		f := eval(w, g)
		op, next, err := mt.Iterate(f, floats.Dot(g, d))
		switch {
		case err != nil:
			return 0, trials, fmt.Errorf("the line search failed after %d trials: %v", trials, err)
		case op == optimize.MajorIteration:
			return f, trials, nil
		case trials >= maxTrials:
			return 0, trials, fmt.Errorf("the line search found no acceptable step in %d trials", trials)
		}
		step = next
	}
}

// owlqnBacktrack is libLBFGS's line search of OWL-QN: steps halve from
// step until f + c1‖w‖₁ decreases enough, w = π(xp + step·d) projected on
// the orthant of xp (of −pg where xp is 0).
func owlqnBacktrack(eval func(w, g []float64) float64, w, g, d, xp, pg []float64, finit, step float64, set lbfgsSettings) (float64, int, error) {
	for trials := 1; ; trials++ {
		floats.AddScaledTo(w, xp, step, d)
		for i, x := range w {
			orth := xp[i]
			if orth == 0 {
				orth = -pg[i]
			}
			if x*orth <= 0 {
				w[i] = 0
			}
		}
		f := eval(w, g) + set.c1*floats.Norm(w, 1)
		dgtest := 0.0
		for i := range w {
			dgtest += (w[i] - xp[i]) * pg[i]
		}
		switch {
		case f <= finit+lsDecrease*dgtest:
			return f, trials, nil
		case step < lsMinStep:
			return 0, trials, errors.New("the line search reached the smallest step")
		case trials >= set.maxLinesearch:
			return 0, trials, fmt.Errorf("the line search found no acceptable step in %d trials", trials)
		}
		step *= 0.5
	}
}

// pseudoGradient writes the pseudo-gradient of f + c1‖w‖₁ (Andrew & Gao
// 2007) to pg: ∂f/∂w_i + c1·sign(w_i), and at w_i = 0 the one-sided
// derivative that descends, or 0 when neither does.
func pseudoGradient(pg, w, g []float64, c1 float64) {
	for i, x := range w {
		switch {
		case x < 0:
			pg[i] = g[i] - c1
		case x > 0:
			pg[i] = g[i] + c1
		case g[i] < -c1:
			pg[i] = g[i] + c1
		case g[i] > c1:
			pg[i] = g[i] - c1
		default:
			pg[i] = 0
		}
	}
}

// describe is the warning for a run that did not converge, or "".
func (o optimum) describe(maxIter int) string {
	switch o.reason {
	case stopMaxIter:
		return fmt.Sprintf("L-BFGS stopped at the iteration limit (%d) before convergence", maxIter)
	case stopLinesearch:
		return fmt.Sprintf("L-BFGS stopped after %d iterations: %v", o.iters, o.err)
	}
	return ""
}
