package cli

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/synth"
)

func init() { commands = append(commands, cmdBalance) }

var cmdBalance = &Command{
	Name:      "balance",
	UsageLine: "balance --data F --model KIND [data flags] [model flags] [--ratio R] [--clip=false] [--seed S] [--out B.csv]",
	Short:     "append synthetic rows of the smaller classes, drawn from a generative model",
	Long: `
Balance fits a generative model of the kind given by --model to a data set,
as gendisc fit does (with the same data and model flags), and writes the
data set to --out, standard output by default, followed by synthetic rows
of the smaller classes drawn from the model's p(x | y), until every class
has --ratio times as many rows as the largest class had (rounded up): with
the default 1, the classes come out equal. With a ratio above 1 the
largest class gets synthetic rows too.

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
in the data is drawn again, whole, so the new rows follow the class's
distribution restricted to the range, without a pile-up at the bounds.
After 1000 draws of one row outside the range, its values outside are set
to the nearest bound and a warning says how many rows that happened to.
--clip=false draws from the unrestricted distribution.

Example:

	gendisc balance --data pima_indians_diabetes --model qda --out pima-balanced.csv`,
	Required: []string{"data", "model"},
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		o := &balanceOptions{ratio: 1}
		fs.StringVar(&o.data, "data", "", "the data: a CSV or TSV `file`, - for standard input, or a bundled data set's name")
		fs.StringVar(&o.model, "model", "", "the generative model `kind` to fit (gendisc help fit lists them with their flags)")
		fs.Var(&o.ratio, "ratio", "give every class `r` times the rows of the largest class")
		fs.BoolVar(&o.clip, "clip", true, "truncate numeric columns to their training range by rejection (default on for balance)")
		fs.StringVar(&o.out, "out", "-", "write the balanced data to this `file`; - for standard output")
		o.read.register(fs)
		fit, seed, kindErr := kindFlags(fs, args)
		return withOutFormat(fs, func(ctx context.Context, env *Env) error {
			if kindErr != nil {
				return usagef("%v", kindErr)
			}
			return o.run(env, fit, seed())
		}, "out")
	},
}

type balanceOptions struct {
	data, model, out string
	ratio            positive
	clip             bool
	read             dataFlags
}

func (o *balanceOptions) run(env *Env, fit fitFunc, rng *rand.Rand) error {
	d, err := env.readData(o.data, o.read.options())
	if err != nil {
		return err
	}
	m, err := fit(d)
	if err != nil {
		return err
	}
	cs, ok := m.(gendisc.ClassSampler)
	if !ok {
		return usagef("--model %s: the model does not draw rows of a class", o.model)
	}
	clip, err := trainingClip(o.clip, o.data, d.Schema)
	if err != nil {
		return err
	}
	b, err := synth.Balance(d, cs, float64(o.ratio), clip, rng)
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

// kindFlags defines on fs the flags of the model kind that --model names
// in the raw arguments args, and those of the other kinds, which are
// refused, as fit does; and --seed, unless the kind defines it (the
// mixtures seed their fit): one seed serves the fit and the draws. It
// returns the fit function (nil without --model, or when args is nil for
// the help text), the function that gives the random source of --seed
// once the flags are parsed, and the error of an unknown kind.
func kindFlags(fs *flag.FlagSet, args []string) (fitFunc, func() *rand.Rand, error) {
	var (
		fit  fitFunc
		err  error
		name string
	)
	if args != nil {
		if name = flagValue(args, "model", ""); name != "" {
			var k *kind
			if k, err = lookupKind(name); err == nil {
				fit = k.flags(fs)
			}
		}
	}
	if fs.Lookup("seed") == nil {
		fs.Uint64("seed", 1, "`seed` of the random draws")
	}
	if args != nil {
		if fit == nil {
			name = ""
		}
		defineOtherKindsFlags(fs, name)
	}
	seed := func() *rand.Rand {
		v, _ := strconv.ParseUint(fs.Lookup("seed").Value.String(), 10, 64)
		return rand.New(rand.NewPCG(v, 0))
	}
	return fit, seed, err
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
