package modelflags

import (
	"flag"
	"fmt"

	"github.com/gendisc/gendisc/text"
)

// TextFlags defines on fs the flags of a text.VectorizerConfig, those of
// the kinds that read text columns, which set c as they are parsed.
// Check checks the configuration they set as a whole.
func TextFlags(fs *flag.FlagSet, c *text.VectorizerConfig) {
	fs.Func("ngrams", "text columns: terms of `n` or min-max words (1-2: words and pairs of words)", func(s string) (err error) {
		c.NGrams, err = text.ParseNGrams(s)
		return err
	})
	fs.Func("min-df", "text columns: drop words in fewer than `n` documents (a fraction when it has a point: 0.01)", func(s string) (err error) {
		c.MinDF, err = text.ParseDocFreq(s)
		return err
	})
	fs.Func("max-df", "text columns: drop words in more than `n` documents (a fraction when it has a point: 0.9)", func(s string) (err error) {
		c.MaxDF, err = text.ParseDocFreq(s)
		return err
	})
	fs.Var(AtLeast(&c.MaxFeatures, 0), "max-features", "text columns: keep the `n` most frequent words (0: all)")
	fs.Var((*stopWordsFlag)(c), "stop-words", "text columns: drop the words of this `list` (english)")
	fs.Var(AtLeast(&c.HashFeatures, 0), "hash-features", "text columns: hash the words into `n` columns instead of keeping a vocabulary, in bounded memory (0: a vocabulary)")
	fs.BoolVar(&c.AlternateSign, "alternate-sign", false, "text columns, with --hash-features: count a word −1 when its hash is negative (logistic only)")
}

// stopWordsFlag sets the StopWords of a text.VectorizerConfig; once the
// command line is parsed it checks the configuration that the text flags
// set, as a whole (Check).
type stopWordsFlag text.VectorizerConfig

func (f *stopWordsFlag) String() string {
	if f == nil {
		return ""
	}
	return f.StopWords
}

func (f *stopWordsFlag) Set(s string) error {
	c := text.VectorizerConfig{StopWords: s}
	if err := c.Validate(); err != nil {
		return err
	}
	f.StopWords = s
	return nil
}

func (f *stopWordsFlag) checkFlag() error { return text.VectorizerConfig(*f).Validate() }

// Impute defines --impute on fs, the flag of the kinds that can fill
// missing cells with the training means: --impute mean sets *p.
func Impute(fs *flag.FlagSet, p *bool) {
	fs.Var((*imputeFlag)(p), "impute", "imputation `method`: mean fills missing cells with the column mean (default: a missing cell is an error)")
}

// imputeFlag is the --impute flag: "mean" sets it, any other value is
// refused.
type imputeFlag bool

func (f *imputeFlag) String() string {
	if f != nil && *f {
		return "mean"
	}
	return ""
}

func (f *imputeFlag) Set(s string) error {
	if s != "mean" {
		return fmt.Errorf("the only method is mean")
	}
	*f = true
	return nil
}
