package ngram_test

import (
	"fmt"
	"math"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/ngram"
)

// A bigram model with Kneser–Ney smoothing of three short documents: the
// probability of a word after another, and the perplexity of a sentence.
func Example() {
	texts := []string{"the cat sat on the mat", "the dog sat on the log", "the cat ate"}
	s := &data.Schema{Features: []data.Column{{Name: "text", Kind: data.Text}}}
	d := &data.Dataset{Schema: s, N: len(texts), X: []float64{math.NaN(), math.NaN(), math.NaN()}, Text: [][]string{texts}}
	m, err := ngram.Config{Order: 2}.Fit(d)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("P(cat | the) = %.4f\n", m.Prob(0, []string{"the"}, "cat"))
	fmt.Printf("P(sat | the) = %.4f\n", m.Prob(0, []string{"the"}, "sat"))
	lp, tokens := m.LogProb("the dog sat on the mat", 0)
	fmt.Printf("%d tokens, perplexity %.3f\n", tokens, math.Exp(-lp/float64(tokens)))
	// Output:
	// P(cat | the) = 0.1830
	// P(sat | the) = 0.0876
	// 7 tokens, perplexity 3.803
}
