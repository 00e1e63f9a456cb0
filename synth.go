package gendisc

import (
	"math/rand/v2"

	"github.com/gendisc/gendisc/data"
)

// What a model that carries p(x) can do besides classifying: draw rows
// from its distribution and fill the missing cells of rows. Package synth
// builds sampling, class balancing and imputation on these interfaces.
//
// A row is a []float64 laid out as a data.Dataset row: one value per
// feature of the model's schema, the level index for a categorical
// feature, NaN for a text feature (whose document TextSampler draws).

// Sampler is a model that draws rows from its distribution.
type Sampler interface {
	Model
	// Sample draws (x, y) ~ p(x, y): a class y with probability π_y and
	// x ~ p(x | y) for a classifier, a component and a draw from it for
	// a mixture without classes. It writes x to dst and returns dst and
	// y; a nil dst is allocated, otherwise len(dst) must be the number of
	// features (a panic otherwise).
	Sample(dst []float64, rng *rand.Rand) ([]float64, int)
}

// ClassSampler is a generative classifier that draws from each class's
// distribution p(x | y = c).
type ClassSampler interface {
	Generative
	Sampler
	// SampleClass draws x ~ p(x | y = c) into dst and returns dst, with
	// the conventions of Sample. It panics if c is not a class index of
	// Classes, or a class the model cannot draw from (one without
	// training rows).
	SampleClass(dst []float64, c int, rng *rand.Rand) []float64
}

// TextSampler is a model with text features whose documents are drawn
// given the class (naive Bayes: the features are independent given the
// class, so the document of a row drawn by Sample or SampleClass for
// class c is drawn by SampleText for the same c).
type TextSampler interface {
	// SampleText draws, for every text feature j of the schema, a
	// document of class c into dst[j] (a bag of words, its length drawn
	// from the class's document-length distribution) and leaves the
	// other entries of dst alone. len(dst) must be the number of
	// features.
	SampleText(dst []string, c int, rng *rand.Rand)
}

// Imputer is a model that fills missing cells by their conditional
// expectation given the observed cells of the row.
type Imputer interface {
	Model
	// Impute writes the features of d to dst (allocated when nil,
	// otherwise len(dst) = len(d.X)) with every missing cell replaced by
	// its conditional expectation given the observed cells of its row and
	// its label when d.Y has one,
	//
	//	E[x_m | x_o, y]
	//
	// and otherwise the mixture over the posterior of the label (or of
	// the component of a mixture),
	//
	//	E[x_m | x_o] = Σ_k P(y = k | x_o) E[x_m | x_o, y = k],
	//
	// a categorical cell taking its most probable level. It returns dst
	// and panics if d does not have the model's features or dst the
	// wrong length.
	Impute(dst []float64, d *data.Dataset) []float64
}

// RandImputer is a model that fills missing cells by random draws from
// their conditional distribution given the observed cells of the row:
// multiple imputation.
type RandImputer interface {
	Model
	// ImputeRand writes the features of d to dst with every missing cell
	// replaced by a draw from p(x_m | x_o, y) for a labelled row, and for
	// an unlabelled one from p(x_m | x_o) (a label or component drawn
	// from its posterior given x_o, then x_m given both), with the
	// conventions of Imputer.Impute. The draws are taken from rng in row
	// order, so the same source gives the same result.
	ImputeRand(dst []float64, d *data.Dataset, rng *rand.Rand) []float64
}
