package cli

import (
	"context"
	"flag"
	"math/rand/v2"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/synth"
)

func init() { commands = append(commands, cmdImpute) }

var cmdImpute = &Command{
	Name:      "impute",
	UsageLine: "impute --data F (--model KIND [model flags] | --model-file M.json) [data flags] [--draws K [--clip]] [--seed S] [--out G.csv]",
	Short:     "fill missing cells from a generative model: conditional expectations or random draws",
	Long: `
Impute fills every missing cell of a data set from a generative model and
writes the completed data to --out, standard output by default. The model
is either fitted to the data itself, with --model KIND and the data and
model flags of gendisc fit (the fit handles the missing cells as each kind
documents), or read from a model file with --model-file, the data then
being read with the model's schema.

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

	gendisc impute --data breast_cancer_wisconsin --model qda --out wisconsin-complete.csv
	gendisc impute --data new.csv --model-file qda.json --draws 5 --seed 2 --out imputations.csv`,
	Required: []string{"data"},
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		o := &imputeOptions{}
		fs.StringVar(&o.data, "data", "", "the data: a CSV or TSV `file`, - for standard input, or a bundled data set's name")
		fs.StringVar(&o.model, "model", "", "fit a generative model of this `kind` to the data (gendisc help fit lists them with their flags)")
		fs.StringVar(&o.modelFile, "model-file", "", "or use the model in this `file`")
		fs.Var(&o.draws, "draws", "draw `K` random imputations instead of the conditional expectation")
		fs.BoolVar(&o.clip, "clip", false, "with --draws: truncate drawn cells to their column's training range by rejection (default off)")
		fs.StringVar(&o.out, "out", "-", "write the completed data to this `file`; - for standard output")
		o.read.register(fs)
		fit, seed, kindErr := kindFlags(fs, args)
		return withOutFormat(fs, func(ctx context.Context, env *Env) error {
			switch {
			case kindErr != nil:
				return usagef("%v", kindErr)
			case (o.model == "") == (o.modelFile == ""):
				return usagef("give either --model KIND or --model-file M.json")
			case o.clip && o.draws <= 0:
				return usagef("--clip truncates drawn cells: it needs --draws K")
			}
			if o.modelFile != "" {
				var model string
				fs.Visit(func(f *flag.Flag) {
					if _, ok := f.Value.(otherKindFlag); ok {
						model = f.Name
					}
				})
				if model != "" {
					return usagef("--%s is a flag of a model kind: it goes with --model KIND, not --model-file", model)
				}
			}
			return o.run(env, fit, seed())
		}, "out")
	},
}

type imputeOptions struct {
	data, model, modelFile, out string
	draws                       countFlag
	clip                        bool
	read                        dataFlags
}

func (o *imputeOptions) run(env *Env, fit fitFunc, rng *rand.Rand) error {
	var (
		d   *data.Dataset
		m   gendisc.Model
		err error
	)
	if o.modelFile != "" {
		if m, err = o.load(env); err != nil {
			return err
		}
		d, err = env.readWithSchema(o.data, m.Schema(), data.SchemaOptions{Weight: o.read.options().Weight})
	} else {
		d, err = env.readData(o.data, o.read.options())
		if err == nil {
			m, err = fit(d)
		}
	}
	if err != nil {
		return err
	}
	im, ok := m.(gendisc.Imputer)
	if !ok {
		return o.cannot(m, "does not impute missing values")
	}
	if _, ok := m.(gendisc.RandImputer); !ok && o.draws > 0 {
		return o.cannot(m, "does not draw missing values (--draws)")
	}
	source := o.modelFile
	if source == "" {
		source = o.data
	}
	clip, err := trainingClip(o.clip, source, m.Schema())
	if err != nil {
		return err
	}
	ds, err := synth.Impute(d, im, int(o.draws), clip, rng)
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

// cannot is the error for a model that cannot do what impute asks: a
// model file of the wrong kind is bad input (wrongKind, exit 1), a
// --model KIND that cannot is a misuse (exit 2).
func (o *imputeOptions) cannot(m gendisc.Model, what string) error {
	if o.modelFile != "" {
		return wrongKind(o.modelFile, m.Kind(), what)
	}
	return usagef("a %s model %s", m.Kind(), what)
}

// load reads the model of --model-file.
func (o *imputeOptions) load(env *Env) (gendisc.Model, error) {
	_, m, err := env.loadModel(o.modelFile)
	return m, err
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
