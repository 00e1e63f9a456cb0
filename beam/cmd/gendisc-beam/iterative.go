package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/beam/fit"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/mixture"
	"github.com/gendisc/gendisc/modelflags"
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
func warn(stderr io.Writer, m gendisc.Warner) {
	for _, s := range m.Warnings() {
		fmt.Fprintln(stderr, "gendisc-beam: warning:", s)
	}
}

// logisticFlags defines the flags of logistic.Config: gendisc fit's
// (logistic.DefineFlags), and those of the solvers that the pipelines run,
// newton and lbfgs, whose iterations each run a pass over the data.
func logisticFlags(fs *flag.FlagSet) iterFunc {
	config := logistic.DefineFlags(fs)
	solver := fs.String("solver", "", "the optimiser `name`: newton or lbfgs (default: newton for at most 40 parameters, lbfgs otherwise); every iteration runs pipelines")
	var maxIter int
	fs.Var(modelflags.AtLeast(&maxIter, 0), "max-iter", "stop newton and lbfgs after `n` iterations (default 1000)")
	var tol modelflags.NonNegative
	fs.Var(&tol, "tol", "stopping tolerance `t` on the gradient of the mean objective (default 1e-6)")
	verbose := verboseFlag(fs)
	return func(ctx context.Context, glob, out string, opt fit.Options, stderr io.Writer) error {
		c := config()
		c.Solver, c.MaxIter, c.Tol = logistic.Solver(*solver), maxIter, float64(tol)
		switch c.Solver {
		case logistic.Auto, logistic.Newton, logistic.LBFGS:
		default:
			return fmt.Errorf("%w: --solver %q: want newton or lbfgs (gd and sgd step over single rows)", errUsage, *solver)
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

// gmmFlags defines the flags of mixture.Config: gendisc fit's
// (mixture.DefineFlags), with the usage of those that the pipelines use
// in their own way, and --components, --init-sample and --verbose.
func gmmFlags(fs *flag.FlagSet) iterFunc {
	config := mixture.DefineFlags(fs)
	for name, usage := range map[string]string{
		"init":     "starting point `method`: kmeans++ (seeds by k-means++, then their hard partition) or random (random responsibilities), on the sample of --init-sample",
		"restarts": "run EM from `n` starting points and keep the largest log-likelihood (each restart runs its own pipelines)",
		"seed":     "`seed` of the sample and of the starting points",
	} {
		fs.Lookup(name).Usage = usage
	}
	components := fs.Int("components", 2, "the number of components `K` (gendisc fit's ranges chosen by BIC are not taken)")
	sample := fs.Int("init-sample", defaultSample, "draw the starting points from a sample of `n` rows (all the rows when there are no more: the starting points of gendisc fit)")
	verbose := verboseFlag(fs)
	return func(ctx context.Context, glob, out string, opt fit.Options, stderr io.Writer) error {
		c, seed := config()
		c.Components = *components
		switch {
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
		g, err := fit.FitMixture(ctx, beamx.Run, glob, c, fit.MixtureOptions{Seed: seed, Sample: *sample}, out, opt)
		if err != nil {
			return err
		}
		warn(stderr, g)
		return nil
	}
}
