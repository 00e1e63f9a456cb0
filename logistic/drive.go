package logistic

import (
	"fmt"
	"slices"
)

// Solve minimises the objective J of p, a fit set up over rows that this
// process does not hold (SetupAccumulator.Problem), by the solver Fit runs
// for c, Newton or L-BFGS (Auto choosing by the number of parameters as
// Fit does), with Fit's stopping rules (Tol, MaxIter, and with λ = 0 the
// checks for separable data), from p.Start(). It evaluates J where the
// solver needs it by pass, which returns the merged Pass over all the
// rows at θ (made by p.NewPass), with the Hessian when hessian is set:
// Newton asks for it at every point, those of the line search included,
// so that the Hessian of the point it accepts comes in the same pass as
// the gradient. Solve returns the model of the solution with Fit's
// Diagnostics, Evaluations counting the calls of pass, or the first error
// of pass.
//
// Fit runs the same solver on the rows in memory. One difference: on
// 100,000 rows or more, Fit's L-BFGS warms up on a subsample, which Solve
// does not hold, so Solve's L-BFGS starts cold; it stops at the same
// tolerance of the same optimum. c must have the configuration of p's
// setup (λ, class weights, standardisation, imputation, text), else a
// *gendisc.MergeError; gd and sgd, which step over single rows, are refused.
func (c Config) Solve(p *Problem, pass func(theta []float64, hessian bool) (*Pass, error)) (m *Model, err error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	if c.key() != p.cfg.key() {
		return nil, configMismatch(p.cfg, c)
	}
	solver, err := c.solver(p.Dim(), p.enc.V())
	if err != nil {
		return nil, err
	}
	if solver != Newton && solver != LBFGS {
		return nil, fmt.Errorf("logistic: solver %s needs the rows in memory: Solve runs newton or lbfgs", solver)
	}
	ext := &external{prob: p, pass: pass, hess: solver == Newton}
	defer func() {
		r := recover()
		if e, ok := r.(passError); ok {
			m, err = nil, e.err
		} else if r != nil {
			panic(r)
		}
	}()
	first := ext.at(p.start, ext.hess)
	st := newStateOf(ext, shape{k: p.k, p: p.p, wsum: first.weight, lambda: p.lambda}, p.Start(), c.tol(solver), c.maxIter(solver))
	switch solver {
	case Newton:
		st.newton()
	case LBFGS:
		st.lbfgs(&lbfgsMemory{})
	}
	st.finish()
	m = &Model{schema: p.schema, enc: p.enc, k: p.k, theta: st.theta, lambda: p.lambda, impute: p.cfg.Impute, diag: st.diagnostics(solver)}
	m.diag.Evaluations = ext.calls
	if err := m.checkFinite(); err != nil {
		return nil, err
	}
	return m, nil
}

// external is the objective of a Problem evaluated by a driver's passes
// over the rows, the last pass kept for the Hessian and for a point asked
// for again.
type external struct {
	prob  *Problem
	pass  func(theta []float64, hessian bool) (*Pass, error)
	hess  bool // ask for the Hessian at every point
	last  *Pass
	calls int
}

// passError carries an error of the driver's pass out of the solver.
type passError struct{ err error }

// at returns the pass at θ, with the Hessian when hess is set; it panics
// with a passError when the driver's pass fails.
func (e *external) at(theta []float64, hess bool) *Pass {
	if e.last != nil && slices.Equal(e.last.theta, theta) && (!hess || e.last.hess != nil) {
		return e.last
	}
	e.calls++
	s, err := e.pass(slices.Clone(theta), hess)
	switch {
	case err != nil:
	case s.prob != e.prob:
		err = fmt.Errorf("logistic: Solve: a pass of another problem")
	case !slices.Equal(s.theta, theta) || (hess && s.hess == nil):
		err = fmt.Errorf("logistic: Solve: a pass at another θ, or without the Hessian asked for")
	case !(s.weight > 0):
		err = fmt.Errorf("logistic: Solve: a pass over rows of total weight %v", s.weight)
	}
	if err != nil {
		panic(passError{err})
	}
	e.last = s
	return s
}

func (e *external) eval(theta, grad []float64) evaluation {
	s := e.at(theta, e.hess)
	j, g, _ := s.Objective()
	copy(grad, g)
	return evaluation{j: j, nll: s.loss, wrong: s.wrong}
}

func (e *external) hessian(theta, h []float64) {
	_, _, hs := e.at(theta, true).Objective()
	copy(h, hs)
}
