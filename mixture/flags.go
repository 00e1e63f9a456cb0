package mixture

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/modelflags"
	"github.com/gendisc/gendisc/registry"
)

// DefineFlags defines the command-line flags of Config but Components,
// which each command defines in its own way, and --seed, on fs and
// returns the function that gives the configuration and the seed of the
// random source once they are parsed.
func DefineFlags(fs *flag.FlagSet) func() (Config, uint64) {
	var cfg Config
	fs.Var((*covarianceFlag)(&cfg.Covariance), "covariance", "covariance `type`: full, diag, spherical, tied (one Σ for all components) or identity (Σ = I: only means and weights)")
	fs.Var((*initFlag)(&cfg.Init), "init", "starting point `method`: kmeans++ (seeds by k-means++, then their hard partition) or random (random responsibilities)")
	cfg.Restarts, cfg.MaxIter = 1, DefaultMaxIter
	fs.Var(modelflags.AtLeast(&cfg.Restarts, 1), "restarts", "run EM from `n` starting points and keep the largest log-likelihood")
	tol := modelflags.NonNegative(DefaultTol)
	fs.Var(&tol, "tol", "stop EM when the mean log-likelihood per row changes by less than `t`; 0 runs --max-iter iterations")
	fs.Var(modelflags.AtLeast(&cfg.MaxIter, 1), "max-iter", "at most `n` EM iterations per run")
	reg := modelflags.NonNegative(DefaultRegCovar)
	fs.Var(&reg, "reg-covar", "`r` that keeps every covariance matrix positive definite, as --reg-covar-mode says")
	fs.Var((*regularizationFlag)(&cfg.Regularization), "reg-covar-mode", "`mode` of --reg-covar: floor (the least eigenvalue of every covariance matrix: every EM step exact, the log-likelihood never decreases) or ridge (added to the diagonal, as scikit-learn's reg_covar; the log-likelihood may decrease on features of small spread)")
	seed := fs.Uint64("seed", 1, "`seed` of the starting points and of re-seeded components")
	return func() (Config, uint64) {
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

// covarianceFlag sets a Covariance by name.
type covarianceFlag Covariance

func (f *covarianceFlag) String() string { return Covariance(*f).String() }

func (f *covarianceFlag) Set(s string) error {
	c, err := ParseCovariance(s)
	*f = covarianceFlag(c)
	return err
}

// initFlag sets a Init by name.
type initFlag Init

func (f *initFlag) String() string { return Init(*f).String() }

func (f *initFlag) Set(s string) error {
	i, err := ParseInit(s)
	*f = initFlag(i)
	return err
}

// regularizationFlag sets a Regularization by name.
type regularizationFlag Regularization

func (f *regularizationFlag) String() string { return Regularization(*f).String() }

func (f *regularizationFlag) Set(s string) error {
	r, err := ParseRegularization(s)
	*f = regularizationFlag(r)
	return err
}

// DefaultComponents is the number of components of a gmm without
// --components: the smallest mixture.
const DefaultComponents = 2

// SelectConfig fits a Gaussian mixture of Config with a number of
// components in Range: exactly Range.Min when the range is one number,
// else the number of the smallest BIC (SelectK). Each fit draws from a
// random source of its own, seeded with Seed.
type SelectConfig struct {
	Config
	Range ComponentRange
	Seed  uint64
}

// Fit fits the mixture of c to d.
func (c SelectConfig) Fit(d *data.Dataset) (*GMM, error) {
	rng := rand.New(rand.NewPCG(c.Seed, 0))
	if c.Range.Min == c.Range.Max {
		cfg := c.Config
		cfg.Components = c.Range.Min
		return cfg.Fit(d, rng)
	}
	g, _, err := SelectK(d, rng, c.Config, c.Range.Min, c.Range.Max)
	return g, err
}

// gmmFlags are the flags of kind gmm: DefineFlags' and --components, a
// number or a range chosen by BIC (SelectConfig).
func gmmFlags(fs *flag.FlagSet) func() (registry.Config, error) {
	cfg := DefineFlags(fs)
	comp := ComponentRange{Min: DefaultComponents, Max: DefaultComponents}
	fs.Var(&comp, "components", "the number of components `K` (default 2), or a range such as 1-10 chosen by BIC")
	return func() (registry.Config, error) {
		c, seed := cfg()
		return registry.FitConfig(SelectConfig{Config: c, Range: comp, Seed: seed}.Fit), nil
	}
}

// mdaFlags are the flags of kind mda: DefineFlags' and
// --components-per-class.
func mdaFlags(fs *flag.FlagSet) func() (registry.Config, error) {
	cfg := DefineFlags(fs)
	k := DefaultComponentsPerClass
	fs.Var(modelflags.AtLeast(&k, 1), "components-per-class", "the number of mixture components `K` of every class")
	return func() (registry.Config, error) {
		c, seed := cfg()
		return registry.FitConfig(func(d *data.Dataset) (*MDA, error) {
			return MDAConfig{ComponentsPerClass: k, Mixture: c}.Fit(d, rand.New(rand.NewPCG(seed, 0)))
		}), nil
	}
}

// ComponentRange is a number of components K (Min = Max) or a range
// Min–Max; as a flag.Value, "K" or "MIN-MAX".
type ComponentRange struct{ Min, Max int }

func (f *ComponentRange) String() string {
	if f.Min == f.Max {
		return strconv.Itoa(f.Min)
	}
	return fmt.Sprintf("%d-%d", f.Min, f.Max)
}

func (f *ComponentRange) Set(s string) error {
	a, b, isRange := strings.Cut(s, "-")
	lo, err1 := strconv.Atoi(a)
	hi, err2 := lo, error(nil)
	if isRange {
		hi, err2 = strconv.Atoi(b)
	}
	if err1 != nil || err2 != nil || lo < 1 || hi < lo {
		return fmt.Errorf("want a number of components ≥ 1 or a range such as 1-10")
	}
	f.Min, f.Max = lo, hi
	return nil
}
