package cli

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"strconv"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/gda"
)

var cmdTransform = &Command{
	ReadsWithModel: true,
	Name:           "transform",
	UsageLine:      "transform --model LDA.json --data F [--components N] [--out T.csv]",
	Short:          "project rows onto the discriminant coordinates of an LDA model, for plotting",
	Long: `
Transform writes the discriminant coordinates of every row of a data set
under a fitted LDA model: the projections t_a = v_aᵀx on the directions
v_1, v_2, ... that best separate the class means relative to the shared
covariance (the generalised eigenvectors of the between-class scatter and
Σ, by decreasing eigenvalue; scikit-learn's transform with the eigen
solver, which does not centre). A model of K classes and p features has
min(K − 1, p) of them; gendisc inspect prints each one's share of the
between-class variance.

The output is a CSV file with the columns ld1, ..., ldN and, when the data
holds the model's target column, that column last, so that the points can
be coloured by class. The data is read with the model's schema; a missing
cell is replaced by its conditional expectation given the row's observed
cells under the model.

Example:

	gendisc fit --data wine --model lda --out wine-lda.json
	gendisc transform --model wine-lda.json --data wine --components 2 --out wine-2d.csv`,
	Required: []string{"model", "data"},
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		o := &transformOptions{}
		fs.StringVar(&o.model, "model", "", "the LDA model `file` (from gendisc fit --model lda); - for standard input")
		fs.StringVar(&o.data, "data", "", "the data: a CSV or TSV `file`, - for standard input, or a bundled data set's name")
		fs.IntVar(&o.components, "components", 0, "the number `N` of coordinates; 0 for all, min(K − 1, p)")
		fs.StringVar(&o.out, "out", "-", "write the coordinates to this `file`; - for standard output")
		return func(ctx context.Context, env *Env) error { return o.run(env) }
	},
}

type transformOptions struct {
	model, data, out string
	components       int
}

func (o *transformOptions) run(env *Env) error {
	if o.components < 0 {
		return usagef("--components %d: want a number ≥ 1, or 0 for all", o.components)
	}
	if o.model == "-" && o.data == "-" {
		return usagef("--model and --data cannot both be standard input")
	}
	_, m, err := env.loadModel(o.model)
	if err != nil {
		return err
	}
	lda, err := modelAs[*gda.LDA](o.model, m, "has no discriminant coordinates: transform takes an lda model")
	if err != nil {
		return err
	}
	n := o.components
	if n == 0 {
		n = lda.Components()
	}
	if n > lda.Components() {
		return fmt.Errorf("%s: --components %d: the model has %d discriminant coordinates, min(K − 1, p) for %d classes and %d features",
			o.model, n, lda.Components(), len(lda.Classes()), len(lda.Schema().Features))
	}
	// Extend keeps the label of a class the model has not seen.
	d, err := env.readWithSchema(o.data, lda.Schema(), dataio.SchemaOptions{Extend: true})
	if err != nil {
		return err
	}
	env.verbosef("%s: explained variance ratio of the coordinates: %v", o.model, lda.ExplainedVarianceRatio())
	t := lda.Transform(nil, d, n)
	out, err := env.createRows(o.out)
	if err != nil {
		return err
	}
	defer out.Abort()
	if err := writeCoordinates(out, t, n, d); err != nil {
		return err
	}
	return out.Commit()
}

// writeCoordinates writes the n coordinates per row in t (row-major) as
// CSV columns ld1, ..., ldn, followed by the class of each row of d when d
// has its target column (an empty cell for a missing class). Numbers are
// written in strconv's shortest round-trip form.
func writeCoordinates(w io.Writer, t []float64, n int, d *data.Dataset) error {
	cw := csv.NewWriter(w)
	rec := make([]string, n, n+1)
	for a := range n {
		rec[a] = "ld" + strconv.Itoa(a+1)
	}
	if d.Y != nil {
		rec = append(rec, d.Schema.Target.Name)
	}
	if err := cw.Write(rec); err != nil {
		return err
	}
	classes := d.Schema.Classes()
	for i := range d.N {
		for a := range n {
			rec[a] = strconv.FormatFloat(t[i*n+a], 'g', -1, 64)
		}
		if d.Y != nil {
			rec[n] = ""
			if y := d.Y[i]; y == y {
				rec[n] = classes[int(y)]
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
