package mixture

import (
	"encoding/json"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"testing"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden_missing.json from the current code")

// goldenFile holds what the fits, densities, imputations and seeded draws
// with missing cells gave when the Gaussian algebra of missing cells moved
// to package gauss; the code must keep giving them (1e-12 relative).
const goldenFile = "testdata/golden_missing.json"

// missingCases fits mixtures of every covariance type and MDA on iris
// (standardized) with 20% of its cells missing and computes the values
// TestGoldenMissing compares.
func missingCases(t *testing.T) map[string][]float64 {
	full := standardized(loadDataset(t, "iris"))
	miss := withMissing(full, 0.2, rand.New(rand.NewPCG(21, 2)))
	nolabel := *miss
	nolabel.Y = nil
	out := map[string][]float64{}
	for _, cov := range []Covariance{Full, Diag, Spherical, Tied, Identity} {
		name := cov.String()
		g, err := Config{Components: 3, Covariance: cov, Tol: -1, MaxIter: 25}.Fit(miss, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			t.Fatal(err)
		}
		p := g.Params()
		out[name+" trace"] = g.LogLikelihoodTrace()
		out[name+" params"] = append(append(append([]float64(nil), p.Weights...), p.Means...), p.Covariances...)
		out[name+" score"] = g.ScoreSamples(nil, miss)
		out[name+" predict"] = g.Predict(nil, miss)
		out[name+" impute"] = g.Impute(nil, miss)
		out[name+" imputerand"] = g.ImputeRand(nil, miss, rand.New(rand.NewPCG(5, 6)))
		rng := rand.New(rand.NewPCG(7, 8))
		var draws []float64
		for range 20 {
			x, k := g.Sample(nil, rng)
			draws = append(append(draws, x...), float64(k))
		}
		out[name+" samples"] = draws
	}
	m, err := MDAConfig{ComponentsPerClass: 2, Mixture: Config{Tol: -1, MaxIter: 20}}.Fit(miss, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	out["mda logproba"] = m.LogProba(nil, miss)
	out["mda impute"] = m.Impute(nil, miss)
	out["mda impute unlabelled"] = m.Impute(nil, &nolabel)
	out["mda imputerand"] = m.ImputeRand(nil, miss, rand.New(rand.NewPCG(5, 6)))
	out["mda imputerand unlabelled"] = m.ImputeRand(nil, &nolabel, rand.New(rand.NewPCG(7, 8)))
	rng := rand.New(rand.NewPCG(9, 10))
	var draws []float64
	for range 20 {
		x, c := m.Sample(nil, rng)
		draws = append(append(draws, x...), float64(c))
		draws = append(draws, m.SampleClass(nil, c, rng)...)
	}
	out["mda samples"] = draws
	return out
}

// TestGoldenMissing compares the fits by EM (log-likelihood traces and
// parameters), densities, imputations and seeded draws with missing cells
// to the values in goldenFile, 1e-12 relative to the largest magnitude of
// each quantity; infinities must match exactly.
func TestGoldenMissing(t *testing.T) {
	got := missingCases(t)
	if *updateGolden {
		b, err := json.MarshalIndent(got, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenFile, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	var want map[string][]float64
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d quantities, want %d", len(got), len(want))
	}
	for name, w := range want {
		g := got[name]
		if len(g) != len(w) {
			t.Fatalf("%s: %d values, want %d", name, len(g), len(w))
		}
		scale := 0.0
		for _, v := range w {
			if !math.IsInf(v, 0) {
				scale = max(scale, math.Abs(v))
			}
		}
		for i := range w {
			if math.IsInf(w[i], 0) || math.IsInf(g[i], 0) {
				if g[i] != w[i] {
					t.Fatalf("%s[%d] = %v, want %v", name, i, g[i], w[i])
				}
				continue
			}
			if !(math.Abs(g[i]-w[i]) <= 1e-12*scale) {
				t.Fatalf("%s[%d] = %.17g, want %.17g (relative difference %.3g)", name, i, g[i], w[i], (g[i]-w[i])/scale)
			}
		}
	}
}
