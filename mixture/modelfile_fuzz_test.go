package mixture

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/testsupport/modelfuzz"
)

// The fuzz tests of the model files of GMM and MDA (package modelfuzz):
// the files of models of iris, changed by the fuzzer, either are refused
// with one line or give models whose densities and probabilities are
// finite. Under go test they run over their seeds; longer, one at a time:
//
//	go test -run '^$' -fuzz FuzzGMMFile -fuzztime 60s ./mixture
//	go test -run '^$' -fuzz FuzzMDAFile -fuzztime 60s ./mixture

func FuzzGMMFile(f *testing.F) {
	iris := modelfuzz.Bundled(f, "iris", dataio.Options{})
	features := iris.Schema.Clone()
	features.Target = nil
	x := &data.Dataset{Schema: features, N: iris.N, X: iris.X}
	m, err := Config{Components: 2}.Fit(x, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		f.Fatal(err)
	}
	modelfuzz.Run(f, modelfuzz.Target{Model: m, Rows: modelfuzz.Rows(x, 6, true), Calls: callsMixture})
}

func FuzzMDAFile(f *testing.F) {
	iris := modelfuzz.Bundled(f, "iris", dataio.Options{})
	m, err := MDAConfig{ComponentsPerClass: 2, Mixture: Config{Covariance: Diag}}.Fit(iris, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		f.Fatal(err)
	}
	modelfuzz.Run(f, modelfuzz.Target{Model: m, Rows: modelfuzz.Rows(iris, 6, true), Calls: callsMixture})
}

// callsMixture makes the calls of score, predict, sample and impute on a
// GMM or an MDA model, and checks their numbers.
func callsMixture(t *testing.T, m gendisc.Model, rows *data.Dataset) {
	check := func(what string, x []float64, inf bool) {
		t.Helper()
		for i, v := range x {
			if math.IsNaN(v) || math.IsInf(v, 1) || !inf && math.IsInf(v, -1) {
				t.Fatalf("%s[%d] = %v", what, i, v)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	switch m := m.(type) {
	case *GMM:
		check("scores", m.ScoreSamples(nil, rows), true)
		check("BIC", []float64{m.BIC(), m.AIC()}, false)
		x, _ := m.Sample(nil, rng)
		check("sample", x, false)
		check("impute", m.Impute(nil, rows), false)
	case *MDA:
		check("priors", m.Priors(), false)
		x, _ := m.Sample(nil, rng)
		check("sample", x, false)
		check("impute", m.Impute(nil, rows), false)
	}
}

// TestFitTooLarge checks that a fit of data whose squares overflow
// float64 says so, naming the feature, where k-means++ indexed its
// candidates with -1 and panicked (every squared distance +Inf), and that
// data just within the bound fits.
func TestFitTooLarge(t *testing.T) {
	for _, tc := range []struct {
		scale float64
		err   string
	}{
		{1e155, `feature "x0": 1e+155 is too large for float64 variances (beyond ±1e+153); rescale the column`},
		{1e152, ""},
	} {
		x := []float64{1, 2, 3, 1, 2, 4, 7, 8, 9, 8, 7, 6, 3, 5, 2, 9, 8, 1}
		for i := range x {
			x[i] *= tc.scale
		}
		d := &data.Dataset{Schema: &data.Schema{Features: []data.Column{{Name: "x0", Kind: data.Numeric}, {Name: "x1", Kind: data.Numeric}}},
			N: len(x) / 2, X: x}
		_, err := Config{Components: 2}.Fit(d, rand.New(rand.NewPCG(1, 2)))
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("data of scale %g: error %v, want %q", tc.scale, err, tc.err)
		}
	}
}
