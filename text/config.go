package text

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// VectorizerConfig holds the hyperparameters of a bag-of-words vocabulary:
// how documents become terms (tokenizer, stop words, n-grams) and which
// terms are kept (document-frequency bounds, the most frequent terms). The
// zero value means the defaults: tokens of one or more letters or numbers,
// unigrams, no stop words, every term kept.
//
// The settings mirror scikit-learn's CountVectorizer with
// token_pattern=r"(?u)[^\W_]+" (see Tokenize for the differences that
// remain): a Vocabulary fitted with MinDF, MaxDF and MaxFeatures has the
// same terms in the same column order as CountVectorizer's vocabulary_.
type VectorizerConfig struct {
	// MinLen is the shortest token kept, in runes; 0 means 1. MinLen 2
	// drops single letters and digits, as CountVectorizer's default
	// token_pattern does.
	MinLen int `json:"min_len,omitempty"`
	// NGrams is the range of n-gram lengths; the zero value means {1, 1}.
	NGrams NGrams `json:"ngrams"`
	// StopWords names a stop list: "" (none) or "english"
	// (scikit-learn's ENGLISH_STOP_WORDS). Stop words are removed before
	// n-grams are formed.
	StopWords string `json:"stop_words,omitempty"`
	// MinDF drops terms that occur in fewer documents; the zero value
	// keeps every term.
	MinDF DocFreq `json:"min_df"`
	// MaxDF drops terms that occur in more documents; the zero value
	// keeps every term.
	MaxDF DocFreq `json:"max_df"`
	// MaxFeatures keeps at most this many terms, those with the largest
	// number of occurrences in the corpus (after MinDF and MaxDF); 0 keeps
	// all.
	MaxFeatures int `json:"max_features,omitempty"`
	// HashFeatures, when positive, hashes the terms into this many
	// columns instead of keeping a vocabulary (the hashing trick,
	// scikit-learn's HashingVectorizer with norm=None): term t goes to
	// column |h| mod HashFeatures, h the signed 32-bit MurmurHash3 of its
	// UTF-8 bytes, and distinct terms may share a column. No word is
	// kept, so memory does not grow with the vocabulary; the columns have
	// no names (Vocabulary.Term gives "#j") and every term counts, none
	// being unseen. MinDF, MaxDF and MaxFeatures, which need the
	// vocabulary, cannot be set with it.
	HashFeatures int `json:"hash_features,omitempty"`
	// AlternateSign, with HashFeatures, counts an occurrence of a term as
	// −1 when its hash h is negative, +1 otherwise, so that collisions
	// tend to cancel out in inner products (HashingVectorizer's
	// alternate_sign); cells can then be negative.
	AlternateSign bool `json:"alternate_sign,omitempty"`
}

// Hashed reports whether c hashes terms into columns (HashFeatures > 0).
func (c VectorizerConfig) Hashed() bool { return c.HashFeatures > 0 }

// NGrams is a range of n-gram lengths, Min ≤ n ≤ Max. An n-gram is n
// consecutive tokens (after stop-word removal) joined by one space.
type NGrams struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

// DocFreq is a document-frequency bound: a number of documents (Count) or
// a fraction of the corpus (Fraction, in [0, 1]), like CountVectorizer's
// integer or float min_df and max_df. At most one of the two is set; the
// zero value sets no bound.
type DocFreq struct {
	Count    int     `json:"count,omitempty"`
	Fraction float64 `json:"fraction,omitempty"`
}

// ParseDocFreq reads a document-frequency bound as given on a command
// line: an integer is a count of documents ("2"), anything else a
// fraction ("0.01", "1.0").
func ParseDocFreq(s string) (DocFreq, error) {
	if n, err := strconv.Atoi(s); err == nil {
		d := DocFreq{Count: n}
		return d, prefix("text", d.validate())
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return DocFreq{}, fmt.Errorf("text: document frequency %q is neither a count nor a fraction", s)
	}
	d := DocFreq{Fraction: f}
	if f == 0 {
		return d, nil
	}
	return d, prefix("text", d.validate())
}

// ParseNGrams reads an n-gram range as given on a command line: "2" or
// "1-2".
func ParseNGrams(s string) (NGrams, error) {
	lo, hi, ok := strings.Cut(s, "-")
	if !ok {
		hi = lo
	}
	a, err1 := strconv.Atoi(strings.TrimSpace(lo))
	b, err2 := strconv.Atoi(strings.TrimSpace(hi))
	if err := errors.Join(err1, err2); err != nil {
		return NGrams{}, fmt.Errorf("text: n-gram range %q: want N or MIN-MAX", s)
	}
	g := NGrams{Min: a, Max: b}
	return g, g.validate()
}

// String gives the bound in the form ParseDocFreq reads.
func (d DocFreq) String() string {
	if d.Fraction != 0 {
		s := strconv.FormatFloat(d.Fraction, 'g', -1, 64)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		return s
	}
	return strconv.Itoa(d.Count)
}

// threshold is the bound in documents for a corpus of n documents (a
// fraction is multiplied by n, as CountVectorizer does), and whether the
// bound is set.
func (d DocFreq) threshold(n int) (float64, bool) {
	switch {
	case d.Fraction != 0:
		return d.Fraction * float64(n), true
	case d.Count != 0:
		return float64(d.Count), true
	}
	return 0, false
}

func (d DocFreq) validate() error {
	switch {
	case d.Count != 0 && d.Fraction != 0:
		return fmt.Errorf("document frequency sets both a count (%d) and a fraction (%g)", d.Count, d.Fraction)
	case d.Count < 0:
		return fmt.Errorf("document frequency count %d is negative", d.Count)
	case !(d.Fraction >= 0 && d.Fraction <= 1):
		return fmt.Errorf("document frequency fraction %g is outside [0, 1]", d.Fraction)
	}
	return nil
}

// orDefault gives the range with the zero value replaced by {1, 1}.
func (g NGrams) orDefault() NGrams {
	if g == (NGrams{}) {
		return NGrams{1, 1}
	}
	return g
}

func (g NGrams) validate() error {
	if g == (NGrams{}) {
		return nil
	}
	if g.Min < 1 || g.Max < g.Min {
		return fmt.Errorf("text: n-gram range %d-%d: want 1 ≤ min ≤ max", g.Min, g.Max)
	}
	return nil
}

// String gives the range in the form ParseNGrams reads.
func (g NGrams) String() string {
	g = g.orDefault()
	return fmt.Sprintf("%d-%d", g.Min, g.Max)
}

// Validate reports the first setting that is out of range.
func (c VectorizerConfig) Validate() error {
	switch {
	case c.MinLen < 0:
		return fmt.Errorf("text: minimum token length %d is negative", c.MinLen)
	case c.MaxFeatures < 0:
		return fmt.Errorf("text: max features %d is negative", c.MaxFeatures)
	case c.HashFeatures < 0 || c.HashFeatures > math.MaxInt32:
		return fmt.Errorf("text: %d hashed columns: want 1 to 2³¹−1", c.HashFeatures)
	case c.AlternateSign && !c.Hashed():
		return fmt.Errorf("text: alternate signs apply to hashed columns only")
	case c.Hashed() && (c.MinDF != DocFreq{} || c.MaxDF != DocFreq{} || c.MaxFeatures != 0):
		return fmt.Errorf("text: hashed columns keep no vocabulary to prune: min_df, max_df and max_features cannot be set with them")
	}
	if _, err := stopList(c.StopWords); err != nil {
		return err
	}
	if err := c.NGrams.validate(); err != nil {
		return err
	}
	if err := c.MinDF.validate(); err != nil {
		return prefix("text: min_df", err)
	}
	return prefix("text: max_df", c.MaxDF.validate())
}

// prefix returns err with p and a colon before its message, or nil.
func prefix(p string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", p, err)
}

// stopList gives the stop words named by name as a set (nil for "").
func stopList(name string) (map[string]struct{}, error) {
	switch name {
	case "":
		return nil, nil
	case "english":
		return englishStopSet, nil
	}
	return nil, fmt.Errorf("text: unknown stop list %q (want \"english\")", name)
}

var englishStopSet = func() map[string]struct{} {
	m := make(map[string]struct{}, len(englishStopWords))
	for _, w := range englishStopWords {
		m[w] = struct{}{}
	}
	return m
}()

// StopWords returns the words of the named stop list ("english"), sorted;
// nil for "" or an unknown name.
func StopWords(name string) []string {
	if name == "english" {
		return append([]string(nil), englishStopWords...)
	}
	return nil
}
