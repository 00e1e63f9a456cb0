package linear

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/design"
	"github.com/gendisc/gendisc/modelfile"
)

// params is the model-file form of a Model.
type params struct {
	L2            modelfile.Float  `json:"l2"`
	Design        json.RawMessage  `json:"design"`
	Weights       modelfile.Floats `json:"weights"` // standardised scale
	Intercept     modelfile.Float  `json:"intercept"`
	Sigma2        modelfile.Float  `json:"sigma2"`
	LogLikelihood modelfile.Float  `json:"log_likelihood"`
	R2            modelfile.Float  `json:"r2"`
	// Statistics are the accumulator's (Accumulator), which update and
	// merge need; absent from files written before models kept them.
	Statistics *stateJSON `json:"statistics,omitempty"`
}

// MarshalJSON writes the model's parameters for package modelfile.
func (m *Model) MarshalJSON() ([]byte, error) {
	enc, err := m.enc.MarshalJSON()
	if err != nil {
		return nil, err
	}
	w, b := m.Coefficients()
	p := params{
		L2: modelfile.Float(m.lambda), Design: enc, Weights: w, Intercept: modelfile.Float(b),
		Sigma2: modelfile.Float(m.sigma2), LogLikelihood: modelfile.Float(m.logLik), R2: modelfile.Float(m.r2),
	}
	if m.stats != nil {
		st := m.stats.state()
		p.Statistics = &st
	}
	return json.Marshal(p)
}

// UnmarshalLinear rebuilds a model from its schema and the parameters
// MarshalJSON wrote, checking that the target is numeric, that there is
// one weight per design column, that the weights and the intercept lie
// within ±design.Bound (1e100, see logistic.UnmarshalLogistic), and that
// the numbers are finite (but the log-likelihood, +Inf for an exact fit
// with σ² = 0) with λ, σ² ≥ 0, and
// the statistics when there are (see fromState) with the model's λ. A
// model without statistics predicts but cannot be updated or merged.
func UnmarshalLinear(s *data.Schema, b []byte) (*Model, error) {
	if s == nil || s.Target == nil || s.Target.Kind != data.Numeric {
		return nil, fmt.Errorf("linear: the schema needs a numeric target")
	}
	var p params
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("linear: %w", err)
	}
	enc, err := design.Unmarshal(s, p.Design)
	if err != nil {
		return nil, fmt.Errorf("linear: %w", err)
	}
	if len(p.Weights) != enc.P() {
		return nil, fmt.Errorf("linear: %d weights for %d design columns", len(p.Weights), enc.P())
	}
	if err := design.CoefficientDomain.Check("weights", p.Weights); err != nil {
		return nil, fmt.Errorf("linear: %w", err)
	}
	if err := design.CoefficientDomain.CheckValue("intercept", float64(p.Intercept)); err != nil {
		return nil, fmt.Errorf("linear: %w", err)
	}
	m := &Model{schema: s, enc: enc, theta: append(p.Weights, float64(p.Intercept)), lambda: float64(p.L2),
		sigma2: float64(p.Sigma2), logLik: float64(p.LogLikelihood), r2: float64(p.R2)}
	for _, v := range append(m.theta, m.lambda, m.sigma2, m.r2) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("linear: non-finite parameter %v", v)
		}
	}
	if math.IsNaN(m.logLik) || math.IsInf(m.logLik, -1) || math.IsInf(m.logLik, 1) && m.sigma2 != 0 {
		return nil, fmt.Errorf("linear: log-likelihood %v with σ² = %v", m.logLik, m.sigma2)
	}
	if m.lambda < 0 || m.sigma2 < 0 {
		return nil, fmt.Errorf("linear: negative l2 or sigma2")
	}
	if p.Statistics != nil {
		if m.stats, err = fromState(s, p.Statistics); err != nil {
			return nil, err
		}
		if m.stats.cfg.L2 != m.lambda {
			return nil, fmt.Errorf("linear: statistics gathered with l2 %v for a model with l2 %v", m.stats.cfg.L2, m.lambda)
		}
	}
	return m, nil
}
