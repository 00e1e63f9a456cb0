package metrics

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/ngram"
)

// ScoreDocuments scores the documents of d (its text column m.Column())
// under the language model m: log P(doc) in nats and the tokens each
// predicts (its words and the end). byClass scores each document under
// its own class's model (d.Y, which must then hold no NaN); otherwise
// under the marginal over the classes.
func ScoreDocuments(m ngram.LanguageModel, d *data.Dataset, byClass bool) (logp []float64, tokens []int) {
	logp, tokens = make([]float64, d.N), make([]int, d.N)
	for i, doc := range d.Text[m.Column()] {
		k := -1
		if byClass {
			k = int(d.Y[i])
		}
		logp[i], tokens[i] = m.LogProb(doc, k)
	}
	return logp, tokens
}

// LanguageModelSummary is the totals of a language model's scores over
// documents: with L the total log-probability in nats and T the tokens,
// the cross-entropy H = −L / (T ln 2) bits per token and the perplexity
// 2^H.
type LanguageModelSummary struct {
	// Documents counts the documents with at least one token.
	Documents    int             `json:"documents"`
	Tokens       int             `json:"tokens"`
	TotalNats    modelfile.Float `json:"total_log_prob_nats"`
	TotalBits    modelfile.Float `json:"total_log_prob_bits"`
	CrossEntropy modelfile.Float `json:"cross_entropy_bits_per_token"`
	Perplexity   modelfile.Float `json:"perplexity"`
}

// SummarizeLanguageModel totals the scores logp and tokens of
// ScoreDocuments.
func SummarizeLanguageModel(logp []float64, tokens []int) LanguageModelSummary {
	var s LanguageModelSummary
	total := 0.0
	for i, v := range logp {
		if tokens[i] > 0 { // an empty document is none
			s.Documents++
		}
		total += v
		s.Tokens += tokens[i]
	}
	s.TotalNats, s.TotalBits = modelfile.Float(total), modelfile.Float(total/math.Ln2)
	h := -total / math.Ln2 / float64(s.Tokens)
	s.CrossEntropy, s.Perplexity = modelfile.Float(h), modelfile.Float(math.Exp2(h))
	return s
}

// String gives s in one line.
func (s LanguageModelSummary) String() string {
	return fmt.Sprintf("%d documents, %d tokens: log-probability %s nats (%s bits), cross-entropy %s bits per token, perplexity %s",
		s.Documents, s.Tokens, sig6(float64(s.TotalNats)), sig6(float64(s.TotalBits)), sig6(float64(s.CrossEntropy)), sig6(float64(s.Perplexity)))
}

// sig6 formats v to six significant digits, NaN and ±Inf as strconv does.
func sig6(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// LanguageModelReport is the evaluation of a language model on held-out
// documents: the cross-entropy and perplexity (under each document's own
// class's model when the model has classes, overall and per class) and,
// with classes, the classification report of the model as a classifier.
type LanguageModelReport struct {
	Overall  LanguageModelSummary            `json:"language_model"`
	PerClass map[string]LanguageModelSummary `json:"per_class,omitempty"`
	Report   *Report                         `json:"classification,omitempty"`
	classes  []string
}

// EvaluateLanguageModel evaluates the language model m on the documents
// of d. When m has classes, d needs the class of every row (a missing one
// is an error positioned at its row) and the report holds Evaluate's
// classification report too.
func EvaluateLanguageModel(m ngram.LanguageModel, d *data.Dataset) (*LanguageModelReport, error) {
	hasClasses := m.Schema().Target != nil
	rep := &LanguageModelReport{}
	if c, ok := m.(gendisc.Classifier); ok && hasClasses {
		for i, y := range d.Y {
			if math.IsNaN(y) {
				return nil, d.RowError(i, "%w: eval needs the true class of every row", data.ErrMissingTarget)
			}
		}
		var err error
		if rep.Report, err = Evaluate(c, d); err != nil {
			return nil, err
		}
	}
	logp, tokens := ScoreDocuments(m, d, hasClasses)
	rep.Overall = SummarizeLanguageModel(logp, tokens)
	if hasClasses {
		rep.classes = m.Classes()
		rep.PerClass = map[string]LanguageModelSummary{}
		for k, c := range rep.classes {
			var lp []float64
			var tok []int
			for i, y := range d.Y {
				if int(y) == k {
					lp, tok = append(lp, logp[i]), append(tok, tokens[i])
				}
			}
			if len(lp) > 0 {
				rep.PerClass[c] = SummarizeLanguageModel(lp, tok)
			}
		}
	}
	return rep, nil
}

// Text writes r in human-readable form.
func (r *LanguageModelReport) Text(w io.Writer) error {
	fmt.Fprintf(w, "language model: %s\n", r.Overall)
	if r.PerClass != nil {
		fmt.Fprintf(w, "(each document under its own class's model)\n")
		for _, c := range r.classes {
			if s, ok := r.PerClass[c]; ok {
				fmt.Fprintf(w, "  %s: %s\n", c, s)
			}
		}
	}
	if r.Report == nil {
		return nil
	}
	fmt.Fprintln(w)
	return r.Report.Text(w)
}
