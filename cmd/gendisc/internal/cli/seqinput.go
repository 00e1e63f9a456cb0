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
	"github.com/gendisc/gendisc/registry"
	"github.com/gendisc/gendisc/seq"
	"github.com/gendisc/gendisc/seqio"
	"github.com/gendisc/gendisc/seqio/seqflags"
)

// Sequence data (the input of the kinds of registry.Sequences, and of the
// models that are gendisc.Tagger) is read by package seqio: CoNLL-U, the
// column format of CoNLL-2000/2003 and JSON lines, plain or compressed,
// from a file, standard input or a bundled treebank. seqFlags are the
// flags of that reading, which every command that reads sentences
// defines: fit, update, predict, eval and score.

// seqFlags are the flags that say how to read sentences (seqflags.Define):
// register defines them, and options gives the seqio.Options they hold
// once they are parsed (the zero Options when they are not defined).
type seqFlags struct {
	define func() seqio.Options
}

// register defines the flags of reading sentences on fs.
func (f *seqFlags) register(fs *flag.FlagSet) { f.define = seqflags.Define(fs) }

// options returns the seqio.Options of the flags.
func (f *seqFlags) options() seqio.Options {
	if f.define == nil {
		return seqio.Options{}
	}
	return f.define()
}

// seqOptions returns the seqio.Options of the flags f, with the record
// limit of --max-record on one sentence.
func (env *Env) seqOptions(f *seqFlags) seqio.Options {
	opt := f.options()
	opt.Limits = env.limits
	return opt
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
	c, err := seqio.Read(r, source, env.seqOptions(f))
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

// checkKindReadFlags is checkReadFlags for the commands that read the
// input of the kind k (fit, cv, tune).
func checkKindReadFlags(fs *flag.FlagSet, k *registry.Kind) error {
	reads := readsWhat(sequenceInput(k))
	return checkReadFlags(fs, sequenceInput(k), "--model "+k.Name+" reads "+reads)
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
