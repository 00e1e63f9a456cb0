// Command benchhmm is the gendisc side of bench/hmm until the command line
// fits HMMs: in one process it reads a tagged training file and a tagged
// test file (any format of package seqio), fits the tagger (the zero
// hmm.Config: TnT's order 2 with the suffix model, as `gendisc fit --model
// hmm` will; the test file read meanwhile), tags the test sentences (TagAll, on every core) and prints
// the evaluation as one line,
//
//	accuracy 0.933523 unknown 0.764 sentences 2001 tokens 25147
//
// With -nltk it fits NLTK's configuration instead (order 1, add-α 0.1
// transitions and emissions, no end transition, uniform new words: the
// model of bench/hmm_nltk.py). With -cpuprofile it writes a CPU profile of
// the whole process.
//
//	benchhmm [-nltk] [-cpuprofile FILE] TRAIN TEST
package main

import (
	"cmp"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime/pprof"
	"sync"

	"github.com/gendisc/gendisc/hmm"
	"github.com/gendisc/gendisc/metrics/seqeval"
	"github.com/gendisc/gendisc/seq"
	"github.com/gendisc/gendisc/seqio"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("benchhmm: ")
	nltk := flag.Bool("nltk", false, "fit NLTK's first-order add-α (0.1) model instead of TnT's")
	profile := flag.String("cpuprofile", "", "write a CPU profile to this file")
	flag.Parse()
	if flag.NArg() != 2 {
		log.Fatal("usage: benchhmm [-nltk] [-cpuprofile FILE] TRAIN TEST")
	}
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	cfg := hmm.Config{}
	if *nltk {
		cfg = hmm.Config{Order: 1, Transitions: hmm.AddAlpha, Alpha: 0.1, EmissionAlpha: 0.1, Unknown: hmm.Uniform, NoEnd: true, NoCapitalization: true}
	}
	report, err := run(cfg, flag.Arg(0), flag.Arg(1))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("accuracy %.6f unknown %.6f sentences %d tokens %d\n", report.Accuracy, report.UnknownAccuracy, report.Sentences, report.Tokens)
}

// run fits cfg on the sentences of the file train, tags those of test and
// evaluates the tags. The test file is read while the training file is
// read and fitted.
func run(cfg hmm.Config, train, test string) (*seqeval.Report, error) {
	var te *seq.Corpus
	var teErr error
	var wg sync.WaitGroup
	wg.Go(func() { te, teErr = seqio.ReadFile(test, seqio.Options{}) })
	tr, err := seqio.ReadFile(train, seqio.Options{})
	var m *hmm.Model
	if err == nil {
		m, err = cfg.Fit(tr.Tagged())
	}
	wg.Wait()
	if err = cmp.Or(err, teErr); err != nil {
		return nil, err
	}
	sentences := te.Tagged()
	tokens, truth := make([][]string, len(sentences)), make([][]string, len(sentences))
	for i, s := range sentences {
		tokens[i], truth[i] = s.Tokens, s.Tags
	}
	return seqeval.Evaluate(truth, m.TagAll(tokens), tokens, m.Known)
}
