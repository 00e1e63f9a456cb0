package cli

import (
	"context"
	"errors"
	"flag"
	"io"
	"math"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/models"
	"github.com/gendisc/gendisc/registry"
)

var cmdPredict = &Command{
	ReadsWithModel: true,
	Name:           "predict",
	UsageLine:      "predict --model M.json --data F [--out P.csv]",
	Short:          "predict the class (or cluster, or value) of every row of a data set",
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
float64. They are finite, in [0, 1] and sum to 1 for any finite input, even
a row so far out (1e300) that its likelihoods are beyond float64: such a
row is scored again with its large cells scaled out, and goes to the class
that wins far out in its direction (for Gaussian models the one of widest
spread that way). A regression's prediction beyond float64's range is
written as ±1.7976931348623157e+308, with a warning. The data is read with the model's schema: columns are matched by
name and may come in any order, extra columns (the target among them) are
ignored, and a missing feature column is an error. A category the model
never saw is read as a missing value, which the model marginalises;
--verbose counts them. Missing cells follow the rule of the fit: a
logistic or linear regression fitted without --impute refuses them, as its fit
did; one fitted with --impute mean fills them with the training means.

A tagger (hmm, crf) reads --data as sentences (the sequence data of fit) and
writes one row per token, numbered from 1 in each sentence, the
sentences numbered from 1 in the order of the input:

	sentence,token,word,tag

--marginals adds p_<tag> for every tag, the posterior probability of the
tag at the token given the words (forward–backward), left empty for a
sentence that has probability 0 under the model.

With --tagged, or an --out of a sequence format (.conllu, .conll, .iob,
.bio, .txt, .crfsuite, optionally .gz or .zst), a tagger writes the
sentences of --data back in their own format with the predicted tags
instead: CoNLL-U with the field of --tags replaced (comments,
multiword-token lines and empty nodes untouched), columns with the tag
column replaced (appended to untagged lines), JSON lines with "tags",
CRFsuite's format with the labels.

Example:

	gendisc predict --model iris.json --data iris --out predictions.csv`,
	Required: []string{"model", "data"},
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		o := &predictOptions{}
		fs.StringVar(&o.model, "model", "", "the model `file` (from gendisc fit); - for standard input")
		fs.StringVar(&o.data, "data", "", "the data: a CSV or TSV `file`, - for standard input, or a bundled data set's name")
		fs.StringVar(&o.out, "out", "-", "write the predictions to this `file`; - for standard output")
		fs.BoolVar(&o.marginals, "marginals", false, "a tagger: add the posterior probability p_<tag> of every tag of every token")
		fs.BoolVar(&o.tagged, "tagged", false, "a tagger: write the sentences of --data back in their format with the predicted tags, not rows (the default for an --out of .conllu, .conll, .iob, .bio, .txt or .crfsuite)")
		o.seq.register(fs)
		rows := withOutFormat(fs, func(ctx context.Context, env *Env) error { return o.run(env) }, "out")
		return func(ctx context.Context, env *Env) error {
			if o.taggedOut() {
				return o.runTagged(env, fs.Lookup("format").Value.String()) // predict_tagged.go
			}
			return rows(ctx, env)
		}
	},
}

type predictOptions struct {
	model, data, out string
	marginals        bool     // a tagger's posteriors (sequences.go)
	tagged           bool     // a tagger's sentences written back (predict_tagged.go)
	seq              seqFlags // a tagger's sentences
}

func (o *predictOptions) run(env *Env) error {
	e, m, err := env.loadModel(o.model)
	if err != nil {
		return err
	}
	if isTagger, err := predictTagger(env, o, m); isTagger {
		return err
	}
	d, err := env.readWithSchema(o.data, m.Schema(), dataio.SchemaOptions{UnseenClassMissing: true})
	if err != nil {
		return err
	}
	if err := checkRows(env, m, d); err != nil {
		return err
	}
	p, err := models.Predict(m, d)
	if errors.Is(err, models.ErrNoPredictions) {
		return wrongKind(o.model, e.Kind, "does not predict classes or clusters")
	}
	if err != nil {
		return err
	}
	if p.Labels == nil {
		warnPredictionsBeyondRange(env, d, p.Values)
	}
	return o.write(env, func(w io.Writer) error {
		if p.Labels != nil {
			stringColumns(w, p.Columns[0]) // the labels, for Parquet output
		}
		return p.WriteCSV(w)
	})
}

// warnPredictionsBeyondRange warns of a regression's predictions beyond
// float64's range (±Inf from the library), which predict writes, and
// eval evaluates, as ±1.7976931348623157e+308 (models.Clamp).
func warnPredictionsBeyondRange(env *Env, d *data.Dataset, pred []float64) {
	n := 0
	for _, v := range pred {
		if math.IsInf(v, 0) {
			n++
		}
	}
	if n > 0 {
		env.warnf("%s: %d of %s beyond float64's range (±1.8e308): taken as ±%v",
			d.Source, n, count(len(pred), "prediction is", "predictions are"), math.MaxFloat64)
	}
}

// write writes the output file (--out) with writeTo.
func (o *predictOptions) write(env *Env, writeTo func(io.Writer) error) error {
	out, err := env.createRows(o.out)
	if err != nil {
		return err
	}
	defer out.Abort()
	if err := writeTo(out); err != nil {
		return err
	}
	return out.Commit()
}

// asRegressor returns m as a gendisc.Regressor when its kind is a
// regression (registry.Number): a gendisc.Clusterer has a method of the
// same signature, which the kind's target tells apart.
func asRegressor(m gendisc.Model) (gendisc.Regressor, bool) {
	r, ok := m.(gendisc.Regressor)
	k, err := registry.Lookup(m.Kind())
	return r, ok && err == nil && k.Target == registry.Number
}
