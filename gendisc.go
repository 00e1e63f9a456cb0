// Package gendisc holds the interfaces shared by every model family of the
// gendisc library: generative classifiers, which learn the joint
// p(x, y) = p(y) p(x|y) and classify by Bayes' rule,
//
//	P(y = k | x) = p(y = k) p(x | y = k) / Σ_j p(y = j) p(x | y = j),
//
// and discriminative classifiers, which learn P(y | x) directly.
//
// The model families live in their own packages (naivebayes, gda,
// logistic, mixture); the table is package data, the files it is read
// from and written to package dataio; metrics is package metrics. A
// fitted model is immutable and safe for concurrent use.
package gendisc

import (
	"iter"

	"github.com/gendisc/gendisc/data"
)

// Model is anything fitted on a data.Dataset: it remembers the schema of the
// data it was fitted on, so new data can be read and encoded the same way
// (dataio.ReadWithSchema).
type Model interface {
	// Kind is the model's name in model files and on the command line,
	// such as "gaussian-nb".
	Kind() string
	// Schema is the layout of the training data: feature columns, their
	// types and category levels, and the target with its class names.
	Schema() *data.Schema
}

// Classifier is a fitted classification model.
type Classifier interface {
	Model
	// Classes returns the class names. Their order is the order of the
	// probability columns of LogProba.
	Classes() []string
	// LogProba writes log P(y = k | x_i) for every row i of d to
	// dst[i*K+k], K = len(Classes()), and returns dst. A nil dst is
	// allocated; otherwise len(dst) must be d.N*K. d must follow the
	// model's schema. Missing cells are handled as the model documents.
	LogProba(dst []float64, d *data.Dataset) []float64
}

// Generative is a classifier that models the joint distribution.
type Generative interface {
	Classifier
	// JointLogLikelihood writes log p(x_i, y = k) for every row i of d to
	// dst[i*K+k] and returns dst, with the same conventions as LogProba.
	// Missing features are marginalised: they leave the likelihood. A
	// value below float64's range (a row far out: about −1e600 at
	// x = 1e300) is −Inf; LogProba's posteriors of such a row are still
	// finite for at least one class.
	JointLogLikelihood(dst []float64, d *data.Dataset) []float64
}

// Accumulator is a partial fit: the sufficient statistics of the rows added
// so far, for a model fitted in one pass. Fitting disjoint shards of the
// rows with accumulators of the same configuration, merging them and
// finishing gives the model fitted on all the rows (bit for bit where the
// arithmetic is the same, else up to rounding). Like a half-done
// hash.Hash, an accumulator can be encoded, moved to another process and
// decoded there (encoding.BinaryMarshaler, encoding.BinaryUnmarshaler);
// the encoding reads back bit-exactly and carries the configuration, so
// that Merge can refuse statistics gathered under another one.
//
// An accumulator is not safe for concurrent use; the parallelism is inside
// Add, and across accumulators merged afterwards.
type Accumulator interface {
	// Add adds the rows of d. Its schema must extend the accumulator's:
	// the same feature columns, with new classes, category levels and
	// words allowed (data.Schema.Extend).
	Add(d *data.Dataset) error
	// Merge adds the statistics of o, an accumulator of the same kind and
	// configuration that saw other rows. Classes, levels and words that
	// only o saw are added after the accumulator's own. o is unchanged.
	Merge(o Accumulator) error
	// Model finishes the fit: the model of the rows added and merged so
	// far. The accumulator stays usable.
	Model() (Model, error)

	MarshalBinary() ([]byte, error)
	UnmarshalBinary([]byte) error
}

// Mergeable is a model that keeps its sufficient statistics, so that it can
// be updated with new rows or merged with models fitted on other rows.
type Mergeable interface {
	Model
	// Accumulator returns a new accumulator that holds the model's
	// statistics: adding rows to it and finishing updates the model,
	// merging another model's accumulator into it merges the models.
	Accumulator() Accumulator
}

// AddChunks adds the chunks of rows that chunks yields to acc, one at a
// time, so that only one chunk is in memory (a streaming fit), and returns
// the first error, of reading or of adding.
func AddChunks(acc Accumulator, chunks iter.Seq2[*data.Dataset, error]) error {
	for d, err := range chunks {
		if err != nil {
			return err
		}
		if err := acc.Add(d); err != nil {
			return err
		}
	}
	return nil
}
