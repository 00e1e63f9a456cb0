package logistic

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
	L2 modelfile.Float `json:"l2"`
	// Design lists the design columns and their standardisation.
	Design json.RawMessage `json:"design"`
	// Weights holds one row per weight vector, on the standardised scale;
	// Intercepts one number per weight vector.
	Weights     []modelfile.Floats `json:"weights"`
	Intercepts  modelfile.Floats   `json:"intercepts"`
	Diagnostics Diagnostics        `json:"diagnostics"`
	// Impute is whether the fit filled missing cells with the training
	// means (Config.Impute), always written; absent in files written
	// before it was kept, which read as true: such models filled missing
	// cells at prediction.
	Impute *bool `json:"impute,omitempty"`
	// ClassWeight is Config.ClassWeight of the fit ("" unweighted), always
	// written when known; absent in files written before it was kept,
	// whose class weights are unknown (they change the fit, not how the
	// model predicts).
	ClassWeight *ClassWeight `json:"class_weight,omitempty"`
}

// diagnosticsJSON is Diagnostics with floats written bit-exactly.
type diagnosticsJSON struct {
	Solver        Solver          `json:"solver"`
	Iterations    int             `json:"iterations"`
	Evaluations   int             `json:"evaluations"`
	Objective     modelfile.Float `json:"objective"`
	LogLikelihood modelfile.Float `json:"log_likelihood"`
	GradNorm      modelfile.Float `json:"grad_norm"`
	Converged     bool            `json:"converged"`
	Separable     bool            `json:"separable,omitempty"`
	Warning       string          `json:"warning,omitempty"`
}

// MarshalJSON writes d with its floats as modelfile.Float.
func (d Diagnostics) MarshalJSON() ([]byte, error) {
	return json.Marshal(diagnosticsJSON{
		Solver: d.Solver, Iterations: d.Iterations, Evaluations: d.Evaluations,
		Objective: modelfile.Float(d.Objective), LogLikelihood: modelfile.Float(d.LogLikelihood),
		GradNorm: modelfile.Float(d.GradNorm), Converged: d.Converged, Separable: d.Separable, Warning: d.Warning,
	})
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (d *Diagnostics) UnmarshalJSON(b []byte) error {
	var j diagnosticsJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*d = Diagnostics{
		Solver: j.Solver, Iterations: j.Iterations, Evaluations: j.Evaluations,
		Objective: float64(j.Objective), LogLikelihood: float64(j.LogLikelihood),
		GradNorm: float64(j.GradNorm), Converged: j.Converged, Separable: j.Separable, Warning: j.Warning,
	}
	return nil
}

// MarshalJSON writes the model's parameters for package modelfile: λ, the
// design columns, the standardised weights and intercepts, the
// diagnostics of the fit, whether it imputed missing cells and how it
// weighed the classes.
func (m *Model) MarshalJSON() ([]byte, error) {
	enc, err := m.enc.MarshalJSON()
	if err != nil {
		return nil, err
	}
	w, b := m.Coefficients()
	p := params{L2: modelfile.Float(m.lambda), Design: enc, Intercepts: b, Diagnostics: m.diag, Impute: &m.impute}
	if m.classWeightKnown {
		p.ClassWeight = &m.classWeight
	}
	for _, row := range w {
		p.Weights = append(p.Weights, row)
	}
	return json.Marshal(p)
}

// UnmarshalLogistic rebuilds a model from its schema and the parameters
// MarshalJSON wrote, checking that the schema has a categorical target with
// at least two classes, that there is one weight vector for two classes
// and one per class otherwise, each with one weight per design column,
// that the design columns are valid (design.Unmarshal), and that every
// weight and intercept lies within ±design.Bound (1e100): a magnitude no
// fit produces, below which rows of numbers up to 1e100 get finite
// scores, and so finite probabilities. A weight of 1e308 is finite, but
// makes ordinary rows' scores overflow into NaN probabilities.
func UnmarshalLogistic(s *data.Schema, b []byte) (*Model, error) {
	if s == nil || s.Target == nil || s.Target.Kind != data.Categorical || len(s.Target.Levels) < 2 {
		return nil, fmt.Errorf("logistic: the schema needs a categorical target with at least two classes")
	}
	var p params
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("logistic: %w", err)
	}
	enc, err := design.Unmarshal(s, p.Design)
	if err != nil {
		return nil, fmt.Errorf("logistic: %w", err)
	}
	K := len(s.Target.Levels)
	k := K
	if K == 2 {
		k = 1
	}
	if len(p.Weights) != k || len(p.Intercepts) != k {
		return nil, fmt.Errorf("logistic: %d weight vectors and %d intercepts for %d classes, want %d", len(p.Weights), len(p.Intercepts), K, k)
	}
	P := enc.P() + enc.V()
	theta := make([]float64, 0, k*(P+1))
	for c, row := range p.Weights {
		if len(row) != P {
			return nil, fmt.Errorf("logistic: weight vector %d has %d entries for %d design columns", c, len(row), P)
		}
		if err := design.CoefficientDomain.Check(fmt.Sprintf("weights[%d]", c), row); err != nil {
			return nil, fmt.Errorf("logistic: %w", err)
		}
		theta = append(append(theta, row...), p.Intercepts[c])
	}
	if err := design.CoefficientDomain.Check("intercepts", p.Intercepts); err != nil {
		return nil, fmt.Errorf("logistic: %w", err)
	}
	lambda := float64(p.L2)
	if !(lambda >= 0) || math.IsInf(lambda, 0) {
		return nil, fmt.Errorf("logistic: l2 %v is not a finite non-negative number", lambda)
	}
	m := &Model{schema: s, enc: enc, k: k, theta: theta, lambda: lambda, impute: p.Impute == nil || *p.Impute, diag: p.Diagnostics}
	if cw := p.ClassWeight; cw != nil {
		if *cw != Unweighted && *cw != Balanced {
			return nil, fmt.Errorf("logistic: unknown class weight %q (balanced)", *cw)
		}
		m.classWeight, m.classWeightKnown = *cw, true
	}
	if err := m.checkFinite(); err != nil {
		return nil, err
	}
	return m, nil
}
