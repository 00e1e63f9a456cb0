package mixture

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gendisc/gendisc/data"
)

// minWeight is the mixing weight under which a component has collapsed
// and is re-seeded.
const minWeight = 1e-10

// Fit fits a mixture of c.Components Gaussians to the numeric features of
// d by EM, from c.Restarts starting points drawn with rng, and returns the
// run with the largest final log-likelihood. Row weights d.Weight, when
// set, weight every row's contribution to the log-likelihood. The target
// column of d, if any, is ignored.
//
// Iteration t of a run, from the parameters θ_t, is
//
//	E-step:  r_ik = π_k N(x_i; μ_k, Σ_k) / Σ_l π_l N(x_i; μ_l, Σ_l)
//	         ℓ(θ_t) = Σ_i w_i log Σ_k π_k N(x_i; μ_k, Σ_k)
//	M-step:  θ_t+1 = the weighted maximum-likelihood parameters with
//	         weights w_i r_ik (see the covariance types), regularised
//	         by RegCovar (see Regularization)
//
// and stops after MaxIter iterations or when |ℓ(θ_t) − ℓ(θ_t−1)| / Σ_i w_i
// < Tol. A row with missing cells (NaN) enters the E-step through the
// marginal density of its observed coordinates O, and the M-step through
// its expected sufficient statistics given x_O under component k:
// E[x_M | x_O] and E[x_M x_Mᵀ | x_O] (the conditional mean and
// covariance), which is the exact EM for the observed-data likelihood.
//
// A component whose weight falls under 1e-10 or whose covariance is not
// positive definite is re-seeded at a random row with the pooled
// covariance; the model records a warning. Fit returns an error for data
// it cannot fit: a feature that is not numeric, an infinite value, a
// negative or NaN row weight, a feature with no observed value, more
// components than rows. It panics if rng is nil.
func (c Config) Fit(d *data.Dataset, rng *rand.Rand) (*GMM, error) {
	if rng == nil {
		panic("mixture: Fit with a nil *rand.Rand")
	}
	set, err := c.settings()
	if err != nil {
		return nil, err
	}
	lay, err := prepare(d)
	if err != nil {
		return nil, err
	}
	if set.Components > lay.n {
		return nil, fmt.Errorf("mixture: %d components for %d rows of %s", set.Components, lay.n, source(d))
	}
	f := newFitter(set, lay)
	f.lines = d.Source.Lines
	var runs []*run
	if set.Start != nil {
		m, err := fromParams(set.Covariance, set.Components, lay.d, set.Start)
		if err != nil {
			return nil, fmt.Errorf("mixture: starting parameters: %w", err)
		}
		run, err := f.em(0, m, rng)
		if err != nil {
			return nil, err
		}
		runs = append(runs, run)
	} else {
		for r := range set.Restarts {
			run, err := f.em(r, f.start(rng), rng)
			if err != nil {
				return nil, err
			}
			runs = append(runs, run)
		}
	}
	return bestRun(set.recorded(len(runs)), schemaOf(d), lay.totalWeight(), runs)
}

// bestRun returns the model of the run of the largest final
// log-likelihood (the first of them), fitted with set on rows of total
// weight n with the features of schema, recording every run's final
// log-likelihood.
func bestRun(set *Settings, schema *data.Schema, n float64, runs []*run) (*GMM, error) {
	var best *run
	var finals []float64
	for _, run := range runs {
		finals = append(finals, run.ll())
		if best == nil || run.ll() > best.ll() {
			best = run
		}
	}
	return newGMM(schema, best.m, fitInfo{
		n: n, trace: best.trace, restarts: finals,
		warnings: best.warnings, converged: best.converged, iters: best.iters, settings: set,
	})
}

// schemaOf returns the features of d's schema without the target.
func schemaOf(d *data.Dataset) *data.Schema {
	s := d.Schema.Clone()
	s.Target = nil
	return s
}

// checkFeatures panics unless d's features are those of the model schema
// s by name, kind and order (data.Schema.SameFeatures); once per call,
// not per row.
func checkFeatures(s *data.Schema, d *data.Dataset) {
	if err := s.SameFeatures(d.Schema); err != nil {
		panic("mixture: " + err.Error())
	}
}

func source(d *data.Dataset) string {
	if d.Source.Name == "" {
		return "the data"
	}
	return d.Source.Name
}

// prepare checks that d can be fitted and groups its rows by missing
// pattern.
func prepare(d *data.Dataset) (*layout, error) { return prepareRows(d, false) }

// prepareRows is prepare, but for a shard of the rows (shard set) a
// feature without an observed value and rows that weigh nothing are not
// errors.
func prepareRows(d *data.Dataset, shard bool) (*layout, error) {
	D := d.D()
	if D == 0 {
		return nil, fmt.Errorf("mixture: %s has no feature column", source(d))
	}
	for _, col := range d.Schema.Features {
		if col.Kind != data.Numeric {
			return nil, fmt.Errorf("mixture: feature %q of %s is %s; Gaussian mixtures need numeric features (ignore the column or encode it)", col.Name, source(d), col.Kind)
		}
	}
	if d.N == 0 {
		return nil, fmt.Errorf("mixture: %s has no rows", source(d))
	}
	observed := make([]bool, D)
	complete := false // some row has every feature observed
	for i := range d.N {
		row := d.Row(i)
		for j, v := range row {
			// The squared distances of k-means++ and the variances
			// of larger values overflow; NaN and ±Inf fail no test.
			if math.Abs(v) > meanDomain.Hi {
				return nil, d.RowError(i, "mixture: feature %q: %v is too large for float64 variances (beyond ±%g); rescale the column", d.Schema.Features[j].Name, v, meanDomain.Hi)
			}
		}
		if finiteRow(row) {
			complete = true
		} else {
			for j, v := range row {
				if math.IsInf(v, 0) {
					return nil, d.RowError(i, "mixture: feature %q is infinite", d.Schema.Features[j].Name)
				}
				if !math.IsNaN(v) {
					observed[j] = true
				}
			}
		}
		if d.Weight != nil {
			if w := d.Weight[i]; !(w >= 0) || math.IsInf(w, 0) {
				return nil, d.RowError(i, "mixture: row weight %v", w)
			}
		}
	}
	if j := slices.Index(observed, false); j >= 0 && !complete && !shard {
		return nil, fmt.Errorf("mixture: feature %q of %s has no observed value", d.Schema.Features[j].Name, source(d))
	}
	lay := newLayout(d.X, d.Weight, d.N, D)
	if !(lay.totalWeight() > 0) && !shard {
		return nil, fmt.Errorf("mixture: the rows of %s weigh nothing", source(d))
	}
	return lay, nil
}

// fitter holds what the EM runs of one Fit share.
type fitter struct {
	set settings
	lay *layout
	// xfill is the data with every missing cell replaced by its column's
	// mean: the input of the initialisation and of re-seeding.
	xfill  []float64
	eng    *engine
	pooled []float64 // the pooled covariance of xfill, computed on first use
	// canon is the canonical order of the rows, in which random draws
	// pick them (see canonicalOrder), sorted on first use (canonical):
	// a fit from given starting parameters that re-seeds nothing never
	// sorts the rows.
	canon []int
	lines []int // the source line of every row, or nil
}

func newFitter(set settings, lay *layout) *fitter {
	f := &fitter{set: set, lay: lay, xfill: lay.x}
	if !lay.complete {
		mu := columnMeans(lay.x, lay.w, lay.n, lay.d)
		f.xfill = slices.Clone(lay.x)
		for i, v := range f.xfill {
			if math.IsNaN(v) {
				f.xfill[i] = mu[i%lay.d]
			}
		}
	}
	f.eng = newEngine(newModel(set.Covariance, set.Components, lay.d))
	lay.transposeBlocks()
	return f
}

// canonical returns the canonical order of the rows (canonicalOrder),
// sorting them on the first call.
func (f *fitter) canonical() []int {
	if f.canon == nil {
		f.canon = canonicalOrder(f.lay.x, f.lay.w, f.lay.n, f.lay.d)
	}
	return f.canon
}

// run is the outcome of one EM run.
type run struct {
	m         *model
	trace     []float64
	converged bool
	iters     int
	warnings  []string
}

// ll is the log-likelihood of the run's final parameters.
func (r *run) ll() float64 { return r.trace[len(r.trace)-1] }

// em runs EM from m on the fitter's rows.
func (f *fitter) em(restart int, m *model, rng *rand.Rand) (*run, error) {
	return runEM(&fitSteps{f, rng}, f.set, restart, m)
}

// emSteps are what an EM run does with the rows, in this process
// (fitSteps) or elsewhere (drivenSteps).
type emSteps interface {
	// estep returns the log-likelihood of the rows under the current
	// parameters and, when withStats is set, the M-step statistics.
	estep(withStats bool) (*stats, error)
	// repair makes m, the parameters of iteration it of the run restart
	// (0: its start), the current parameters, re-seeding the components
	// that collapsed (recording a warning in r) or failing.
	repair(m *model, restart, it int, r *run) error
	// current returns the current parameters.
	current() *model
	// total returns Σ_i w_i over the rows, once estep ran.
	total() float64
}

// runEM runs EM from m: at most set.MaxIter iterations of an E-step,
// recorded in the trace, and an M-step, stopping when the change of the
// log-likelihood per unit of row weight is under the tolerance; then the
// log-likelihood of the final parameters.
func runEM(s emSteps, set settings, restart int, m *model) (*run, error) {
	r := &run{}
	if err := s.repair(m, restart, 0, r); err != nil {
		return nil, err
	}
	for it := 1; it <= set.MaxIter; it++ {
		st, err := s.estep(true)
		if err != nil {
			return nil, err
		}
		r.trace = append(r.trace, st.ll)
		if set.OnIter != nil {
			set.OnIter(restart, it, st.ll)
		}
		m = st.mstep(s.current(), set.reg, set.Regularization)
		r.iters = it
		if err := s.repair(m, restart, it, r); err != nil {
			return nil, err
		}
		if it > 1 && set.tol > 0 && math.Abs(r.trace[it-1]-r.trace[it-2])/s.total() < set.tol {
			r.converged = true
			break
		}
	}
	st, err := s.estep(false)
	if err != nil {
		return nil, err
	}
	r.trace = append(r.trace, st.ll)
	if set.OnIter != nil {
		set.OnIter(restart, r.iters+1, st.ll)
	}
	if !r.converged && set.tol > 0 {
		r.warnings = append(r.warnings, fmt.Sprintf("restart %d: EM did not converge in %d iterations (last change of the mean log-likelihood %.3g, tolerance %g)",
			restart, r.iters, math.Abs(r.trace[r.iters]-r.trace[r.iters-1])/s.total(), set.tol))
	}
	r.m = s.current()
	return r, nil
}

// fitSteps are the steps of EM over the fitter's rows, re-seeding
// collapsed components with draws from rng.
type fitSteps struct {
	f   *fitter
	rng *rand.Rand
}

func (s *fitSteps) estep(withStats bool) (*stats, error) { return s.f.estep(withStats) }

func (s *fitSteps) repair(m *model, restart, it int, r *run) error {
	return s.f.repair(m, restart, it, s.rng, r)
}

func (s *fitSteps) current() *model { return s.f.eng.m }

func (s *fitSteps) total() float64 { return s.f.lay.totalWeight() }

// estep evaluates the engine's model on every row and returns the
// log-likelihood and, when withStats is set, the M-step statistics (the
// engine's, valid until its next pass).
func (f *fitter) estep(withStats bool) (*stats, error) {
	st, err := f.eng.run(f.lay, func(s *scratch, rows []int) {
		if withStats {
			s.accumulate(f.eng, f.lay, rows)
			return
		}
		for i, row := range rows {
			s.acc.ll += f.lay.weight(row) * s.ll[i]
		}
	})
	if err != nil {
		return nil, fmt.Errorf("mixture: %w", err)
	}
	return st, nil
}

// repair re-seeds the collapsed components of m, records a warning for
// each, and makes m the engine's model.
func (f *fitter) repair(m *model, restart, iter int, rng *rand.Rand, r *run) error {
	for c := range m.k {
		if w := m.weights[c]; !(w >= minWeight) || !finite(m.mean(c)) {
			r.warnings = append(r.warnings, f.reseed(m, c, rng, stepName(restart, iter), fmt.Sprintf("weight %.3g", w)))
		}
	}
	for range m.k + 1 {
		c := f.eng.setModel(m)
		if c < 0 {
			return nil
		}
		r.warnings = append(r.warnings, f.reseed(m, c, rng, stepName(restart, iter), "covariance not positive definite"))
	}
	return fmt.Errorf("mixture: the pooled covariance of the data is not positive definite; use a positive reg-covar")
}

// stepName names iteration iter of the run restart (0: its start) in a
// warning.
func stepName(restart, iter int) string {
	if iter == 0 {
		return fmt.Sprintf("restart %d, initialisation", restart)
	}
	return fmt.Sprintf("restart %d, iteration %d", restart, iter)
}

// reseed moves component c of m to a random row of the data with the
// pooled covariance and weight 1/K (the other weights scaled to make up
// the rest), and returns the warning that says so. For Tied, the shared
// covariance is replaced only when it is not positive definite.
func (f *fitter) reseed(m *model, c int, rng *rand.Rand, where, why string) string {
	d := m.d
	i := f.canonical()[rng.IntN(f.lay.n)]
	copy(m.mean(c), f.xfill[i*d:(i+1)*d])
	others := 1 - m.weights[c]
	for l := range m.weights {
		if l == c || !(others > 0) {
			m.weights[l] = 1 / float64(m.k)
		} else {
			m.weights[l] *= (1 - 1/float64(m.k)) / others
		}
	}
	switch {
	case m.cov == Identity:
		clear(m.cov1(c))
		addDiag(m.cov1(c), d, 1)
	case m.cov == Tied && f.eng.setModel(m) < 0:
		// The shared covariance is positive definite: keep it.
	case m.cov == Tied:
		pooled := f.pooledCovariance(m.cov)
		for l := range m.k {
			copy(m.cov1(l), pooled)
		}
	default:
		copy(m.cov1(c), f.pooledCovariance(m.cov))
	}
	line := ""
	if f.lines != nil {
		line = fmt.Sprintf(" (line %d)", f.lines[i])
	}
	return fmt.Sprintf("%s: component %d collapsed (%s); re-seeded at row %d%s with the pooled covariance", where, c, why, i, line)
}

// pooledCovariance returns the covariance of all (mean-filled) rows,
// regularised, in the full D×D form of type cov.
func (f *fitter) pooledCovariance(cov Covariance) []float64 {
	n, d := f.lay.n, f.lay.d
	if f.pooled == nil {
		mu := columnMeans(f.xfill, f.lay.w, n, d)
		s := make([]float64, d*d)
		total := 0.0
		for i := range n {
			w := f.lay.weight(i)
			total += w
			x := f.xfill[i*d : (i+1)*d]
			for j := range d {
				a := w * (x[j] - mu[j])
				for l := range j + 1 {
					s[j*d+l] += a * (x[l] - mu[l])
				}
			}
		}
		for j := range d {
			for l := range j + 1 {
				s[j*d+l] /= total
				s[l*d+j] = s[j*d+l]
			}
		}
		f.pooled = s
	}
	out := make([]float64, d*d)
	switch {
	case cov.diagonal():
		tr := 0.0
		for j := range d {
			out[j*d+j] = f.pooled[j*d+j]
			tr += f.pooled[j*d+j]
		}
		if cov == Spherical {
			for j := range d {
				out[j*d+j] = tr / float64(d)
			}
		}
	default:
		copy(out, f.pooled)
	}
	regularize(out, d, f.set.reg, f.set.Regularization, cov.diagonal())
	return out
}
