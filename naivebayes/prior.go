package naivebayes

import (
	"fmt"
	"maps"

	"github.com/gendisc/gendisc/internal/classprior"
)

// classPrior holds the class-prior settings every variant's
// configuration shares (PriorAlpha and ClassPrior), validated by
// classprior.Check.
type classPrior struct {
	alpha float64
	fixed map[string]float64 // nil: estimated from the class weights
}

// newClassPrior validates the prior settings of a configuration.
func newClassPrior(alpha float64, fixed map[string]float64) (classPrior, error) {
	if err := classprior.Check(alpha, fixed); err != nil {
		return classPrior{}, fmt.Errorf("naivebayes: %w", err)
	}
	return classPrior{alpha: alpha, fixed: maps.Clone(fixed)}, nil
}

// priors returns π_k for the classes with total weights w
// (classprior.Estimate gives the formulas).
func (p classPrior) priors(classes []string, w []float64) ([]float64, error) {
	pi, err := classprior.Estimate(p.alpha, p.fixed, classes, w)
	if err != nil {
		return nil, fmt.Errorf("naivebayes: %w", err)
	}
	return pi, nil
}
