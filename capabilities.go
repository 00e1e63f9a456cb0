package gendisc

import (
	"io"
	"math/rand/v2"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/seq"
)

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

// ProbaClasser is a batch classifier that gives the classes with the
// posteriors, in the same pass (Gaussian naive Bayes, LDA, QDA):
// ProbaClasses writes Proba's posteriors to proba (d.N·K values) and the
// class of each row to best (d.N values), bit for bit Predict's, from the
// log-posteriors while they are in cache, which saves a second pass over
// the posteriors and the recomputation of ties.
type ProbaClasser interface {
	BatchProba
	ProbaClasses(proba []float64, best []int, d *data.Dataset)
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

// Preparer is a model that derives, from what it was fitted or read as,
// tables it needs to predict: Prepare starts deriving them in the
// background and returns at once, so that they are ready, or nearly, by
// the first prediction (which otherwise derives them itself). A program
// that fits a model and then predicts with it calls Prepare before it
// reads the data to predict.
type Preparer interface {
	Prepare()
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

// ARPAWriter is a language model that writes itself in the ARPA format
// of SRILM and KenLM (the back-off n-gram format, log10 probabilities
// and back-off weights): WriteARPA writes the model of class k (0 for a
// model without classes) to w. gendisc export uses it.
type ARPAWriter interface {
	Classifier
	WriteARPA(w io.Writer, k int) error
}

// LanguageModel is a model of the documents of a text column (a word
// n-gram model, fitted or read from an ARPA file), which score, eval and
// sample apply to documents rather than rows.
type LanguageModel interface {
	Model
	// Classes are the classes of a model with a target, else nil.
	Classes() []string
	// Column is the index of the text column in Schema.
	Column() int
	// LogProb returns log P(doc | class k) in nats (k −1: over the
	// classes; ignored without classes) and the tokens it predicts.
	LogProb(doc string, k int) (float64, int)
	// Sample draws a document of class k (−1: a class drawn by its
	// prior), continuing prompt, of at most maxWords tokens.
	Sample(k int, prompt string, maxWords int, temperature float64, rng *rand.Rand) []string
}

// Tagger is a sequence model (a kind of registry.Sequences input: hidden
// Markov models, linear-chain CRFs): it tags each token of a sentence.
// predict, eval and serve use it. It is safe for concurrent use.
type Tagger interface {
	Model
	// Tags returns the tag set, sorted: the levels of Schema().Target.
	Tags() []string
	// TagTokens returns the most likely tags of a sentence (Viterbi),
	// one per token, or an error for a sentence the model cannot tag
	// (one without tokens among them).
	TagTokens(tokens []string) ([]string, error)
	// TagAll returns the most likely tags of each sentence, on every
	// core, nil for a sentence that TagTokens refuses.
	TagAll(sentences [][]string) [][]string
}

// Vocabulary is a tagger that knows the words of its training data:
// Known reports whether word was among them. eval's accuracy on unknown
// words uses it.
type Vocabulary interface {
	Known(word string) bool
}

// OptionalVocabulary is a Vocabulary that may have no words to know: a
// model file written before its kind kept them, or a model trained on
// given attributes rather than words. HasVocabulary reports whether it
// has them; without, Known means nothing and eval's accuracy on unknown
// words is undefined.
type OptionalVocabulary interface {
	Vocabulary
	HasVocabulary() bool
}

// MarginalTagger is a tagger with posterior marginals: TokenMarginals
// returns P(t_i = k | tokens) (forward–backward), row i holding those of
// token i for the tags k in the order of Tags, or an error for a sentence
// the model cannot tag (tokens of probability 0 under a generative
// tagger). predict --marginals and serve use it.
type MarginalTagger interface {
	Tagger
	TokenMarginals(tokens []string) ([][]float64, error)
}

// AttributeTagger is a tagger that can be trained on sentences given as
// the attributes of their tokens (CRFsuite's data format, seq.Sentence's
// Attributes) rather than on words, as a linear-chain CRF can.
// OnAttributes reports whether it was: such a model tags sentences given
// as attributes only, and one trained on words words only (the methods of
// the other input refuse with an error). predict, eval, score and serve
// use it.
type AttributeTagger interface {
	Tagger
	OnAttributes() bool
	// TagAttributes returns the most likely tags of a sentence given as
	// the attributes of its tokens (Viterbi), or an error for a sentence
	// without tokens.
	TagAttributes(attrs [][]seq.Attribute) ([]string, error)
	// AttributeMarginals returns P(t_i = k | attributes), rows as
	// MarginalTagger's TokenMarginals.
	AttributeMarginals(attrs [][]seq.Attribute) ([][]float64, error)
	// LogProbAttributeTags returns log p(tags | attributes), as
	// ConditionalTagScorer's LogProbTags.
	LogProbAttributeTags(attrs [][]seq.Attribute, tags []string) (float64, error)
}

// SequenceDensity is a generative tagger, a model of the tokens
// themselves: LogProb returns log p(tokens) (natural log), summed over
// every tag sequence (the forward algorithm), −Inf for tokens the model
// cannot produce. It is a sentence's score and an anomaly score (score,
// serve).
type SequenceDensity interface {
	Tagger
	LogProb(tokens []string) float64
}

// ConditionalTagScorer is a discriminative tagger, a model of the tags
// given the tokens (a linear-chain CRF): LogProbTags returns
// log p(tags | tokens) (natural log), or an error for tags that do not
// match the tokens one to one or a tag the model does not know. It is the
// score of a tagged sentence (score) for a tagger that is not a
// SequenceDensity.
type ConditionalTagScorer interface {
	Tagger
	LogProbTags(tokens, tags []string) (float64, error)
}

// SentenceSampler is a generative tagger that draws tagged sentences:
// Sample returns one of at most maxLen tokens that begins with prompt,
// drawing from rng. sample uses it.
type SentenceSampler interface {
	Tagger
	Sample(rng *rand.Rand, prompt seq.Prompt, maxLen int) (seq.Sentence, error)
}

// SequenceAccumulator is the Accumulator of a sequence kind, whose Add
// refuses table rows: AddSentences adds the statistics of tagged
// sentences, with nothing added when one is refused. update and fit
// --stream use it.
type SequenceAccumulator interface {
	Accumulator
	AddSentences(sentences []seq.Sentence) error
}

// FoldAdder is an Accumulator that adds the rows of one data set to
// several accumulators of its kind in one pass, each row to the
// accumulator of its fold, without copying the rows out: AddFolds adds
// row i of d to accs[fold[i]] for every row, accs being accumulators of
// the receiver's kind and settings (the receiver may be among them) and
// fold holding d.N fold numbers in [0, len(accs)). Each accumulator then
// holds what Add of its rows (d.Subset of them) would have added, up to
// rounding (the sums are taken in another order). Data problems are
// errors as for Add, and leave every accumulator unchanged. The one-pass
// cross-validation of package cv uses it, and copies each fold's rows
// into a buffer to Add them for an accumulator without it.
type FoldAdder interface {
	Accumulator
	AddFolds(d *data.Dataset, fold []int, accs []Accumulator) error
}
