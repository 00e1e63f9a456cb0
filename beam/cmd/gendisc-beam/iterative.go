package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/gendisc/gendisc/beam/fit"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/mixture"
)

// iterFunc fits a model of an iterative kind on the files that glob
// matches, read with opt, and writes it to out, with the flags of the
// kind once they are parsed; notes and warnings go to stderr.
type iterFunc func(ctx context.Context, glob, out string, opt fit.Options, stderr io.Writer) error

// iterKinds defines the model flags of each iterative kind that fit
// takes, as gendisc fit names them, and returns its iterFunc.
var iterKinds = map[string]func(*flag.FlagSet) iterFunc{
	logistic.Kind: logisticFlags,
	mixture.Kind:  gmmFlags,
}

// warn writes the warnings of a fitted model to stderr, as gendisc fit.
func warn(stderr io.Writer, m interface{ Warnings() []string }) {
	for _, s := range m.Warnings() {
		fmt.Fprintln(stderr, "gendisc-beam: warning:", s)
	}
}

func logisticFlags(fs *flag.FlagSet) iterFunc {
	var cfg logistic.Config
	l2 := nonNegative(1)
	fs.Var(&l2, "l2", "the L2 penalty `λ` on the standardised weights (a Gaussian prior with variance 1/λ); 0 is plain maximum likelihood (MCLE)")
	solver := fs.String("solver", "", "the optimiser `name`: newton or lbfgs (default: newton for at most 40 parameters, lbfgs otherwise); every iteration runs pipelines")
	fs.IntVar(&cfg.MaxIter, "max-iter", 0, "stop newton and lbfgs after `n` iterations (default 1000)")
	var tol nonNegative
	fs.Var(&tol, "tol", "stopping tolerance `t` on the gradient of the mean objective (default 1e-6)")
	classWeight := fs.String("class-weight", "", "weigh the rows by class (`mode`): balanced gives every class the same total weight")
	fs.BoolVar(&cfg.NoStandardize, "no-standardize", false, "fit the weights of numeric features in their own units (λ on the raw coefficients, as scikit-learn on unscaled data)")
	impute := fs.String("impute", "", "imputation `method`: mean fills missing cells with the column mean (default: a missing cell is an error)")
	textFlags(fs, &cfg.Text)
	verbose := verboseFlag(fs)
	return func(ctx context.Context, glob, out string, opt fit.Options, stderr io.Writer) error {
		c := cfg
		c.L2, c.NoPenalty = float64(l2), l2 == 0
		c.Solver, c.ClassWeight = logistic.Solver(*solver), logistic.ClassWeight(*classWeight)
		c.Tol = float64(tol)
		switch c.Solver {
		case logistic.Auto, logistic.Newton, logistic.LBFGS:
		default:
			return fmt.Errorf("%w: --solver %q: want newton or lbfgs (gd and sgd step over single rows)", errUsage, *solver)
		}
		switch *impute {
		case "":
		case "mean":
			c.Impute = true
		default:
			return fmt.Errorf("%w: --impute %q: the only method is mean", errUsage, *impute)
		}
		m, err := fit.FitLogistic(ctx, beamx.Run, glob, c, out, opt)
		if err != nil {
			return err
		}
		if *verbose {
			d := m.Diagnostics()
			fmt.Fprintf(stderr, "gendisc-beam: %s: %d iterations, %d passes over the data; objective %g, log-likelihood %g, gradient norm %.3g\n",
				d.Solver, d.Iterations, d.Evaluations, d.Objective, d.LogLikelihood, d.GradNorm)
		}
		warn(stderr, m)
		return nil
	}
}

func verboseFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("verbose", false, "print details of the fit on standard error")
}

// defaultSample is the default of --init-sample.
const defaultSample = 100_000

func gmmFlags(fs *flag.FlagSet) iterFunc {
	var cfg mixture.Config
	fs.Var((*covarianceFlag)(&cfg.Covariance), "covariance", "covariance `type`: full, diag, spherical, tied (one Σ for all components) or identity (Σ = I: only means and weights)")
	fs.Var((*initFlag)(&cfg.Init), "init", "starting point `method`: kmeans++ (seeds by k-means++, then their hard partition) or random (random responsibilities), on the sample of --init-sample")
	fs.IntVar(&cfg.Restarts, "restarts", 1, "run EM from `n` starting points and keep the largest log-likelihood (each restart runs its own pipelines)")
	tol := nonNegative(mixture.DefaultTol)
	fs.Var(&tol, "tol", "stop EM when the mean log-likelihood per row changes by less than `t`; 0 runs --max-iter iterations")
	fs.IntVar(&cfg.MaxIter, "max-iter", mixture.DefaultMaxIter, "at most `n` EM iterations per run")
	reg := nonNegative(mixture.DefaultRegCovar)
	fs.Var(&reg, "reg-covar", "`r` that keeps every covariance matrix positive definite, as --reg-covar-mode says")
	fs.Var((*regularizationFlag)(&cfg.Regularization), "reg-covar-mode", "`mode` of --reg-covar: floor (the least eigenvalue of every covariance matrix: every EM step exact, the log-likelihood never decreases) or ridge (added to the diagonal, as scikit-learn's reg_covar; the log-likelihood may decrease on features of small spread)")
	seed := fs.Uint64("seed", 1, "`seed` of the sample and of the starting points")
	fs.IntVar(&cfg.Components, "components", 2, "the number of components `K` (gendisc fit's ranges chosen by BIC are not taken)")
	sample := fs.Int("init-sample", defaultSample, "draw the starting points from a sample of `n` rows (all the rows when there are no more: the starting points of gendisc fit)")
	verbose := verboseFlag(fs)
	return func(ctx context.Context, glob, out string, opt fit.Options, stderr io.Writer) error {
		c := cfg
		c.Tol, c.RegCovar = float64(tol), float64(reg)
		if tol == 0 {
			c.Tol = -1 // no tolerance: run MaxIter iterations
		}
		if reg == 0 {
			c.RegCovar = -1 // no regularisation
		}
		switch {
		case c.Restarts < 1 || c.MaxIter < 1:
			return fmt.Errorf("%w: --restarts %d, --max-iter %d: want at least 1", errUsage, c.Restarts, c.MaxIter)
		case c.Components < 1:
			return fmt.Errorf("%w: --components %d: want at least 1", errUsage, c.Components)
		case *sample < c.Components:
			return fmt.Errorf("%w: --init-sample %d: want at least the %d components", errUsage, *sample, c.Components)
		}
		if *verbose {
			c.OnIter = func(restart, iter int, ll float64) {
				fmt.Fprintf(stderr, "gendisc-beam: restart %d, iteration %d: log-likelihood %.17g\n", restart, iter, ll)
			}
		}
		g, err := fit.FitMixture(ctx, beamx.Run, glob, c, fit.MixtureOptions{Seed: *seed, Sample: *sample}, out, opt)
		if err != nil {
			return err
		}
		warn(stderr, g)
		return nil
	}
}

// covarianceFlag sets a mixture.Covariance by name.
type covarianceFlag mixture.Covariance

func (f *covarianceFlag) String() string { return mixture.Covariance(*f).String() }

func (f *covarianceFlag) Set(s string) error {
	c, err := mixture.ParseCovariance(s)
	*f = covarianceFlag(c)
	return err
}

// initFlag sets a mixture.Init by name.
type initFlag mixture.Init

func (f *initFlag) String() string { return mixture.Init(*f).String() }

func (f *initFlag) Set(s string) error {
	i, err := mixture.ParseInit(s)
	*f = initFlag(i)
	return err
}

// regularizationFlag sets a mixture.Regularization by name.
type regularizationFlag mixture.Regularization

func (f *regularizationFlag) String() string { return mixture.Regularization(*f).String() }

func (f *regularizationFlag) Set(s string) error {
	r, err := mixture.ParseRegularization(s)
	*f = regularizationFlag(r)
	return err
}
