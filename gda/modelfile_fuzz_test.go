package gda

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/testsupport/modelfuzz"
)

// The fuzz tests of the model files of LDA and QDA (package modelfuzz):
// the files of models of iris, changed by the fuzzer, either are refused
// with one line or give models that predict finite probabilities. Under
// go test they run over their seeds; longer, one at a time:
//
//	go test -run '^$' -fuzz FuzzLDAFile -fuzztime 60s ./gda
//	go test -run '^$' -fuzz FuzzQDAFile -fuzztime 60s ./gda

func FuzzLDAFile(f *testing.F) {
	iris := modelfuzz.Bundled(f, "iris", dataio.Options{})
	m, err := LDAConfig{}.Fit(iris)
	if err != nil {
		f.Fatal(err)
	}
	modelfuzz.Run(f, modelfuzz.Target{Model: m, Rows: modelfuzz.Rows(iris, 6, true), Calls: callsGDA})
}

func FuzzQDAFile(f *testing.F) {
	iris := modelfuzz.Bundled(f, "iris", dataio.Options{})
	m, err := QDAConfig{ShrinkageAuto: true}.Fit(iris)
	if err != nil {
		f.Fatal(err)
	}
	modelfuzz.Run(f, modelfuzz.Target{Model: m, Rows: modelfuzz.Rows(iris, 6, true), Calls: callsGDA})
}

// callsGDA makes the calls of inspect, sample, impute and transform on
// an LDA or QDA model, and checks that their numbers are finite.
func callsGDA(t *testing.T, m gendisc.Model, rows *data.Dataset) {
	finite := func(what string, x []float64) {
		t.Helper()
		for i, v := range x {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%s[%d] = %v", what, i, v)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	switch m := m.(type) {
	case *LDA:
		finite("priors", m.Priors())
		finite("covariance", m.Covariance())
		w, b := m.Linear()
		finite("linear weights", append(w, b...))
		finite("scalings", m.Scalings())
		finite("explained variance ratio", m.ExplainedVarianceRatio())
		finite("transform", m.Transform(nil, rows, m.Components()))
		finite("impute", m.Impute(nil, rows))
		x, _ := m.Sample(nil, rng)
		finite("sample", x)
	case *QDA:
		finite("priors", m.Priors())
		finite("log-determinants", m.LogDets())
		for _, c := range m.Covariances() {
			finite("covariance", c)
		}
		finite("impute", m.Impute(nil, rows))
		x, _ := m.Sample(nil, rng)
		finite("sample", x)
	}
}
