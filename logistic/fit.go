package logistic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"weak"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/design"
	"github.com/gendisc/gendisc/text"
)

// Fit fits logistic regression to d, whose target must be categorical with
// at least two classes, each with rows of positive weight. Text columns
// become term counts under c.Text (package text), one weight per term of
// the training vocabulary, penalised like the others and not
// standardised; newton writes them out as dense columns and refuses more
// than newtonMaxText parameters then. It returns an error for bad
// configuration values and for data problems: a missing target, a
// missing feature cell (unless Impute is set), a text column without
// terms, bad weights. A fit that stops early (the iteration limit,
// separable data with λ = 0) still returns a usable model; Diagnostics
// says why it stopped.
func (c Config) Fit(d *data.Dataset) (*Model, error) {
	return c.fit(d, nil)
}

// FitFrom is Fit started from the parameters of from, a model fitted with
// the same configuration on rows of the same columns (the whole data set
// when cross-validating a part of it, the neighbouring λ on a
// regularisation path): a warm start, which reaches the optimum of d, as
// Fit does, within the tolerance, usually in fewer iterations, though not
// to the last bit of Fit's. The parameters are those of from's
// standardised design, close to d's when the rows are alike. When from's
// parameters do not have the shape of d's (other classes, another text
// vocabulary) FitFrom starts where Fit does. L-BFGS skips its warm-up on a
// subsample of the rows when it starts from from. Newton's first step
// solves with from's last Hessian (its log-likelihood part, scaled to
// d's row weight, with d's penalty) rather than computing one at the
// start: on a regularisation path, the same rows at the neighbouring λ,
// that step is all but Newton's, at the price of one pass over the rows
// less; the later steps compute the Hessian as Fit's do. When from was
// fitted on d itself (the same *data.Dataset, unchanged) with the same
// design and class weights, as the fits of a fold along a path are,
// FitFrom also takes from's design (the columns' means and scales) and
// its last evaluation of the log-likelihood and gradient, with d's
// penalty added, instead of a pass over the rows for each.
func (c Config) FitFrom(d *data.Dataset, from *Model) (*Model, error) {
	return c.fit(d, from)
}

// fit is Fit started from the parameters of from when from is not nil
// and they have the length of those of d's fit; from the design and the
// last evaluation of from too when from was fitted on d itself
// (sameRows).
func (c Config) fit(d *data.Dataset, from *Model) (*Model, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	last := from.sameRows(d, c)
	y, classW, v := last.targets()
	var err error
	if y == nil {
		if y, classW, err = classes(d); err != nil {
			return nil, err
		}
	}
	enc := last.encoder(from)
	if enc == nil {
		if enc, err = design.Fit(d, c.designOptions()); err != nil {
			return nil, err
		}
	}
	K := len(classW)
	k := K
	if K == 2 {
		k = 1
	}
	P, V := enc.P(), enc.V()
	dim := k * (P + V + 1)
	solver, err := c.solver(dim, V)
	if err != nil {
		return nil, err
	}
	if v == nil {
		v = rowWeights(d, y, classW, c.ClassWeight)
	}
	lambda := c.lambda()
	// Newton and L-BFGS only evaluate sums over rows, which can run on the
	// raw features with the standardisation folded into the parameters;
	// gd's curvature estimate and sgd's steps need the design rows.
	var pr *problem
	if x, center, scale, ok := enc.Raw(d); ok && (solver == Newton || solver == LBFGS) {
		pr = newProblem(x, d.N, P, k, y, v, lambda)
		pr.setAffine(center, scale)
	} else {
		z := enc.Encode(d)
		if solver == Newton {
			z = z.Densify()
		}
		pr = newProblem(z.Dense, z.N, z.P, k, y, v, lambda)
		if z.Sparse != nil {
			pr.setSparse(z.Sparse)
		}
	}

	theta := initialTheta(pr)
	warm := from != nil && len(from.theta) == len(theta)
	if warm {
		copy(theta, from.theta)
	}
	var mem *lbfgsMemory
	switch {
	case solver == LBFGS && warm:
		mem = &lbfgsMemory{}
	case solver == LBFGS:
		theta, mem = warmStart(pr, theta, c.maxIter(solver))
	}
	var st *state
	if warm && last != nil {
		st = newStateAt(pr, theta, c.tol(solver), c.maxIter(solver), last)
	} else {
		st = newState(pr, theta, c.tol(solver), c.maxIter(solver))
	}
	st.evals += mem.passes()
	if warm && len(from.hessian) == dim*dim {
		st.startHessian = from.hessian
	}
	switch solver {
	case GD:
		st.gd(c.Step)
	case SGD:
		rng := c.Rand
		if rng == nil {
			rng = rand.New(rand.NewPCG(1, 0))
		}
		st.sgd(c.Step, rng)
	case Newton:
		st.newton()
	case LBFGS:
		st.lbfgs(mem)
	}
	st.finish()
	m := &Model{
		schema: d.Schema,
		enc:    enc,
		k:      k,
		theta:  st.theta,
		lambda: lambda,
		impute: c.Impute,
		// The class weights change the fitted weights, not how they
		// predict; the model keeps them so that inspect can say how it
		// was fitted.
		classWeight:      c.ClassWeight,
		classWeightKnown: true,
		diag:             st.diagnostics(solver),
		hessian:          st.lastHessian,
	}
	if (solver == Newton || solver == LBFGS) && lambda != 0 { // else finish may move θ off the last evaluation
		m.last = &lastEvaluation{rows: weak.Make(d), fitted: c.fitKey(),
			nll: st.ev.nll, wrong: st.ev.wrong, grad: pr.withoutPenalty(st.theta, st.grad)}
		if from != nil { // a fit of a path or of a fold, which the next may take them from
			m.last.y, m.last.classW, m.last.v = y, classW, v
		}
	}
	if err := m.checkFinite(); err != nil {
		return nil, err
	}
	return m, nil
}

// solver returns the solver of a fit of dim parameters, V of them the
// weights of text terms: c.Solver, or for Auto Newton up to
// newtonMaxParams parameters and L-BFGS beyond; an error for Newton with
// text columns and more than newtonMaxText parameters.
func (c *Config) solver(dim, V int) (Solver, error) {
	switch {
	case c.Solver == Auto && dim <= newtonMaxParams:
		return Newton, nil
	case c.Solver == Auto:
		return LBFGS, nil
	case c.Solver == Newton && V > 0 && dim > newtonMaxText:
		return "", fmt.Errorf("logistic: newton forms the Hessian of all %d parameters, too many with text columns (at most %d): "+
			"use lbfgs, or keep fewer terms (Text.MaxFeatures, Text.MinDF)", dim, newtonMaxText)
	}
	return c.Solver, nil
}

// classes returns the class index of every row and the total sample
// weight of each class, checking the target.
func classes(d *data.Dataset) ([]int32, []float64, error) {
	y, tot, err := targets(d)
	if err != nil {
		return nil, nil, err
	}
	if err := checkClasses(d.Source.Name, d.Schema.Target, tot); err != nil {
		return nil, nil, err
	}
	return y, tot, nil
}

// targets returns the class index of every row of d and the total sample
// weight of each class, checking that the target is categorical and has
// no missing value.
func targets(d *data.Dataset) ([]int32, []float64, error) {
	t := d.Schema.Target
	switch {
	case t == nil || d.Y == nil:
		return nil, nil, fmt.Errorf("%s: logistic regression needs a target column", d.Source)
	case t.Kind != data.Categorical:
		return nil, nil, fmt.Errorf("%s: target %q is %s: logistic regression needs a categorical target", d.Source, t.Name, t.Kind)
	}
	y := make([]int32, d.N)
	tot := make([]float64, len(t.Levels))
	for i, v := range d.Y {
		if v != v {
			return nil, nil, &data.ParseError{File: d.Source.Name, Line: d.Line(i), ColumnName: t.Name, Err: data.ErrMissingTarget}
		}
		if v < 0 || int(v) >= len(t.Levels) || v != math.Trunc(v) {
			panic(fmt.Sprintf("logistic: row %d: target %v is not a class index", i, v))
		}
		y[i] = int32(v)
		tot[y[i]] += weight(d, i)
	}
	return y, tot, nil
}

// checkClasses returns an error unless target t has at least two
// classes, each with a positive total weight.
func checkClasses(source string, t *data.Column, tot []float64) error {
	if len(t.Levels) < 2 {
		return fmt.Errorf("%s: target %q has %d class: logistic regression needs at least two", source, t.Name, len(t.Levels))
	}
	for c, w := range tot {
		if w == 0 {
			return fmt.Errorf("%s: class %q has no training rows of positive weight", source, t.Levels[c])
		}
	}
	return nil
}

// rowWeights returns v_i = sample weight × class weight.
func rowWeights(d *data.Dataset, y []int32, tot []float64, cw ClassWeight) []float64 {
	v := make([]float64, d.N)
	scale := classScale(tot, cw)
	for i := range v {
		v[i] = weight(d, i) * scale[y[i]]
	}
	return v
}

// classScale returns the class weight of each class given the total
// sample weight tot[c] of each: 1, or W/(K W_c) when balanced.
func classScale(tot []float64, cw ClassWeight) []float64 {
	scale := make([]float64, len(tot))
	W := 0.0
	for _, w := range tot {
		W += w
	}
	for c := range scale {
		scale[c] = 1
		if cw == Balanced {
			scale[c] = W / (float64(len(tot)) * tot[c])
		}
	}
	return scale
}

func weight(d *data.Dataset, i int) float64 {
	if d.Weight == nil {
		return 1
	}
	return d.Weight[i]
}

// initialTheta returns zero weights and the intercepts of the model
// without features: log(W₁/W₀) for the sigmoid, log W_c − mean_l log W_l
// for the softmax (centred, see newton).
func initialTheta(pr *problem) []float64 {
	tot := make([]float64, max(pr.k, 2))
	for i, v := range pr.v {
		tot[pr.y[i]] += v
	}
	return startTheta(pr.p, pr.k, tot)
}

// startTheta returns initialTheta's θ for p weights per vector, k
// vectors and the total row weight tot[c] of each class.
func startTheta(p, k int, tot []float64) []float64 {
	q := p + 1
	theta := make([]float64, k*q)
	if k == 1 {
		theta[p] = math.Log(tot[1] / tot[0])
		return theta
	}
	mean := 0.0
	for _, t := range tot {
		mean += math.Log(t) / float64(k)
	}
	for c, t := range tot {
		theta[c*q+p] = math.Log(t) - mean
	}
	return theta
}

// sameRows returns the last evaluation of m (nil for none) when m was
// fitted by a Newton or L-BFGS fit on d itself, still alive, with the
// design and class weights of c: FitFrom then starts from it.
func (m *Model) sameRows(d *data.Dataset, c Config) *lastEvaluation {
	if m == nil || m.last == nil || m.last.rows.Value() != d || m.last.fitted != c.fitKey() {
		return nil
	}
	return m.last
}

// targets returns the classes, the class weights and the row weights of
// the rows of last (those of classes and rowWeights), nil for none: a
// model of FitFrom keeps them (shared along a path, one copy for all its
// fits), one of Fit does not, so that a model kept for predictions holds
// nothing in proportion to its training rows.
func (last *lastEvaluation) targets() (y []int32, classW, v []float64) {
	if last == nil {
		return nil, nil, nil
	}
	return last.y, last.classW, last.v
}

// encoder returns the design of from when last, from's last evaluation,
// is not nil, and nil otherwise.
func (last *lastEvaluation) encoder(from *Model) *design.Encoder {
	if last == nil {
		return nil
	}
	return from.enc
}

// fitKey is what of a configuration decides the design and the row
// weights of a fit, and so its log-likelihood: two fits of the same rows
// with the same key evaluate the same function.
type fitKey struct {
	impute, noStandardize bool
	text                  text.VectorizerConfig
	classWeight           ClassWeight
}

func (c Config) fitKey() fitKey {
	return fitKey{c.Impute, c.NoStandardize, c.Text, c.ClassWeight}
}
