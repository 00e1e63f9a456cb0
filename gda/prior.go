package gda

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
)

// classPrior holds the class-prior settings of Config
// (PriorAlpha and ClassPrior), validated. It follows naivebayes.
type classPrior struct {
	alpha float64
	fixed map[string]float64 // nil: estimated from the class weights
}

// newClassPrior validates the prior settings of a configuration.
func newClassPrior(alpha float64, fixed map[string]float64) (classPrior, error) {
	if !(alpha >= 0) || math.IsInf(alpha, 1) {
		return classPrior{}, fmt.Errorf("gda: prior alpha %v: want a finite number ≥ 0", alpha)
	}
	if fixed == nil {
		return classPrior{alpha: alpha}, nil
	}
	if alpha != 0 {
		return classPrior{}, errors.New("gda: a fixed class prior and a prior alpha exclude each other")
	}
	if len(fixed) == 0 {
		return classPrior{}, errors.New("gda: the fixed class prior is empty")
	}
	sum := 0.0
	for _, c := range slices.Sorted(maps.Keys(fixed)) {
		p := fixed[c]
		if !(p > 0) || math.IsInf(p, 1) {
			return classPrior{}, fmt.Errorf("gda: class prior of %q is %v: want a positive probability", c, p)
		}
		sum += p
	}
	if math.Abs(sum-1) > 1e-9 {
		return classPrior{}, fmt.Errorf("gda: the class priors sum to %v, not 1", sum)
	}
	return classPrior{fixed: maps.Clone(fixed)}, nil
}

// priors returns π_k for the classes with total weights w_k
// (W = Σ_k w_k, K = len(classes)):
//
//	π_k = w_k / W                  maximum likelihood (alpha = 0)
//	π_k = (w_k + α) / (W + α·K)    with a Dirichlet(α + 1) prior: the MAP estimate
//	π_k = p_k / Σ_l p_l            fixed priors p_k, normalised
//
// A class of weight 0 under maximum likelihood has prior 0. Fixed
// priors must name every class and nothing else.
func (p classPrior) priors(classes []string, w []float64) ([]float64, error) {
	pi := make([]float64, len(classes))
	if p.fixed != nil {
		for c := range p.fixed {
			if !slices.Contains(classes, c) {
				return nil, fmt.Errorf("gda: class prior for %q, which is not a class (classes: %q)", c, classes)
			}
		}
		for k, c := range classes {
			v, ok := p.fixed[c]
			if !ok {
				return nil, fmt.Errorf("gda: the fixed class prior lacks class %q", c)
			}
			pi[k] = v
		}
	} else {
		for k := range pi {
			pi[k] = w[k] + p.alpha
		}
	}
	sum := 0.0
	for _, v := range pi {
		sum += v
	}
	for k, v := range pi {
		pi[k] = v / sum
	}
	return pi, nil
}
