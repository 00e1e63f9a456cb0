package ngram

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/testsupport/modelfuzz"
)

// FuzzNgramFile is the fuzz test of n-gram model files (package
// modelfuzz): the file of a small model of two classes, changed by the
// fuzzer, is either refused with one line or gives a model whose
// probabilities are finite. Under go test it runs over its seeds; longer:
//
//	go test -run '^$' -fuzz FuzzNgramFile -fuzztime 60s ./ngram
func FuzzNgramFile(f *testing.F) {
	d := docs([]string{"the cat sat on the mat", "the dog ate the bone", "a cat and a dog", "buy cheap pills now", "cheap prizes now", "win a prize now"},
		[]string{"pets", "pets", "pets", "spam", "spam", "spam"})
	m, err := Config{Order: 3}.Fit(d)
	if err != nil {
		f.Fatal(err)
	}
	modelfuzz.Run(f, modelfuzz.Target{Model: m, Rows: d, Calls: func(t *testing.T, gm gendisc.Model, rows *data.Dataset) {
		m := gm.(*Model)
		for _, s := range m.ScoreSamples(nil, rows) {
			if math.IsNaN(s) || math.IsInf(s, 1) {
				t.Fatalf("score %v", s)
			}
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for k := range m.Classes() {
			if p := m.Prob(k, []string{"the"}, "cat"); !(p >= 0 && p <= 1) {
				t.Fatalf("P(cat | the) = %v", p)
			}
			next := m.Next(nil, k, []string{"the"})
			sum := 0.0
			for _, p := range next {
				sum += p
			}
			if math.Abs(sum-1) > modelfuzz.SumTol {
				t.Fatalf("the next word's probabilities sum to %v", sum)
			}
			m.Sample(k, "the", 5, 1, rng)
			m.Stats(k)
			m.FrequentContexts(k, 3)
		}
	}})
}
