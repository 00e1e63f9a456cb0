package crf_test

import (
	"fmt"

	"github.com/gendisc/gendisc/crf"
)

// A CRF trained on a handful of tagged sentences with the default
// templates tags a sentence it has not seen.
func ExampleFitTokens() {
	sentences := [][]string{{"the", "dog", "runs"}, {"a", "cat", "sleeps"}, {"the", "cat", "runs"}, {"dogs", "sleep"}}
	tags := [][]string{{"DET", "NOUN", "VERB"}, {"DET", "NOUN", "VERB"}, {"DET", "NOUN", "VERB"}, {"NOUN", "VERB"}}
	tp, err := crf.ParseTemplates(crf.DefaultTemplates)
	if err != nil {
		panic(err)
	}
	cfg := crf.DefaultConfig()
	cfg.C2 = 0.1
	m, err := crf.FitTokens(sentences, tags, tp, cfg)
	if err != nil {
		panic(err)
	}
	out, _ := m.TagTokens([]string{"a", "dog", "sleeps"})
	fmt.Println(out, m.Warnings())
	// Output: [DET NOUN VERB] []
}
