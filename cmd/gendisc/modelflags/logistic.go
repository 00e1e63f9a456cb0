package modelflags

import (
	"flag"

	"github.com/gendisc/gendisc/logistic"
)

// Logistic defines the flags of logistic.Config but those of the solver
// (Solver, MaxIter, Epochs, Tol, Step, Rand), which each command defines
// for the solvers it runs, and returns the function that gives the
// configuration once they are parsed.
func Logistic(fs *flag.FlagSet) func() logistic.Config {
	var cfg logistic.Config
	l2 := NonNegative(1)
	fs.Var(&l2, "l2", "the L2 penalty `λ` on the standardised weights (a Gaussian prior with variance 1/λ); 0 is plain maximum likelihood (MCLE)")
	fs.Var(OneOf(&cfg.ClassWeight, "class weight", logistic.Balanced), "class-weight", "weigh the rows by class (`mode`): balanced gives every class the same total weight")
	fs.BoolVar(&cfg.NoStandardize, "no-standardize", false, "fit the weights of numeric features in their own units (λ on the raw coefficients, as scikit-learn on unscaled data)")
	var impute imputeFlag
	fs.Var(&impute, "impute", imputeUsage)
	textFlags(fs, &cfg.Text)
	// The returned function may run on several goroutines at once
	// (compare fits every split concurrently): it completes a copy of
	// cfg.
	return func() logistic.Config {
		c := cfg
		c.L2, c.NoPenalty = float64(l2), l2 == 0
		c.Impute = bool(impute)
		return c
	}
}
