package mixture

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/gendisc/gendisc/data"
)

// Candidate is the fit of one number of components in SelectK.
type Candidate struct {
	K      int     `json:"k"`
	BIC    float64 `json:"bic"`
	AIC    float64 `json:"aic"`
	LogLik float64 `json:"log_likelihood"` // the training log-likelihood of the final parameters
}

// SelectK fits cfg with every number of components K from kmin to kmax
// (with the same rng, in increasing K) and returns the model of the
// smallest BIC, the first on ties, with the figures of every K tried,
// which the model keeps too (GMM.Candidates). A K above kmin is tried only
// when the rows are at least as many as its parameters (GMM.NumParams),
// that is, when each component has on average at least as many rows as
// parameters: a mixture with fewer fits the rows themselves and BIC, an
// asymptotic criterion, cannot be trusted to refuse it. The model's
// Warnings then say where the range was cut, and why; kmin itself, asked
// for, is always fitted. It returns an error when 1 ≤ kmin ≤ kmax does not hold, when kmin exceeds
// the number of rows, or for the first fit that fails.
func SelectK(d *data.Dataset, rng *rand.Rand, cfg Config, kmin, kmax int) (*GMM, []Candidate, error) {
	if kmin < 1 || kmax < kmin {
		return nil, nil, fmt.Errorf("mixture: components %d-%d: need 1 ≤ min ≤ max", kmin, kmax)
	}
	if kmin > d.N {
		return nil, nil, fmt.Errorf("mixture: %d components for %d rows of %s", kmin, d.N, source(d))
	}
	var notes []string
	D := d.D()
	khi := kmin
	for khi < kmax && cfg.Covariance.numParams(khi+1, D) <= d.N {
		khi++
	}
	if khi < kmax {
		notes = append(notes, fmt.Sprintf("components %d-%d cut at K = %d: K = %d has %d parameters for %d rows (fewer rows per component than parameters)",
			kmin, kmax, khi, khi+1, cfg.Covariance.numParams(khi+1, D), d.N))
	}
	var best *GMM
	var cands []Candidate
	for k := kmin; k <= khi; k++ {
		cfg.Components = k
		g, err := cfg.Fit(d, rng)
		if err != nil {
			return nil, nil, err
		}
		cands = append(cands, Candidate{K: k, BIC: g.BIC(), AIC: g.AIC(), LogLik: g.LogLikelihood()})
		if best == nil || g.BIC() < best.BIC() {
			best = g
		}
	}
	best.info.candidates = cands
	best.info.warnings = append(notes, best.info.warnings...)
	return best, slices.Clone(cands), nil
}
