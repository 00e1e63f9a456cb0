package classprior

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
)

// MaxAlpha bounds the pseudo-count of the class prior: the sums W + α·K of
// a larger one overflow float64.
const MaxAlpha = 1e100

// Check validates a class-prior setting: the pseudo-count alpha must be
// in [0, MaxAlpha]; fixed priors, when not nil, exclude alpha (which must be
// 0), must not be empty, must be positive and finite, and must sum to 1
// within 1e-9. Classes are checked in sorted order, so the error is the
// same from run to run.
func Check(alpha float64, fixed map[string]float64) error {
	if !(alpha >= 0 && alpha <= MaxAlpha) {
		return fmt.Errorf("prior alpha %v: want a number in [0, %g]", alpha, MaxAlpha)
	}
	if fixed == nil {
		return nil
	}
	if alpha != 0 {
		return errors.New("a fixed class prior and a prior alpha exclude each other")
	}
	if len(fixed) == 0 {
		return errors.New("the fixed class prior is empty")
	}
	sum := 0.0
	for _, c := range slices.Sorted(maps.Keys(fixed)) {
		p := fixed[c]
		if !(p > 0) || math.IsInf(p, 1) {
			return fmt.Errorf("class prior of %q is %v: want a positive probability", c, p)
		}
		sum += p
	}
	if math.Abs(sum-1) > 1e-9 {
		return fmt.Errorf("the class priors sum to %v, not 1", sum)
	}
	return nil
}

// Estimate returns π_k for the classes with total weights w_k
// (W = Σ_k w_k, K = len(classes)) under a setting that Check accepts:
//
//	π_k = w_k / W                  maximum likelihood (fixed nil, alpha = 0)
//	π_k = (w_k + α) / (W + α·K)    fixed nil, alpha = α > 0
//	π_k = p_k / Σ_l p_l            fixed priors p_k = fixed[classes[k]]
//
// A class of weight 0 under maximum likelihood has prior 0. Fixed priors
// must name every class and nothing else; otherwise Estimate returns an
// error. w is read only when fixed is nil, and then has len(classes)
// entries.
func Estimate(alpha float64, fixed map[string]float64, classes []string, w []float64) ([]float64, error) {
	pi := make([]float64, len(classes))
	if fixed != nil {
		for c := range fixed {
			if !slices.Contains(classes, c) {
				return nil, fmt.Errorf("class prior for %q, which is not a class (classes: %q)", c, classes)
			}
		}
		for k, c := range classes {
			v, ok := fixed[c]
			if !ok {
				return nil, fmt.Errorf("the fixed class prior lacks class %q", c)
			}
			pi[k] = v
		}
	} else {
		for k := range pi {
			pi[k] = w[k] + alpha
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
