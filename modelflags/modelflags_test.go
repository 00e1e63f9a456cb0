package modelflags_test

import (
	"flag"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/linear"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/mixture"
	. "github.com/gendisc/gendisc/modelflags"
	_ "github.com/gendisc/gendisc/models"
	"github.com/gendisc/gendisc/naivebayes"
	"github.com/gendisc/gendisc/registry"
	"github.com/gendisc/gendisc/text"
)

// parse parses args on fs, failing the test on an error of Set or Check.
func parse(t *testing.T, fs *flag.FlagSet, args ...string) {
	t.Helper()
	if err := fs.Parse(args); err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	if err := Check(fs); err != nil {
		t.Fatalf("%q: %v", args, err)
	}
}

func newFlagSet() *flag.FlagSet {
	fs := flag.NewFlagSet("fit", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// TestValues checks what each flag value accepts and the error of what it
// refuses.
func TestValues(t *testing.T) {
	var (
		nn   NonNegative
		fin  Finite
		pos  Positive
		n    int
		w    logistic.ClassWeight
		list List
	)
	for _, c := range []struct {
		v       flag.Value
		in      string
		want    string // the String after Set
		wantErr string
	}{
		{&nn, "0", "0", ""},
		{&nn, "1.5e308", "1.5e+308", ""},
		{&nn, "-1", "", "want a finite number ≥ 0"},
		{&nn, "-0.0", "-0", ""}, // −0 ≥ 0
		{&nn, "NaN", "", "want a finite number ≥ 0"},
		{&nn, "inf", "", "want a finite number ≥ 0"},
		{&nn, "2e308", "", "want a finite number ≥ 0"}, // overflows to +Inf
		{&nn, "x", "", "want a finite number ≥ 0"},
		{&fin, "-2.5", "-2.5", ""},
		{&fin, "nan", "", "want a finite number"},
		{&fin, "-inf", "", "want a finite number"},
		{&pos, "1e-300", "1e-300", ""},
		{&pos, "0", "", "want a finite number > 0"},
		{&pos, "+Inf", "", "want a finite number > 0"},
		{AtLeast(&n, 1), "1", "1", ""},
		{AtLeast(&n, 1), "0", "", "want a whole number ≥ 1"},
		{AtLeast(&n, 0), "1.5", "", "want a whole number ≥ 0"},
		{AtLeast(&n, 0), "99999999999999999999", "", "want a whole number ≥ 0"},
		{OneOf(&w, "class weight", logistic.Balanced), "balanced", "balanced", ""},
		{OneOf(&w, "class weight", logistic.Balanced), "none", "", `unknown class weight "none" (want balanced)`},
		{&list, " a, b,,c ", "a,b,c", ""},
	} {
		err := c.v.Set(c.in)
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("%T.Set(%q): %v", c.v, c.in, err)
		case c.wantErr != "" && (err == nil || err.Error() != c.wantErr):
			t.Errorf("%T.Set(%q): error %v, want %q", c.v, c.in, err, c.wantErr)
		case c.wantErr == "" && c.v.String() != c.want:
			t.Errorf("%T.Set(%q): String %q, want %q", c.v, c.in, c.v.String(), c.want)
		}
	}
	if err := list.Set("d"); err != nil || !slices.Equal(list, List{"a", "b", "c", "d"}) {
		t.Errorf("a repeated list flag: %q, %v; want the values appended", list, err)
	}
}

// TestCheck checks the errors of the flags that are valid only with the
// others: they name the flag and come after parsing, whatever the order.
func TestCheck(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--class-prior", "a=0.3,b=0.3"}, "--class-prior: the class priors sum to 0.6, not 1"},
		{[]string{"--class-prior", "a=0.5", "--class-prior", "b=0.5", "--prior-alpha", "1"},
			"--class-prior: not with --prior-alpha: a fixed class prior and a smoothed one exclude each other"},
		{[]string{"--prior-alpha", "1", "--class-prior", "a=1"},
			"--class-prior: not with --prior-alpha: a fixed class prior and a smoothed one exclude each other"},
		{[]string{"--alternate-sign"}, "--stop-words: text: alternate signs apply to hashed columns only"},
		{[]string{"--class-prior", "a=0.5", "--class-prior", "b=0.5", "--hash-features", "8", "--alternate-sign"}, ""},
	} {
		fs := newFlagSet()
		naivebayes.DefineFlags(fs, naivebayes.Multinomial)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		got := ""
		if err := Check(fs); err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%q: error %q, want %q", c.args, got, c.want)
		}
	}
}

// TestConfigs checks the configuration that each kind's flags give, with
// the defaults and with every flag set.
func TestConfigs(t *testing.T) {
	fixed := map[string]float64{"a": 0.25, "b": 0.75}
	words := text.VectorizerConfig{NGrams: text.NGrams{Min: 1, Max: 2}, StopWords: "english", MinDF: text.DocFreq{Count: 2},
		MaxDF: text.DocFreq{Fraction: 0.9}, MaxFeatures: 12}
	textArgs := []string{"--ngrams", "1-2", "--stop-words", "english", "--min-df", "2", "--max-df", "0.9", "--max-features", "12"}
	for _, c := range []struct {
		name   string
		define func(fs *flag.FlagSet) func() any
		args   []string
		want   any
	}{
		{"gaussian-nb", gaussianNB, nil,
			naivebayes.GaussianConfig{VarSmoothing: naivebayes.DefaultVarSmoothing}},
		{"gaussian-nb", gaussianNB, []string{"--variance", "feature", "--var-smoothing", "0", "--class-prior", "a=0.25,b=0.75"},
			naivebayes.GaussianConfig{Variance: naivebayes.FeatureVariance, VarSmoothing: naivebayes.NoVarSmoothing, ClassPrior: fixed}},
		{"multinomial-nb", nb(naivebayes.Multinomial), nil,
			naivebayes.Config{Family: naivebayes.Multinomial, Alpha: 1}},
		{"multinomial-nb", nb(naivebayes.Multinomial), append([]string{"--alpha", "0", "--prior-alpha", "2"}, textArgs...),
			naivebayes.Config{Family: naivebayes.Multinomial, Alpha: naivebayes.NoAlpha, PriorAlpha: 2, Text: words}},
		{"bernoulli-nb", nb(naivebayes.Bernoulli), []string{"--binarize", "-1.5", "--hash-features", "64"},
			naivebayes.Config{Family: naivebayes.Bernoulli, Alpha: 1, Binarize: -1.5, Text: text.VectorizerConfig{HashFeatures: 64}}},
		{"complement-nb", nb(naivebayes.Complement), []string{"--norm"},
			naivebayes.Config{Family: naivebayes.Complement, Alpha: 1, Norm: true}},
		{"nb", nb(naivebayes.Mixed), nil,
			naivebayes.Config{Family: naivebayes.Mixed, Alpha: 1, VarSmoothing: naivebayes.DefaultVarSmoothing}},
		{"nb", nb(naivebayes.Mixed), []string{"--text-model", "bernoulli", "--var-smoothing", "0", "--variance", "shared"},
			naivebayes.Config{Family: naivebayes.Mixed, Alpha: 1, TextModel: naivebayes.TextBernoulli, VarSmoothing: naivebayes.NoVarSmoothing, Variance: naivebayes.SharedVariance}},
		{"categorical-nb", nb(naivebayes.Categorical), []string{"--alpha", "0.5"},
			naivebayes.Config{Family: naivebayes.Categorical, Alpha: 0.5}},
		{"lda", gdaConfig, nil,
			gda.Config{MaxIter: gda.DefaultMaxIter, Tol: gda.DefaultTol}},
		{"lda", gdaConfig, []string{"--covariance-estimator", "unbiased", "--shrinkage", "auto", "--em-max-iter", "0", "--em-tol", "1e-7", "--class-prior", "a=0.25,b=0.75"},
			gda.Config{Estimator: gda.Unbiased, ShrinkageAuto: true, Tol: 1e-7, ClassPrior: fixed}},
		{"qda", gdaConfig, []string{"--shrinkage", "auto", "--shrinkage", "0.2", "--prior-alpha", "1"},
			gda.Config{Shrinkage: 0.2, MaxIter: gda.DefaultMaxIter, Tol: gda.DefaultTol, PriorAlpha: 1}},
		{"linear", linearConfig, nil, linear.Config{}},
		{"linear", linearConfig, []string{"--l2", "0.5", "--no-standardize", "--impute", "mean"},
			linear.Config{L2: 0.5, NoStandardize: true, Impute: true}},
		{"logistic", logisticConfig, nil, logistic.Config{L2: 1}},
		{"logistic", logisticConfig, append([]string{"--l2", "0", "--class-weight", "balanced", "--no-standardize", "--impute", "mean"}, textArgs...),
			logistic.Config{NoPenalty: true, ClassWeight: logistic.Balanced, NoStandardize: true, Impute: true, Text: words}},
		{"gmm", mixtureConfig, nil,
			mixtureSeed{mixture.Config{Restarts: 1, Tol: mixture.DefaultTol, MaxIter: mixture.DefaultMaxIter, RegCovar: mixture.DefaultRegCovar, Seed: new(uint64(1))}, 1}},
		{"gmm", mixtureConfig, []string{"--covariance", "diag", "--init", "random", "--restarts", "3", "--tol", "0", "--max-iter", "7",
			"--reg-covar", "0", "--reg-covar-mode", "ridge", "--seed", "9"},
			mixtureSeed{mixture.Config{Covariance: mixture.Diag, Init: mixture.Random, Restarts: 3, Tol: -1, MaxIter: 7, RegCovar: -1, Regularization: mixture.Ridge, Seed: new(uint64(9))}, 9}},
	} {
		fs := newFlagSet()
		cfg := c.define(fs)
		parse(t, fs, c.args...)
		if got := cfg(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %q:\n got %+v\nwant %+v", c.name, c.args, got, c.want)
		}
	}
}

func gaussianNB(fs *flag.FlagSet) func() any {
	cfg := naivebayes.DefineGaussianFlags(fs)
	return func() any { return cfg() }
}

func nb(f naivebayes.Family) func(fs *flag.FlagSet) func() any {
	return func(fs *flag.FlagSet) func() any {
		cfg := naivebayes.DefineFlags(fs, f)
		return func() any { return cfg() }
	}
}

func gdaConfig(fs *flag.FlagSet) func() any {
	cfg := gda.DefineFlags(fs)
	return func() any { return cfg() }
}

func linearConfig(fs *flag.FlagSet) func() any {
	cfg := linear.DefineFlags(fs)
	return func() any { return cfg() }
}

func logisticConfig(fs *flag.FlagSet) func() any {
	cfg := logistic.DefineFlags(fs)
	return func() any { return cfg() }
}

type mixtureSeed struct {
	cfg  mixture.Config
	seed uint64
}

func mixtureConfig(fs *flag.FlagSet) func() any {
	cfg := mixture.DefineFlags(fs)
	return func() any {
		c, seed := cfg()
		return mixtureSeed{c, seed}
	}
}

// TestConfigCopies checks that the configurations given are copies: a
// change to one does not reach the next (the commands fit several
// models of one set of flags at once).
func TestConfigCopies(t *testing.T) {
	fs := newFlagSet()
	cfg := gda.DefineFlags(fs)
	parse(t, fs, "--shrinkage", "0.5")
	c := cfg()
	c.Shrinkage, c.MaxIter = 0.9, 3
	if d := cfg(); d.Shrinkage != 0.5 || d.MaxIter != gda.DefaultMaxIter {
		t.Errorf("after a change to the first configuration, the second has shrinkage %g, %d iterations", d.Shrinkage, d.MaxIter)
	}
}

// TestFlagNames checks the flags that each kind, and Data, define:
// gendisc fit and gendisc-beam fit both have exactly these.
func TestFlagNames(t *testing.T) {
	const (
		priors  = "class-prior prior-alpha"
		words   = "alternate-sign hash-features max-df max-features min-df ngrams stop-words"
		nbFlags = "alpha " + priors
	)
	for _, c := range []struct {
		name   string
		define func(fs *flag.FlagSet) func() any
		want   string
	}{
		{"gaussian-nb", gaussianNB, "var-smoothing variance " + priors},
		{"nb", nb(naivebayes.Mixed), nbFlags + " text-model var-smoothing variance " + words},
		{"bernoulli-nb", nb(naivebayes.Bernoulli), nbFlags + " binarize " + words},
		{"multinomial-nb", nb(naivebayes.Multinomial), nbFlags + " " + words},
		{"complement-nb", nb(naivebayes.Complement), nbFlags + " norm " + words},
		{"categorical-nb", nb(naivebayes.Categorical), nbFlags},
		{"lda, qda", gdaConfig, "covariance-estimator shrinkage em-max-iter em-tol " + priors},
		{"linear", linearConfig, "l2 no-standardize impute"},
		{"logistic", logisticConfig, "l2 class-weight no-standardize impute " + words},
		{"gmm", mixtureConfig, "covariance init restarts tol max-iter reg-covar reg-covar-mode seed"},
	} {
		fs := newFlagSet()
		c.define(fs)
		var got []string
		fs.VisitAll(func(f *flag.Flag) { got = append(got, f.Name) })
		want := strings.Fields(c.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: flags %q, want %q", c.name, got, want)
		}
	}
}

// TestAccumulators checks that every one-pass kind of the registry gives
// an accumulator with its default flags; and the error of an invalid
// configuration.
func TestAccumulators(t *testing.T) {
	var got []string
	for _, name := range registry.Kinds() {
		k, _ := registry.Lookup(name)
		if !k.Fitted() {
			continue
		}
		fs := newFlagSet()
		cfg := k.Flags(fs)
		parse(t, fs)
		c, err := cfg()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		op, ok := c.(registry.OnePassConfig)
		if !ok {
			continue
		}
		got = append(got, name)
		if a, err := op.NewAccumulator(); err != nil || a == nil {
			t.Errorf("%s: %v, %v", name, a, err)
		}
	}
	want := []string{"bernoulli-nb", "categorical-nb", "complement-nb", "gaussian-nb", "hmm", "lda", "linear", "multinomial-nb", "nb", "ngram", "qda"}
	if !slices.Equal(got, want) {
		t.Errorf("one-pass kinds %q, want %q", got, want)
	}
	k, _ := registry.Lookup(naivebayes.KindBernoulli)
	fs := newFlagSet()
	cfg := k.Flags(fs)
	parse(t, fs, "--hash-features", "8", "--alternate-sign")
	c, err := cfg()
	if err != nil {
		t.Fatal(err)
	}
	if a, err := c.(registry.OnePassConfig).NewAccumulator(); a != nil || err == nil || !strings.Contains(err.Error(), "alternate signs") {
		t.Errorf("bernoulli-nb with alternate signs: %v, %v; want no accumulator and an error", a, err)
	}
}
