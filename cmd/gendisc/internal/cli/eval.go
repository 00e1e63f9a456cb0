package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/models"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/metrics"
)

var cmdEval = &Command{
	ReadsWithModel: true,
	Name:           "eval",
	UsageLine:      "eval --model M.json --data F [--json]",
	Short:          "evaluate a model's predictions against the true classes (or values)",
	Long: `
Eval applies a fitted model to a data set that holds the target column and
compares the predicted probabilities with the true classes: accuracy and
error, log-loss (nats and bits per row), Brier score, the confusion matrix
(rows: true class, columns: predicted), per-class precision, recall, F1 and
one-vs-rest ROC AUC with macro and weighted averages, and for two classes
TP/FP/FN/TN, the type I and type II error rates, precision, recall,
specificity, F1 and ROC AUC (the second class is the positive one). The
definitions follow scikit-learn's; --weight names a column of row weights
that weigh every figure. A figure whose denominator is 0 (the specificity
and type I error rate without negative rows, the precision of a class
never predicted, the ROC AUC of a class absent from the data) is
"undefined" (null with --json), and the macro and weighted averages leave
it out.

A row whose class the model has not seen (absent from its training data)
cannot be predicted right: eval warns, naming such classes, counts those
rows as errors in the accuracy and error (the weight predicted right over
that of every row), and leaves them out of the other figures and of the
row count, as scikit-learn's metrics do for classes outside their labels=
argument.

For a regression model (linear), eval compares the predicted values ŷ with
the true ones y instead: RMSE, MSE, MAE, R² and the Gaussian
log-likelihood of the residuals at their MLE variance σ² (nats, total and
per row), as metrics.Regression defines them.

For a tagger (hmm), eval reads tagged sentences and reports the token
accuracy, the accuracy on the words the model did not see in training,
the sentence accuracy (every tag right), per-tag precision, recall and F1
and the confusion matrix; --spans adds the span-level precision, recall
and F1 of BIO/IOB tags, as conlleval computes them.

Example:

	gendisc eval --model iris.json --data iris --json`,
	Required: []string{"model", "data"},
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		o := &evalOptions{}
		fs.StringVar(&o.model, "model", "", "the model `file`; - for standard input")
		fs.StringVar(&o.data, "data", "", "the data, with the target column: a CSV or TSV `file`, - for standard input, or a bundled data set's name")
		fs.StringVar(&o.weight, "weight", "", "weigh the rows by this `column`")
		fs.BoolVar(&o.json, "json", false, "print JSON instead of text")
		fs.BoolVar(&o.spans, "spans", false, "a tagger of BIO/IOB tags: add span-level precision, recall and F1, as conlleval")
		o.seq.register(fs)
		return func(ctx context.Context, env *Env) error { return o.run(env) }
	},
}

type evalOptions struct {
	model, data, weight string
	json, spans         bool
	seq                 seqFlags // a tagger's sentences (sequences.go)
}

func (o *evalOptions) run(env *Env) error {
	e, m, err := env.loadModel(o.model)
	if err != nil {
		return err
	}
	return o.evaluate(env, m, e.Kind)
}

// evaluate evaluates the model m, of the given kind, on o.data and prints
// the report; o.model names the model in errors.
func (o *evalOptions) evaluate(env *Env, m gendisc.Model, kind string) error {
	if isLM, err := evalLanguageModel(env, o, m); isLM {
		return err
	}
	if isTagger, err := evalTagger(env, o, m); isTagger {
		return err
	}
	c, isClassifier := m.(gendisc.Classifier)
	r, isRegressor := asRegressor(m)
	if !isClassifier && !isRegressor {
		return wrongKind(o.model, kind, "does not classify")
	}
	d, err := env.readWithSchema(o.data, m.Schema(), dataio.SchemaOptions{Weight: o.weight, RequireTarget: true, Extend: !isRegressor})
	if err != nil {
		return err
	}
	var unseen *unseenClasses
	if !isRegressor {
		if err := env.closeLevels(d, m.Schema()); err != nil {
			return err
		}
		if d, unseen, err = dropUnseenClasses(env, d, m.Schema()); err != nil {
			return err
		}
	}
	if err := models.CheckMissing(m, d); err != nil {
		return err
	}
	if err := checkRows(env, m, d); err != nil {
		return err
	}
	var rep interface{ Text(io.Writer) error }
	if isRegressor {
		rep, err = evaluateRegression(env, r, d)
	} else {
		var cr *metrics.Report
		cr, err = metrics.Evaluate(c, d)
		if err == nil {
			unseen.countAsErrors(cr)
		}
		rep = cr
	}
	if err != nil {
		return err
	}
	if !o.json {
		return rep.Text(env.Stdout)
	}
	return writeJSON(env.Stdout, rep)
}

// unseenClasses are the rows of eval's data whose class the model has not
// seen, of total weight w.
type unseenClasses struct{ w float64 }

// dropUnseenClasses returns d, read with the classes of the model's schema
// s extended, without its rows of classes that s lacks, its schema s; and
// those rows, with a warning that names their classes. Such a row cannot
// be predicted right: eval counts it as an error in the accuracy and the
// error rate, and leaves it out of the other figures, as scikit-learn's
// metrics do for labels outside labels=. Data of no class of the model is
// an error.
func dropUnseenClasses(env *Env, d *data.Dataset, s *data.Schema) (*data.Dataset, *unseenClasses, error) {
	K := float64(len(s.Classes()))
	var keep []int
	counts := map[string]int{}
	u := &unseenClasses{}
	for i, y := range d.Y {
		if !(y >= K) {
			keep = append(keep, i)
			continue
		}
		counts[d.Schema.Target.Levels[int(y)]]++
		u.w += rowWeight(d, i)
	}
	if len(keep) == d.N {
		d.Schema = s
		return d, nil, nil
	}
	names := make([]string, 0, len(counts))
	for _, c := range d.Schema.Target.Levels[len(s.Classes()):] {
		names = append(names, fmt.Sprintf("%s (%d)", c, counts[c]))
	}
	if len(keep) == 0 {
		return nil, nil, fmt.Errorf("%s: no row of a class the model knows: classes %s are not among the model's (%s)",
			d.Source, strings.Join(names, ", "), strings.Join(s.Classes(), ", "))
	}
	env.warnf("%s: %s of classes the model has not seen, %s: counted as errors in the accuracy and error, left out of the other figures and the row count",
		d.Source, count(d.N-len(keep), "row", "rows"), strings.Join(names, ", "))
	sub := d.Subset(keep)
	sub.Schema = s
	return sub, u, nil
}

// rowWeight is the weight of row i of d: 1 without a weight column.
func rowWeight(d *data.Dataset, i int) float64 {
	if d.Weight == nil {
		return 1
	}
	return d.Weight[i]
}

// countAsErrors counts the rows u as errors in the report r of the other
// rows: the accuracy becomes the weight predicted right over the weight
// of all the rows. The rest of r (its rows, total weight, the figures of
// each class) stays that of the rows of the model's classes.
func (u *unseenClasses) countAsErrors(r *metrics.Report) {
	if u == nil {
		return
	}
	r.Accuracy = r.Accuracy * r.TotalWeight / (r.TotalWeight + u.w)
	r.Error = 1 - r.Accuracy
}

// evaluateRegression applies r to d and evaluates its predictions of the
// target d.Y with metrics.Regression, weighting the rows by d.Weight. A
// row without its target value is an error positioned at its line.
//
// A prediction beyond float64's range (±Inf) is taken as
// ±1.7976931348623157e+308 (models.Clamp), with a warning, as predict
// writes it; a figure that overflows then (an MSE, a log-likelihood) is
// clamped the same way, with a warning that names it.
func evaluateRegression(env *Env, r gendisc.Regressor, d *data.Dataset) (*metrics.RegressionReport, error) {
	for i, y := range d.Y {
		if math.IsNaN(y) {
			return nil, d.RowError(i, "%w: eval needs the true value of every row", data.ErrMissingTarget)
		}
	}
	pred := r.Predict(nil, d)
	warnPredictionsBeyondRange(env, d, pred)
	models.ClampAll(pred)
	rep, err := metrics.Regression(d.Y, pred, d.Weight)
	var re *metrics.RowError
	if errors.As(err, &re) {
		return nil, d.RowError(re.Row, "%w", re.Err)
	}
	if err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name string
		v    *float64
	}{{"MSE", &rep.MSE}, {"RMSE", &rep.RMSE}, {"MAE", &rep.MAE}, {"R²", &rep.R2}, {"σ²", &rep.Sigma2},
		{"log-likelihood", &rep.LogLikelihood}, {"mean log-likelihood", &rep.MeanLogLikelihood}} {
		if math.IsInf(*f.v, 0) {
			*f.v = models.Clamp(*f.v)
			env.warnf("%s: the %s overflows float64: written as %v", d.Source, f.name, *f.v)
		}
	}
	return rep, nil
}
