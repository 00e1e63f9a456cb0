package gda

import (
	"encoding/json"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden_missing.json from the current code")

// goldenFile holds what the fits, predictions, imputations and seeded
// draws with missing cells gave when the Gaussian algebra of missing cells
// moved to package gauss; the code must keep giving them (1e-12 relative).
const goldenFile = "testdata/golden_missing.json"

// missingCases computes, for LDA and QDA fitted by EM on wine with 15% of
// its cells missing, the values TestGoldenMissing compares.
func missingCases(t *testing.T) map[string][]float64 {
	full := bundled.Load(t, "wine", dataio.Options{})
	miss := removeCells(full, 0.15, rand.New(rand.NewPCG(12, 3)))
	nolabel := miss.Subset(seq(0, miss.N))
	nolabel.Y = nil
	out := map[string][]float64{}
	type model interface {
		Means() [][]float64
		EMIterations() int
		LogProba([]float64, *data.Dataset) []float64
		Impute([]float64, *data.Dataset) []float64
		ImputeRand([]float64, *data.Dataset, *rand.Rand) []float64
		Sample([]float64, *rand.Rand) ([]float64, int)
		SampleClass([]float64, int, *rand.Rand) []float64
	}
	lda, err := LDAConfig{}.Fit(miss)
	if err != nil {
		t.Fatal(err)
	}
	qda, err := QDAConfig{}.Fit(miss)
	if err != nil {
		t.Fatal(err)
	}
	for name, m := range map[string]model{"lda": lda, "qda": qda} {
		out[name+" iterations"] = []float64{float64(m.EMIterations())}
		out[name+" means"] = flatten(m.Means())
		out[name+" logproba"] = m.LogProba(nil, miss)
		out[name+" logproba complete"] = m.LogProba(nil, full)
		out[name+" impute"] = m.Impute(nil, miss)
		out[name+" impute unlabelled"] = m.Impute(nil, nolabel)
		out[name+" imputerand"] = m.ImputeRand(nil, miss, rand.New(rand.NewPCG(5, 6)))
		out[name+" imputerand unlabelled"] = m.ImputeRand(nil, nolabel, rand.New(rand.NewPCG(7, 8)))
		rng := rand.New(rand.NewPCG(9, 10))
		var draws []float64
		for range 20 {
			x, c := m.Sample(nil, rng)
			draws = append(append(draws, x...), float64(c))
			draws = append(draws, m.SampleClass(nil, c, rng)...)
		}
		out[name+" samples"] = draws
	}
	out["lda covariance"] = lda.Covariance()
	out["qda covariances"] = flatten(qda.Covariances())
	out["qda logdets"] = qda.LogDets()
	return out
}

// TestGoldenMissing compares the fits by EM, predictions, imputations and
// seeded draws with missing cells to the values in goldenFile, 1e-12
// relative to the largest magnitude of each quantity.
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
		// -Inf (impossible classes) must match exactly.
		fin, gfin := w[:0:0], g[:0:0]
		for i := range w {
			if math.IsInf(w[i], 0) || math.IsInf(g[i], 0) {
				if g[i] != w[i] {
					t.Fatalf("%s[%d] = %v, want %v", name, i, g[i], w[i])
				}
				continue
			}
			fin, gfin = append(fin, w[i]), append(gfin, g[i])
		}
		nearRel(t, name, gfin, fin, 1e-12)
	}
}
