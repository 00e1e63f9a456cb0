package gendisc

import "github.com/gendisc/gendisc/data"

// The capabilities below are what a model may do beyond Model and
// Classifier. A caller asks for one with a type assertion,
//
//	if r, ok := m.(gendisc.Regressor); ok { ... }
//
// and every caller in gendisc asks by these names, so that a new kind gets
// every command, the server and compare by implementing them. Each is as
// small as the use it serves.

// Regressor is a fitted regression model: Predict writes the predicted
// target value ŷ_i of row i of d to dst[i] and returns dst (allocated when
// nil, else of length d.N).
type Regressor interface {
	Model
	Predict(dst []float64, d *data.Dataset) []float64
}

// Clusterer is a fitted mixture of K = Components() components: Predict
// writes the responsibility of component k for row i,
// P(z = k | x_i) = π_k p(x_i | k) / Σ_j π_j p(x_i | j), to dst[i·K + k]
// and returns dst, with LogProba's conventions.
type Clusterer interface {
	Model
	Components() int
	Predict(dst []float64, d *data.Dataset) []float64
}

// Density is a model of the distribution of the rows themselves:
// ScoreSamples writes log p(x_i) of row i of d to dst[i] (natural log;
// for a classifier the marginal log Σ_k p(x_i, y = k)) and returns dst,
// allocated when nil, else of length d.N. It is the score of gendisc
// score and an anomaly score: the lower, the less likely the row.
type Density interface {
	Model
	ScoreSamples(dst []float64, d *data.Dataset) []float64
}

// BatchProba is a classifier with a fast path to the posteriors
// themselves: Proba writes P(y = k | x_i) to dst[i·K + k], with
// LogProba's conventions, bit for bit exp of what LogProba writes, in one
// pass that keeps the joint in cache (and, where the kernels have it, in
// SIMD). Prediction uses it when a model has it.
type BatchProba interface {
	Classifier
	Proba(dst []float64, d *data.Dataset) []float64
}

// JointProba is a batch classifier whose posteriors derive from its joint
// log-likelihoods: ProbaJoint writes P(y = k | x_i) to proba[i·K + k] as
// Proba does and log p(x_i, y = k) to joint[i·K + k] as
// JointLogLikelihood does, bit for bit both, computing the joint once;
// both have length d.N·K. Prediction uses it when the log-likelihood
// of the same rows is asked for too (serve's log_likelihood output).
type JointProba interface {
	BatchProba
	Generative
	ProbaJoint(proba, joint []float64, d *data.Dataset)
}

// Warner is a model whose fit can end in a way a user should hear of: an
// optimiser stopped at its iteration limit, separable data, a class
// without rows, a component that collapsed. Warnings returns one line per
// warning, without a trailing period or newline, or nil.
type Warner interface {
	Warnings() []string
}

// MissingChecker is a model fitted on complete rows only: CheckMissing
// returns an error naming the first row of d (by its source line when
// known) and column with a missing cell, which the model cannot
// marginalise or impute, or nil.
type MissingChecker interface {
	CheckMissing(d *data.Dataset) error
}

// CountChecker is a model of counts (multinomial and complement naive
// Bayes): CheckCounts returns an error naming the first cell of d that is
// not a count the model can score (a negative one), or nil. Scoring does
// not check; data from outside is checked first.
type CountChecker interface {
	CheckCounts(d *data.Dataset) error
}

// ImpossibleChecker is a model under which a row can have probability 0
// under every class (naive Bayes with α = 0): Impossible returns an error
// naming the first such row of d, or nil. Its posteriors would be 0/0.
type ImpossibleChecker interface {
	Impossible(d *data.Dataset) error
}
