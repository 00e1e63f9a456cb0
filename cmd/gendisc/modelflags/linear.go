package modelflags

import (
	"flag"
	"fmt"

	"github.com/gendisc/gendisc/linear"
)

// Linear defines the flags of linear.Config and returns the function that
// gives the configuration once they are parsed.
func Linear(fs *flag.FlagSet) func() linear.Config {
	var (
		cfg    linear.Config
		l2     NonNegative
		impute imputeFlag
	)
	fs.Var(&l2, "l2", "the ridge penalty `λ` on the standardised weights, the intercept unpenalised (default 0: ordinary least squares)")
	fs.BoolVar(&cfg.NoStandardize, "no-standardize", false, "apply --l2 to the weights of numeric features in their own units (scikit-learn's Ridge on unscaled data)")
	fs.Var(&impute, "impute", imputeUsage)
	// The returned function may run on several goroutines at once: it
	// completes a copy of cfg.
	return func() linear.Config {
		c := cfg
		c.L2, c.Impute = float64(l2), bool(impute)
		return c
	}
}

// imputeUsage is the usage of the --impute flag of the kinds that can
// fill missing cells with the training means.
const imputeUsage = "imputation `method`: mean fills missing cells with the column mean (default: a missing cell is an error)"

// imputeFlag is the --impute flag of the kinds that can fill missing
// cells with the training means: "mean" sets it, any other value is
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
