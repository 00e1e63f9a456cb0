package linear

import (
	"flag"

	"github.com/gendisc/gendisc/modelflags"
	"github.com/gendisc/gendisc/registry"
)

// DefineFlags defines the command-line flags of Config on fs and returns
// the function that gives the configuration once they are parsed. The
// function may run on several goroutines at once: it completes a copy.
func DefineFlags(fs *flag.FlagSet) func() Config {
	var (
		cfg Config
		l2  modelflags.NonNegative
	)
	fs.Var(&l2, "l2", "the ridge penalty `λ` on the standardised weights, the intercept unpenalised (default 0: ordinary least squares)")
	fs.BoolVar(&cfg.NoStandardize, "no-standardize", false, "apply --l2 to the weights of numeric features in their own units (scikit-learn's Ridge on unscaled data)")
	modelflags.Impute(fs, &cfg.Impute)
	return func() Config {
		c := cfg
		c.L2 = float64(l2)
		return c
	}
}

// flags are the flags of kind linear (DefineFlags).
func flags(fs *flag.FlagSet) func() (registry.Config, error) {
	cfg := DefineFlags(fs)
	return func() (registry.Config, error) {
		c := cfg()
		return registry.OnePassShared(c, c.Fit, c.NewAccumulator, c.SameStatistics, c.ModelFrom), nil
	}
}
