package naivebayes

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/stats"
)

// gaussianJSON is the saved form of a Gaussian: its settings and the
// sufficient statistics of its training data, per class (rows) and feature
// (columns). The fitted means and variances are derived on loading, by the
// same code as Fit, so a loaded model predicts bit for bit as the saved one.
type gaussianJSON struct {
	// VarSmoothing is the smoothing in effect: 0 means none.
	VarSmoothing float64            `json:"var_smoothing"`
	Variance     Variance           `json:"variance"`
	PriorAlpha   float64            `json:"prior_alpha,omitempty"`
	ClassPrior   map[string]float64 `json:"class_prior,omitempty"`
	// ClassWeight[k] is the total weight of the rows of class k.
	ClassWeight modelfile.Floats `json:"class_weight"`
	// Weight, Mean and M2 hold W_kj, M_kj and S_kj at [k][j].
	Weight []modelfile.Floats `json:"weight"`
	Mean   []modelfile.Floats `json:"mean"`
	M2     []modelfile.Floats `json:"m2"`
}

// MarshalJSON writes the model's settings and sufficient statistics, the
// parameters of its model file (see UnmarshalGaussian).
func (m *Gaussian) MarshalJSON() ([]byte, error) {
	j := gaussianSettings(m.params)
	j.setStats(m.stats)
	return json.Marshal(j)
}

// gaussianSettings returns the saved form of the settings p, without
// statistics.
func gaussianSettings(p gaussianParams) gaussianJSON {
	return gaussianJSON{VarSmoothing: p.varSmoothing, Variance: p.variance, PriorAlpha: p.prior.alpha, ClassPrior: p.prior.fixed}
}

// setStats sets the statistics of g to those of s.
func (g *gaussianJSON) setStats(s *stats.Moments) {
	K, D := s.K(), s.D
	g.ClassWeight, g.Weight, g.Mean, g.M2 = s.ClassWeight, cut(s.W, K, D), cut(s.M, K, D), cut(s.S, K, D)
}

// UnmarshalGaussian returns the model saved by MarshalJSON with the given
// schema. It checks that the parameters fit the schema and are valid
// statistics, and errors otherwise.
func UnmarshalGaussian(schema *data.Schema, params []byte) (*Gaussian, error) {
	var g gaussianJSON
	if err := strictDecode(params, &g); err != nil {
		return nil, fmt.Errorf("naivebayes: gaussian-nb parameters: %w", err)
	}
	s, err := g.moments(schema)
	if err != nil {
		return nil, fmt.Errorf("naivebayes: gaussian-nb parameters: %w", err)
	}
	p, err := g.params()
	if err != nil {
		return nil, err
	}
	return newGaussian(schema.Clone(), s, p, "")
}

// params checks the saved settings and returns them.
func (g *gaussianJSON) params() (gaussianParams, error) {
	if err := smoothingDomain.CheckValue("var_smoothing", g.VarSmoothing); err != nil {
		return gaussianParams{}, fmt.Errorf("naivebayes: gaussian-nb parameters: %w", err)
	}
	prior, err := newClassPrior(g.PriorAlpha, g.ClassPrior)
	if err != nil {
		return gaussianParams{}, err
	}
	return gaussianParams{varSmoothing: g.VarSmoothing, variance: g.Variance, prior: prior}, nil
}

// moments checks the statistics against the schema and returns them.
func (g *gaussianJSON) moments(schema *data.Schema) (*stats.Moments, error) {
	if schema == nil || schema.Target == nil || schema.Target.Kind != data.Categorical {
		return nil, errors.New("the schema has no categorical target")
	}
	if len(schema.Features) == 0 {
		return nil, errors.New("the schema has no features")
	}
	for _, f := range schema.Features {
		if f.Kind != data.Numeric {
			return nil, fmt.Errorf("feature %q is %v, not numeric", f.Name, f.Kind)
		}
	}
	K, D := len(schema.Classes()), len(schema.Features)
	if len(g.ClassWeight) != K {
		return nil, fmt.Errorf("%d class weights for %d classes", len(g.ClassWeight), K)
	}
	if err := countDomain.Check("class_weight", g.ClassWeight); err != nil {
		return nil, err
	}
	fields := []struct {
		name   string
		src    []modelfile.Floats
		domain modelfile.Interval
	}{
		{"weight", g.Weight, countDomain},
		{"mean", g.Mean, meanDomain},
		{"m2", g.M2, modelfile.NonNegative},
	}
	for _, f := range fields { // before allocating K·D values: the file must hold them
		if len(f.src) != K {
			return nil, fmt.Errorf("%s: %d rows for %d classes", f.name, len(f.src), K)
		}
		for k, row := range f.src {
			if len(row) != D {
				return nil, fmt.Errorf("%s[%d]: %d values for %d features", f.name, k, len(row), D)
			}
			if err := f.domain.Check(fmt.Sprintf("%s[%d]", f.name, k), row); err != nil {
				return nil, err
			}
		}
	}
	s := stats.NewMoments(K, D)
	copy(s.ClassWeight, g.ClassWeight)
	for i, dst := range [][]float64{s.W, s.M, s.S} {
		for k, row := range fields[i].src {
			copy(dst[k*D:], row)
		}
	}
	return s, nil
}

// meanDomain is the interval of the means of a model file: the squares
// of the differences of larger values overflow float64.
var meanDomain = modelfile.Interval{Lo: -1e153, Hi: 1e153, Why: "the squared differences of larger means overflow float64"}

// smoothingDomain is the interval of the smoothing of a model file (alpha,
// var_smoothing): 0 for none, and at most maxSmoothing.
var smoothingDomain = modelfile.Interval{Lo: 0, Hi: maxSmoothing}
