package mixture

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// TestFitCores checks that a fit's results do not depend on the number of
// cores: the chunks of a pass (engine.chunked) and the merge of their
// statistics are the same whatever the cores, so that a fit on one core
// and on three gives the same bits, with complete rows (full
// covariances, the solves and the gathered M-step columns) and with 5%
// of the cells missing (diagonal covariances, the imputed blocks), over
// more rows than maxChunks chunks of minParallelRows hold.
func TestFitCores(t *testing.T) {
	for _, c := range []struct {
		name string
		cov  Covariance
		miss float64
	}{{"full", Full, 0}, {"diag missing", Diag, 0.05}} {
		d, start := benchData(maxChunks*minParallelRows+777, 5, 3, 2)
		rng := rand.New(rand.NewPCG(3, 4))
		for i := range d.X {
			if rng.Float64() < c.miss {
				d.X[i] = math.NaN()
			}
		}
		if c.cov == Diag {
			start.Covariances = nil
			for range 3 * 5 {
				start.Covariances = append(start.Covariances, 1)
			}
		}
		cfg := Config{Components: 3, Covariance: c.cov, Tol: -1, MaxIter: 5, Start: start}
		var fits []*GMM
		for _, procs := range []int{1, 2, 3} {
			old := runtime.GOMAXPROCS(procs)
			g, err := cfg.Fit(d, rand.New(rand.NewPCG(1, 1)))
			runtime.GOMAXPROCS(old)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			fits = append(fits, g)
		}
		for i, g := range fits[1:] {
			if !slices.Equal(g.LogLikelihoodTrace(), fits[0].LogLikelihoodTrace()) || !slices.Equal(g.Means(), fits[0].Means()) ||
				!slices.Equal(g.Covariances(), fits[0].Covariances()) || !slices.Equal(g.Weights(), fits[0].Weights()) {
				t.Errorf("%s: the fit on %d cores differs from the fit on one", c.name, i+2)
			}
		}
	}
}
