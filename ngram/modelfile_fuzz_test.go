package ngram

import (
	"encoding/json"
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

// TestUnmarshalOutOfDomain checks the refusals of counts whose sums
// overflow and of a smoothing that overflows, which gave NaN
// probabilities.
func TestUnmarshalOutOfDomain(t *testing.T) {
	d := docs([]string{"a b a", "b c"}, []string{"x", "y"})
	m, err := Config{Order: 2, Smoothing: Lidstone}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	params, _ := m.MarshalJSON()
	var p map[string]any
	if err := json.Unmarshal(params, &p); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		edit func()
		want string
	}{
		{func() { p["counts"].([]any)[0].([]any)[1] = 1 << 62 }, "counts[0][1]: 4611686018427387904: want a count ≥ 1, the counts of a class summing to at most 2^53"},
		{func() { p["docs"].([]any)[1] = -1 }, "docs[1]: -1 is outside [0, 2^53]"},
		{func() { p["alpha"] = 1e308 }, "ngram: invalid configuration: alpha 1e+308, want a positive number up to 1e+100"},
	} {
		json.Unmarshal(params, &p)
		tc.edit()
		b, _ := json.Marshal(p)
		_, err := UnmarshalModel(d.Schema, b)
		if want := "ngram: model parameters: " + tc.want; err == nil || err.Error() != want {
			t.Errorf("error %v, want %s", err, want)
		}
	}
}
