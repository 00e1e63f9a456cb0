package modelflags

import (
	"flag"

	"github.com/gendisc/gendisc/mixture"
)

// Mixture defines the flags of mixture.Config but Components, which each
// command defines in its own way, and --seed, and returns the function
// that gives the configuration and the seed of the random source once
// they are parsed.
func Mixture(fs *flag.FlagSet) func() (mixture.Config, uint64) {
	var cfg mixture.Config
	fs.Var((*covarianceFlag)(&cfg.Covariance), "covariance", "covariance `type`: full, diag, spherical, tied (one Σ for all components) or identity (Σ = I: only means and weights)")
	fs.Var((*initFlag)(&cfg.Init), "init", "starting point `method`: kmeans++ (seeds by k-means++, then their hard partition) or random (random responsibilities)")
	cfg.Restarts, cfg.MaxIter = 1, mixture.DefaultMaxIter
	fs.Var(AtLeast(&cfg.Restarts, 1), "restarts", "run EM from `n` starting points and keep the largest log-likelihood")
	tol := NonNegative(mixture.DefaultTol)
	fs.Var(&tol, "tol", "stop EM when the mean log-likelihood per row changes by less than `t`; 0 runs --max-iter iterations")
	fs.Var(AtLeast(&cfg.MaxIter, 1), "max-iter", "at most `n` EM iterations per run")
	reg := NonNegative(mixture.DefaultRegCovar)
	fs.Var(&reg, "reg-covar", "`r` that keeps every covariance matrix positive definite, as --reg-covar-mode says")
	fs.Var((*regularizationFlag)(&cfg.Regularization), "reg-covar-mode", "`mode` of --reg-covar: floor (the least eigenvalue of every covariance matrix: every EM step exact, the log-likelihood never decreases) or ridge (added to the diagonal, as scikit-learn's reg_covar; the log-likelihood may decrease on features of small spread)")
	seed := fs.Uint64("seed", 1, "`seed` of the starting points and of re-seeded components")
	return func() (mixture.Config, uint64) {
		c := cfg
		c.Tol, c.RegCovar = float64(tol), float64(reg)
		c.Seed = new(*seed) // recorded in the model file
		if tol == 0 {
			c.Tol = -1 // no tolerance: run MaxIter iterations
		}
		if reg == 0 {
			c.RegCovar = -1 // no regularisation
		}
		return c, *seed
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
