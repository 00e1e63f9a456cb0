package main

import (
	"flag"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/linear"
	"github.com/gendisc/gendisc/naivebayes"
	"github.com/gendisc/gendisc/text"
)

// accFunc returns an empty accumulator of the kind, configured by the
// flags once they are parsed.
type accFunc func() (gendisc.Accumulator, error)

// kinds defines the model flags of each kind that fit takes, as gendisc
// fit names them, and returns its accFunc.
var kinds = map[string]func(*flag.FlagSet) accFunc{
	"gaussian-nb": gaussianNBFlags,
	gda.KindLDA:   func(fs *flag.FlagSet) accFunc { return gdaFlags(fs, gda.KindLDA) },
	gda.KindQDA:   func(fs *flag.FlagSet) accFunc { return gdaFlags(fs, gda.KindQDA) },
	linear.Kind:   linearFlags,
}

func init() {
	for _, f := range []naivebayes.Family{naivebayes.Mixed, naivebayes.Bernoulli, naivebayes.Multinomial, naivebayes.Complement, naivebayes.Categorical} {
		kinds[f.String()] = func(fs *flag.FlagSet) accFunc { return nbFlags(fs, f) }
	}
}

func accOf[A gendisc.Accumulator](a A, err error) (gendisc.Accumulator, error) {
	if err != nil {
		return nil, err
	}
	return a, nil
}

// nonNegative is a flag of a number >= 0.
type nonNegative float64

func (v *nonNegative) String() string { return strconv.FormatFloat(float64(*v), 'g', -1, 64) }

func (v *nonNegative) Set(s string) error {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || !(x >= 0) || x > 1e308 {
		return fmt.Errorf("want a finite number >= 0")
	}
	*v = nonNegative(x)
	return nil
}

// listFlag is a comma-separated list flag; repeating the flag appends.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			*l = append(*l, v)
		}
	}
	return nil
}

func (f *dataFlags) options() data.Options {
	return data.Options{Target: f.target, Numeric: f.numeric, Categorical: f.categorical, Text: f.text, Ignore: f.ignored, Weight: f.weight}
}

// classPriors holds the class-prior flags of the naive Bayes kinds and of
// lda and qda, as gendisc fit's.
type classPriors struct {
	alpha nonNegative
	fixed classPriorFlag
}

func priorFlags(fs *flag.FlagSet) *classPriors {
	p := &classPriors{}
	fs.Var(&p.alpha, "prior-alpha", "smooth the class prior: π_k = (n_k + `α`)/(n + α·K); 0 is maximum likelihood")
	fs.Var(&p.fixed, "class-prior", "fix the class prior, one `class=p` per class, comma-separated (a=0.3,b=0.7)")
	return p
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

// textFlags defines the flags of a text.VectorizerConfig, as gendisc fit's.
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
	fs.IntVar(&c.MaxFeatures, "max-features", 0, "text columns: keep the `n` most frequent words (0: all)")
	fs.StringVar(&c.StopWords, "stop-words", "", "text columns: drop the words of this `list` (english)")
	fs.IntVar(&c.HashFeatures, "hash-features", 0, "text columns: hash the words into `n` columns instead of keeping a vocabulary, in bounded memory (0: a vocabulary)")
	fs.BoolVar(&c.AlternateSign, "alternate-sign", false, "text columns, with --hash-features: count a word −1 when its hash is negative (logistic only)")
}

func gaussianNBFlags(fs *flag.FlagSet) accFunc {
	var cfg naivebayes.GaussianConfig
	fs.TextVar(&cfg.Variance, "variance", cfg.Variance,
		"variance `tying`: class-feature (σ²_kj), feature (σ²_j), class (σ²_k) or shared (one σ²)")
	smoothing := nonNegative(naivebayes.DefaultVarSmoothing)
	fs.Var(&smoothing, "var-smoothing", "add ε = `r` × the largest feature variance to every variance")
	prior := priorFlags(fs)
	return func() (gendisc.Accumulator, error) {
		c := cfg
		c.VarSmoothing, c.PriorAlpha, c.ClassPrior = float64(smoothing), float64(prior.alpha), prior.fixed
		if c.VarSmoothing == 0 {
			c.VarSmoothing = naivebayes.NoVarSmoothing
		}
		return accOf(c.NewAccumulator())
	}
}

func nbFlags(fs *flag.FlagSet, f naivebayes.Family) accFunc {
	cfg := naivebayes.Config{Family: f}
	alpha := nonNegative(1)
	fs.Var(&alpha, "alpha", "pseudo-count `α` added to every count (Laplace 1; 0 is maximum likelihood)")
	smoothing := nonNegative(naivebayes.DefaultVarSmoothing)
	switch f {
	case naivebayes.Bernoulli:
		fs.Float64Var(&cfg.Binarize, "binarize", 0, "a numeric feature is present when it is above `t`")
	case naivebayes.Complement:
		fs.BoolVar(&cfg.Norm, "norm", false, "normalise the complement weights (Rennie et al.'s weight normalisation)")
	case naivebayes.Mixed:
		fs.TextVar(&cfg.TextModel, "text-model", cfg.TextModel, "the family of text columns: multinomial (word counts) or bernoulli (words present)")
		fs.Var(&smoothing, "var-smoothing", "numeric columns: add ε = `r` × the largest variance to every variance")
		fs.TextVar(&cfg.Variance, "variance", cfg.Variance, "numeric columns: variance `tying`, class-feature, feature, class or shared")
	}
	if f != naivebayes.Categorical {
		textFlags(fs, &cfg.Text)
	}
	prior := priorFlags(fs)
	return func() (gendisc.Accumulator, error) {
		c := cfg
		c.Alpha, c.PriorAlpha, c.ClassPrior = float64(alpha), float64(prior.alpha), prior.fixed
		if c.Alpha == 0 {
			c.Alpha = naivebayes.NoAlpha
		}
		if f == naivebayes.Mixed {
			c.VarSmoothing = float64(smoothing)
			if c.VarSmoothing == 0 {
				c.VarSmoothing = naivebayes.NoVarSmoothing
			}
		}
		return accOf(c.NewAccumulator())
	}
}

// shrinkage is the --shrinkage flag of a gda.Config.
type shrinkage gda.Config

func (f *shrinkage) String() string {
	if f.ShrinkageAuto {
		return "auto"
	}
	return strconv.FormatFloat(f.Shrinkage, 'g', -1, 64)
}

func (f *shrinkage) Set(s string) error {
	if s == "auto" {
		f.Shrinkage, f.ShrinkageAuto = 0, true
		return nil
	}
	r, err := strconv.ParseFloat(s, 64)
	if err != nil || !(r >= 0 && r <= 1) {
		return fmt.Errorf("want a number in [0, 1] or auto")
	}
	f.Shrinkage, f.ShrinkageAuto = r, false
	return nil
}

func gdaFlags(fs *flag.FlagSet, kind string) accFunc {
	cfg := &gda.Config{MaxIter: gda.DefaultMaxIter, Tol: gda.DefaultTol}
	fs.TextVar(&cfg.Estimator, "covariance-estimator", cfg.Estimator,
		"covariance `divisor`: mle (n, or n_k for qda) or unbiased (n − K for lda, n_k − 1 for qda)")
	fs.Var((*shrinkage)(cfg), "shrinkage", "shrink covariances: a fixed `r` in [0, 1], or auto (Ledoit–Wolf)")
	prior := priorFlags(fs)
	fs.IntVar(&cfg.MaxIter, "em-max-iter", cfg.MaxIter, "at most `n` EM iterations when training rows have missing cells")
	tol := nonNegative(gda.DefaultTol)
	fs.Var(&tol, "em-tol", "stop EM when no mean or covariance moves by more than `t` standard deviations")
	return func() (gendisc.Accumulator, error) {
		c := *cfg
		c.PriorAlpha, c.ClassPrior, c.Tol = float64(prior.alpha), prior.fixed, float64(tol)
		if kind == gda.KindQDA {
			return accOf(gda.QDAConfig(c).Accumulator())
		}
		return accOf(gda.LDAConfig(c).Accumulator())
	}
}

func linearFlags(fs *flag.FlagSet) accFunc {
	var cfg linear.Config
	var l2 nonNegative
	fs.Var(&l2, "l2", "the ridge penalty `λ` on the standardised weights, the intercept unpenalised (default 0: ordinary least squares)")
	fs.BoolVar(&cfg.NoStandardize, "no-standardize", false, "apply --l2 to the weights of numeric features in their own units")
	impute := fs.String("impute", "", "imputation `method`: mean fills missing cells with the column mean (default: a missing cell is an error)")
	return func() (gendisc.Accumulator, error) {
		c := cfg
		c.L2 = float64(l2)
		switch *impute {
		case "":
		case "mean":
			c.Impute = true
		default:
			return nil, fmt.Errorf("%w: --impute %q: want mean", errUsage, *impute)
		}
		return accOf(c.NewAccumulator())
	}
}
