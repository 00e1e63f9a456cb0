package modelflags

import (
	"flag"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc/internal/classprior"
	"github.com/gendisc/gendisc/naivebayes"
	"github.com/gendisc/gendisc/text"
)

// GaussianNB defines the flags of naivebayes.GaussianConfig (gaussian-nb)
// and returns the function that gives the configuration once they are
// parsed.
func GaussianNB(fs *flag.FlagSet) func() naivebayes.GaussianConfig {
	var cfg naivebayes.GaussianConfig
	fs.TextVar(&cfg.Variance, "variance", cfg.Variance,
		"variance `tying`: class-feature (σ²_kj), feature (σ²_j, shared by the classes: linear log-odds), class (σ²_k) or shared (one σ²)")
	smoothing := NonNegative(naivebayes.DefaultVarSmoothing)
	fs.Var(&smoothing, "var-smoothing", "add ε = `r` × the largest feature variance to every variance")
	prior := priorFlags(fs)
	// The returned function may run on several goroutines at once: it
	// completes a copy of cfg.
	return func() naivebayes.GaussianConfig {
		c := cfg
		c.VarSmoothing = float64(smoothing)
		if c.VarSmoothing == 0 {
			c.VarSmoothing = naivebayes.NoVarSmoothing
		}
		c.PriorAlpha, c.ClassPrior = float64(prior.alpha), prior.fixed
		return c
	}
}

// NaiveBayes defines the flags of naivebayes.Config for family f (the
// kind named f.String()) and returns the function that gives the
// configuration once they are parsed.
func NaiveBayes(fs *flag.FlagSet, f naivebayes.Family) func() naivebayes.Config {
	cfg := naivebayes.Config{Family: f}
	alpha := NonNegative(1)
	fs.Var(&alpha, "alpha", "pseudo-count `α` added to every count (Laplace 1; any α > 0 is the Dirichlet MAP estimate; 0 is maximum likelihood, with a warning)")
	var smoothing NonNegative
	switch f {
	case naivebayes.Bernoulli:
		fs.Var((*finite)(&cfg.Binarize), "binarize", "a numeric feature is present when it is above `t`")
	case naivebayes.Complement:
		fs.BoolVar(&cfg.Norm, "norm", false, "normalise the complement weights (Rennie et al.'s weight normalisation)")
	case naivebayes.Mixed:
		fs.TextVar(&cfg.TextModel, "text-model", cfg.TextModel, "the family of text columns: multinomial (word counts) or bernoulli (words present)")
		smoothing = NonNegative(naivebayes.DefaultVarSmoothing)
		fs.Var(&smoothing, "var-smoothing", "numeric columns: add ε = `r` × the largest variance to every variance")
		fs.TextVar(&cfg.Variance, "variance", cfg.Variance,
			"numeric columns: variance `tying`, class-feature (σ²_kj), feature (σ²_j, shared by the classes: linear log-odds), class (σ²_k) or shared (one σ²)")
	}
	if f != naivebayes.Categorical {
		textFlags(fs, &cfg.Text)
	}
	prior := priorFlags(fs)
	// The returned function may run on several goroutines at once: it
	// completes a copy of cfg.
	return func() naivebayes.Config {
		c := cfg
		c.Alpha = float64(alpha)
		if c.Alpha == 0 {
			c.Alpha = naivebayes.NoAlpha
		}
		if f == naivebayes.Mixed {
			c.VarSmoothing = float64(smoothing)
			if c.VarSmoothing == 0 {
				c.VarSmoothing = naivebayes.NoVarSmoothing
			}
		}
		c.PriorAlpha, c.ClassPrior = float64(prior.alpha), prior.fixed
		return c
	}
}

// classPriors holds the class-prior flags of every naive Bayes kind and of
// lda and qda.
type classPriors struct {
	alpha NonNegative
	fixed classPriorFlag
}

func priorFlags(fs *flag.FlagSet) *classPriors {
	p := &classPriors{}
	fs.Var(&p.alpha, "prior-alpha", "smooth the class prior: π_k = (n_k + `α`)/(n + α·K); 0 is maximum likelihood")
	fs.Var((*classPriorCheck)(p), "class-prior", "fix the class prior, one `class=p` per class, comma-separated (a=0.3,b=0.7); not with --prior-alpha")
	return p
}

// classPriorCheck is the --class-prior flag; once the command line is
// parsed it checks the fixed prior with --prior-alpha (classprior.Check:
// they exclude each other, the priors sum to 1).
type classPriorCheck classPriors

func (f *classPriorCheck) String() string {
	if f == nil {
		return ""
	}
	return f.fixed.String()
}

func (f *classPriorCheck) Set(s string) error { return f.fixed.Set(s) }

func (f *classPriorCheck) checkFlag() error {
	if f.fixed != nil && f.alpha != 0 {
		return fmt.Errorf("not with --prior-alpha: a fixed class prior and a smoothed one exclude each other")
	}
	return classprior.Check(float64(f.alpha), f.fixed)
}

// classPriorFlag is a map flag: class=p,class=p,...
type classPriorFlag map[string]float64

func (f *classPriorFlag) String() string {
	var parts []string
	for _, c := range slices.Sorted(maps.Keys(*f)) {
		parts = append(parts, c+"="+strconv.FormatFloat((*f)[c], 'g', -1, 64))
	}
	return strings.Join(parts, ",")
}

func (f *classPriorFlag) Set(s string) error {
	if *f == nil {
		*f = classPriorFlag{}
	}
	for _, part := range strings.Split(s, ",") {
		i := strings.LastIndexByte(part, '=')
		if i <= 0 {
			return fmt.Errorf("%q: want class=probability", part)
		}
		p, err := strconv.ParseFloat(part[i+1:], 64)
		if err != nil {
			return fmt.Errorf("%q: want class=probability", part)
		}
		(*f)[part[:i]] = p
	}
	return nil
}

// textFlags defines the flags of a text.VectorizerConfig, those of the
// kinds that read text columns.
func textFlags(fs *flag.FlagSet, c *text.VectorizerConfig) {
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
