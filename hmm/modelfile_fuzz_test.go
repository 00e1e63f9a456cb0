package hmm

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/testsupport/modelfuzz"
)

// FuzzHMMFile is the fuzz test of HMM model files (package modelfuzz):
// the file of a small model, changed by the fuzzer, is either refused
// with one line or gives a model that tags, scores, gives marginals and
// samples without a panic or a NaN. Under go test it runs over its
// seeds; longer:
//
//	go test -run '^$' -fuzz FuzzHMMFile -fuzztime 60s ./hmm
func FuzzHMMFile(f *testing.F) {
	m, err := Config{}.Fit(toy)
	if err != nil {
		f.Fatal(err)
	}
	rows := &data.Dataset{Schema: m.Schema(), N: 2, Text: [][]string{{"the dog barks", "Zorro sleeps quietly"}}}
	modelfuzz.Run(f, modelfuzz.Target{Model: m, Rows: rows, Calls: func(t *testing.T, gm gendisc.Model, rows *data.Dataset) {
		m := gm.(*Model)
		for _, tokens := range [][]string{{"the", "dog", "barks"}, {"Zorro", "sleeps", "quietly", "."}} {
			if tags := m.Tag(tokens); len(tags) != len(tokens) {
				t.Fatalf("tags %q", tags)
			}
			if lp := m.LogProb(tokens); math.IsNaN(lp) || lp > 0 {
				t.Fatalf("log p %v", lp)
			}
			for _, row := range m.Marginals(tokens) {
				sum := 0.0
				for _, p := range row {
					sum += p
				}
				if math.Abs(sum-1) > 1e-9 {
					t.Fatalf("marginals sum to %v", sum)
				}
			}
		}
		if _, err := m.Sample(rand.New(rand.NewPCG(1, 2)), Prompt{Tags: m.Tags()[:1]}, 20); err != nil {
			t.Fatal(err)
		}
	}})
}
