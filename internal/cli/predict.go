package cli

import (
	"context"
	"encoding/csv"
	"flag"
	"io"
	"math"
	"strconv"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
)

var cmdPredict = &Command{
	Name:      "predict",
	UsageLine: "predict --model M.json --data F [--out P.csv]",
	Short:     "predict the class of every row of a data set",
	Long: `
Predict applies a fitted model to the rows of a data set and writes a CSV
file with one row per input row: the predicted class (the most probable
one), then its probability for every class, in the model's class order:

	prediction,p_<class 1>,p_<class 2>,...

Probabilities are written with the fewest digits that read back to the same
float64. The data is read with the model's schema: columns are matched by
name and may come in any order, extra columns (the target among them) are
ignored, and a missing feature column is an error. A category the model
never saw is read as a missing value, which the model marginalises;
--verbose counts them.

Example:

	gendisc predict --model iris.json --data iris --out predictions.csv`,
	Required: []string{"model", "data"},
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		o := &predictOptions{}
		fs.StringVar(&o.model, "model", "", "the model `file` (from gendisc fit); - for standard input")
		fs.StringVar(&o.data, "data", "", "the data: a CSV or TSV `file`, - for standard input, or a bundled data set's name")
		fs.StringVar(&o.out, "out", "-", "write the predictions to this `file`; - for standard output")
		return func(ctx context.Context, env *Env) error { return o.run(env) }
	},
}

type predictOptions struct {
	model, data, out string
}

func (o *predictOptions) run(env *Env) error {
	c, d, err := env.loadAndRead(o.model, o.data, data.SchemaOptions{})
	if err != nil {
		return err
	}
	lp := c.LogProba(nil, d)
	out, err := env.create(o.out)
	if err != nil {
		return err
	}
	defer out.Abort()
	if err := writePredictions(out, c.Classes(), lp); err != nil {
		return err
	}
	return out.Commit()
}

// loadAndRead loads the classifier in the model file and reads the data
// with its schema.
func (env *Env) loadAndRead(modelPath, dataName string, opt data.SchemaOptions) (gendisc.Classifier, *data.Dataset, error) {
	c, err := env.loadClassifier(modelPath)
	if err != nil {
		return nil, nil, err
	}
	d, err := env.readWithSchema(dataName, c.Schema(), opt)
	if err != nil {
		return nil, nil, err
	}
	return c, d, nil
}

// writePredictions writes the prediction CSV for the log-probabilities lp
// (row-major, one column per class): the argmax class (the first on ties)
// and exp(lp) for each class, formatted with strconv's shortest
// round-trip form.
func writePredictions(w io.Writer, classes []string, lp []float64) error {
	K := len(classes)
	cw := csv.NewWriter(w)
	rec := make([]string, K+1)
	rec[0] = "prediction"
	for k, c := range classes {
		rec[k+1] = "p_" + c
	}
	if err := cw.Write(rec); err != nil {
		return err
	}
	for i := 0; i < len(lp); i += K {
		row := lp[i : i+K]
		best := 0
		for k, v := range row {
			if v > row[best] {
				best = k
			}
			rec[k+1] = strconv.FormatFloat(math.Exp(v), 'g', -1, 64)
		}
		rec[0] = classes[best]
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
