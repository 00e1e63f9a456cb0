package mixture

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"github.com/gendisc/gendisc/modelfile"
)

// Settings are the settings of the EM fit that a GMM keeps, with the
// defaults of Config filled in (GMM.Settings): with the covariance type
// and the number of components, which the model holds anyway, they are
// every setting that changes the fitted parameters.
type Settings struct {
	// Init is how the starting points were drawn (for FitEStep, by
	// Starts); it does not apply when GivenStart is set: the fit started
	// from Config.Start.
	Init       Init
	GivenStart bool
	// Restarts is the number of EM runs; the one of the largest final
	// log-likelihood was kept.
	Restarts int
	// Tol is the tolerance on the change of the mean log-likelihood per
	// row, 0 when there was none (MaxIter iterations ran).
	Tol float64
	// MaxIter bounds the iterations of a run.
	MaxIter int
	// RegCovar is r, 0 when nothing was regularised (a negative
	// Config.RegCovar, or Identity covariances); Regularization is how
	// it entered the M-step.
	RegCovar       float64
	Regularization Regularization
	// Seed is Config.Seed, the seed of the random source the starting
	// points and re-seeded components were drawn from, nil when the
	// caller did not give it.
	Seed *uint64
}

// recorded returns the settings that a model fitted with s by runs EM
// runs keeps.
func (s *settings) recorded(runs int) *Settings {
	r := &Settings{Init: s.Init, GivenStart: s.Start != nil, Restarts: runs, Tol: s.tol, MaxIter: s.MaxIter,
		RegCovar: s.reg, Regularization: s.Regularization}
	if s.Seed != nil {
		seed := *s.Seed
		r.Seed = &seed
	}
	return r
}

// givenStart is the name of Settings.GivenStart in place of Init's in
// the JSON form.
const givenStart = "given"

// settingsJSON is the JSON form of Settings.
type settingsJSON struct {
	Init         string          `json:"init"` // Init's name, or "given"
	Restarts     int             `json:"restarts"`
	Tol          modelfile.Float `json:"tol"`
	MaxIter      int             `json:"max_iter"`
	RegCovar     modelfile.Float `json:"reg_covar"`
	RegCovarMode string          `json:"reg_covar_mode"`
	Seed         *uint64         `json:"seed,omitempty"`
}

// MarshalJSON writes s with snake_case keys (init, restarts, tol,
// max_iter, reg_covar, reg_covar_mode and, when known, seed), init
// "given" for GivenStart, floats bit for bit; model files and inspect
// share it.
func (s Settings) MarshalJSON() ([]byte, error) {
	j := settingsJSON{Init: s.Init.String(), Restarts: s.Restarts, Tol: modelfile.Float(s.Tol), MaxIter: s.MaxIter,
		RegCovar: modelfile.Float(s.RegCovar), RegCovarMode: s.Regularization.String(), Seed: s.Seed}
	if s.GivenStart {
		j.Init = givenStart
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON wrote, checking it: no unknown
// key, a known initialisation and regularisation, at least one run and one
// iteration, a finite non-negative tolerance and r.
func (s *Settings) UnmarshalJSON(b []byte) error {
	var j settingsJSON
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	t := Settings{GivenStart: j.Init == givenStart, Restarts: j.Restarts, Tol: float64(j.Tol), MaxIter: j.MaxIter,
		RegCovar: float64(j.RegCovar), Seed: j.Seed}
	var err error
	if !t.GivenStart {
		if t.Init, err = ParseInit(j.Init); err != nil {
			return fmt.Errorf("settings: %w", err)
		}
	}
	if t.Regularization, err = ParseRegularization(j.RegCovarMode); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	switch {
	case t.Restarts < 1 || t.MaxIter < 1:
		return fmt.Errorf("settings: %d restarts of at most %d iterations", t.Restarts, t.MaxIter)
	case !(t.Tol >= 0) || math.IsInf(t.Tol, 0):
		return fmt.Errorf("settings: tolerance %v", t.Tol)
	case !(t.RegCovar >= 0) || math.IsInf(t.RegCovar, 0):
		return fmt.Errorf("settings: reg-covar %v", t.RegCovar)
	}
	*s = t
	return nil
}

// Settings returns the settings of the fit (see Settings); known is false
// for a model read from a file written before models kept them.
func (g *GMM) Settings() (s Settings, known bool) {
	if g.info.settings == nil {
		return Settings{}, false
	}
	s = *g.info.settings
	if s.Seed != nil {
		seed := *s.Seed
		s.Seed = &seed
	}
	return s, true
}

// Settings returns the settings of the fit of the classes' mixtures,
// which share them (one random source, Config.Seed's, drew the starting
// points of every class in class order); known is false for a model read
// from a file written before models kept them.
func (m *MDA) Settings() (s Settings, known bool) {
	for _, g := range m.mix {
		if g != nil {
			return g.Settings()
		}
	}
	return Settings{}, false
}
