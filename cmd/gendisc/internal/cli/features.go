package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/gendisc/gendisc/registry"
	"github.com/gendisc/gendisc/seq"
	"github.com/gendisc/gendisc/seqio"
)

var cmdFeatures = &Command{
	Name:      "features",
	UsageLine: "features --model KIND --data F [feature flags] [--out F.crfsuite]",
	Short:     "write the attributes a kind makes of sentences, in CRFsuite's data format",
	Long: `
Features writes the attributes that a kind of sentences that reads
attributes (crf) makes of the words of every sentence of --data, with
the kind's flags (--features, --hash-features), in CRFsuite's data format:
one token a line, its tag and its attributes separated by tabs, ":" and
"\" in a name written "\:" and "\\", a value other than 1 after a colon,
a blank line after each sentence; an untagged sentence gets empty labels.

CRFsuite (crfsuite learn, python-crfsuite) trains on the file, and so
does gendisc: fit --model crf --data F.crfsuite trains on the given
attributes and makes the model that the fit of the words makes, bit for
bit (the other fit flags, such as --c2 and --min-freq, apply to both
alike); predict, eval and score take the attributes of other sentences
in the same format. A model trained on given attributes tags given
attributes only, and a model trained on words words only.

Example:

	gendisc features --model crf --data ud_english_ewt --out ewt.crfsuite
	gendisc fit --model crf --data ewt.crfsuite --out crf-attrs.json`,
	Required: []string{"model", "data"},
	MoreHelp: func(w io.Writer) { printKindFlags(w, attributeKindNames()) },
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		o := &featuresOptions{}
		fs.StringVar(&o.model, "model", "", "the model `kind` whose attributes to write: "+strings.Join(attributeKindNames(), ", "))
		fs.StringVar(&o.data, "data", "", "the sentences: a sequence data `file`, - for standard input, or a bundled treebank's name")
		fs.StringVar(&o.out, "out", "-", "write the attributes to this `file` (compressed when it ends in .gz or .zst); - for standard output")
		o.seq.register(fs)
		if args == nil { // help: the kinds' flags are fit's
			return nil
		}
		k, err := lookupKind(flagValue(args, "model", ""))
		var cfg func() (registry.Config, error)
		if err == nil {
			cfg = kindConfig(k, fs)
		}
		name := ""
		if k != nil {
			name = k.Name
		}
		defineOtherKindsFlags(fs, name)
		return func(ctx context.Context, env *Env) error {
			if err != nil {
				return usagef("--model: %v", err)
			}
			c, err := cfg()
			if err != nil {
				return err
			}
			ac, ok := c.(registry.AttributeConfig)
			if !ok {
				return usagef("--model %s does not make attributes of words (kinds that do: %s)", k.Name, strings.Join(attributeKindNames(), ", "))
			}
			return o.run(env, ac)
		}
	},
}

type featuresOptions struct {
	model, data, out string
	seq              seqFlags
}

// attributeKindNames returns the kinds whose models read attributes
// (gendisc.AttributeTagger), sorted.
func attributeKindNames() []string {
	return kindsWith(func(k *registry.Kind) bool { return sequenceInput(k) && k.Type.Implements(attributeTaggerType) })
}

// run writes the attributes that ac makes of the sentences of --data.
func (o *featuresOptions) run(env *Env, ac registry.AttributeConfig) error {
	c, err := env.readSentences(o.data, &o.seq)
	if err != nil {
		return err
	}
	if c.GivenAttributes() {
		return fmt.Errorf("%s: sentences given as attributes already: features makes attributes of words", c.Source)
	}
	out := make([]seq.Sentence, len(c.Sentences))
	for i, s := range c.Sentences {
		out[i] = seq.Sentence{Tags: s.Tags, Attributes: ac.Attributes(s.Tokens)}
	}
	w, err := env.createSequences(o.out)
	if err != nil {
		return err
	}
	defer w.Abort()
	if err := seqio.WriteCRFsuite(w, out); err != nil {
		return fmt.Errorf("%s: %w", c.Source, err)
	}
	return w.Commit()
}
