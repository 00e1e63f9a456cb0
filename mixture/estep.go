package mixture

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/modelfile"
)

// ErrCollapsed is returned by EStats.MStep when a component of the next
// parameters has collapsed (a weight under 1e-10, a mean not finite, a
// covariance matrix not positive definite): Fit would re-seed it at a
// random row, which a driver of the E-steps has to do itself.
var ErrCollapsed = errors.New("mixture: a component collapsed")

// ErrMismatch is returned by EStats.Merge for statistics of another
// mixture type, dimension, regularisation or parameters.
var ErrMismatch = errors.New("mixture: E-step statistics of other settings or parameters")

// EStats are the statistics of one E-step of a Gaussian mixture's EM over
// some rows (Config.EStep), given the current parameters θ: with the
// responsibilities r_ik = w_i P(k | x_i; θ), the row weights w_i and the
// shifts a_k = μ_k of θ,
//
//	W_k = Σ_i r_ik                          responsibility-weighted counts
//	s_k = Σ_i r_ik ĉ_ik,   ĉ_ik = E[x_i | x_i,O, k] − a_k
//	S_k = Σ_i r_ik (ĉ_ik ĉ_ikᵀ + C_ik)       scatter (C_ik: conditional
//	                                          covariance of the missing cells)
//	ℓ   = Σ_i w_i log Σ_k π_k N(x_i,O; μ_k,O, Σ_k,OO)
//
// (S_k lower triangle for full and tied, the diagonal for diag and
// spherical). Statistics of disjoint rows under the same θ add up
// (Merge), encode (MarshalBinary), and give the next parameters (MStep),
// so that a driver outside the process can run EM over shards:
//
//	for it := 1; it <= MaxIter; it++ {
//		e := merged EStep of every shard under θ
//		θ, ℓ_it = e.MStep(), e.LogLikelihood()
//		stop when it > 1 and |ℓ_it − ℓ_it−1| / e.Weight() < Tol
//	}
//
// which, from Fit's starting point (Config.Starts), reaches Fit's
// parameters. Config.FitEStep runs that loop, as Fit's own.
type EStats struct {
	set  settings
	prev *model // θ, whose means are the shifts
	st   *stats
	w    float64 // Σ_i w_i
}

// EStep returns the E-step statistics of the rows of d under the
// parameters p, in the layout of c.Covariance (Params), for a mixture of
// c.Components components (c.Init, Restarts, Start and OnIter do not
// matter). d's features must be numeric, its cells not infinite, its row
// weights finite and non-negative (a shard may lack the observed values
// of a feature, or weigh nothing); p must be valid parameters
// (non-negative weights summing to 1, positive definite covariances).
func (c Config) EStep(d *data.Dataset, p Params) (*EStats, error) {
	set, err := c.settings()
	if err != nil {
		return nil, err
	}
	lay, err := prepareRows(d, true)
	if err != nil {
		return nil, err
	}
	m, err := fromParams(set.Covariance, set.Components, lay.d, &p)
	if err != nil {
		return nil, fmt.Errorf("mixture: parameters: %w", err)
	}
	f := &fitter{set: set, lay: lay, eng: newEngine(m)}
	if k := f.eng.setModel(m); k >= 0 {
		return nil, fmt.Errorf("mixture: parameters: covariance of component %d: %w", k, errNotPD)
	}
	st, err := f.estep(true)
	if err != nil {
		return nil, err
	}
	return &EStats{set: set, prev: m, st: st, w: lay.totalWeight()}, nil
}

// LogLikelihood returns ℓ, the log-likelihood of the rows under the
// parameters of the E-step.
func (e *EStats) LogLikelihood() float64 { return e.st.ll }

// Weight returns Σ_i w_i, the total weight of the rows (their number
// without weights): the divisor of Fit's convergence test.
func (e *EStats) Weight() float64 { return e.w }

// Merge adds the statistics of o, about other rows under the same
// parameters, to e. Statistics of another covariance type, number of
// components, dimension, regularisation or parameters are an error
// (ErrMismatch). o is unchanged.
func (e *EStats) Merge(o *EStats) error {
	a, b := e.set, o.set
	switch {
	case a.Covariance != b.Covariance || a.Components != b.Components || e.prev.d != o.prev.d:
		return fmt.Errorf("%w: %s mixture of %d components in %d dimensions, want %s, %d, %d",
			ErrMismatch, b.Covariance, b.Components, o.prev.d, a.Covariance, a.Components, e.prev.d)
	case a.reg != b.reg || a.Regularization != b.Regularization:
		return fmt.Errorf("%w: another regularisation", ErrMismatch)
	case !slices.Equal(e.prev.weights, o.prev.weights) || !slices.Equal(e.prev.means, o.prev.means) || !slices.Equal(e.prev.sigma, o.prev.sigma):
		return fmt.Errorf("%w: the E-steps had other parameters", ErrMismatch)
	}
	e.st.merge(o.st)
	e.w += o.w
	return nil
}

// MStep returns the parameters that the statistics give, as Fit's M-step
// (see Fit, and Config.RegCovar and Regularization), in the layout of the
// covariance type. A component that Fit would re-seed is ErrCollapsed.
func (e *EStats) MStep() (Params, error) {
	m := e.st.mstep(e.prev, e.set.reg, e.set.Regularization)
	if err := checkCollapsed(m); err != nil {
		return Params{}, err
	}
	return m.params(), nil
}

// checkCollapsed returns ErrCollapsed for the first component of m that
// Fit would re-seed: of weight under minWeight, of a mean not finite, of
// a covariance not positive definite.
func checkCollapsed(m *model) error {
	for c := range m.k {
		if w := m.weights[c]; !(w >= minWeight) || !finite(m.mean(c)) {
			return fmt.Errorf("%w: component %d of weight %.3g", ErrCollapsed, c, w)
		}
	}
	if k := newEngine(m).setModel(m); k >= 0 {
		return fmt.Errorf("%w: the covariance of component %d is not positive definite", ErrCollapsed, k)
	}
	return nil
}

// eStatsFormat names the encoding of EStats.
const eStatsFormat = "gendisc-mixture-estats/1"

// eStatsJSON is the encoding of EStats: the settings that the M-step and
// Merge read, the parameters of the E-step and the statistics.
type eStatsJSON struct {
	Format         string           `json:"format"`
	Covariance     Covariance       `json:"covariance"`
	Components     int              `json:"components"`
	Dim            int              `json:"dim"`
	RegCovar       modelfile.Float  `json:"reg_covar"`
	Regularization Regularization   `json:"regularization"`
	Weights        modelfile.Floats `json:"weights"`
	Means          modelfile.Floats `json:"means"`
	Covariances    modelfile.Floats `json:"covariances"`
	RowWeight      modelfile.Float  `json:"row_weight"`
	LogLikelihood  modelfile.Float  `json:"log_likelihood"`
	// Stats are the M-step's statistics in package stats' binary
	// encoding (Classes for full and tied covariances, Moments for the
	// others).
	Stats []byte `json:"stats"`
}

// MarshalBinary encodes the statistics with their settings and the
// parameters of their E-step (as JSON; every number reads back bit for
// bit).
func (e *EStats) MarshalBinary() ([]byte, error) {
	p := e.prev.params()
	st, err := e.st.marshalBinary()
	if err != nil {
		return nil, err
	}
	return json.Marshal(eStatsJSON{Format: eStatsFormat, Covariance: e.set.Covariance, Components: e.set.Components,
		Dim: e.prev.d, RegCovar: modelfile.Float(e.set.reg), Regularization: e.set.Regularization,
		Weights: p.Weights, Means: p.Means, Covariances: p.Covariances, RowWeight: modelfile.Float(e.w),
		LogLikelihood: modelfile.Float(e.st.ll), Stats: st})
}

// UnmarshalBinary replaces e by the statistics that b encodes
// (MarshalBinary), checking what it reads.
func (e *EStats) UnmarshalBinary(b []byte) error {
	var j eStatsJSON
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return fmt.Errorf("mixture: E-step statistics: %w", err)
	}
	if j.Format != eStatsFormat {
		return fmt.Errorf("mixture: E-step statistics of format %q, want %q", j.Format, eStatsFormat)
	}
	c := Config{Components: j.Components, Covariance: j.Covariance, Regularization: j.Regularization, RegCovar: float64(j.RegCovar)}
	if j.RegCovar == 0 {
		c.RegCovar = -1 // none
	}
	set, err := c.settings()
	if err != nil {
		return err
	}
	if j.Components < 1 || j.Dim < 1 {
		return fmt.Errorf("mixture: E-step statistics of %d components in %d dimensions", j.Components, j.Dim)
	}
	m, err := fromParams(set.Covariance, set.Components, j.Dim, &Params{Weights: j.Weights, Means: j.Means, Covariances: j.Covariances})
	if err != nil {
		return fmt.Errorf("mixture: E-step statistics: parameters: %w", err)
	}
	st := newStats(set.Covariance, set.Components, j.Dim)
	if err := st.unmarshalBinary(j.Stats, set.Components, j.Dim); err != nil {
		return fmt.Errorf("mixture: E-step statistics: %w", err)
	}
	for _, v := range []float64{float64(j.RowWeight), float64(j.LogLikelihood)} {
		if math.IsNaN(v) || math.IsInf(v, 1) {
			return fmt.Errorf("mixture: E-step statistics: a statistic is NaN or +Inf")
		}
	}
	st.ll = float64(j.LogLikelihood)
	*e = EStats{set: set, prev: m, st: st, w: float64(j.RowWeight)}
	return nil
}
