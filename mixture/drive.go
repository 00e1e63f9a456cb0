package mixture

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/gendisc/gendisc/data"
)

// Starts returns the starting parameters of the EM runs of Fit on the
// rows of d with rng: c.Start when it is set, otherwise one per restart,
// drawn by c.Init as Fit draws them (components that collapse at the
// start re-seeded as Fit does). Fit draws the start of a restart after
// the EM run before it, which draws from rng only to re-seed a component
// that collapses during the run; when none does, the starts are Fit's.
// A driver that runs EM over rows elsewhere (FitEStep) takes them from a
// sample of the rows, or from all of them when they fit in memory.
func (c Config) Starts(d *data.Dataset, rng *rand.Rand) ([]Params, error) {
	set, err := c.settings()
	if err != nil {
		return nil, err
	}
	if set.Start != nil {
		if _, err := fromParams(set.Covariance, set.Components, d.D(), set.Start); err != nil {
			return nil, fmt.Errorf("mixture: starting parameters: %w", err)
		}
		return []Params{*set.Start}, nil
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
	starts := make([]Params, set.Restarts)
	for r := range starts {
		m := f.start(rng)
		if err := f.repair(m, r, 0, rng, &run{}); err != nil {
			return nil, err
		}
		starts[r] = m.params()
	}
	return starts, nil
}

// FitEStep fits a mixture as Fit does to rows that this process does not
// hold, whose features schema describes: one EM run from each of starts
// (Starts), each iteration's E-step run by estep, which returns the
// merged EStats of all the rows under the parameters it is given
// (Config.EStep of each shard, with c's settings); the run of the largest
// final log-likelihood is kept, with the log-likelihood of every
// iteration in its trace, and c.OnIter called as Fit calls it. The
// stopping rules are Fit's (Tol, MaxIter). Where Fit would re-seed a
// collapsed component at a random row, FitEStep fails with ErrCollapsed.
// The model records c's settings (GMM.Settings), its Init as that of the
// starts, as Starts draws them. It returns the first error of estep.
func (c Config) FitEStep(schema *data.Schema, starts []Params, estep func(Params) (*EStats, error)) (*GMM, error) {
	set, err := c.settings()
	if err != nil {
		return nil, err
	}
	if len(starts) == 0 {
		return nil, fmt.Errorf("mixture: no starting parameters")
	}
	s := schema.Clone()
	s.Target = nil
	var runs []*run
	var w float64
	for r, p := range starts {
		m, err := fromParams(set.Covariance, set.Components, len(s.Features), &p)
		if err != nil {
			return nil, fmt.Errorf("mixture: starting parameters: %w", err)
		}
		ds := &drivenSteps{set: set, estepFn: estep}
		run, err := runEM(ds, set, r, m)
		if err != nil {
			return nil, err
		}
		runs, w = append(runs, run), ds.w
	}
	return bestRun(set.recorded(len(runs)), s, w, runs)
}

// drivenSteps are the steps of EM over rows elsewhere: a driver's merged
// E-steps.
type drivenSteps struct {
	set     settings
	cur     *model
	estepFn func(Params) (*EStats, error)
	w       float64 // Σ_i w_i of the last E-step
}

func (s *drivenSteps) estep(bool) (*stats, error) {
	e, err := s.estepFn(s.cur.params())
	if err != nil {
		return nil, err
	}
	p := e.prev
	if e.set.Covariance != s.set.Covariance || p.k != s.cur.k || p.d != s.cur.d || e.set.reg != s.set.reg || e.set.Regularization != s.set.Regularization ||
		!slices.Equal(p.weights, s.cur.weights) || !slices.Equal(p.means, s.cur.means) || !slices.Equal(p.sigma, s.cur.sigma) {
		return nil, fmt.Errorf("%w: not those of the E-step asked for", ErrMismatch)
	}
	s.w = e.w
	return e.st, nil
}

func (s *drivenSteps) repair(m *model, restart, it int, _ *run) error {
	if err := checkCollapsed(m); err != nil {
		return fmt.Errorf("restart %d, iteration %d: %w", restart, it, err)
	}
	s.cur = m
	return nil
}

func (s *drivenSteps) current() *model { return s.cur }

func (s *drivenSteps) total() float64 { return s.w }
