package gda

import (
	"fmt"
	"iter"
	"slices"

	"github.com/gendisc/gendisc/data"
)

// QDA is a fitted quadratic discriminant analysis: class priors π_k, class
// means μ_k and a covariance matrix Σ_k per class,
//
//	log p(x, y = k) = log π_k − ½ log|2πΣ_k| − ½ (x − μ_k)ᵀ Σ_k⁻¹ (x − μ_k)
//
// A missing feature (NaN) at prediction is marginalised: the Gaussian over
// the observed coordinates. QDA keeps the sufficient statistics of its
// training data, so it can be updated (Update), merged (Accumulator) and
// saved (MarshalJSON).
// It is immutable and safe for concurrent use.
type QDA struct{ m *model }

// Fit fits QDA to the rows of d: per class the weighted mean, covariance
// matrix (Config) and prior. Rows whose label is missing are skipped;
// rows with missing cells enter through EM (see the package
// documentation). Every feature must be numeric.
//
// Data problems are errors (*data.ParseError wrapping one of this
// package's Err values or a data error): no categorical target, fewer than
// two classes, a class without rows or with fewer rows than its covariance
// needs (p + 1 without shrinkage, 2 with), a singular covariance matrix
// (the message names the class, and a feature of zero variance if any,
// and suggests shrinkage), a bad label or weight, an infinite value.
// Invalid settings are errors too.
func (c QDAConfig) Fit(d *data.Dataset) (*QDA, error) {
	return newQDA(fitData(KindQDA, Config(c), d))
}

// FitStream fits the model to a sequence of chunks of rows, such as the
// blocks of a file too large for memory, as Fit would fit their union:
// the chunks are added to an Accumulator (gendisc.AddChunks), so only one
// chunk is in memory at a time besides the rows with missing cells, which
// are kept for EM at the end. Every chunk's schema must extend the
// schema of the chunks before it (data.Schema.Extend): the same features,
// classes in any order, new ones appended. An error from the sequence is
// returned as is.
func (c QDAConfig) FitStream(chunks iter.Seq2[*data.Dataset, error]) (*QDA, error) {
	return newQDA(fitChunks(KindQDA, Config(c), chunks))
}

func newQDA(m *model, err error) (*QDA, error) {
	if err != nil {
		return nil, err
	}
	return &QDA{m: m}, nil
}

// Update returns a new model fitted on the training data of m and the rows
// of d together, by merging sufficient statistics; m is unchanged. See
// LDA.Update.
func (m *QDA) Update(d *data.Dataset) (*QDA, error) {
	return newQDA(m.m.update(KindQDA, d))
}

// Kind returns "qda".
func (m *QDA) Kind() string { return KindQDA }

// Schema returns the schema of the training data.
func (m *QDA) Schema() *data.Schema { return m.m.schema }

// Classes returns the class names, in the order of the probability columns.
func (m *QDA) Classes() []string { return m.m.schema.Classes() }

// Config returns the hyperparameters, defaults applied.
func (m *QDA) Config() QDAConfig { return QDAConfig(m.m.cfg) }

// LogProba writes log P(y = k | x_i) to dst[i·K + k] (gendisc.Classifier).
// A row so far out that its joint log-likelihoods are below float64's
// range for every class is scored again with its large cells scaled out:
// far out along the row's direction x̃ the class of least ‖L_k⁻¹x̃‖² (the
// covariance under which the row is least unlikely) wins, as it does at
// smaller scales, with probability 1 when the margin is beyond float64.
// It panics if d's features differ from the model's schema by name, kind
// or order, or dst has the wrong length.
func (m *QDA) LogProba(dst []float64, d *data.Dataset) []float64 {
	return m.m.joint(dst, nil, nil, d, logProbaOut)
}

// Proba writes P(y = k | x_i) to dst[i·K + k], bit for bit the
// exponential of what LogProba writes (gendisc.BatchProba), with its
// conventions: each chunk of rows is normalised as by LogProba and
// exponentiated while it is in cache (kernel.Exp), at a fraction of
// the cost of a math.Exp per value.
func (m *QDA) Proba(dst []float64, d *data.Dataset) []float64 {
	return m.m.joint(dst, nil, nil, d, probaOut)
}

// ProbaClasses writes P(y = k | x_i) to proba[i·K + k] as Proba does
// and the most probable class of row i to best[i], bit for bit
// gendisc.Predict's (gendisc.ArgmaxRows of LogProba), taken from each
// chunk's log-posteriors while it is in cache: the predictions of
// models.Predict in one pass. proba has length d.N·K and best d.N; it
// panics otherwise, or as Proba does.
func (m *QDA) ProbaClasses(proba []float64, best []int, d *data.Dataset) {
	m.m.joint(proba, nil, best, d, probaOut)
}

// ProbaJoint writes P(y = k | x_i) to proba[i·K + k] as Proba does and
// log p(x_i, y = k) to joint[i·K + k] as JointLogLikelihood does, bit for
// bit both, computing the joint once (gendisc.JointProba): the
// predictions and the log-likelihoods of the same rows. It panics as
// Proba does, or if joint's length is not proba's.
func (m *QDA) ProbaJoint(proba, joint []float64, d *data.Dataset) {
	if len(joint) != len(proba) {
		panic(fmt.Sprintf("gda: joint has length %d, want %d", len(joint), len(proba)))
	}
	m.m.joint(proba, joint, nil, d, probaOut)
}

// JointLogLikelihood writes log p(x_i, y = k) to dst[i·K + k]
// (gendisc.Generative), missing features marginalised; −Inf where it is
// below float64's range (a row far out: about −1e600 at 1e300).
func (m *QDA) JointLogLikelihood(dst []float64, d *data.Dataset) []float64 {
	return m.m.joint(dst, nil, nil, d, jointOut)
}

// Priors returns the class priors π_k.
func (m *QDA) Priors() []float64 { return slices.Clone(m.m.prior) }

// Means returns the class means μ_k.
func (m *QDA) Means() [][]float64 { return m.m.meansCopy() }

// ClassWeights returns W_k, the total weight of the training rows of each
// class (the row counts without weights).
func (m *QDA) ClassWeights() []float64 { return m.m.classWeights() }

// LogDets returns log|Σ_k| for each class.
func (m *QDA) LogDets() []float64 { return m.m.logDets() }

// Covariances returns the class covariance matrices Σ_k, each p×p
// row-major.
func (m *QDA) Covariances() [][]float64 {
	out := make([][]float64, len(m.m.comps))
	for k, c := range m.m.comps {
		out[k] = slices.Clone(c.cov)
	}
	return out
}

// EMIterations returns the number of EM iterations of the fit (or
// update), 0 when no row had a missing cell.
func (m *QDA) EMIterations() int { return m.m.iters }

// Shrinkages returns the shrinkage intensity r_k of each class's
// covariance (Config): Config.Shrinkage for every class, or with
// Config.ShrinkageAuto the Ledoit–Wolf intensity of the class's
// standardised rows.
func (m *QDA) Shrinkages() []float64 { return m.m.shrinkages() }
