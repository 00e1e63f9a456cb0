package hmm

import (
	"errors"
	"fmt"
	"math"

	"github.com/gendisc/gendisc/internal/enum"
)

// Kind is the name of the kind of the package's models: in model files
// and on the command line.
const Kind = "hmm"

// Smoothing is how transition probabilities are estimated from counts.
type Smoothing int

const (
	// Interpolated is TnT's linear interpolation of the maximum-likelihood
	// unigram, bigram and (order 2) trigram estimates, with weights λ by
	// deleted interpolation (Brants 2000, Figure 1):
	//
	//	P(t3 | t1, t2) = λ1 P̂(t3) + λ2 P̂(t3 | t2) + λ3 P̂(t3 | t1, t2)
	//
	// An estimate whose context was never seen is replaced by the next
	// lower one, so that every row sums to one.
	Interpolated Smoothing = iota
	// AddAlpha adds Config.Alpha to every count:
	//
	//	P(t | h) = (c(h, t) + α) / (c(h) + α N)
	//
	// N being the number of tags that can follow (the tags, and the end
	// of the sentence unless Config.NoEnd). This is NLTK's
	// LidstoneProbDist(γ = α) for order 1.
	AddAlpha
)

var smoothingNames = &enum.Names[Smoothing]{Type: "Smoothing", What: "smoothing", Prefix: "hmm: ", List: []string{"interpolated", "add-alpha"}}

// String returns "interpolated" or "add-alpha".
func (v Smoothing) String() string { return smoothingNames.String(v) }

// ParseSmoothing returns the smoothing named name, as String writes it.
func ParseSmoothing(name string) (Smoothing, error) { return smoothingNames.Parse(name) }

// Unknown is the model of the emission probability of a word that the
// training data did not have.
type Unknown int

const (
	// Suffixes is TnT's suffix model (Brants 2000, section 2.3): the tag
	// distribution of the rare training words (count ≤ Config.Rare) that
	// end in each suffix of up to Config.MaxSuffix letters, separately
	// for four classes of words (capitalised or not, with a digit or
	// not), smoothed recursively from the shortest suffix:
	//
	//	P(t | l_{n−i+1} … l_n) = (P̂(t | l_{n−i+1} … l_n) + θ P(t | l_{n−i+2} … l_n)) / (1 + θ)
	//
	// from P(t | ∅) = P̂(t) over the class's rare words, θ being the
	// standard deviation of the P̂(t) of the rare words. A new word w
	// then emits with
	//
	//	P(w | t) = P(t | suffix(w)) / P̂(t) · n₁ / n
	//
	// where suffix(w) is the longest suffix seen, P̂(t) the tag's share of
	// all tokens, and n₁/n the share of words seen once (Good–Turing's
	// estimate of the probability of a new word), so that a new word's
	// probability at a position is n₁/n under the tag distribution.
	Suffixes Unknown = iota
	// Uniform gives a new word the add-α emission of a count of zero,
	// α/(c(t) + α V), with no vocabulary slot of its own, as NLTK's
	// HiddenMarkovModelTagger does.
	Uniform
)

var unknownNames = &enum.Names[Unknown]{Type: "Unknown", What: "unknown-word model", Prefix: "hmm: ", List: []string{"suffixes", "uniform"}}

// String returns "suffixes" or "uniform".
func (v Unknown) String() string { return unknownNames.String(v) }

// ParseUnknown returns the unknown-word model named name.
func ParseUnknown(name string) (Unknown, error) { return unknownNames.Parse(name) }

// Config is the configuration of a hidden Markov model tagger. The zero
// Config is TnT: order 2, interpolated transitions, maximum-likelihood
// emissions of the known words and the suffix model for the others.
type Config struct {
	// Order is the number of previous tags a tag depends on: 1 (a
	// bigram HMM) or 2 (a trigram HMM, as TnT). 0 means 2.
	Order int
	// Transitions is the smoothing of the transition probabilities.
	Transitions Smoothing
	// Alpha is the pseudo-count of the transitions under AddAlpha (0:
	// maximum likelihood). At most MaxAlpha.
	Alpha float64
	// EmissionAlpha is the pseudo-count added to every emission count of
	// a known word (0: maximum likelihood, as TnT):
	//
	//	P(w | t) = (c(w, t) + α) / (c(t) + α V)
	//
	// V being the vocabulary's size. At most MaxAlpha.
	EmissionAlpha float64
	// Unknown is the model of new words.
	Unknown Unknown
	// MaxSuffix is the longest suffix, in letters, of the suffix model;
	// 0 means 10.
	MaxSuffix int
	// Rare is the highest count of a word whose suffixes feed the suffix
	// model; 0 means 10.
	Rare int
	// ThetaFactor multiplies θ of the suffix model; 0 means 10, which
	// smooths more than TnT (1) and tags the new words of English web
	// text better (see TestAccuracyEWT).
	ThetaFactor float64
	// NoCapitalization leaves out TnT's capitalisation flag. By default
	// the states of the model are a tag and whether the word is
	// capitalised (Brants 2000, section 2.4): the transitions see the
	// capitalisation of the previous words.
	NoCapitalization bool
	// Context is κ of the context-dependent emissions of order 2 (as
	// HunPos's, Halácsy et al. 2007): a known word w after the state b in
	// the state c emits with
	//
	//	P(w | b, c) = (c(b, c, w) + κ P(w | c)) / (c(b, c) + κ)
	//
	// a distribution over the known words for every pair b, c that
	// leans on P(w | c) where the pair is rare. 0 means 1000 (EWT dev:
	// 93.35% against 92.93% without); NoContext emits with P(w | c)
	// alone. Order 1 always does. At most MaxAlpha.
	Context float64
	// NoEnd leaves out the transition to the end of the sentence, as
	// NLTK's tagger does: a sentence may then end after any tag.
	NoEnd bool
	// Beam prunes, in the Viterbi search of an order-2 model, the states
	// whose log score is more than Beam below the best at their position
	// (TnT's beam: a ratio of e^Beam). 0 means ln 1000, TnT's default;
	// NoBeam keeps every state. Order 1 never prunes.
	Beam float64
}

// NoBeam as Config.Beam keeps every state of the Viterbi search.
const NoBeam = -1

// NoContext as Config.Context leaves out the context-dependent
// emissions.
const NoContext = -1

// MaxAlpha bounds Config.Alpha and EmissionAlpha.
const MaxAlpha = 1e6

// Defaults of Config.
const (
	defaultMaxSuffix   = 10
	defaultRare        = 10
	defaultThetaFactor = 10
	defaultContext     = 1000
	maxMaxSuffix       = 100
)

// defaultBeam is TnT's beam, ln 1000.
var defaultBeam = math.Log(1000)

// ErrConfig is wrapped by the errors of a Config out of its domain.
var ErrConfig = errors.New("invalid configuration")

// withDefaults returns c with its zero fields set to their defaults, or
// an error wrapping ErrConfig for a field out of its domain.
func (c Config) withDefaults() (Config, error) {
	if c.Order == 0 {
		c.Order = 2
	}
	if c.MaxSuffix == 0 {
		c.MaxSuffix = defaultMaxSuffix
	}
	if c.Rare == 0 {
		c.Rare = defaultRare
	}
	if c.Beam == 0 {
		c.Beam = defaultBeam
	}
	if c.Context == 0 {
		c.Context = defaultContext
	}
	if c.ThetaFactor == 0 {
		c.ThetaFactor = defaultThetaFactor
	}
	switch {
	case c.Order != 1 && c.Order != 2:
		return c, fmt.Errorf("%w: order %d (1 or 2)", ErrConfig, c.Order)
	case c.Transitions != Interpolated && c.Transitions != AddAlpha:
		return c, fmt.Errorf("%w: transitions %v", ErrConfig, c.Transitions)
	case c.Unknown != Suffixes && c.Unknown != Uniform:
		return c, fmt.Errorf("%w: unknown-word model %v", ErrConfig, c.Unknown)
	case !(c.Alpha >= 0 && c.Alpha <= MaxAlpha):
		return c, fmt.Errorf("%w: alpha %v (0 to %g)", ErrConfig, c.Alpha, float64(MaxAlpha))
	case !(c.EmissionAlpha >= 0 && c.EmissionAlpha <= MaxAlpha):
		return c, fmt.Errorf("%w: emission alpha %v (0 to %g)", ErrConfig, c.EmissionAlpha, float64(MaxAlpha))
	case c.MaxSuffix < 0 || c.MaxSuffix > maxMaxSuffix:
		return c, fmt.Errorf("%w: max suffix %d (1 to %d)", ErrConfig, c.MaxSuffix, maxMaxSuffix)
	case !(c.ThetaFactor > 0 && c.ThetaFactor <= MaxAlpha):
		return c, fmt.Errorf("%w: theta factor %v (positive, at most %g)", ErrConfig, c.ThetaFactor, float64(MaxAlpha))
	case !(c.Context > 0 && c.Context <= MaxAlpha) && c.Context != NoContext:
		return c, fmt.Errorf("%w: context %v (positive, at most %g, or NoContext)", ErrConfig, c.Context, float64(MaxAlpha))
	case c.Rare < 0:
		return c, fmt.Errorf("%w: rare %d (at least 1)", ErrConfig, c.Rare)
	case !(c.Beam > 0 && c.Beam <= math.MaxFloat64) && c.Beam != NoBeam:
		return c, fmt.Errorf("%w: beam %v (positive, or NoBeam)", ErrConfig, c.Beam)
	}
	return c, nil
}
