package cli

import (
	"context"
	"flag"
	"reflect"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/synth"
)

var cmdImpute = &Command{
	ReadsWithModel: true,
	Name:           "impute",
	UsageLine:      "impute --data F (--model M.json | --kind KIND [model flags]) [data flags] [--draws K [--clip]] [--seed S] [--out G.csv]",
	Short:          "fill missing cells from a generative model: conditional expectations or random draws",
	Long: `
Impute fills every missing cell of a data set from a generative model and
writes the completed data to --out, standard output by default. The model
is either a fitted model file, --model M.json (the data then read with the
model's schema), or fitted to the data itself first, with --kind KIND and
the data and model flags of gendisc fit (the fit handles the missing cells
as each kind documents). A kind whose models do not impute is refused
before any data is read; --kind lists those that do.

By default a missing cell gets its conditional expectation given the
observed cells of its row and the row's class, E[x_m | x_o, y]: for
Gaussian models (lda, qda) the conditional mean through the Schur
complement, for mixtures (gmm, mda) the components' conditional means
weighted by their responsibilities, for naive Bayes the class's mean. A
row without a class is completed with the expectation mixed over the
class posterior P(y | x_o), and its class is filled with the most probable
one.

With --draws K, every missing cell (and class) is drawn K times from its
conditional distribution instead (multiple imputation): K = 1 writes one
completed data set; K > 1 writes the K completed copies one after the
other into one long file whose first column, imputation, numbers them from
1 to K. --seed fixes the draws (and the fit of kinds that take a seed).
Gaussian draws can leave the range a column can take; --clip (off by
default, as for sample) truncates the drawn cells of each numeric column to
its training range by rejection: a row with a drawn cell outside is drawn
again, its class too when it had none, at most 1000 times, after which
its drawn cells outside are set to the nearest bound and a warning counts
such rows. Observed cells are left as they are.

The columns are the model's: the features, the class when the data has it,
and the weight column if --weight named one. Imputed values of a numeric
column whose values were all integers are rounded. The output file is
written atomically.

Example:

	gendisc impute --data breast_cancer_wisconsin --kind qda --out wisconsin-complete.csv
	gendisc impute --data new.csv --model qda.json --draws 5 --seed 2 --out imputations.csv`,
	Required: []string{"data"},
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		o := &imputeOptions{src: modelSource{can: reflect.TypeFor[gendisc.Imputer](), does: "does not impute missing values"}}
		fs.StringVar(&o.data, "data", "", "the data: a CSV or TSV `file`, - for standard input, or a bundled data set's name")
		o.src.register(fs, args)
		fs.Var(&o.draws, "draws", "draw `K` random imputations instead of the conditional expectation")
		fs.BoolVar(&o.clip, "clip", false, "with --draws: truncate drawn cells to their column's training range by rejection (default off)")
		fs.StringVar(&o.out, "out", "-", "write the completed data to this `file`; - for standard output")
		o.read.register(fs)
		return withOutFormat(fs, func(ctx context.Context, env *Env) error {
			if err := o.src.check(); err != nil {
				return err
			}
			if o.clip && o.draws <= 0 {
				return usagef("--clip truncates drawn cells: it needs --draws K")
			}
			if o.src.kind != "" && o.draws > 0 && !kindDoes(o.src.kind, reflect.TypeFor[gendisc.RandImputer]()) {
				return usagef("--kind %s: a %[1]s model does not draw missing values (--draws)", o.src.kind)
			}
			return o.run(env)
		}, "out")
	},
}

type imputeOptions struct {
	data, out string
	src       modelSource
	draws     countFlag
	clip      bool
	read      dataFlags
}

func (o *imputeOptions) run(env *Env) error {
	var (
		d   *data.Dataset
		m   gendisc.Model
		err error
	)
	if o.src.file != "" {
		if m, err = o.src.loaded(env); err != nil {
			return err
		}
		d, err = env.readWithSchema(o.data, m.Schema(), dataio.SchemaOptions{Weight: o.read.options().Weight})
	} else {
		d, err = env.readData(o.data, o.read.options())
		if err == nil {
			m, err = o.src.fit(d)
		}
	}
	if err != nil {
		return err
	}
	im := m.(gendisc.Imputer)
	if _, ok := m.(gendisc.RandImputer); !ok && o.draws > 0 {
		return wrongKind(o.src.file, m.Kind(), "does not draw missing values (--draws)")
	}
	source := o.src.file
	if source == "" {
		source = o.data
	}
	clip, err := trainingClip(o.clip, source, m.Schema())
	if err != nil {
		return err
	}
	ds, err := synth.Impute(d, im, int(o.draws), clip, o.src.seed())
	if err != nil {
		return err
	}
	env.clipNotes("impute", clip)
	env.verbosef("%s: %d rows, %d missing cells imputed", d.Source, d.N, countMissing(d))
	out, err := env.createRows(o.out)
	if err != nil {
		return err
	}
	defer out.Abort()
	if err := writeData(out, d, ds, o.read.options().Weight); err != nil {
		return err
	}
	return out.Commit()
}

// countMissing returns the number of missing feature cells of d.
func countMissing(d *data.Dataset) int {
	n := 0
	for _, v := range d.X {
		if v != v {
			n++
		}
	}
	return n
}
