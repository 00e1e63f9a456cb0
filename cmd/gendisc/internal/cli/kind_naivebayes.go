package cli

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/classprior"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/naivebayes"
)

func init() {
	register(&kind{
		name:    "gaussian-nb",
		short:   "Gaussian naive Bayes: per class, an independent normal distribution for each numeric feature",
		flags:   gaussianNBFlags,
		inspect: inspectGaussianNB,
		accumulator: func(fs *flag.FlagSet) func() (gendisc.Accumulator, error) {
			cfg := gaussianNBConfig(fs)
			return func() (gendisc.Accumulator, error) { return accumulatorOf(cfg().NewAccumulator()) }
		},
	})
}

// gaussianNBFlags defines the flags of naivebayes.GaussianConfig.
func gaussianNBFlags(fs *flag.FlagSet) fitFunc {
	cfg := gaussianNBConfig(fs)
	return func(d *data.Dataset) (modelfile.Persistent, error) { return cfg().Fit(d) }
}

// gaussianNBConfig defines the flags of naivebayes.GaussianConfig and
// returns the function that gives the configuration once they are parsed.
func gaussianNBConfig(fs *flag.FlagSet) func() naivebayes.GaussianConfig {
	var cfg naivebayes.GaussianConfig
	fs.TextVar(&cfg.Variance, "variance", cfg.Variance,
		"variance `tying`: class-feature (σ²_kj), feature (σ²_j, shared by the classes: linear log-odds), class (σ²_k) or shared (one σ²)")
	smoothing := nonNegative(naivebayes.DefaultVarSmoothing)
	fs.Var(&smoothing, "var-smoothing", "add ε = `r` × the largest feature variance to every variance")
	prior := nbPriorFlags(fs)
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

// nbPriors holds the class-prior flags that every naive Bayes kind takes.
type nbPriors struct {
	alpha nonNegative
	fixed classPriorFlag
}

func nbPriorFlags(fs *flag.FlagSet) *nbPriors {
	p := &nbPriors{}
	fs.Var(&p.alpha, "prior-alpha", "smooth the class prior: π_k = (n_k + `α`)/(n + α·K); 0 is maximum likelihood")
	fs.Var((*classPriorCheck)(p), "class-prior", "fix the class prior, one `class=p` per class, comma-separated (a=0.3,b=0.7); not with --prior-alpha")
	return p
}

// classPriorCheck is the --class-prior flag; once the command line is
// parsed it checks the fixed prior with --prior-alpha (classprior.Check:
// they exclude each other, the priors sum to 1).
type classPriorCheck nbPriors

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

// gaussianNBReport is what inspect shows of a Gaussian naive Bayes model:
// Means[k][j] = μ_kj and Variances[k][j] = σ²_kj, ε included.
type gaussianNBReport struct {
	Variance     naivebayes.Variance `json:"variance"`
	VarSmoothing float64             `json:"var_smoothing"`
	Epsilon      float64             `json:"epsilon"`
	Classes      []string            `json:"classes"`
	Features     []string            `json:"features"`
	Priors       modelfile.Floats    `json:"priors"`
	ClassWeights modelfile.Floats    `json:"class_weights"`
	Means        []modelfile.Floats  `json:"means"`
	Variances    []modelfile.Floats  `json:"variances"`
	// Logistic is set for two classes whose variances are shared
	// (feature or shared tying): the log-odds are then linear in x
	// (naivebayes.Gaussian.LogisticForm).
	Logistic *logisticForm `json:"logistic,omitempty"`
	priorSetting
}

func inspectGaussianNB(m gendisc.Model) report {
	g := m.(*naivebayes.Gaussian)
	cfg := g.Config()
	r := &gaussianNBReport{
		Variance:     cfg.Variance,
		VarSmoothing: max(cfg.VarSmoothing, 0), // NoVarSmoothing is 0
		Epsilon:      g.Epsilon(),
		Classes:      g.Classes(),
		Priors:       g.Priors(),
		ClassWeights: g.ClassWeights(),
		priorSetting: priorSetting{cfg.PriorAlpha, cfg.ClassPrior},
	}
	for _, c := range g.Schema().Features {
		r.Features = append(r.Features, c.Name)
	}
	for _, v := range g.Means() {
		r.Means = append(r.Means, v)
	}
	for _, v := range g.Variances() {
		r.Variances = append(r.Variances, v)
	}
	if w, w0, ok := g.LogisticForm(); ok {
		r.Logistic = &logisticForm{Positive: r.Classes[1], Negative: r.Classes[0], W: w, W0: modelfile.Float(w0), features: r.Features,
			formula: "w_j = (μ_1j − μ_0j)/σ²_j,  w0 = log(π_1/π_0) − Σ_j (μ_1j² − μ_0j²)/(2σ²_j)"}
	}
	return r
}

func (r *gaussianNBReport) writeText(w io.Writer) error {
	fmt.Fprintf(w, "Gaussian naive Bayes\n\n")
	fmt.Fprintf(w, "\tlog p(x, y=k) = log π_k + Σ_j [−½ log(2π σ²_kj) − (x_j − μ_kj)² / (2 σ²_kj)]\n\n")
	fmt.Fprintf(w, "variance tying: %s\n", r.Variance)
	fmt.Fprintf(w, "var-smoothing: %s, ε = %s added to every variance\n", num(r.VarSmoothing), num(r.Epsilon))
	r.priorSetting.writeText(w)
	fmt.Fprintln(w)
	rows := make([][]string, len(r.Classes))
	for k, c := range r.Classes {
		rows[k] = []string{c, num(r.Priors[k]), num(r.ClassWeights[k])}
	}
	if err := writeTable(w, []string{"class", "prior π_k", "weight"}, rows); err != nil {
		return err
	}
	for _, t := range []struct {
		title string
		v     []modelfile.Floats
	}{{"means μ_kj", r.Means}, {"variances σ²_kj", r.Variances}} {
		if err := writeByClass(w, t.title+" (rows: features, columns: classes)", "feature", r.Features, r.Classes, t.v); err != nil {
			return err
		}
	}
	if r.Logistic != nil {
		return r.Logistic.writeText(w)
	}
	return nil
}

// nonNegative is a float flag that refuses negative values, NaN and
// infinities.
type nonNegative float64

func (f *nonNegative) String() string { return strconv.FormatFloat(float64(*f), 'g', -1, 64) }

func (f *nonNegative) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v >= 0) || math.IsInf(v, 1) {
		return fmt.Errorf("want a finite number ≥ 0")
	}
	*f = nonNegative(v)
	return nil
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
