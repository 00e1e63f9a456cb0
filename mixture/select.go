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
// smallest BIC, the first on ties, with the figures of every K, which the
// model keeps too (GMM.Candidates). It returns
// an error when 1 ≤ kmin ≤ kmax does not hold, when kmin exceeds the
// number of rows, or for the first fit that fails; K beyond the number of
// rows is not tried.
func SelectK(d *data.Dataset, rng *rand.Rand, cfg Config, kmin, kmax int) (*GMM, []Candidate, error) {
	if kmin < 1 || kmax < kmin {
		return nil, nil, fmt.Errorf("mixture: components %d-%d: need 1 ≤ min ≤ max", kmin, kmax)
	}
	if kmin > d.N {
		return nil, nil, fmt.Errorf("mixture: %d components for %d rows of %s", kmin, d.N, source(d))
	}
	var best *GMM
	var cands []Candidate
	for k := kmin; k <= min(kmax, d.N); k++ {
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
	return best, slices.Clone(cands), nil
}
