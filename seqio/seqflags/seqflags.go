// Package seqflags defines the command-line flags that say how sequence
// data is read, those of seqio.Options, for the commands that read
// sentences (gendisc and gendisc-beam), as package dataflags defines
// those of reading tables.
package seqflags

import (
	"flag"

	"github.com/gendisc/gendisc/modelflags"
	"github.com/gendisc/gendisc/seqio"
)

// Define defines --tags, --tag-column and --seq-format on fs and returns
// the function that gives the seqio.Options they hold once fs is parsed
// (their Limits left zero: the commands' --max-record sets them).
func Define(fs *flag.FlagSet) func() seqio.Options {
	var opt seqio.Options
	fs.StringVar(&opt.Tags, "tags", "upos", "sequence data in CoNLL-U: the tag `field`, upos, xpos, deprel or misc:KEY")
	fs.Var(modelflags.AtLeast(&opt.TagColumn, 0), "tag-column", "sequence data in columns (CoNLL-2000/2003): the tag's column `n`, from 1 (default: the last)")
	fs.Func("seq-format", "sequence data's `format`: conllu, conll (columns), jsonl, or crfsuite (CRFsuite's attributes) (default: by the file's extension, .crfsuite for CRFsuite's, else its first bytes)", func(s string) error {
		v, err := seqio.ParseFormat(s)
		opt.Format = v
		return err
	})
	return func() seqio.Options { return opt }
}
