package gda

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/gendisc/gendisc/modelflags"
	"github.com/gendisc/gendisc/registry"
)

// DefineFlags defines the command-line flags of Config (those of lda and
// qda) on fs and returns the function that gives the configuration once
// they are parsed. The function may run on several goroutines at once: it
// completes a copy.
func DefineFlags(fs *flag.FlagSet) func() Config {
	cfg := &Config{MaxIter: DefaultMaxIter}
	fs.TextVar(&cfg.Estimator, "covariance-estimator", cfg.Estimator,
		"covariance `divisor`: mle (n, or n_k for qda) or unbiased (n − K for lda, n_k − 1 for qda, as scikit-learn)")
	fs.Var((*shrinkageFlag)(cfg), "shrinkage",
		"shrink covariances: a fixed `r` in [0, 1], (1 − r)Σ + r·(tr Σ/p)·I, or auto (Ledoit–Wolf, towards the diagonal)")
	prior := modelflags.PriorFlags(fs)
	fs.Var(modelflags.AtLeast(&cfg.MaxIter, 0), "em-max-iter", "at most `n` EM iterations when training rows have missing cells")
	tol := modelflags.NonNegative(DefaultTol)
	fs.Var(&tol, "em-tol", "stop EM when no mean or covariance moves by more than `t` standard deviations")
	return func() Config {
		c := *cfg
		c.PriorAlpha, c.ClassPrior, c.Tol = prior.Alpha(), prior.Fixed(), float64(tol)
		return c
	}
}

// ldaFlags are the flags of kind lda (DefineFlags).
func ldaFlags(fs *flag.FlagSet) func() (registry.Config, error) {
	cfg := DefineFlags(fs)
	return func() (registry.Config, error) {
		c := LDAConfig(cfg())
		return registry.OnePassShared(c, c.Fit, c.NewAccumulator, c.SameStatistics, c.ModelFrom), nil
	}
}

// qdaFlags are the flags of kind qda (DefineFlags).
func qdaFlags(fs *flag.FlagSet) func() (registry.Config, error) {
	cfg := DefineFlags(fs)
	return func() (registry.Config, error) {
		c := QDAConfig(cfg())
		return registry.OnePassShared(c, c.Fit, c.NewAccumulator, c.SameStatistics, c.ModelFrom), nil
	}
}

// shrinkageFlag sets Shrinkage or ShrinkageAuto of a Config.
type shrinkageFlag Config

func (f *shrinkageFlag) String() string {
	if f.ShrinkageAuto {
		return "auto"
	}
	return strconv.FormatFloat(f.Shrinkage, 'g', -1, 64)
}

func (f *shrinkageFlag) Set(s string) error {
	if s == "auto" {
		f.Shrinkage, f.ShrinkageAuto = 0, true
		return nil
	}
	r, err := strconv.ParseFloat(s, 64)
	if err != nil || !(r >= 0 && r <= 1) {
		return fmt.Errorf("want a number in [0, 1] or auto")
	}
	f.Shrinkage, f.ShrinkageAuto = r, false
	return nil
}
