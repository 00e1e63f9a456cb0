package naivebayes

import (
	"errors"
	"fmt"
	"iter"
	"maps"
	"math"
	"slices"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/enum"
	"github.com/gendisc/gendisc/stats"
)

// Variance selects which variances of a Gaussian naive Bayes model are
// tied (shared). With W_kj, M_kj and S_kj the weight, mean and centred sum
// of squares of feature j over the rows of class k where it is observed,
// the class means are always μ_kj = M_kj, and each tying's variance is the
// maximum-likelihood estimate of the shared parameter given those means,
// plus the smoothing ε of GaussianConfig.VarSmoothing.
type Variance int

const (
	// ClassFeatureVariance gives every class and feature its own variance
	// (the default):
	//
	//	σ²_kj = S_kj / W_kj + ε
	ClassFeatureVariance Variance = iota
	// FeatureVariance gives each feature one variance shared by the
	// classes, the pooled within-class variance:
	//
	//	σ²_j = Σ_k S_kj / Σ_k W_kj + ε
	//
	// The log-odds between two classes are then linear in x: the
	// logistic form, the generative partner of logistic regression.
	FeatureVariance
	// ClassVariance gives each class one variance, pooled over its
	// features:
	//
	//	σ²_k = Σ_j S_kj / Σ_j W_kj + ε
	ClassVariance
	// SharedVariance ties every variance to one:
	//
	//	σ² = Σ_k Σ_j S_kj / Σ_k Σ_j W_kj + ε
	SharedVariance
)

var varianceNames = &enum.Names[Variance]{Type: "Variance", What: "variance tying", Prefix: "naivebayes: ", List: []string{
	ClassFeatureVariance: "class-feature",
	FeatureVariance:      "feature",
	ClassVariance:        "class",
	SharedVariance:       "shared",
}}

// String returns the tying's name: "class-feature", "feature", "class" or
// "shared".
func (v Variance) String() string { return varianceNames.String(v) }

// ParseVariance returns the tying named s (see Variance.String).
func ParseVariance(s string) (Variance, error) { return varianceNames.Parse(s) }

// MarshalText writes the tying's name.
func (v Variance) MarshalText() ([]byte, error) { return varianceNames.MarshalText(v) }

// UnmarshalText reads a tying's name.
func (v *Variance) UnmarshalText(b []byte) error { return varianceNames.UnmarshalText(v, b) }

// DefaultVarSmoothing is the variance smoothing of the zero GaussianConfig,
// scikit-learn's default.
const DefaultVarSmoothing = 1e-9

// NoVarSmoothing as GaussianConfig.VarSmoothing adds nothing to the
// variances (ε = 0).
const NoVarSmoothing = -1

// GaussianConfig holds the hyperparameters of Gaussian naive Bayes. The
// zero value gives the defaults: maximum-likelihood class priors and a
// variance per class and feature smoothed by 1e-9 of the largest feature
// variance, as scikit-learn's GaussianNB.
type GaussianConfig struct {
	// VarSmoothing sets the ε added to every variance,
	//
	//	ε = VarSmoothing × max_j Var(x_j)
	//
	// where Var(x_j) is the maximum-likelihood variance of feature j over
	// all labelled training rows (weighted; scikit-learn ignores the
	// weights here). It keeps a feature that is constant within a class
	// usable. 0 means DefaultVarSmoothing (1e-9); NoVarSmoothing means
	// ε = 0. Other negative values are an error.
	VarSmoothing float64
	// Variance selects the variance tying; the default is
	// ClassFeatureVariance.
	Variance Variance
	// PriorAlpha, when positive, smooths the class prior:
	//
	//	π_k = (W_k + α) / (W + α·K)
	//
	// (W_k the total weight of the rows of class k, W = Σ_k W_k, K the
	// number of classes). 0 gives the maximum-likelihood W_k / W.
	PriorAlpha float64
	// ClassPrior, when not nil, fixes the class prior: a positive
	// probability for every class name, summing to 1 within 1e-9
	// (normalised to sum exactly). It excludes PriorAlpha.
	ClassPrior map[string]float64
}

// gaussianParams is a validated GaussianConfig with its defaults applied.
type gaussianParams struct {
	varSmoothing float64
	variance     Variance
	prior        classPrior
}

func (c GaussianConfig) params() (gaussianParams, error) {
	p := gaussianParams{varSmoothing: c.VarSmoothing, variance: c.Variance}
	switch {
	case c.VarSmoothing == 0:
		p.varSmoothing = DefaultVarSmoothing
	case c.VarSmoothing == NoVarSmoothing:
		p.varSmoothing = 0
	case !(c.VarSmoothing > 0 && c.VarSmoothing <= maxSmoothing):
		return p, fmt.Errorf("naivebayes: var smoothing %v: want a number in [0, %g]", c.VarSmoothing, maxSmoothing)
	}
	if !varianceNames.Valid(c.Variance) {
		return p, fmt.Errorf("naivebayes: unknown variance tying %d", int(c.Variance))
	}
	var err error
	p.prior, err = newClassPrior(c.PriorAlpha, c.ClassPrior)
	return p, err
}

// Gaussian is a fitted Gaussian naive Bayes classifier: given the class,
// the features are independent Gaussians,
//
//	log p(x, y = k) = log π_k + Σ_{j observed} [−½ log(2π σ²_kj) − (x_j − μ_kj)² / (2σ²_kj)]
//
// where a missing feature (NaN) leaves the sum: it is marginalised. It
// keeps the sufficient statistics of its training data, so it can be
// updated with more data (Update) and saved (MarshalJSON). A Gaussian is
// immutable and safe for concurrent use.
type Gaussian struct {
	classifier
	params gaussianParams
	stats  *stats.Moments
	// mean and variance hold μ_kj and σ²_kj at k·D + j.
	mean, variance []float64
	epsilon        float64
	// ignored names the features without an observed value in the
	// labelled rows, which the model leaves out (see Warnings).
	ignored []string
}

// Fit fits Gaussian naive Bayes to the rows of d: per class and feature,
// the weighted mean and maximum-likelihood variance of the observed cells,
// and the class priors. Rows whose label is missing (NaN) are skipped;
// missing cells are left out of their feature's statistics, and a class
// with no observed value of a feature takes that feature's mean and
// variance over all classes. A feature with no observed value in any
// labelled row carries no information: the model leaves it out of every
// likelihood (its mean 0 and variance NaN in Means and Variances) and
// names it in Warnings. Every feature must be numeric.
//
// Data problems are errors (*data.ParseError wrapping one of this
// package's Err values or data.ErrInfinite): no categorical target, fewer
// than two classes with rows, no feature with an observed value, a zero
// variance that the smoothing leaves at zero, a bad label or weight, an
// infinite value. Invalid settings are errors too.
func (c GaussianConfig) Fit(d *data.Dataset) (*Gaussian, error) {
	return c.FitStream(func(yield func(*data.Dataset, error) bool) { yield(d, nil) })
}

// FitStream fits the model to a sequence of chunks of rows, such as the
// blocks of a file too large for memory, as Fit would fit their union:
// the sufficient statistics of each chunk are added to an accumulator
// (gendisc.AddChunks), so only one chunk needs to be in memory at a time.
// Every chunk must have the features of the first; its classes may come in
// any order, those not seen before being appended (data.Schema.Extend). An
// error from the sequence is returned as is.
func (c GaussianConfig) FitStream(chunks iter.Seq2[*data.Dataset, error]) (*Gaussian, error) {
	a, err := c.NewAccumulator()
	if err != nil {
		return nil, err
	}
	if err := gendisc.AddChunks(a, chunks); err != nil {
		return nil, err
	}
	return a.finish(false)
}

// Update returns a new model fitted on the training data of m and the rows
// of d together, by adding the statistics of d to those of m
// (m.Accumulator); m is unchanged. The schema of d must have m's
// features; its classes may come in any order, those m lacks being
// appended. Update(A) after Fit(B) equals Fit of A ∪ B up to rounding.
func (m *Gaussian) Update(d *data.Dataset) (*Gaussian, error) {
	a := m.gaussianAccumulator()
	if err := a.Add(d); err != nil {
		return nil, err
	}
	return a.finish(false)
}

// GaussianAccumulator is a partial fit of Gaussian naive Bayes
// (gendisc.Accumulator): the schema of the rows added so far and, per
// class and feature, the weight, mean and centred sum of squares of the
// observed cells (stats.Moments), which merge by Chan's pairwise formula.
// Finish gives the model of Fit on all the rows added and merged, up to
// rounding (bit for bit when one Add saw every row).
type GaussianAccumulator struct {
	params gaussianParams
	schema *data.Schema   // nil before the first rows
	stats  *stats.Moments // K × D for the K classes of schema
	source string         // the latest rows' source, for errors
}

var _ gendisc.FoldAdder = (*GaussianAccumulator)(nil)

// NewAccumulator returns an empty accumulator of Gaussian naive Bayes with
// the settings of c, or the error of invalid settings.
func (c GaussianConfig) NewAccumulator() (*GaussianAccumulator, error) {
	p, err := c.params()
	if err != nil {
		return nil, err
	}
	return &GaussianAccumulator{params: p}, nil
}

// Accumulator returns an accumulator holding the statistics and settings
// of m: adding rows and finishing updates m, merging another model's
// accumulator merges the models.
func (m *Gaussian) Accumulator() gendisc.Accumulator { return m.gaussianAccumulator() }

func (m *Gaussian) gaussianAccumulator() *GaussianAccumulator {
	return &GaussianAccumulator{params: m.params, schema: m.schema, stats: m.stats.Clone()}
}

func (a *GaussianAccumulator) kind() string { return KindGaussian }

// Add adds the statistics of the labelled rows of d. d's features must be
// the accumulator's, numeric; its classes may come in any order, those
// not seen before being appended. Data problems are errors, as for Fit;
// after an error the accumulator is unchanged.
func (a *GaussianAccumulator) Add(d *data.Dataset) error {
	if err := checkGaussianRows(d); err != nil {
		return err
	}
	s, err := gaussianMoments(d, d.Y, len(d.Schema.Classes()))
	if err != nil {
		return err
	}
	if err := a.merge(d.Schema, s, d.Source.Name, true); err != nil {
		return err
	}
	a.source = d.Source.Name
	return nil
}

// checkGaussianRows checks the rows of d for Gaussian naive Bayes: their
// labels and weights, and numeric features.
func checkGaussianRows(d *data.Dataset) error {
	if err := checkRows(d); err != nil {
		return err
	}
	if d.D() == 0 {
		return &data.ParseError{File: d.Source.Name, Err: errors.New("no feature columns")}
	}
	for j, f := range d.Schema.Features {
		if f.Kind != data.Numeric {
			return columnError(d.Source.Name, d.Schema, j, &data.KindError{Column: f.Name, Kind: f.Kind, Model: KindGaussian,
				Takes: "numeric features only (mixed naive Bayes, Config{Family: Mixed}, takes every kind)", Err: ErrFeatureKind})
		}
	}
	return nil
}

// gaussianMoments returns the statistics of the labelled rows of d, which
// checkGaussianRows accepted, under the labels y of k classes: d.Y itself
// for Add, a fold's classes apart for AddFolds; an infinite cell is an
// error.
func gaussianMoments(d *data.Dataset, y []float64, k int) (*stats.Moments, error) {
	s := stats.NewMoments(k, d.D())
	s.Add(d.X, y, d.Weight)
	for j := range d.D() {
		if f := s.Feature(j); math.IsInf(f.M, 0) || math.IsNaN(f.M) || math.IsInf(f.S, 0) || math.IsNaN(f.S) {
			return nil, infiniteCell(d, j)
		}
	}
	return s, nil
}

// AddFolds adds row i of d to accs[fold[i]] for every row
// (gendisc.FoldAdder) in one pass over the rows, without copying them:
// with K classes, the rows of fold f and class k are class f·K + k of
// one stats.Moments.Add over all the rows, whose classes f·K to f·K + K − 1
// are merged into accs[f]. accs must be *GaussianAccumulator of a's
// settings (a *gendisc.MergeError otherwise); errors are those of Add,
// and leave every accumulator unchanged.
func (a *GaussianAccumulator) AddFolds(d *data.Dataset, fold []int, accs []gendisc.Accumulator) error {
	gs := make([]*GaussianAccumulator, len(accs))
	for f, o := range accs {
		g, ok := o.(*GaussianAccumulator)
		if !ok {
			return mergeError(a.kind(), otherKind(o), "another kind of model")
		}
		if err := sameSettings(a.kind(), a.settings(), g.settings()); err != nil {
			return err
		}
		if g.schema != nil {
			if _, _, err := extend(g.schema, d.Schema, d.Source.Name); err != nil {
				return err
			}
		}
		gs[f] = g
	}
	if err := checkGaussianRows(d); err != nil {
		return err
	}
	y, err := gendisc.FoldLabels(d, fold, len(accs))
	if err != nil {
		return err
	}
	k := len(d.Schema.Classes())
	s, err := gaussianMoments(d, y, len(accs)*k)
	if err != nil {
		return err
	}
	D := s.D
	for f, g := range gs {
		part := &stats.Moments{D: D, ClassWeight: s.ClassWeight[f*k : (f+1)*k : (f+1)*k],
			W: s.W[f*k*D : (f+1)*k*D : (f+1)*k*D], M: s.M[f*k*D : (f+1)*k*D : (f+1)*k*D], S: s.S[f*k*D : (f+1)*k*D : (f+1)*k*D]}
		if err := g.merge(d.Schema, part.Clone(), d.Source.Name, true); err != nil {
			return err // not reached: the schemas were checked above
		}
		g.source = d.Source.Name
	}
	return nil
}

// Merge adds the statistics of o, a *GaussianAccumulator with the same
// settings (a *gendisc.MergeError otherwise) whose schema has the accumulator's
// features (a *data.ParseError wrapping a *data.SchemaError otherwise).
// Classes that only o has are appended. o is unchanged.
func (a *GaussianAccumulator) Merge(o gendisc.Accumulator) error {
	b, ok := o.(*GaussianAccumulator)
	if !ok {
		return mergeError(a.kind(), otherKind(o), "another kind of model")
	}
	if err := sameSettings(a.kind(), a.settings(), b.settings()); err != nil {
		return err
	}
	if b.schema == nil {
		return nil
	}
	return a.merge(b.schema, b.stats, b.source, false)
}

// merge adds statistics s of rows of schema t from source: s is kept when
// owned, else not changed.
func (a *GaussianAccumulator) merge(t *data.Schema, s *stats.Moments, source string, owned bool) error {
	if a.schema == nil {
		a.schema, a.stats, a.source = t.Clone(), s, source
		if !owned {
			a.stats = s.Clone()
		}
		return nil
	}
	schema, r, err := extend(a.schema, t, source)
	if err != nil {
		return err
	}
	a.schema = schema
	a.stats.Grow(len(schema.Classes()))
	a.stats.MergeRemap(s, r.Target)
	return nil
}

// Model finishes the fit (Finish).
func (a *GaussianAccumulator) Model() (gendisc.Model, error) {
	m, err := a.Finish()
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Finish returns the model of the statistics added and merged so far, with
// the errors of Fit (data.ErrNoRows before any rows). The accumulator stays
// usable.
func (a *GaussianAccumulator) Finish() (*Gaussian, error) { return a.finish(true) }

// finish returns the model of the statistics, a copy of them when keep is
// set; otherwise the model takes them and a must not be used again.
func (a *GaussianAccumulator) finish(keep bool) (*Gaussian, error) {
	return a.finishWith(a.params, keep)
}

// finishWith is finish with the settings p in place of the accumulator's.
func (a *GaussianAccumulator) finishWith(p gaussianParams, keep bool) (*Gaussian, error) {
	if a.schema == nil {
		return nil, &data.ParseError{File: a.source, Err: data.ErrNoRows}
	}
	s := a.stats
	if keep {
		s = s.Clone()
	}
	return newGaussian(a.schema, s, p, a.source)
}

// SameStatistics reports whether the accumulators of o gather the
// statistics of c's: always, since every setting of Gaussian naive Bayes
// (the variance tying and smoothing, the class prior) applies when the
// model is made of the per-class moments (ModelFrom).
func (c GaussianConfig) SameStatistics(o GaussianConfig) bool { return true }

// ModelFrom returns the model of c made of the statistics of a, an
// accumulator of any GaussianConfig (SameStatistics), as if a had been
// c's: the model of c fitted to a's rows, the same to the last bit.
// a is not changed.
func (c GaussianConfig) ModelFrom(a *GaussianAccumulator) (*Gaussian, error) {
	p, err := c.params()
	if err != nil {
		return nil, err
	}
	return a.finishWith(p, true)
}

// settings is the model-file form of the accumulator's settings, without
// statistics.
func (a *GaussianAccumulator) settings() gaussianJSON { return gaussianSettings(a.params) }

// MarshalBinary encodes the settings, the schema and the statistics, which
// UnmarshalBinary reads back bit-exactly.
func (a *GaussianAccumulator) MarshalBinary() ([]byte, error) {
	j := a.settings()
	if a.stats != nil {
		j.setStats(a.stats)
	}
	return encodeAccumulator(a.kind(), a.schema, a.source, j)
}

// UnmarshalBinary sets a to the accumulator encoded by MarshalBinary,
// checking the statistics against the schema.
func (a *GaussianAccumulator) UnmarshalBinary(b []byte) error {
	j, err := decodeAccumulator(b, a.kind())
	if err != nil {
		return err
	}
	var g gaussianJSON
	if err := strictDecode(j.Params, &g); err != nil {
		return fmt.Errorf("naivebayes: gaussian-nb accumulator: %w", err)
	}
	p, err := g.params()
	if err != nil {
		return err
	}
	var s *stats.Moments
	if j.Schema != nil {
		if s, err = g.moments(j.Schema); err != nil {
			return fmt.Errorf("naivebayes: gaussian-nb accumulator: %w", err)
		}
	}
	*a = GaussianAccumulator{params: p, schema: j.Schema, stats: s, source: j.Source}
	return nil
}

// infiniteCell returns the error about the first infinite value of
// feature j of d.
func infiniteCell(d *data.Dataset, j int) error {
	for i := range d.N {
		if math.IsInf(d.X[i*d.D()+j], 0) {
			return &data.ParseError{File: d.Source.Name, Line: d.Line(i), ColumnName: d.Schema.Features[j].Name, Err: data.ErrInfinite}
		}
	}
	return columnError(d.Source.Name, d.Schema, j, data.ErrInfinite)
}

// newGaussian derives the parameters of the model from its statistics.
// source names the data in error messages.
func newGaussian(schema *data.Schema, s *stats.Moments, p gaussianParams, source string) (*Gaussian, error) {
	if err := checkClasses(source, s.ClassWeight); err != nil {
		return nil, err
	}
	prior, err := p.prior.priors(schema.Classes(), s.ClassWeight)
	if err != nil {
		return nil, err
	}
	pooled := make([]stats.Moment, s.D)
	maxVar := 0.0
	var ignored []int
	for j := range pooled {
		pooled[j] = s.Feature(j)
		if pooled[j].W == 0 {
			ignored = append(ignored, j)
			continue
		}
		maxVar = max(maxVar, pooled[j].Var())
	}
	if len(ignored) == s.D {
		return nil, columnError(source, schema, 0, ErrNotObserved)
	}
	if maxVar == 0 {
		return nil, columnError(source, schema, 0, &ZeroVarianceError{Column: schema.Features[0].Name, AllConstant: true, Variance: p.variance})
	}
	m := &Gaussian{params: p, stats: s, epsilon: p.varSmoothing * maxVar}
	m.mean, m.variance = m.tie(pooled)
	for _, j := range ignored {
		m.ignored = append(m.ignored, schema.Features[j].Name)
		for k := range s.K() {
			m.mean[k*s.D+j], m.variance[k*s.D+j] = 0, math.NaN()
		}
	}
	if err := m.checkVariances(source, schema); err != nil {
		return nil, err
	}
	m.classifier = newClassifier(schema, prior, newGaussianFamily(s.K(), s.D, m.mean, m.variance))
	return m, nil
}

// tie returns the means and variances of every class and feature under the
// model's variance tying. A class without observed values of feature j
// takes the feature's pooled mean M_j and, without tying, its pooled
// variance T_j / W_j (pooled: over the rows of every class); under class
// tying, a class without any observed value takes the shared variance.
func (m *Gaussian) tie(pooled []stats.Moment) (mean, variance []float64) {
	s := m.stats
	K, D := s.K(), s.D
	mean, variance = make([]float64, K*D), make([]float64, K*D)
	var sw, ss float64 // Σ_k Σ_j W_kj, Σ_k Σ_j S_kj
	fw, fs := make([]float64, D), make([]float64, D)
	cw, cs := make([]float64, K), make([]float64, K)
	for k := range K {
		for j := range D {
			a := s.At(k, j)
			mean[k*D+j] = a.M
			if a.W == 0 {
				mean[k*D+j] = pooled[j].M
			}
			fw[j] += a.W
			fs[j] += a.S
			cw[k] += a.W
			cs[k] += a.S
			sw += a.W
			ss += a.S
		}
	}
	for k := range K {
		for j := range D {
			var v float64
			switch m.params.variance {
			case ClassFeatureVariance:
				v = pooled[j].Var()
				if a := s.At(k, j); a.W > 0 {
					v = a.Var()
				}
			case FeatureVariance:
				v = fs[j] / fw[j]
			case ClassVariance:
				v = ss / sw
				if cw[k] > 0 {
					v = cs[k] / cw[k]
				}
			case SharedVariance:
				v = ss / sw
			}
			variance[k*D+j] = v + m.epsilon
		}
	}
	return mean, variance
}

// checkVariances reports the first zero variance (possible only without
// smoothing), naming its feature and class, or infinite variance
// (possible only with statistics beyond the range of float64).
func (m *Gaussian) checkVariances(source string, schema *data.Schema) error {
	D := m.stats.D
	for i, v := range m.variance {
		if v > 0 && !math.IsInf(v, 1) || math.IsNaN(v) {
			continue
		}
		k, j := i/D, i%D
		if v > 0 {
			return columnError(source, schema, j, fmt.Errorf("variance overflows within class %q", schema.Classes()[k]))
		}
		e := &ZeroVarianceError{Column: schema.Features[j].Name, Class: schema.Classes()[k], Variance: m.params.variance}
		if m.params.variance == FeatureVariance || m.params.variance == SharedVariance {
			e.Class = ""
		}
		return columnError(source, schema, j, e)
	}
	return nil
}

var _ gendisc.Generative = (*Gaussian)(nil)

// Kind returns KindGaussian, "gaussian-nb".
func (m *Gaussian) Kind() string { return KindGaussian }

// Schema returns a copy of the schema of the training data.
func (m *Gaussian) Schema() *data.Schema { return m.schema.Clone() }

// Classes returns the class names, in the order of the probability
// columns.
func (m *Gaussian) Classes() []string { return slices.Clone(m.schema.Classes()) }

// LogProba writes log P(y = k | x_i) to dst[i·K + k] for every row i of d
// and returns dst (allocated when nil): the joint log-likelihood
// normalised by a stable log-sum-exp. Missing features are marginalised.
// A row so far out that its joint is below float64's range for every
// class (about −1e600 at 1e300; JointLogLikelihood gives −Inf) is scored
// again with its large cells scaled out (classifier.farRow): the class of
// widest variance in the row's direction wins, as it does at smaller
// scales. It panics if d's features differ from the model's schema by
// name, kind or order, or dst has a length other than d.N·K.
func (m *Gaussian) LogProba(dst []float64, d *data.Dataset) []float64 {
	return m.joint(dst, d, true)
}

// JointLogLikelihood writes log p(x_i, y = k) to dst[i·K + k] for every row
// i of d and returns dst, with the conventions of LogProba.
func (m *Gaussian) JointLogLikelihood(dst []float64, d *data.Dataset) []float64 {
	return m.joint(dst, d, false)
}

// Proba writes P(y = k | x_i) to dst[i·K + k], bit for bit the
// exponential of what LogProba writes (gendisc.BatchProba), with its
// conventions: each chunk of rows is normalised as by LogProba and
// exponentiated while it is in cache (kernel.ProbaRows), at a fraction of
// the cost of a math.Exp per value.
func (m *Gaussian) Proba(dst []float64, d *data.Dataset) []float64 {
	return m.proba(dst, d)
}

// ProbaClasses writes P(y = k | x_i) to proba[i·K + k] as Proba does
// and the most probable class of row i to best[i], bit for bit
// gendisc.Predict's (gendisc.ArgmaxRows of LogProba), taken from each
// chunk's log-posteriors while it is in cache: the predictions of
// models.Predict in one pass. proba has length d.N·K and best d.N; it
// panics otherwise, or as Proba does.
func (m *Gaussian) ProbaClasses(proba []float64, best []int, d *data.Dataset) {
	m.probaClasses(proba, best, d)
}

// ProbaJoint writes P(y = k | x_i) to proba[i·K + k] as Proba does and
// log p(x_i, y = k) to joint[i·K + k] as JointLogLikelihood does, bit for
// bit both, computing the joint once (gendisc.JointProba): the
// predictions and the log-likelihoods of the same rows. It panics as
// Proba does, or if joint's length is not proba's.
func (m *Gaussian) ProbaJoint(proba, joint []float64, d *data.Dataset) {
	m.probaJoint(proba, joint, d)
}

// Config returns the settings the model was fitted with, defaults
// applied; fitting the same data with them gives the same model.
func (m *Gaussian) Config() GaussianConfig {
	c := GaussianConfig{VarSmoothing: m.params.varSmoothing, Variance: m.params.variance,
		PriorAlpha: m.params.prior.alpha}
	if c.VarSmoothing == 0 {
		c.VarSmoothing = NoVarSmoothing
	}
	if m.params.prior.fixed != nil {
		c.ClassPrior = maps.Clone(m.params.prior.fixed)
	}
	return c
}

// Priors returns the class priors π_k.
func (m *Gaussian) Priors() []float64 { return slices.Clone(m.prior) }

// ClassWeights returns the total weight of the training rows of each
// class: their number when the rows are unweighted.
func (m *Gaussian) ClassWeights() []float64 { return slices.Clone(m.stats.ClassWeight) }

// Means returns μ_kj as Means()[k][j].
func (m *Gaussian) Means() [][]float64 { return m.rows(m.mean) }

// Variances returns σ²_kj as Variances()[k][j], smoothing included; tied
// variances are repeated. A feature left out for lack of observed values
// has variance NaN.
func (m *Gaussian) Variances() [][]float64 { return m.rows(m.variance) }

// LogisticForm returns the log-odds of a two-class model whose variances
// are shared by the classes (FeatureVariance or SharedVariance tying),
// which are linear in x because the quadratic terms cancel:
//
//	log P(y = 1 | x) / P(y = 0 | x) = wᵀx + w0
//	w_j = (μ_1j − μ_0j) / σ²_j
//	w0  = log(π_1 / π_0) − Σ_j (μ_1j − μ_0j)(μ_1j + μ_0j) / (2σ²_j)
//
// so that P(y = 1 | x) = 1 / (1 + exp(−wᵀx − w0)): the hypothesis of
// logistic regression, class 1 being the second class. ok is false for
// other models. A missing x_j drops w_j x_j together with its part of w0.
func (m *Gaussian) LogisticForm() (w []float64, w0 float64, ok bool) {
	if m.stats.K() != 2 || m.params.variance != FeatureVariance && m.params.variance != SharedVariance {
		return nil, 0, false
	}
	D := m.stats.D
	mu0, mu1, v := m.mean[:D], m.mean[D:], m.variance[:D]
	w = make([]float64, D)
	w0 = m.logPrior[1] - m.logPrior[0]
	for j := range w {
		d := mu1[j] - mu0[j]
		w[j] = d / v[j]
		w0 -= d * (mu1[j] + mu0[j]) / (2 * v[j])
	}
	return w, w0, true
}

// Warnings returns a note for each feature that had no observed value in
// the labelled rows: the model leaves it out, so that its cells change no
// probability. Nil when every feature was observed.
func (m *Gaussian) Warnings() []string {
	var w []string
	for _, name := range m.ignored {
		w = append(w, ignoredWarning(name))
	}
	return w
}

// ignoredWarning is the warning about feature name, left out of a
// Gaussian model because it has no observed value.
func ignoredWarning(name string) string {
	return fmt.Sprintf("column %q has no observed value in the labelled rows: left out of the model (it carries no information)", name)
}

// Epsilon returns the smoothing ε added to every variance.
func (m *Gaussian) Epsilon() float64 { return m.epsilon }

// rows copies a K×D parameter into one slice per class.
func (m *Gaussian) rows(p []float64) [][]float64 {
	D := m.stats.D
	out := make([][]float64, m.stats.K())
	for k := range out {
		out[k] = slices.Clone(p[k*D : (k+1)*D])
	}
	return out
}
