package ngram

import (
	"errors"
	"fmt"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/enum"
)

// Kind is the kind of the models of the package in model files.
const Kind = "ngram"

// FormatARPA is the name of the ARPA format (Model.WriteARPA), whose
// files package registry reads as models of kind arpa.
const FormatARPA = KindARPA

// The special tokens: every document is padded with Order−1 Start symbols
// before its first word and one End symbol after its last; words outside
// the vocabulary are Unknown. Start is never predicted; End and Unknown
// are in the vocabulary of every model.
const (
	Start   = "<s>"
	End     = "</s>"
	Unknown = "<unk>"
)

// The ids of the special tokens in every word list of the package.
const (
	idStart int32 = iota
	idEnd
	idUnk
	nSpecial
)

// Smoothing is how a model turns counts into next-word probabilities.
type Smoothing int

// The smoothings. V is the vocabulary (its words, <unk> and </s>), c(hw)
// the count of word w after the context h, c(h•) = Σ_w c(hw), N_r(h•) the
// number of words seen exactly r times after h and N_1+(h•) the number seen
// at least once; h' is h without its first word.
const (
	// KneserNey is interpolated modified Kneser–Ney (Chen & Goodman
	// 1998): three discounts per order,
	//
	//	Y = n₁/(n₁ + 2n₂), D₁ = 1 − 2Y n₂/n₁, D₂ = 2 − 3Y n₃/n₂, D₃₊ = 3 − 4Y n₄/n₃
	//
	// from the order's counts of counts n_r (clamped to [0, r]), and
	//
	//	P(w | h) = (max(c(hw) − D(c(hw)), 0) + γ(h) P(w | h')) / c(h•)
	//	γ(h) = D₁ N₁(h•) + D₂ N₂(h•) + D₃₊ N₃₊(h•)
	//
	// where below the highest order c is the continuation count
	// N_1+(•hw), the number of distinct words seen before hw, and below
	// the unigrams P is uniform, 1/|V|. A context never seen takes its
	// shorter context's distribution.
	KneserNey Smoothing = iota
	// WittenBell is interpolated Witten–Bell smoothing on raw counts,
	//
	//	P(w | h) = (c(hw) + N_1+(h•) P(w | h')) / (c(h•) + N_1+(h•))
	//
	// with the same uniform base and unseen contexts as KneserNey.
	WittenBell
	// Lidstone adds Alpha to the count of every word of V after the full
	// context (Alpha 1 is Laplace's rule):
	//
	//	P(w | h) = (c(hw) + α) / (c(h•) + α|V|)
	Lidstone
	// MLE is the relative frequency c(hw)/c(h•) in the longest context
	// seen in training (the unigram frequencies at the least). It is for
	// teaching: every n-gram not seen in training has probability 0, so
	// held-out text almost always has probability 0 and infinite
	// perplexity.
	MLE
)

var smoothingNames = &enum.Names[Smoothing]{Type: "Smoothing", What: "smoothing", Prefix: "ngram: ", List: []string{"kneser-ney", "witten-bell", "lidstone", "mle"}}

func (v Smoothing) String() string { return smoothingNames.String(v) }

// ParseSmoothing returns the smoothing named name (String's names), or an
// error listing them.
func ParseSmoothing(name string) (Smoothing, error) { return smoothingNames.Parse(name) }

// Config is the configuration of a word n-gram language model.
type Config struct {
	// Order is n, the length of the n-grams: each word is predicted from
	// the n−1 before it. 0 means 3.
	Order int `json:"order"`
	// Smoothing is how counts become probabilities; the zero value is
	// KneserNey.
	Smoothing Smoothing `json:"-"`
	// Alpha is Lidstone's pseudo-count, > 0 and at most 1e100; 0 means 1
	// (Laplace).
	Alpha float64 `json:"alpha"`
	// MinCount keeps in the vocabulary the words seen at least MinCount
	// times in the training text (all classes together); rarer ones
	// become <unk>. 0 and 1 keep every word.
	MinCount int `json:"min_count"`
	// KeepPunct keeps case and punctuation: see Config.Tokenize.
	KeepPunct bool `json:"keep_punct"`
	// Column names the text column the model reads; "" means the only
	// text column of the data.
	Column string `json:"column,omitempty"`
}

// ErrConfig is wrapped by the errors of a configuration that cannot be
// used.
var ErrConfig = errors.New("ngram: invalid configuration")

// MaxOrder is the longest n-gram a model counts.
const MaxOrder = 10

// normalized returns c with its defaults filled in, or an error wrapping
// ErrConfig.
// maxAlpha bounds Config.Alpha: the smoothed counts c + α·V of a larger
// one overflow float64, and no useful model smooths that much.
const maxAlpha = 1e100

func (c Config) normalized() (Config, error) {
	if c.Order == 0 {
		c.Order = 3
	}
	if c.Alpha == 0 {
		c.Alpha = 1
	}
	if c.MinCount == 0 {
		c.MinCount = 1
	}
	switch {
	case c.Order < 1 || c.Order > MaxOrder:
		return c, fmt.Errorf("%w: order %d, want 1 to %d", ErrConfig, c.Order, MaxOrder)
	case c.Smoothing < 0 || c.Smoothing > MLE:
		return c, fmt.Errorf("%w: %v", ErrConfig, c.Smoothing)
	case !(c.Alpha > 0 && c.Alpha <= maxAlpha):
		return c, fmt.Errorf("%w: alpha %v, want a positive number up to %g", ErrConfig, c.Alpha, maxAlpha)
	case c.MinCount < 1:
		return c, fmt.Errorf("%w: minimum count %d, want at least 1", ErrConfig, c.MinCount)
	}
	return c, nil
}

// textColumn returns the index of the text column of s that the model
// reads, or an error.
func (c Config) textColumn(s *data.Schema) (int, error) {
	j := -1
	for i, f := range s.Features {
		if f.Kind != data.Text || c.Column != "" && f.Name != c.Column {
			continue
		}
		if j >= 0 {
			return -1, fmt.Errorf("%w: the data has several text columns (%s, %s): name one", ErrConfig, s.Features[j].Name, f.Name)
		}
		j = i
	}
	if j < 0 {
		if c.Column != "" {
			return -1, fmt.Errorf("%w: the data has no text column %q", ErrConfig, c.Column)
		}
		return -1, fmt.Errorf("%w: the data has no text column", ErrConfig)
	}
	return j, nil
}
