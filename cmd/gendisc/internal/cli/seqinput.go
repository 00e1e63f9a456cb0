package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/modelflags"
	"github.com/gendisc/gendisc/registry"
	"github.com/gendisc/gendisc/seq"
	"github.com/gendisc/gendisc/seqio"
)

// Sequence data (the input of the kinds of registry.Sequences, and of the
// models that are gendisc.Tagger) is read by package seqio: CoNLL-U, the
// column format of CoNLL-2000/2003 and JSON lines, plain or compressed,
// from a file, standard input or a bundled treebank. seqFlags are the
// flags of that reading, which every command that reads sentences
// defines: fit, update, predict, eval and score.

// seqFlags are the flags that say how to read sentences (seqio.Options).
type seqFlags struct {
	tags      string
	tagColumn int
	format    seqio.Format
}

// register defines the flags of reading sentences on fs.
func (f *seqFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.tags, "tags", "upos", "sequence data in CoNLL-U: the tag `field`, upos, xpos, deprel or misc:KEY")
	fs.Var(modelflags.AtLeast(&f.tagColumn, 0), "tag-column", "sequence data in columns (CoNLL-2000/2003): the tag's column `n`, from 1 (default: the last)")
	fs.Func("seq-format", "sequence data's `format`: conllu, conll (columns), jsonl, or crfsuite (CRFsuite's attributes) (default: by the file's extension, .crfsuite for CRFsuite's, else its first bytes)", func(s string) error {
		v, err := seqio.ParseFormat(s)
		f.format = v
		return err
	})
}

// options returns the seqio.Options of the flags.
func (f *seqFlags) options() seqio.Options {
	return seqio.Options{Format: f.format, Tags: f.tags, TagColumn: f.tagColumn}
}

// readSentences reads the sentences that --data names: standard input for
// "-", the file of that name when there is one, else the bundled treebank
// of that name.
func (env *Env) readSentences(name string, f *seqFlags) (*seq.Corpus, error) {
	r, source, err := env.openSentences(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return env.readCorpus(r, source, f)
}

// readCorpus reads the sentences of r, named source, for readSentences.
func (env *Env) readCorpus(r io.Reader, source string, f *seqFlags) (*seq.Corpus, error) {
	c, err := seqio.Read(r, source, f.options())
	if err != nil {
		return nil, err
	}
	if len(c.Sentences) == 0 {
		return nil, fmt.Errorf("%s: no sentences", source)
	}
	env.verbosef("%s: %d sentences, %d tokens", source, len(c.Sentences), c.Tokens())
	return c, nil
}

// openSentences opens what --data names for readSentences.
func (env *Env) openSentences(name string) (io.ReadCloser, string, error) {
	if name == "-" {
		return io.NopCloser(env.Stdin), "<stdin>", nil
	}
	file, err := os.Open(name)
	if err == nil {
		return file, name, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, "", err
	}
	if _, ok := datasets.TreebankInfo(name); !ok {
		var names []string
		for _, t := range datasets.Treebanks() {
			names = append(names, t.Name)
		}
		return nil, "", fmt.Errorf("%s: no such file, nor a bundled treebank (%s)", name, strings.Join(names, ", "))
	}
	r, err := datasets.OpenTreebank(name)
	return r, name, err
}

// sequenceInput reports whether the kind k reads sentences.
func sequenceInput(k *registry.Kind) bool { return k.Input == registry.Sequences }

// checkReadFlags returns the misuse of a flag of reading tables
// (dataFlags) given to read sentences, or of reading sentences (seqFlags)
// given to read tables, among the flags set on fs, why saying what reads
// which: fit of a kind, compare of data sets.
func checkReadFlags(fs *flag.FlagSet, sentences bool, why string) error {
	other := flag.NewFlagSet("", flag.ContinueOnError)
	notReads := "sentences"
	if sentences {
		(&dataFlags{}).register(other)
		notReads = "tables"
	} else {
		(&seqFlags{}).register(other)
	}
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err == nil && other.Lookup(f.Name) != nil {
			err = usagef("%s is a flag of reading %s: %s", dashed(f.Name), notReads, why)
		}
	})
	return err
}

// readsWhat returns what a reader of sentences or of tables reads.
func readsWhat(sentences bool) string {
	if sentences {
		return "sentences"
	}
	return "tables"
}

// fitSequences reads the sentences of --data and fits the kind's model of
// the configuration of its flags to them, with the log-likelihood of
// every iteration of an iterative fit on standard error under --verbose.
func (o *fitOptions) fitSequences(env *Env) (gendisc.Model, error) {
	c, err := o.seqConfig()
	if err != nil {
		return nil, usagef("%v", err)
	}
	corpus, err := env.readSentences(o.data, &o.seq)
	if err != nil {
		return nil, err
	}
	if err := checkKindReads(o.kind, corpus); err != nil {
		return nil, err
	}
	sc, ok := c.(registry.SequenceConfig)
	if !ok {
		return nil, fmt.Errorf("model kind %s reads sentences but its configuration does not fit them (registry.SequenceConfig)", o.kind.Name)
	}
	var trace func(string)
	if env.Verbose && !env.Quiet {
		trace = func(line string) { env.verbosef("%s", line) }
	}
	return sc.FitSequences(corpus, trace)
}

// fitSequenceStream fits a one-pass sequence kind with its accumulator
// (fit --stream): the sentences of --data are added a block at a time,
// as update and the shards of merge add theirs.
func (o *fitOptions) fitSequenceStream(env *Env) (gendisc.Model, error) {
	acc, err := o.newAcc()
	if err != nil {
		return nil, err
	}
	corpus, err := env.readSentences(o.data, &o.seq)
	if err != nil {
		return nil, err
	}
	if err := addSentences(acc, corpus); err != nil {
		return nil, err
	}
	return acc.Model()
}

// addSentences adds the sentences of c to acc, the accumulator of a
// sequence kind (gendisc.SequenceAccumulator), whose counts are of words.
func addSentences(acc gendisc.Accumulator, c *seq.Corpus) error {
	sa, ok := acc.(gendisc.SequenceAccumulator)
	if !ok {
		return fmt.Errorf("%s: the model's statistics are of table rows, not of sentences", c.Source)
	}
	if c.GivenAttributes() {
		return fmt.Errorf("%s: sentences given as attributes (CRFsuite's data format), but the model counts words", c.Source)
	}
	if err := sa.AddSentences(c.Sentences); err != nil {
		return fmt.Errorf("%s: %w", c.Source, err)
	}
	return nil
}
