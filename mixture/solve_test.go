package mixture

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gendisc/gendisc/gauss"
	"github.com/gendisc/gendisc/internal/kernel"
	"github.com/gendisc/gendisc/internal/mathx"
)

// TestScoreSamplesRowByRow checks the E-step's densities, with the solve
// kernel in use and the portable one forced, against each row's density
// computed on its own, log Σ_k π_k N(x; μ_k, Σ_k) by gauss.Cov.LogPdf, to
// 1e-12 relative: every covariance type, on sonar (60 features: 15 blocks
// of four, lanes in blocks of 32 with a partial last one) and wine
// (13 features: a last feature alone), mixtures of three components.
func TestScoreSamplesRowByRow(t *testing.T) {
	inUse := kernel.SolveLanes
	defer func() { kernel.SolveLanes = inUse }()
	for _, name := range []string{"sonar", "wine"} {
		d := standardized(loadDataset(t, name))
		D := d.D()
		for _, cov := range allCovariances {
			g, err := Config{Components: 3, Covariance: cov, Tol: -1, MaxIter: 5}.Fit(d, rand.New(rand.NewPCG(3, 4)))
			if err != nil {
				t.Fatal(err)
			}
			w, mu, sigma := g.Weights(), g.Means(), g.Covariances()
			covs := make([]*gauss.Cov, len(w))
			for k := range covs {
				if covs[k], err = gauss.New(sigma[k*D*D:(k+1)*D*D], D, 0); err != nil {
					t.Fatal(err)
				}
			}
			work, terms := make([]float64, D), make([]float64, len(w))
			for _, solve := range []func(*kernel.Tri, []float64, []float64, []float64, int, []float64, int){inUse, kernel.SolveLanesGo} {
				kernel.SolveLanes = solve
				ll := g.ScoreSamples(nil, d)
				for i, got := range ll {
					x := d.X[i*D : (i+1)*D]
					for k := range terms {
						terms[k] = math.Log(w[k]) + covs[k].LogPdf(x, mu[k*D:(k+1)*D], work)
					}
					if want := mathx.LogSumExp(terms); math.Abs(got-want) > 1e-12*max(1, math.Abs(want)) {
						t.Fatalf("%s %v: row %d: %v, want %v", name, cov, i, got, want)
					}
				}
			}
		}
	}
}
