package cli

import (
	"bufio"
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
	Short:     "predict the class (or cluster, or value) of every row of a data set",
	Long: `
Predict applies a fitted model to the rows of a data set and writes a CSV
file with one row per input row: the predicted class (the most probable
one), then its probability for every class, in the model's class order:

	prediction,p_<class 1>,p_<class 2>,...

For a mixture model (gmm), the first column is the component most
responsible for the row and the others are the responsibilities P(k | x)
of the components k = 0, ..., K−1:

	cluster,p_0,p_1,...

For a regression model (linear), the one column prediction holds the
predicted value of the target.

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
		return withOutFormat(fs, func(ctx context.Context, env *Env) error { return o.run(env) })
	},
}

type predictOptions struct {
	model, data, out string
}

func (o *predictOptions) run(env *Env) error {
	e, m, err := env.loadModel(o.model)
	if err != nil {
		return err
	}
	d, err := env.readWithSchema(o.data, m.Schema(), data.SchemaOptions{UnseenClassMissing: true})
	if err != nil {
		return err
	}
	if err := checkNB(env, m, d); err != nil {
		return err
	}
	if r, ok := asRegressor(e.Kind, m); ok {
		return o.write(env, func(w io.Writer) error { return writeValues(w, r.Predict(nil, d)) })
	}
	var (
		first  string    // the name of the first column
		labels []string  // the label of each probability column
		proba  []float64 // row-major, one column per label
		best   []int     // the column of each row's largest probability
	)
	switch m := m.(type) {
	case gendisc.Classifier:
		first, labels = "prediction", m.Classes()
		proba = m.LogProba(nil, d)
		best = gendisc.ArgmaxRows(nil, proba, len(labels)) // gendisc.Predict, sharing LogProba
		for i, v := range proba {
			proba[i] = math.Exp(v)
		}
	case clusterer:
		first = "cluster"
		for k := range m.Components() {
			labels = append(labels, strconv.Itoa(k))
		}
		proba = m.Predict(nil, d)
		best = gendisc.ArgmaxRows(nil, proba, len(labels))
	default:
		return wrongKind(o.model, e.Kind, "does not predict classes or clusters")
	}
	return o.write(env, func(w io.Writer) error { return writePredictions(w, first, labels, best, proba) })
}

// write writes the output file (--out) with writeTo.
func (o *predictOptions) write(env *Env, writeTo func(io.Writer) error) error {
	out, err := env.create(o.out)
	if err != nil {
		return err
	}
	defer out.Abort()
	if err := writeTo(out); err != nil {
		return err
	}
	return out.Commit()
}

// regressor is a fitted regression model: Predict writes the predicted
// target value of row i to dst[i]. (A clusterer has a method of the same
// signature: the kind's regression property tells them apart.)
type regressor interface {
	Predict(dst []float64, d *data.Dataset) []float64
}

// asRegressor returns m, a model of the kind named, as a regressor when
// the kind is a regression.
func asRegressor(kind string, m gendisc.Model) (regressor, bool) {
	r, ok := m.(regressor)
	return r, ok && kinds[kind].regression
}

// writeValues writes the prediction CSV of a regression: the header
// prediction, then one value per row in strconv's shortest round-trip
// form.
func writeValues(w io.Writer, pred []float64) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("prediction\n")
	var buf []byte
	for _, v := range pred {
		buf = append(strconv.AppendFloat(buf[:0], v, 'g', -1, 64), '\n')
		bw.Write(buf)
	}
	return bw.Flush()
}

// clusterer is a fitted mixture model: Predict writes the responsibility
// of each component k for row i, P(k | x_i), to dst[i·K + k].
type clusterer interface {
	Components() int
	Predict(dst []float64, d *data.Dataset) []float64
}

// writePredictions writes the prediction CSV for the probabilities proba
// (row-major, one column per label): a header of first and p_<label> for
// each label, then per row the label of its column best[i] and the
// probabilities in strconv's shortest round-trip form.
func writePredictions(w io.Writer, first string, labels []string, best []int, proba []float64) error {
	K := len(labels)
	stringColumns(w, first)
	cw := csv.NewWriter(w)
	rec := make([]string, K+1)
	rec[0] = first
	for k, c := range labels {
		rec[k+1] = "p_" + c
	}
	if err := cw.Write(rec); err != nil {
		return err
	}
	for i, b := range best {
		for k, v := range proba[i*K : (i+1)*K] {
			rec[k+1] = strconv.FormatFloat(v, 'g', -1, 64)
		}
		rec[0] = labels[b]
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
