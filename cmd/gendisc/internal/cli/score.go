package cli

import (
	"context"
	"flag"
	"fmt"
	"math"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/models"
)

var cmdScore = &Command{
	ReadsWithModel: true,
	Name:           "score",
	UsageLine:      "score --model M.json --data F [--out S.csv] [--json]",
	Short:          "log-likelihood of every row under a generative model (an anomaly score)",
	Long: `
Score writes the log-likelihood of every row of a data set under a fitted
generative model: the log of the density p(x) of the row's features, in
nats (natural log) and in bits (log base 2),

	log_p_nats,log_p_bits

one line per row, in the order of the input. For a generative classifier
(naive Bayes, lda, qda, mda), p(x) is the marginal density over the
classes, whatever the row's class column holds,

	log p(x) = log Σ_k p(x, y=k) = log Σ_k π_k p(x | y=k)

computed by log-sum-exp; for a Gaussian mixture (gmm, from gendisc
cluster), the mixture density log Σ_k π_k N(x; μ_k, Σ_k). A low score
marks a row unlike the training data. Missing cells are marginalised out:
the density is that of the observed features (a row with none observed
scores 0). In a text column, a word that is not in the vocabulary takes
the probability of one more vocabulary slot that no training document
filled, α/(N_k + α(V+1)) for multinomial naive Bayes (N_k the words of
class k, V the vocabulary), so that a document of unknown words scores
low; predictions leave such words out. An empty document is no
observation, as a missing cell (the model has no distribution of document
lengths): score warns of them. Numbers are written with the fewest digits that read back to
the same float64.

The number of rows, the mean log-likelihood per row and the total go to
standard error (unless --quiet); with --json they go to standard output
as JSON instead of the rows, which then go only to --out if it is given.
Discriminative models (logistic, linear) have no p(x) and are refused.

A model of sentences (hmm) scores each sentence of its sequence data:
log p(words) summed over the tag sequences (the forward algorithm), one
row per sentence, sentence,tokens,log_p_nats,log_p_bits. A discriminative
model of sentences (crf) has no p(words): it scores each tagged sentence
by log p(tags | words), in the same columns; a sentence without tags, or
with a tag the model never saw in training, is an error naming its line.

Example:

	gendisc cluster --data iris --target class --components 3 --out iris-gmm.json
	gendisc score --model iris-gmm.json --data iris --out scores.csv`,
	Required: []string{"model", "data"},
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		o := &scoreOptions{}
		fs.StringVar(&o.model, "model", "", "the model `file` of a generative model; - for standard input")
		fs.StringVar(&o.data, "data", "", "the data: a CSV or TSV `file`, - for standard input, or a bundled data set's name")
		fs.StringVar(&o.out, "out", "", "write the scores to this `file`; - for standard output (the default without --json)")
		fs.BoolVar(&o.json, "json", false, "print the summary as JSON on standard output instead of the scores")
		o.seq.register(fs)
		return withOutFormat(fs, func(ctx context.Context, env *Env) error { return o.run(env) }, "out")
	},
}

type scoreOptions struct {
	model, data, out string
	json             bool
	seq              seqFlags // a model of sentences (sequences.go)
}

// scoreSummary is what score prints about the scores as a whole.
type scoreSummary struct {
	Rows      int             `json:"rows"`
	MeanNats  modelfile.Float `json:"mean_log_likelihood_nats"`
	MeanBits  modelfile.Float `json:"mean_log_likelihood_bits"`
	TotalNats modelfile.Float `json:"total_log_likelihood_nats"`
	TotalBits modelfile.Float `json:"total_log_likelihood_bits"`
}

func (o *scoreOptions) run(env *Env) error {
	if o.out == "" && !o.json {
		o.out = "-"
	}
	if o.out == "-" && o.json {
		return usagef("--json and --out - would both write to standard output")
	}
	if o.model == "-" && o.data == "-" {
		return usagef("--model and --data cannot both be standard input")
	}
	e, m, err := env.loadModel(o.model)
	if err != nil {
		return err
	}
	if isLM, err := scoreLanguageModel(env, o, m); isLM {
		return err
	}
	if isSeq, err := scoreSequences(env, o, m); isSeq {
		return err
	}
	density, ok := models.Density(m)
	if !ok {
		return wrongKind(o.model, e.Kind, "is not generative: it has no density p(x) to score")
	}
	d, err := env.readWithSchema(o.data, m.Schema(), dataio.SchemaOptions{UnseenClassMissing: true})
	if err != nil {
		return err
	}
	if err := checkCounts(m, d); err != nil {
		return err
	}
	warnEmptyDocuments(env, d)
	scores := density(d)
	warnBeyondRange(env, d, scores)
	if o.out != "" {
		out, err := env.createRows(o.out)
		if err != nil {
			return err
		}
		defer out.Abort()
		if err := models.WriteScores(out, scores); err != nil {
			return err
		}
		if err := out.Commit(); err != nil {
			return err
		}
	}
	s := summarize(scores)
	if o.json {
		return writeJSON(env.Stdout, s)
	}
	if !env.Quiet {
		fmt.Fprintf(env.Stderr, "gendisc: score: %d rows, mean log-likelihood %s nats (%s bits) per row, total %s nats\n",
			s.Rows, num(float64(s.MeanNats)), num(float64(s.MeanBits)), num(float64(s.TotalNats)))
	}
	return nil
}

// warnEmptyDocuments warns of the empty documents of d's text columns:
// they are no observation, so they add nothing to a row's score, and a
// row whose only feature is an empty document scores log 1 = 0.
func warnEmptyDocuments(env *Env, d *data.Dataset) {
	for j, docs := range d.Text {
		n := 0
		for _, doc := range docs {
			if doc == "" {
				n++
			}
		}
		if n > 0 {
			env.warnf("%s: column %q: %s no observation, adding 0 nats to the score of its row as a missing cell", d.Source,
				d.Schema.Features[j].Name, count(n, "empty document is", "empty documents are"))
		}
	}
}

// warnBeyondRange warns of the rows of d whose log-likelihood is below
// float64's range (−Inf from the library: a row far out, about −1e600 at
// x = 1e300), which score writes as −1.7976931348623157e+308
// (models.Clamp); the mean and total, from the clamped values and
// clamped too, are then upper bounds.
func warnBeyondRange(env *Env, d *data.Dataset, scores []float64) {
	n := 0
	for _, v := range scores {
		if math.IsInf(v, -1) {
			n++
		}
	}
	if n > 0 {
		env.warnf("%s: %d of %s below -1.8e308, beyond float64: written as %v; the mean and total are upper bounds",
			d.Source, n, count(len(scores), "row has a log-likelihood", "rows have a log-likelihood"), -math.MaxFloat64)
	}
}

// summarize returns the number of rows, the total and the mean of the
// scores, in nats and bits, each clamped to float64's range
// (models.Clamp) as the scores are written.
func summarize(scores []float64) scoreSummary {
	total := 0.0
	for _, v := range scores {
		total += models.Clamp(v)
	}
	mean := models.Clamp(total) / float64(len(scores))
	return scoreSummary{Rows: len(scores), MeanNats: modelfile.Float(mean), MeanBits: modelfile.Float(models.Clamp(mean / math.Ln2)),
		TotalNats: modelfile.Float(models.Clamp(total)), TotalBits: modelfile.Float(models.Clamp(total / math.Ln2))}
}
