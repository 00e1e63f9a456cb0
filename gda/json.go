package gda

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/stats"
)

// paramsJSON is the saved form of a model: its configuration and
// sufficient statistics. Everything else is derived again on loading, by
// the same code as after a fit, so predictions are bit-identical.
type paramsJSON struct {
	Estimator     CovarianceEstimator `json:"estimator"`
	Shrinkage     float64             `json:"shrinkage"`
	ShrinkageAuto bool                `json:"shrinkage_auto"`
	PriorAlpha    float64             `json:"prior_alpha"`
	ClassPrior    map[string]float64  `json:"class_prior,omitempty"`
	MaxIter       int                 `json:"em_max_iter"`
	Tol           float64             `json:"em_tol"`
	EMIterations  int                 `json:"em_iterations"`
	// Classes holds the statistics of each class, in the schema's order:
	// those the model is derived from, with the expectations of EM for
	// rows with missing cells.
	Classes []classJSON `json:"classes"`
	// Complete holds the statistics of the complete rows alone, and
	// Incomplete the rows with missing cells, when there were any: what
	// an update or a merge starts from (Accumulator), so that EM runs
	// again over all those rows. Files written before they were kept
	// lack them; their Accumulator takes Classes for the complete rows.
	Complete   []classJSON `json:"complete,omitempty"`
	Incomplete *rowsJSON   `json:"incomplete,omitempty"`
}

// classJSON is stats.Scatter: rows, weight, mean, scatter matrix (p×p,
// row-major) and, with automatic shrinkage, the third and fourth moments.
type classJSON struct {
	Rows    int              `json:"rows"`
	Weight  modelfile.Float  `json:"weight"`
	Mean    modelfile.Floats `json:"mean"`
	Scatter modelfile.Floats `json:"scatter"`
	M3      modelfile.Floats `json:"m3,omitempty"`
	M4      modelfile.Floats `json:"m4,omitempty"`
}

// newParamsJSON returns the saved form of the configuration, the number
// of EM iterations and the statistics s.
func newParamsJSON(c Config, iters int, s *stats.Classes) paramsJSON {
	return paramsJSON{Estimator: c.Estimator, Shrinkage: c.Shrinkage, ShrinkageAuto: c.ShrinkageAuto,
		PriorAlpha: c.PriorAlpha, ClassPrior: c.ClassPrior, MaxIter: c.MaxIter, Tol: c.Tol,
		EMIterations: iters, Classes: classesJSON(s)}
}

// classesJSON returns the saved form of the statistics of each class
// (nil for nil statistics).
func classesJSON(s *stats.Classes) []classJSON {
	if s == nil {
		return nil
	}
	out := make([]classJSON, s.K())
	for k, c := range s.Class {
		out[k] = classJSON{Rows: c.N, Weight: modelfile.Float(c.W), Mean: c.Mean, Scatter: c.S, M3: c.M3, M4: c.M4}
	}
	return out
}

// marshal writes the parameters of m.
func (m *model) marshal() ([]byte, error) {
	p := newParamsJSON(m.cfg, m.iters, m.stats)
	if m.complete != nil {
		p.Complete, p.Incomplete = classesJSON(m.complete), newRowsJSON(m.inc)
	}
	return json.Marshal(p)
}

// MarshalJSON writes the model's parameters (modelfile.Persistent): the
// configuration, the per-class sufficient statistics and, when some
// training rows had missing cells, those rows and the statistics of the
// complete rows.
func (m *LDA) MarshalJSON() ([]byte, error) { return m.m.marshal() }

// MarshalJSON writes the model's parameters (modelfile.Persistent). See
// LDA.MarshalJSON.
func (m *QDA) MarshalJSON() ([]byte, error) { return m.m.marshal() }

// UnmarshalLDA rebuilds an LDA model from its schema and the parameters
// written by MarshalJSON, checking what it reads.
func UnmarshalLDA(schema *data.Schema, params []byte) (*LDA, error) {
	return newLDA(unmarshal(KindLDA, schema, params))
}

// UnmarshalQDA rebuilds a QDA model from its schema and the parameters
// written by MarshalJSON, checking what it reads.
func UnmarshalQDA(schema *data.Schema, params []byte) (*QDA, error) {
	return newQDA(unmarshal(KindQDA, schema, params))
}

func unmarshal(kind string, schema *data.Schema, params []byte) (*model, error) {
	if err := checkSchema(kind, schema); err != nil {
		return nil, err
	}
	var p paramsJSON
	dec := json.NewDecoder(bytes.NewReader(params))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("gda: %s parameters: %w", kind, err)
	}
	cfg, err := p.config(kind)
	if err != nil {
		return nil, err
	}
	s, err := decodeStats(kind, cfg, schema, "classes", p.Classes)
	if err != nil {
		return nil, err
	}
	m, err := newModel(kind, cfg, schema.Clone(), s, "")
	if err != nil {
		return nil, fmt.Errorf("gda: %s parameters: %w", kind, err)
	}
	m.iters = p.EMIterations
	if (p.Complete == nil) != (p.Incomplete == nil) {
		return nil, fmt.Errorf("gda: %s parameters: the statistics of the complete rows and the incomplete rows come together", kind)
	}
	if p.Complete != nil {
		if m.complete, err = decodeStats(kind, cfg, schema, "complete", p.Complete); err != nil {
			return nil, err
		}
		if m.inc, err = p.Incomplete.rows(schema); err != nil {
			return nil, fmt.Errorf("gda: %s parameters: %w", kind, err)
		}
	}
	return m, nil
}

// config returns the configuration that p holds, checked.
func (p *paramsJSON) config(kind string) (Config, error) {
	cfg, err := Config{Estimator: p.Estimator, Shrinkage: p.Shrinkage, ShrinkageAuto: p.ShrinkageAuto,
		PriorAlpha: p.PriorAlpha, ClassPrior: p.ClassPrior, MaxIter: p.MaxIter, Tol: p.Tol}.validate()
	if err != nil {
		return cfg, err
	}
	if p.MaxIter <= 0 || p.Tol <= 0 || p.EMIterations < 0 {
		return cfg, fmt.Errorf("gda: %s parameters: EM settings %d, %v, %d out of range", kind, p.MaxIter, p.Tol, p.EMIterations)
	}
	return cfg, nil
}

// checkSchema checks that a saved schema can be a model's: a categorical
// target and numeric features.
func checkSchema(kind string, schema *data.Schema) error {
	if schema == nil || schema.Target == nil || schema.Target.Kind != data.Categorical {
		return fmt.Errorf("gda: %s parameters: %w", kind, ErrNotClassification)
	}
	if len(schema.Features) == 0 {
		return fmt.Errorf("gda: %s parameters: %w", kind, ErrNoFeatures)
	}
	for j, f := range schema.Features {
		if f.Kind != data.Numeric {
			return fmt.Errorf("gda: %s parameters: feature %d (%q) is %v, not numeric", kind, j+1, f.Name, f.Kind)
		}
	}
	return nil
}

// decodeStats checks the saved statistics of the classes of schema, the
// field of the parameters named field, and returns them.
func decodeStats(kind string, cfg Config, schema *data.Schema, field string, classes []classJSON) (*stats.Classes, error) {
	K, D := len(schema.Classes()), len(schema.Features)
	if len(classes) != K {
		return nil, fmt.Errorf("gda: %s parameters: %s: statistics of %d classes, the schema has %d", kind, field, len(classes), K)
	}
	for k, c := range classes {
		// Before NewClasses allocates K·D² values for them: the
		// file must hold them.
		if err := c.check(D, cfg.ShrinkageAuto); err != nil {
			return nil, fmt.Errorf("gda: %s parameters: %s[%d] (class %q): %w", kind, field, k, schema.Classes()[k], err)
		}
	}
	s := stats.NewClasses(K, D, cfg.ShrinkageAuto)
	for k, c := range classes {
		sc := s.Class[k]
		sc.N, sc.W = c.Rows, float64(c.Weight)
		copy(sc.Mean, c.Mean)
		copy(sc.S, c.Scatter)
		copy(sc.M3, c.M3)
		copy(sc.M4, c.M4)
		if r := intensity(cfg, sc); !(r >= 0 && r <= 1) {
			return nil, fmt.Errorf("gda: %s parameters: %s[%d] (class %q): the moments give the shrinkage intensity %v, outside [0, 1]",
				kind, field, k, schema.Classes()[k], r)
		}
	}
	return s, nil
}

// meanDomain is the interval of the class means that a model can hold:
// the squares of the differences of larger means, in the between-class
// scatter, overflow float64. Fit refuses data whose means lie beyond it
// (checkStats), as a model file that holds them is refused.
var meanDomain = modelfile.Interval{Lo: -maxMean, Hi: maxMean,
	Why: "the squared differences of larger means overflow float64"}

// symmetryTol bounds the relative difference of the two triangles of a
// scatter matrix.
const symmetryTol = 1e-9

// check validates the statistics of one class of dimension d: rows and
// weight non-negative, means within meanDomain, a symmetric scatter
// matrix with a non-negative diagonal, finite moments with non-negative
// fourth ones.
func (c *classJSON) check(d int, fourth bool) error {
	if c.Rows < 0 {
		return fmt.Errorf("rows: %d is negative", c.Rows)
	}
	if err := modelfile.NonNegative.CheckValue("weight", float64(c.Weight)); err != nil {
		return err
	}
	if len(c.Mean) != d || len(c.Scatter) != d*d {
		return fmt.Errorf("mean of %d and scatter of %d values, want %d and %d", len(c.Mean), len(c.Scatter), d, d*d)
	}
	if fourth != (c.M3 != nil) || fourth != (c.M4 != nil) || (fourth && (len(c.M3) != d*d || len(c.M4) != d*d)) {
		return errors.New("third and fourth moments missing, unexpected or of the wrong size")
	}
	for _, err := range []error{meanDomain.Check("mean", c.Mean), modelfile.Finite.Check("scatter", c.Scatter),
		modelfile.Finite.Check("m3", c.M3), modelfile.NonNegative.Check("m4", c.M4)} {
		if err != nil {
			return err
		}
	}
	for j := range d {
		if err := modelfile.NonNegative.CheckValue(fmt.Sprintf("scatter[%d]", j*d+j), c.Scatter[j*d+j]); err != nil {
			return err
		}
		if v := c.Scatter[j*d+j] / float64(c.Weight); math.IsInf(v, 1) {
			return fmt.Errorf("scatter[%d] / weight = %v / %v, a variance, overflows float64", j*d+j, c.Scatter[j*d+j], c.Weight)
		}
		for l := range j {
			// EM leaves the two triangles apart by a rounding error.
			a, b := c.Scatter[j*d+l], c.Scatter[l*d+j]
			if math.Abs(a-b) > symmetryTol*max(math.Abs(a), math.Abs(b), math.Sqrt(c.Scatter[j*d+j]*c.Scatter[l*d+l])) {
				return fmt.Errorf("scatter[%d] = %v and scatter[%d] = %v: the matrix is not symmetric", j*d+l, a, l*d+j, b)
			}
		}
	}
	return nil
}
