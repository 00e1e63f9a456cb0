package naivebayes

import (
	"flag"

	"github.com/gendisc/gendisc/modelflags"
	"github.com/gendisc/gendisc/registry"
)

// DefineGaussianFlags defines the command-line flags of GaussianConfig
// (kind gaussian-nb) on fs and returns the function that gives the
// configuration once they are parsed. The function may run on several
// goroutines at once: it completes a copy.
func DefineGaussianFlags(fs *flag.FlagSet) func() GaussianConfig {
	var cfg GaussianConfig
	fs.TextVar(&cfg.Variance, "variance", cfg.Variance,
		"variance `tying`: class-feature (σ²_kj), feature (σ²_j, shared by the classes: linear log-odds), class (σ²_k) or shared (one σ²)")
	smoothing := modelflags.NonNegative(DefaultVarSmoothing)
	fs.Var(&smoothing, "var-smoothing", "add ε = `r` × the largest feature variance to every variance")
	prior := modelflags.PriorFlags(fs)
	return func() GaussianConfig {
		c := cfg
		c.VarSmoothing = float64(smoothing)
		if c.VarSmoothing == 0 {
			c.VarSmoothing = NoVarSmoothing
		}
		c.PriorAlpha, c.ClassPrior = prior.Alpha(), prior.Fixed()
		return c
	}
}

// DefineFlags defines the command-line flags of Config for family f (the
// kind named f.String()) on fs and returns the function that gives the
// configuration once they are parsed. The function may run on several
// goroutines at once: it completes a copy.
func DefineFlags(fs *flag.FlagSet, f Family) func() Config {
	cfg := Config{Family: f}
	alpha := modelflags.NonNegative(1)
	fs.Var(&alpha, "alpha", "pseudo-count `α` added to every count (Laplace 1; any α > 0 is the Dirichlet MAP estimate; 0 is maximum likelihood, with a warning)")
	var smoothing modelflags.NonNegative
	switch f {
	case Bernoulli:
		fs.Var((*modelflags.Finite)(&cfg.Binarize), "binarize", "a numeric feature is present when it is above `t`")
	case Complement:
		fs.BoolVar(&cfg.Norm, "norm", false, "normalise the complement weights (Rennie et al.'s weight normalisation)")
	case Mixed:
		fs.TextVar(&cfg.TextModel, "text-model", cfg.TextModel, "the family of text columns: multinomial (word counts) or bernoulli (words present)")
		smoothing = modelflags.NonNegative(DefaultVarSmoothing)
		fs.Var(&smoothing, "var-smoothing", "numeric columns: add ε = `r` × the largest variance to every variance")
		fs.TextVar(&cfg.Variance, "variance", cfg.Variance,
			"numeric columns: variance `tying`, class-feature (σ²_kj), feature (σ²_j, shared by the classes: linear log-odds), class (σ²_k) or shared (one σ²)")
	}
	if f != Categorical {
		modelflags.TextFlags(fs, &cfg.Text)
	}
	prior := modelflags.PriorFlags(fs)
	return func() Config {
		c := cfg
		c.Alpha = float64(alpha)
		if c.Alpha == 0 {
			c.Alpha = NoAlpha
		}
		if f == Mixed {
			c.VarSmoothing = float64(smoothing)
			if c.VarSmoothing == 0 {
				c.VarSmoothing = NoVarSmoothing
			}
		}
		c.PriorAlpha, c.ClassPrior = prior.Alpha(), prior.Fixed()
		return c
	}
}

// gaussianFlags are the flags of kind gaussian-nb (DefineGaussianFlags).
func gaussianFlags(fs *flag.FlagSet) func() (registry.Config, error) {
	cfg := DefineGaussianFlags(fs)
	return func() (registry.Config, error) {
		c := cfg()
		return registry.OnePassShared(c, c.Fit, c.NewAccumulator, c.SameStatistics, c.ModelFrom), nil
	}
}

// familyFlags returns the flags of the kind of family f (DefineFlags).
func familyFlags(f Family) func(fs *flag.FlagSet) func() (registry.Config, error) {
	return func(fs *flag.FlagSet) func() (registry.Config, error) {
		cfg := DefineFlags(fs, f)
		return func() (registry.Config, error) {
			c := cfg()
			return registry.OnePassShared(c, c.Fit, c.NewAccumulator, c.SameStatistics, c.ModelFrom), nil
		}
	}
}
