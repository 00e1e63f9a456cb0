package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/dataio"
)

var cmdUpdate = &Command{
	ReadsWithModel: true,
	Name:           "update",
	UsageLine:      "update --model M.json --data F [--weight COLUMN] [--out M2.json]",
	Short:          "add training data to a fitted generative model",
	Long: `
Update reads a fitted model and more training data, and writes the model
fitted on its original training data and the new rows together, without
the original data: the model keeps sufficient statistics (per class
weighted counts, means and centred sums of squares), and those of the new
rows are merged into them (Chan's pairwise formula). The result is the
model that fit would give on both data sets at once, up to rounding.
LDA and QDA fitted with missing cells keep their incomplete rows as well,
and EM runs again over the incomplete rows of both data sets, as fit on
all of them would: the result is that fit too.

The data is read with the model's schema: columns are matched by name,
the target column is required, and classes or categories that the model
has not seen are added after the known ones. The hyperparameters are those
the model was fitted with.

Only the kinds listed below keep sufficient statistics; a model of
another kind is refused: fit it again on all the data.

The output file is written atomically: when update fails, no file is left.
It may be the model file itself.

Example:

	gendisc fit --data jan.csv --model gaussian-nb --out model.json
	gendisc update --model model.json --data feb.csv --out model.json`,
	Required:    []string{"model", "data"},
	WritesModel: true,
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		o := &updateOptions{}
		fs.StringVar(&o.model, "model", "", "the model `file` (from gendisc fit); - for standard input")
		fs.StringVar(&o.data, "data", "", "the new training data, with the target column: a CSV or TSV `file`, - for standard input, or a bundled data set's name")
		fs.StringVar(&o.weight, "weight", "", "the `column` holding a weight per row")
		fs.StringVar(&o.out, "out", "-", "write the updated model to this `file`; - for standard output")
		o.seq.register(fs)
		return func(ctx context.Context, env *Env) error { return o.run(env) }
	},
	MoreHelp: func(w io.Writer) {
		fmt.Fprintf(w, "\nKinds that update takes: %s.\n", strings.Join(mergeableKinds(), ", "))
	},
}

type updateOptions struct {
	model, data, weight, out string
	seq                      seqFlags // a model of sentences (seqinput.go)
}

func (o *updateOptions) run(env *Env) error {
	if o.model == "-" && o.data == "-" {
		return usagef("--model and --data cannot both be standard input")
	}
	e, m, err := env.loadModel(o.model)
	if err != nil {
		return err
	}
	mg, mergeable := m.(gendisc.Mergeable)
	if !mergeable {
		return wrongKind(o.model, e.Kind, fmt.Sprintf("cannot be updated: it keeps no sufficient statistics (update takes %s); fit it again on all the data",
			strings.Join(mergeableKinds(), ", ")))
	}
	acc := mg.Accumulator()
	if _, ok := acc.(gendisc.SequenceAccumulator); ok {
		return o.updateSequences(env, acc)
	}
	d, err := env.readWithSchema(o.data, m.Schema(), dataio.SchemaOptions{Weight: o.weight, Extend: true, RequireTarget: true})
	if err != nil {
		return err
	}
	env.verbosef("%s: %d rows added to a %s model", d.Source, d.N, e.Kind)
	if added := d.Schema.Classes()[len(m.Schema().Classes()):]; len(added) > 0 {
		env.verbosef("%s: classes the model had not seen: %s", d.Source, strings.Join(added, ", "))
	}
	if err := acc.Add(d); err != nil {
		return err
	}
	updated, err := acc.Model()
	if err != nil {
		return err
	}
	return env.writeModel(o.out, persistent(updated))
}

// updateSequences adds the sentences of --data to acc, the accumulator of
// a model of sentences, a batch at a time (feedSentences), and writes the
// updated model.
func (o *updateOptions) updateSequences(env *Env, acc gendisc.Accumulator) error {
	if err := env.feedSentences(o.data, &o.seq, acc, func(string, ...any) {}); err != nil {
		return err
	}
	updated, err := acc.Model()
	if err != nil {
		return err
	}
	return env.writeModel(o.out, persistent(updated))
}
