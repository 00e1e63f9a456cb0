package naivebayes

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gendisc/gendisc/data"
)

// syntheticText is the benchmark corpus of the issue: 200,000 documents of
// about 100 tokens drawn from a Zipf law over a vocabulary of 50,000
// words, in 4 classes, each class favouring its own shift of the words.
var syntheticText = sync.OnceValue(func() *data.Dataset {
	const docs, vocab, tokens, classes = 200_000, 50_000, 100, 4
	rng := rand.New(rand.NewPCG(1, 2))
	zipf := rand.NewZipf(rng, 1.1, 1, vocab-1)
	text := make([]string, docs)
	y := make([]float64, docs)
	var b strings.Builder
	for i := range text {
		c := i % classes
		b.Reset()
		for range tokens {
			w := (zipf.Uint64() + uint64(c*97)) % vocab
			b.WriteString("w")
			b.WriteString(strconv.FormatUint(w, 36))
			b.WriteByte(' ')
		}
		text[i], y[i] = b.String(), float64(c)
	}
	s := &data.Schema{Features: []data.Column{{Name: "text", Kind: data.Text}},
		Target: &data.Column{Name: "class", Kind: data.Categorical, Levels: []string{"a", "b", "c", "d"}}}
	x := make([]float64, docs)
	for i := range x {
		x[i] = nan
	}
	return &data.Dataset{Schema: s, N: docs, X: x, Text: [][]string{text}, Y: y, Source: data.Named("synthetic")}
})

var nan = func() float64 { var z float64; return z / z }()

// BenchmarkMultinomialTextFit fits multinomial naive Bayes from the raw
// documents: tokenizing, counting and the class statistics.
func BenchmarkMultinomialTextFit(b *testing.B) {
	d := syntheticText()
	b.ResetTimer()
	for b.Loop() {
		if _, err := (Config{Family: Multinomial}).Fit(d); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMultinomialTextPredict computes the class probabilities of the
// raw documents: tokenizing against the vocabulary and the sparse
// products.
func BenchmarkMultinomialTextPredict(b *testing.B) {
	d := syntheticText()
	m, err := Config{Family: Multinomial}.Fit(d)
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]float64, d.N*4)
	b.ResetTimer()
	for b.Loop() {
		m.LogProba(dst, d)
	}
}
