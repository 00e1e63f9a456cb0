package gda

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/gauss"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/stats"
)

// EMParams are the parameters of LDA or QDA at one iteration of EM over
// the rows with missing cells: the class means and the covariance
// matrices as the configuration defines them (Config), one for LDA and
// one per class for QDA, each p×p row-major. Classes names the classes of
// Means (and of Covariances for QDA), in order.
type EMParams struct {
	Classes     []string
	Means       [][]float64
	Covariances [][]float64
}

// Converged reports whether EM stops at next after p, as Fit does with
// tolerance tol (Config.Tol): no mean moved by more than tol·σ_j and no
// covariance entry by more than tol·σ_jσ_l, σ from next's covariances.
// It panics if the parameters differ in shape or classes.
func (p *EMParams) Converged(next *EMParams, tol float64) bool {
	if !slices.Equal(p.Classes, next.Classes) || len(p.Covariances) != len(next.Covariances) || len(p.Means) != len(next.Means) {
		panic("gda: Converged of parameters of different classes")
	}
	return converged(p.Means, p.Covariances, next.Means, next.Covariances, len(next.Means[0]), tol)
}

// EStats are the statistics of one EM pass over the rows of an
// Accumulator, given the current parameters (Accumulator.EStep): the
// expected complete-data statistics per class (the statistics of the
// complete rows plus, for each row with missing cells, those of the row
// completed by the conditional means of its missing cells, and their
// conditional covariance added to the scatter) and the log-likelihood of
// the observed cells. Statistics of disjoint rows merge (Merge) and travel
// (MarshalBinary), so that a driver outside the process can run EM over
// shards: EStep on every shard, Merge, MStep, until EMParams.Converged.
//
// The statistics of the start (EStep with nil parameters) are instead
// those of the complete rows and the moments of the observed cells of the
// rows with missing cells, from which MStep gives Fit's starting point.
type EStats struct {
	kind   string
	cfg    Config
	schema *data.Schema   // nil for no rows
	stats  *stats.Classes // the expected complete-data statistics
	obs    *stats.Moments // at the start: the observed cells of the incomplete rows
	ll     float64
	source string
}

// EStep returns the E-step statistics of the accumulator's rows under the
// parameters p (whose classes must include the accumulator's, in any
// order), or, when p is nil, the statistics of the start. The
// log-likelihood is that of the observed cells given the classes,
//
//	ℓ = Σ_i w_i log N(x_i,o; μ_y_i,o, Σ_y_i,oo)
//
// which EM does not decrease with the maximum-likelihood estimator and no
// shrinkage (the M-step is then the maximiser). A covariance matrix that
// is not positive definite is an error (ErrSingular).
func (a *Accumulator) EStep(p *EMParams) (*EStats, error) {
	e := &EStats{kind: a.kind, cfg: a.cfg, source: a.source}
	if a.schema == nil {
		return e, nil
	}
	e.schema = a.schema.Clone()
	if p == nil {
		e.stats = a.stats.Clone()
		e.obs = stats.NewMoments(a.stats.K(), a.stats.D)
		e.obs.Add(a.inc.x, a.inc.y, a.inc.w)
		return e, nil
	}
	means, covs, err := a.params(p)
	if err != nil {
		return nil, err
	}
	if e.stats, err = expected(a.kind, e.schema, a.stats, a.inc.x, a.inc.y, a.inc.w, means, covs, a.source); err != nil {
		return nil, err
	}
	if e.ll, err = a.logLikelihood(means, covs); err != nil {
		return nil, err
	}
	return e, nil
}

// params returns the means and covariance matrices of p in the order of
// the accumulator's classes.
func (a *Accumulator) params(p *EMParams) (means, covs [][]float64, err error) {
	K, D := a.stats.K(), a.stats.D
	ncov := 1
	if a.kind == KindQDA {
		ncov = len(p.Classes)
	}
	if len(p.Means) != len(p.Classes) || len(p.Covariances) != ncov {
		return nil, nil, fmt.Errorf("gda: %s parameters: %d classes, %d means and %d covariance matrices", a.kind, len(p.Classes), len(p.Means), len(p.Covariances))
	}
	means = make([][]float64, K)
	for k, c := range a.schema.Classes() {
		i := slices.Index(p.Classes, c)
		if i < 0 {
			return nil, nil, fmt.Errorf("gda: %s parameters: no class %q", a.kind, c)
		}
		means[k] = p.Means[i]
		if a.kind == KindQDA {
			covs = append(covs, p.Covariances[i])
		}
	}
	if a.kind == KindLDA {
		covs = p.Covariances
	}
	for _, m := range means {
		if len(m) != D {
			return nil, nil, fmt.Errorf("gda: %s parameters: a mean of %d values for %d features", a.kind, len(m), D)
		}
	}
	for _, c := range covs {
		if len(c) != D*D {
			return nil, nil, fmt.Errorf("gda: %s parameters: a covariance matrix of %d values for %d features", a.kind, len(c), D)
		}
	}
	return means, covs, nil
}

// logLikelihood returns Σ_i w_i log N(x_i,o; μ_y_i,o, Σ_y_i,oo) over the
// accumulator's rows. The complete rows of class k, with weight W_k, mean
// m_k and scatter S_k, give
//
//	−½ [W_k (p log 2π + log|Σ_k|) + tr(Σ_k⁻¹ S_k) + W_k (m_k − μ_k)ᵀ Σ_k⁻¹ (m_k − μ_k)]
//
// and each row with missing cells the Gaussian of its observed cells,
// Σ_oo factored once per covariance matrix and pattern.
func (a *Accumulator) logLikelihood(means, covs [][]float64) (float64, error) {
	p := a.stats.D
	factors := make([]*factor, len(covs))
	for ci, cov := range covs {
		f, _, ok := factorize(cov, p, false)
		if !ok {
			return 0, singularError(a.kind, a.schema, ci, -1, a.source)
		}
		factors[ci] = f
	}
	ci := func(k int) int { return min(k, len(covs)-1) }
	ll := 0.0
	v := make([]float64, p)
	for k, c := range a.stats.Class {
		if c.W == 0 {
			continue
		}
		f := factors[ci(k)]
		s := slices.Clone(c.S)
		f.solveSym(s, p)
		tr := 0.0
		for j := range p {
			tr += s[j*p+j]
			v[j] = c.Mean[j] - means[k][j]
		}
		f.solve(v)
		ll -= (c.W*(float64(p)*gauss.Log2Pi+f.logDet) + tr + c.W*sumSq(v)) / 2
	}
	for r := range a.inc.n() {
		x, k := a.inc.x[r*p:(r+1)*p], int(a.inc.y[r])
		c := ci(k)
		pat, err := factors[c].g.PatternOf(x)
		if err != nil {
			return 0, singularError(a.kind, a.schema, c, -1, a.source)
		}
		ll += a.inc.w[r] * pat.LogPdf(x, means[k], v)
	}
	return ll, nil
}

// LogLikelihood returns the log-likelihood of the observed cells of the
// rows under the parameters of the E-step (see Accumulator.EStep); 0 for
// the statistics of the start.
func (e *EStats) LogLikelihood() float64 { return e.ll }

// Merge adds the statistics of o, about other rows under the same
// parameters, to e; classes only o has come after e's. o is unchanged.
// Statistics of another kind or configuration, or of the start merged
// with those of an iteration, are a *gendisc.MergeError.
func (e *EStats) Merge(o *EStats) error {
	if err := compatible(e.kind, o.kind, e.cfg, o.cfg); err != nil {
		return err
	}
	if o.schema == nil {
		return nil
	}
	if e.schema != nil && (e.obs == nil) != (o.obs == nil) {
		return mergeError(e.kind, o.kind, "statistics of the start and of an iteration")
	}
	if o == e {
		o = o.clone()
	}
	if e.schema == nil {
		c := o.clone()
		e.schema, e.stats, e.obs, e.ll = c.schema, c.stats, c.obs, c.ll
		return nil
	}
	if e.stats.D != o.stats.D {
		return mergeError(e.kind, o.kind, fmt.Sprintf("%d features, want %d", o.stats.D, e.stats.D))
	}
	s, r, err := e.schema.Extend(o.schema)
	if err != nil {
		return err
	}
	K := len(s.Classes())
	e.schema = s
	e.stats.Grow(K)
	if e.obs != nil {
		e.obs.Grow(K)
	}
	for k, c := range o.stats.Class {
		t := k
		if r.Target != nil {
			t = r.Target[k]
		}
		e.stats.Class[t].Merge(c)
		if e.obs != nil {
			e.obs.ClassWeight[t] += o.obs.ClassWeight[k]
			for j := range e.obs.D {
				m := e.obs.At(t, j).Merge(o.obs.At(k, j))
				i := t*e.obs.D + j
				e.obs.W[i], e.obs.M[i], e.obs.S[i] = m.W, m.M, m.S
			}
		}
	}
	e.ll += o.ll
	return nil
}

func (e *EStats) clone() *EStats {
	c := *e
	if e.schema != nil {
		c.schema, c.stats = e.schema.Clone(), e.stats.Clone()
	}
	if e.obs != nil {
		c.obs = e.obs.Clone()
	}
	return &c
}

// MStep returns the parameters that the statistics give: the class means
// and the covariance matrices of the configuration (Config) or, for the
// statistics of the start, Fit's starting point (per class and feature,
// the mean and variance of the observed cells, in a diagonal covariance
// matrix, pooled over the classes for LDA). Data problems (a class
// without rows, too few rows, a feature without observed cells) are
// errors, as for Fit.
func (e *EStats) MStep() (*EMParams, error) {
	if e.schema == nil {
		return nil, &data.ParseError{File: e.source, Err: data.ErrNoRows}
	}
	p := &EMParams{Classes: slices.Clone(e.schema.Classes())}
	if e.obs != nil {
		var err error
		if p.Means, p.Covariances, err = emStartFrom(e.kind, e.schema, e.stats, e.obs, e.source); err != nil {
			return nil, err
		}
		return p, nil
	}
	var err error
	if p.Means, p.Covariances, err = mstep(e.kind, e.cfg, e.schema, e.stats, e.source); err != nil {
		return nil, err
	}
	for k, m := range p.Means {
		p.Means[k] = slices.Clone(m)
	}
	return p, nil
}

// mstep returns the class means and the covariance matrices that the
// statistics s give, after checking that they can give a model.
func mstep(kind string, cfg Config, schema *data.Schema, s *stats.Classes, source string) (means, covs [][]float64, err error) {
	if err := checkStats(kind, cfg, schema, s, source); err != nil {
		return nil, nil, err
	}
	means = make([][]float64, s.K())
	for k, c := range s.Class {
		means[k] = c.Mean
	}
	return means, covariances(kind, cfg, s), nil
}

// Model returns the model that the statistics give (an *LDA or a *QDA),
// which after the E-step of the last parameters of EM is the model Fit
// gives. It does not keep the rows with missing cells: to update it,
// merge the shards' accumulators instead. Its EMIterations is 0.
func (e *EStats) Model() (gendisc.Model, error) {
	if e.schema == nil || e.obs != nil {
		return nil, errors.New("gda: Model of the statistics of the start or of no rows")
	}
	m, err := newModel(e.kind, e.cfg, e.schema.Clone(), e.stats.Clone(), e.source)
	if err != nil {
		return nil, err
	}
	if e.kind == KindLDA {
		return newLDA(m, nil)
	}
	return newQDA(m, nil)
}

// eStatsFormat names the encoding of EStats.
const eStatsFormat = "gendisc-gda-estats/1"

// eStatsJSON is the encoding of EStats: Params holds the configuration
// and the expected statistics (Classes).
type eStatsJSON struct {
	Format        string          `json:"format"`
	Kind          string          `json:"kind"`
	Schema        *data.Schema    `json:"schema"`
	Source        string          `json:"source,omitempty"`
	LogLikelihood modelfile.Float `json:"log_likelihood"`
	Params        paramsJSON      `json:"params"`
	// Start holds the moments of the observed cells of the start in
	// package stats' encoding.
	Start []byte `json:"start,omitempty"`
}

// MarshalBinary encodes the statistics with their kind and configuration
// (as JSON; every number reads back bit for bit).
func (e *EStats) MarshalBinary() ([]byte, error) {
	j := eStatsJSON{Format: eStatsFormat, Kind: e.kind, Schema: e.schema, Source: e.source,
		LogLikelihood: modelfile.Float(e.ll), Params: newParamsJSON(e.cfg, 0, e.stats)}
	if e.obs != nil {
		var err error
		if j.Start, err = e.obs.MarshalBinary(); err != nil {
			return nil, err
		}
	}
	return json.Marshal(j)
}

// UnmarshalBinary replaces e by the statistics that b encodes
// (MarshalBinary), checking what it reads.
func (e *EStats) UnmarshalBinary(b []byte) error {
	var j eStatsJSON
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return fmt.Errorf("gda: EM statistics: %w", err)
	}
	if j.Format != eStatsFormat || (j.Kind != KindLDA && j.Kind != KindQDA) {
		return mergeError(e.kind, fmt.Sprintf("%q", j.Kind), fmt.Sprintf("format %q, want %q of lda or qda", j.Format, eStatsFormat))
	}
	cfg, err := j.Params.config(j.Kind)
	if err != nil {
		return err
	}
	n := &EStats{kind: j.Kind, cfg: cfg, source: j.Source, ll: float64(j.LogLikelihood)}
	if j.Schema == nil {
		if len(j.Params.Classes) > 0 || j.Start != nil {
			return fmt.Errorf("gda: %s EM statistics without a schema", j.Kind)
		}
		*e = *n
		return nil
	}
	if err := checkSchema(j.Kind, j.Schema); err != nil {
		return err
	}
	n.schema = j.Schema
	if n.stats, err = decodeStats(j.Kind, cfg, j.Schema, "classes", j.Params.Classes); err != nil {
		return err
	}
	if j.Start != nil {
		obs := new(stats.Moments)
		if err := obs.UnmarshalBinary(j.Start); err != nil {
			return fmt.Errorf("gda: %s EM statistics: moments of the start: %w", j.Kind, err)
		}
		if obs.K() != n.stats.K() || obs.D != n.stats.D {
			return fmt.Errorf("gda: %s EM statistics: moments of the start of the wrong size", j.Kind)
		}
		n.obs = obs
	}
	*e = *n
	return nil
}
