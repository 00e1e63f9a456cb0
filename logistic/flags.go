package logistic

import (
	"flag"
	"math/rand/v2"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/modelflags"
	"github.com/gendisc/gendisc/registry"
)

// DefineFlags defines the command-line flags of Config but those of the
// solver (Solver, MaxIter, Epochs, Tol, Step, Rand), which each command
// defines for the solvers it runs, on fs and returns the function that
// gives the configuration once they are parsed. The function may run on
// several goroutines at once (compare fits every split concurrently): it
// completes a copy.
func DefineFlags(fs *flag.FlagSet) func() Config {
	var cfg Config
	l2 := modelflags.NonNegative(1)
	fs.Var(&l2, "l2", "the L2 penalty `λ` on the standardised weights (a Gaussian prior with variance 1/λ); 0 is plain maximum likelihood (MCLE)")
	fs.Var(modelflags.OneOf(&cfg.ClassWeight, "class weight", Balanced), "class-weight", "weigh the rows by class (`mode`): balanced gives every class the same total weight")
	fs.BoolVar(&cfg.NoStandardize, "no-standardize", false, "fit the weights of numeric features in their own units (λ on the raw coefficients, as scikit-learn on unscaled data)")
	modelflags.Impute(fs, &cfg.Impute)
	modelflags.TextFlags(fs, &cfg.Text)
	return func() Config {
		c := cfg
		c.L2, c.NoPenalty = float64(l2), l2 == 0
		return c
	}
}

// flags are the flags of kind logistic: DefineFlags' and those of the
// four solvers.
func flags(fs *flag.FlagSet) func() (registry.Config, error) {
	cfg := DefineFlags(fs)
	var (
		solver          Solver
		maxIter, epochs int
		tol, step       modelflags.NonNegative
	)
	fs.Var(modelflags.OneOf(&solver, "solver", GD, SGD, Newton, LBFGS), "solver", "the optimiser `name`: gd, sgd, newton or lbfgs (default: newton for at most 40 parameters, lbfgs otherwise)")
	fs.Var(modelflags.AtLeast(&maxIter, 0), "max-iter", "stop gd, newton and lbfgs after `n` iterations (default 10000 for gd, 1000 otherwise)")
	fs.Var(modelflags.AtLeast(&epochs, 0), "epochs", "stop sgd after `n` passes over the data (default 1000)")
	fs.Var(&tol, "tol", "stopping tolerance `t` on the gradient of the mean objective (gd, sgd: on the change of the weights) (default 1e-6)")
	fs.Var(&step, "step", "step size `η` of gd and first step of sgd (default: from the curvature of the objective)")
	seed := fs.Uint64("seed", 1, "`seed` of sgd's shuffles")
	return func() (registry.Config, error) {
		c := cfg()
		c.Solver, c.MaxIter, c.Epochs = solver, maxIter, epochs
		c.Tol, c.Step = float64(tol), float64(step)
		s := *seed
		// Each fit draws from a source of its own, so that fits of one
		// configuration may run at once.
		own := func() Config {
			c := c
			c.Rand = rand.New(rand.NewPCG(s, 0))
			return c
		}
		return registry.WarmFit(
			func(d *data.Dataset) (*Model, error) { return own().Fit(d) },
			func(d *data.Dataset, from *Model) (*Model, error) { return own().FitFrom(d, from) }), nil
	}
}
