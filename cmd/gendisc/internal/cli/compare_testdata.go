package cli

import (
	"flag"

	"github.com/gendisc/gendisc/seqio"
)

// compare's test sentences of their own: --test-data names, for each
// --data name of sequence data in order, the sentences that every split
// tests on (compare.SequenceTask.Test), such as a treebank's development
// part, so that the curves can reach all the training sentences. They are
// read as --data is (--tags, --tag-column, --seq-format).

// registerTestData defines --test-data on fs.
func (o *compareOptions) registerTestData(fs *flag.FlagSet) {
	fs.Var(&o.testData, "test-data", "on sequence data, the test sentences of each --data name in order (a bundled treebank or a file): the training sets are drawn from --data, up to all of it, and split s tests on the s-th of --splits parts of these")
}

// checkTestData returns the misuse of --test-data: on tables, or not one
// name per --data name.
func (o *compareOptions) checkTestData() error {
	switch {
	case len(o.testData) == 0:
		return nil
	case !o.sentences:
		return usagef("--test-data applies to sequence data (--data a treebank or a .conllu, .conll or .jsonl file)")
	case len(o.testData) != len(o.data):
		return usagef("--test-data: %d names for %d --data names: give one per --data name, in order", len(o.testData), len(o.data))
	}
	for _, name := range o.testData {
		if !isSequenceName(name) && o.seq.options().Format == seqio.Auto {
			return usagef("--test-data: %s is not sequence data (a bundled treebank or a .conllu, .conll or .jsonl file)", name)
		}
	}
	return nil
}
