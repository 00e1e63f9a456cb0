package modelflags

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/gendisc/gendisc/gda"
)

// GDA defines the flags of gda.Config (lda and qda) and returns the
// function that gives the configuration once they are parsed.
func GDA(fs *flag.FlagSet) func() gda.Config {
	cfg := &gda.Config{MaxIter: gda.DefaultMaxIter}
	fs.TextVar(&cfg.Estimator, "covariance-estimator", cfg.Estimator,
		"covariance `divisor`: mle (n, or n_k for qda) or unbiased (n − K for lda, n_k − 1 for qda, as scikit-learn)")
	fs.Var((*shrinkageFlag)(cfg), "shrinkage",
		"shrink covariances: a fixed `r` in [0, 1], (1 − r)Σ + r·(tr Σ/p)·I, or auto (Ledoit–Wolf, towards the diagonal)")
	prior := priorFlags(fs)
	fs.Var(AtLeast(&cfg.MaxIter, 0), "em-max-iter", "at most `n` EM iterations when training rows have missing cells")
	tol := NonNegative(gda.DefaultTol)
	fs.Var(&tol, "em-tol", "stop EM when no mean or covariance moves by more than `t` standard deviations")
	return func() gda.Config {
		c := *cfg
		c.PriorAlpha, c.ClassPrior, c.Tol = float64(prior.alpha), prior.fixed, float64(tol)
		return c
	}
}

// shrinkageFlag sets Shrinkage or ShrinkageAuto of a gda.Config.
type shrinkageFlag gda.Config

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
