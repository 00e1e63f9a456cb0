package ngram

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
)

// KindARPA is the Kind of a model read from an ARPA file.
const KindARPA = "arpa"

// arpaSchema is the schema of every ARPA model: one text column, the
// document, and no target.
var arpaSchema = data.Schema{Features: []data.Column{{Name: "text", Kind: data.Text}}}

// Kind returns KindARPA.
func (a *ARPA) Kind() string { return KindARPA }

// Schema returns the schema of the documents the model reads: one text
// column, "text", and no target.
func (a *ARPA) Schema() *data.Schema { return arpaSchema.Clone() }

// Classes returns nil: an ARPA model is one language model, of no class.
func (a *ARPA) Classes() []string { return nil }

// Column returns the index of the text column in Schema, 0.
func (a *ARPA) Column() int { return 0 }

// Tokenize returns the tokens of doc as the model reads them: split at
// white space, or by gendisc's tokenizer when the file was written by
// WriteARPA (see ReadARPA).
func (a *ARPA) Tokenize(doc string) []string {
	if a.tokenize != nil {
		return a.tokenize.Tokenize(doc)
	}
	return strings.Fields(doc)
}

// LogProb returns log P(doc) in nats and the number of tokens it
// predicts, the document's tokens and End (LogProbTokens of its tokens);
// k is ignored, a model having no classes. A missing document, "", is no
// document: 0 and 0 tokens, as for a Model.
func (a *ARPA) LogProb(doc string, k int) (float64, int) {
	if doc == "" {
		return 0, 0
	}
	return a.LogProbTokens(a.Tokenize(doc))
}

// ScoreSamples writes to dst[i] log P(doc) of the document of row i of d
// (in its text column, Column) and returns dst; a nil dst is allocated.
func (a *ARPA) ScoreSamples(dst []float64, d *data.Dataset) []float64 {
	if dst == nil {
		dst = make([]float64, d.N)
	}
	for i, doc := range d.Text[a.Column()][:d.N] {
		dst[i], _ = a.LogProb(doc, 0)
	}
	return dst
}

// Sample draws a document, token by token from P(w | the tokens before)
// over the unigrams (Start excepted), until End or maxWords tokens, and
// returns its tokens, beginning with those of prompt, which it continues.
// Temperature T reshapes each draw to P(w | h)^(1/T), as Model.Sample
// does; k is ignored. It panics when temperature is not positive.
func (a *ARPA) Sample(k int, prompt string, maxWords int, temperature float64, rng *rand.Rand) []string {
	if !(temperature > 0) {
		panic("ngram: Sample: temperature must be positive")
	}
	words := a.Tokenize(prompt)
	h := make([]string, 0, a.order)
	h = append(h, Start)
	for _, w := range words {
		h = append(h, a.known(w))
	}
	cum := make([]float64, len(a.words))
	for len(words) < maxWords {
		h = h[max(0, len(h)-(a.order-1)):]
		total := 0.0
		for v, w := range a.words {
			if w != Start {
				total += math.Pow(10, a.Log10Prob(h, w)/temperature)
			}
			cum[v] = total
		}
		w := a.words[min(searchCum(cum, rng.Float64()*total), len(cum)-1)]
		if w == End {
			break
		}
		words = append(words, w)
		h = append(h, w)
	}
	return words
}

// known returns w, or Unknown when w is not a unigram of the model.
func (a *ARPA) known(w string) string {
	if _, ok := a.grams[0][w]; !ok || w == Start {
		return Unknown
	}
	return w
}

// LanguageModel is a word n-gram language model as the command line and
// the server use one: a fitted Model, or an ARPA model read from a file
// (gendisc.LanguageModel).
type LanguageModel = gendisc.LanguageModel

var (
	_ LanguageModel = (*Model)(nil)
	_ LanguageModel = (*ARPA)(nil)
)

// Tokenization describes how the model tokenizes documents: "white space"
// for a file written elsewhere, else gendisc's tokenizer and its setting.
func (a *ARPA) Tokenization() string {
	if a.tokenize == nil {
		return "white space"
	}
	return fmt.Sprintf("gendisc (keep-punct=%t)", a.tokenize.KeepPunct)
}
