package cv_test

import (
	"fmt"
	"log"

	"github.com/gendisc/gendisc/cv"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/hmm"
	"github.com/gendisc/gendisc/registry"
	"github.com/gendisc/gendisc/seq"
	"github.com/gendisc/gendisc/seqio"
)

// Five-fold cross-validation of a trigram HMM tagger on the first 500
// sentences of the bundled English Web Treebank's development set, in one
// pass over the sentences: each fold's model is merged from the other
// folds' counts.
func ExampleSequenceRunner() {
	r, err := datasets.OpenTreebank("ud_english_ewt_dev")
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	c, err := seqio.Read(r, "ud_english_ewt_dev", seqio.Options{})
	if err != nil {
		log.Fatal(err)
	}
	c = &seq.Corpus{Source: c.Source, Sentences: c.Sentences[:500]}
	kind, err := registry.Lookup(hmm.Kind)
	if err != nil {
		log.Fatal(err)
	}
	cfg, err := kind.DefaultConfig()
	if err != nil {
		log.Fatal(err)
	}
	folds, err := cv.SentenceFolds(len(c.Sentences), 5, 1)
	if err != nil {
		log.Fatal(err)
	}
	res, err := (&cv.SequenceRunner{Config: cfg.(registry.SequenceConfig)}).Run(c, folds)
	if err != nil {
		log.Fatal(err)
	}
	acc, se, _ := res.Metric("accuracy")
	unknown, unknownSE, _ := res.Metric("unknown_accuracy")
	fmt.Printf("%d folds of %d sentences\n", len(res.Folds), res.Folds[0].Rows)
	fmt.Printf("token accuracy %.3f ± %.3f\n", acc, se)
	fmt.Printf("unknown words  %.3f ± %.3f\n", unknown, unknownSE)
	// Output:
	// 5 folds of 100 sentences
	// token accuracy 0.901 ± 0.005
	// unknown words  0.752 ± 0.012
}
