package mixture

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/modelfile"
)

// gmmJSON is the layout of a GMM's parameters in a model file.
type gmmJSON struct {
	Covariance  string           `json:"covariance"`
	Components  int              `json:"components"`
	Weights     modelfile.Floats `json:"weights"`
	Means       modelfile.Floats `json:"means"`
	Covariances modelfile.Floats `json:"covariances"`
	Rows        modelfile.Float  `json:"rows"`
	Trace       modelfile.Floats `json:"log_likelihood_trace"`
	Restarts    modelfile.Floats `json:"restart_log_likelihoods"`
	Converged   bool             `json:"converged"`
	Iterations  int              `json:"iterations"`
	Warnings    []string         `json:"warnings,omitempty"`
	Candidates  []candidateJSON  `json:"candidates,omitempty"`
	// Settings are those of the fit, always written; absent in files
	// written before models kept them, whose settings are unknown (they
	// change the fit, not how the model predicts).
	Settings *Settings `json:"settings,omitempty"`
}

// candidateJSON is a Candidate with bit-exact figures.
type candidateJSON struct {
	K      int             `json:"k"`
	BIC    modelfile.Float `json:"bic"`
	AIC    modelfile.Float `json:"aic"`
	LogLik modelfile.Float `json:"log_likelihood"`
}

// MarshalJSON writes the parameters (covariances in the compact layout of
// Params), the log-likelihood trace, the restarts' log-likelihoods, the
// warnings, SelectK's candidates and the settings of the fit;
// UnmarshalGMM reads them back bit for bit.
func (g *GMM) MarshalJSON() ([]byte, error) {
	p := g.m.params()
	var cands []candidateJSON
	for _, c := range g.info.candidates {
		cands = append(cands, candidateJSON{c.K, modelfile.Float(c.BIC), modelfile.Float(c.AIC), modelfile.Float(c.LogLik)})
	}
	return json.Marshal(gmmJSON{Candidates: cands,
		Covariance: g.m.cov.String(), Components: g.m.k,
		Weights: p.Weights, Means: p.Means, Covariances: p.Covariances,
		Rows: modelfile.Float(g.info.n), Trace: g.info.trace, Restarts: g.info.restarts,
		Converged: g.info.converged, Iterations: g.info.iters, Warnings: g.info.warnings, Settings: g.info.settings,
	})
}

// figureDomain is the interval of the log-likelihoods and criteria that
// a model file records: the log-likelihood of rows of finite density is
// finite and far within it, and BIC and AIC, −2 log L plus a penalty, stay
// finite.
var figureDomain = modelfile.Interval{Lo: -1e300, Hi: 1e300, Why: "BIC and AIC of larger log-likelihoods overflow float64"}

// UnmarshalGMM rebuilds a GMM from its schema and the parameters written by
// MarshalJSON, checking them: a known covariance type, lengths that fit
// the schema's numeric features, finite values, weights that sum to 1,
// positive definite covariances, a trace of Iterations+1 finite values,
// valid settings when there are (Settings.UnmarshalJSON).
func UnmarshalGMM(schema *data.Schema, params []byte) (*GMM, error) {
	var p gmmJSON
	dec := json.NewDecoder(bytes.NewReader(params))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("mixture: reading gmm parameters: %w", err)
	}
	if schema == nil || len(schema.Features) == 0 {
		return nil, fmt.Errorf("mixture: gmm model without features")
	}
	for _, col := range schema.Features {
		if col.Kind != data.Numeric {
			return nil, fmt.Errorf("mixture: gmm model with %s feature %q", col.Kind, col.Name)
		}
	}
	cov, err := ParseCovariance(p.Covariance)
	if err != nil {
		return nil, fmt.Errorf("mixture: gmm model: %w", err)
	}
	if p.Components < 1 {
		return nil, fmt.Errorf("mixture: gmm model with %d components", p.Components)
	}
	m, err := fromParams(cov, p.Components, len(schema.Features),
		&Params{Weights: p.Weights, Means: p.Means, Covariances: p.Covariances})
	if err != nil {
		return nil, fmt.Errorf("mixture: gmm model: %w", err)
	}
	n := float64(p.Rows)
	switch {
	case !(n > 0) || math.IsInf(n, 0):
		return nil, fmt.Errorf("mixture: gmm model fitted on %v rows", n)
	case p.Iterations < 0 || len(p.Trace) != p.Iterations+1:
		return nil, fmt.Errorf("mixture: gmm model with %d iterations and a log-likelihood trace of %d values", p.Iterations, len(p.Trace))
	case len(p.Restarts) == 0:
		return nil, fmt.Errorf("mixture: gmm model without the log-likelihoods of its restarts")
	}
	if err := figureDomain.Check("log_likelihood_trace", p.Trace); err != nil {
		return nil, fmt.Errorf("mixture: gmm model: %w", err)
	}
	if err := figureDomain.Check("restart_log_likelihoods", p.Restarts); err != nil {
		return nil, fmt.Errorf("mixture: gmm model: %w", err)
	}
	var cands []Candidate
	for i, c := range p.Candidates {
		if err := figureDomain.Check(fmt.Sprintf("candidates[%d]", i), []float64{float64(c.BIC), float64(c.AIC), float64(c.LogLik)}); err != nil {
			return nil, fmt.Errorf("mixture: gmm model: %w", err)
		}
		cands = append(cands, Candidate{c.K, float64(c.BIC), float64(c.AIC), float64(c.LogLik)})
	}
	return newGMM(schema.Clone(), m, fitInfo{n: n, trace: p.Trace, restarts: p.Restarts,
		warnings: p.Warnings, converged: p.Converged, iters: p.Iterations, candidates: cands, settings: p.Settings})
}
