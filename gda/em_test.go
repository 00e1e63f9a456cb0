package gda

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/stats"
)

// removeCells returns a copy of d with each cell missing with probability
// frac.
func removeCells(d *data.Dataset, frac float64, rng *rand.Rand) *data.Dataset {
	m := d.Subset(seq(0, d.N))
	for i := range m.X {
		if rng.Float64() < frac {
			m.X[i] = math.NaN()
		}
	}
	return m
}

func frobenius(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i])
	}
	return math.Sqrt(s)
}

// completeCase returns the MLE class means and covariances (pooled for
// LDA) of the complete rows of d.
func completeCase(d *data.Dataset, kind string) (means [][]float64, covs [][]float64) {
	s := stats.NewClasses(len(d.Schema.Classes()), d.D(), false)
	s.Add(d.X, d.Y, d.Weight)
	for _, c := range s.Class {
		means = append(means, c.Mean)
	}
	return means, covariances(kind, Config{}, s)
}

// TestEMBeatsCompleteCase removes 10% of the cells of breast_cancer_wdbc
// at random: the EM estimates must be closer to the full-data estimates
// than the complete-case estimates are, for every class mean (Euclidean
// norm) and covariance matrix (Frobenius norm).
func TestEMBeatsCompleteCase(t *testing.T) {
	full := bundled.Load(t, "breast_cancer_wdbc", dataio.Options{})
	for seed := range uint64(2) {
		miss := removeCells(full, 0.1, rand.New(rand.NewPCG(seed, 10)))
		for _, kind := range []string{KindLDA, KindQDA} {
			var (
				em, ref interface {
					Means() [][]float64
				}
				emCovs, refCovs [][]float64
				iters           int
			)
			if kind == KindLDA {
				a, err := LDAConfig{}.Fit(miss)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := LDAConfig{}.Fit(full)
				em, ref, emCovs, refCovs, iters = a, b, [][]float64{a.Covariance()}, [][]float64{b.Covariance()}, a.EMIterations()
			} else {
				a, err := QDAConfig{}.Fit(miss)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := QDAConfig{}.Fit(full)
				em, ref, emCovs, refCovs, iters = a, b, a.Covariances(), b.Covariances(), a.EMIterations()
			}
			if iters < 2 || iters >= DefaultMaxIter {
				t.Errorf("%s: %d EM iterations", kind, iters)
			}
			ccMeans, ccCovs := completeCase(miss, kind)
			for k, mu := range ref.Means() {
				dEM, dCC := frobenius(em.Means()[k], mu), frobenius(ccMeans[k], mu)
				t.Logf("seed %d %s class %d: ‖μ_EM − μ‖ = %.4g, ‖μ_CC − μ‖ = %.4g", seed, kind, k, dEM, dCC)
				if !(dEM < dCC) {
					t.Errorf("seed %d %s class %d: EM mean error %.4g not below complete-case %.4g", seed, kind, k, dEM, dCC)
				}
			}
			for c, cov := range refCovs {
				dEM, dCC := frobenius(emCovs[c], cov), frobenius(ccCovs[c], cov)
				t.Logf("seed %d %s covariance %d: ‖Σ_EM − Σ‖_F = %.4g, ‖Σ_CC − Σ‖_F = %.4g", seed, kind, c, dEM, dCC)
				if !(dEM < dCC) {
					t.Errorf("seed %d %s covariance %d: EM error %.4g not below complete-case %.4g", seed, kind, c, dEM, dCC)
				}
			}
		}
	}
}

// TestEMIterations: EM runs, and stops before its limit, when cells are
// missing, and does not run on complete data.
func TestEMIterations(t *testing.T) {
	full := bundled.Load(t, "iris", dataio.Options{})
	m, err := LDAConfig{Tol: 1e-13, MaxIter: 1000}.Fit(removeCells(full, 0.05, rand.New(rand.NewPCG(1, 1))))
	if err != nil {
		t.Fatal(err)
	}
	if m.EMIterations() == 0 || m.EMIterations() >= 1000 {
		t.Fatalf("%d EM iterations", m.EMIterations())
	}
	c, err := LDAConfig{}.Fit(full)
	if err != nil {
		t.Fatal(err)
	}
	if c.EMIterations() != 0 {
		t.Errorf("EM ran on complete data: %d iterations", c.EMIterations())
	}
}
