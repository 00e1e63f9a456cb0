package cli

import (
	"context"
	"flag"
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/synth"
)

var cmdBalance = &Command{
	ReadsWithModel: true,
	Name:           "balance",
	UsageLine:      "balance --data F (--model M.json | --kind KIND [model flags]) [data flags] [--ratio R] [--clip=false] [--seed S] [--out B.csv]",
	Short:          "append synthetic rows of the smaller classes, drawn from a generative model",
	Long: `
Balance writes a data set to --out, standard output by default, followed
by synthetic rows of the smaller classes drawn from a generative model's
p(x | y), until every class has --ratio times as many rows as the largest
class had (rounded up): with the default 1, the classes come out equal.
With a ratio above 1 the largest class gets synthetic rows too. The model
is either a fitted model file, --model M.json (the data then read with the
model's schema), or fitted to the data itself first, with --kind KIND and
the data and model flags of gendisc fit. A kind whose models do not draw
rows of a class is refused before any data is read; --kind lists those
that do.

The original rows come first, in their order, with their values; the new
rows follow class by class. The columns are those the model was fitted
on: the features, then the class, then the weight column if --weight named
one (synthetic rows weigh 1); ignored columns are left out. Numbers are
written in their shortest form, and a numeric column whose values were all
integers gets integer synthetic values. --seed fixes the draws (and the
fit of kinds that take a seed). The output file is written atomically.

Synthetic rows keep to the training range of every numeric column (--clip,
on by default for balance; off by default for sample): a Gaussian draw
with a value below the smallest or above the largest value of its column
in the model's training data is drawn again, whole, so the new rows follow
the class's distribution restricted to the range, without a pile-up at
the bounds. After 1000 draws of one row outside the range, its values
outside are set to the nearest bound and a warning says how many rows
that happened to. --clip=false draws from the unrestricted distribution.

Example:

	gendisc balance --data pima_indians_diabetes --kind qda --out pima-balanced.csv
	gendisc balance --data new.csv --model qda.json --out new-balanced.csv`,
	Required: []string{"data"},
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		o := &balanceOptions{ratio: 1, src: modelSource{can: reflect.TypeFor[gendisc.ClassSampler](), does: "does not draw rows of a class"}}
		fs.StringVar(&o.data, "data", "", "the data: a CSV or TSV `file`, - for standard input, or a bundled data set's name")
		o.src.register(fs, args)
		fs.Var(&o.ratio, "ratio", "give every class `r` times the rows of the largest class")
		fs.BoolVar(&o.clip, "clip", true, "truncate numeric columns to their training range by rejection (default on for balance)")
		fs.StringVar(&o.out, "out", "-", "write the balanced data to this `file`; - for standard output")
		o.read.register(fs)
		return withOutFormat(fs, func(ctx context.Context, env *Env) error {
			if err := o.src.check(); err != nil {
				return err
			}
			return o.run(env)
		}, "out")
	},
}

type balanceOptions struct {
	data, out string
	src       modelSource
	ratio     positive
	clip      bool
	read      dataFlags
}

func (o *balanceOptions) run(env *Env) error {
	var (
		d      *data.Dataset
		m      gendisc.Model
		err    error
		source = o.data // whose training ranges --clip keeps to
	)
	if o.src.file != "" {
		source = o.src.file
		if m, err = o.src.loaded(env); err != nil {
			return err
		}
		d, err = env.readWithSchema(o.data, m.Schema(), dataio.SchemaOptions{Weight: o.read.options().Weight, RequireTarget: true})
	} else {
		d, err = env.readData(o.data, o.read.options())
		if err == nil {
			m, err = o.src.fit(d)
		}
	}
	if err != nil {
		return err
	}
	ranges := m.Schema()
	if o.src.file == "" {
		ranges = d.Schema // the data's own, as fitted
	}
	clip, err := trainingClip(o.clip, source, ranges)
	if err != nil {
		return err
	}
	b, err := synth.Balance(d, m.(gendisc.ClassSampler), float64(o.ratio), clip, o.src.seed())
	if err != nil {
		return err
	}
	env.clipNotes("balance", clip)
	env.verbosef("%s: %d rows, %d synthetic rows appended", d.Source, d.N, b.N-d.N)
	out, err := env.createRows(o.out)
	if err != nil {
		return err
	}
	defer out.Abort()
	if err := writeData(out, b, nil, o.read.options().Weight); err != nil {
		return err
	}
	return out.Commit()
}

// writeData writes the rows of every data set of ds as CSV: with an
// imputation column numbered from 1 when there are several of them.
func writeData(out *output, d *data.Dataset, ds []*data.Dataset, weight string) error {
	if ds == nil {
		ds = []*data.Dataset{d}
	}
	var lead []string
	if len(ds) > 1 {
		lead = []string{"imputation"}
	}
	rw, err := newRowWriter(out, d.Schema, lead, d.Y != nil, weight)
	if err != nil {
		return err
	}
	text := make([]string, d.D())
	for r, d := range ds {
		if lead != nil {
			lead[0] = strconv.Itoa(r + 1)
		}
		for i := range d.N {
			if err := rw.writeData(lead, d, i, text); err != nil {
				return err
			}
		}
	}
	return rw.flush()
}

// positive is a flag holding a finite number > 0.
type positive float64

func (f *positive) String() string { return strconv.FormatFloat(float64(*f), 'g', -1, 64) }

func (f *positive) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v > 0) || math.IsInf(v, 1) {
		return fmt.Errorf("want a finite number > 0")
	}
	*f = positive(v)
	return nil
}
