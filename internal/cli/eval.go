package cli

import (
	"context"
	"flag"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/metrics"
)

var cmdEval = &Command{
	Name:      "eval",
	UsageLine: "eval --model M.json --data F [--json]",
	Short:     "evaluate a model's predictions against the true classes",
	Long: `
Eval applies a fitted model to a data set that holds the target column and
compares the predicted probabilities with the true classes: accuracy and
error, log-loss (nats and bits per row), Brier score, the confusion matrix
(rows: true class, columns: predicted), per-class precision, recall, F1 and
one-vs-rest ROC AUC with macro and weighted averages, and for two classes
TP/FP/FN/TN, the type I and type II error rates, precision, recall,
specificity, F1 and ROC AUC (the second class is the positive one). The
definitions follow scikit-learn's; --weight names a column of row weights
that weigh every figure.

Example:

	gendisc eval --model iris.json --data iris --json`,
	Required: []string{"model", "data"},
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		o := &evalOptions{}
		fs.StringVar(&o.model, "model", "", "the model `file`; - for standard input")
		fs.StringVar(&o.data, "data", "", "the data, with the target column: a CSV or TSV `file`, - for standard input, or a bundled data set's name")
		fs.StringVar(&o.weight, "weight", "", "weigh the rows by this `column`")
		fs.BoolVar(&o.json, "json", false, "print JSON instead of text")
		return func(ctx context.Context, env *Env) error { return o.run(env) }
	},
}

type evalOptions struct {
	model, data, weight string
	json                bool
}

func (o *evalOptions) run(env *Env) error {
	c, err := env.loadClassifier(o.model)
	if err != nil {
		return err
	}
	d, err := env.readWithSchema(o.data, c.Schema(), data.SchemaOptions{Weight: o.weight, RequireTarget: true})
	if err != nil {
		return err
	}
	rep, err := metrics.Evaluate(c, d)
	if err != nil {
		return err
	}
	if !o.json {
		return rep.Text(env.Stdout)
	}
	return writeJSON(env.Stdout, rep)
}
