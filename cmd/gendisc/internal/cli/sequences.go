package cli

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/metrics/seqeval"
	"github.com/gendisc/gendisc/seq"
)

// The commands on the models of sentences, chosen by their capabilities
// (gendisc.Tagger, MarginalTagger, Vocabulary, SequenceDensity, SentenceSampler), as the
// language models' are in languagemodel.go:
//
//   - predict writes a CSV row per token, sentence,token,word,tag (the
//     sentence and the token numbered from 1 in the order of the input;
//     the word empty for a sentence given as attributes), with
//     --marginals p_<tag> for every tag: P(t_i = tag | words); with
//     --tagged, the input with the predicted tags (predict_tagged.go);
//   - score writes a CSV row per sentence, sentence,tokens,log_p_nats,log_p_bits;
//   - eval compares the tags with those of the data (seqeval);
//   - sample writes tagged sentences in the column format, "word<TAB>tag"
//     a line and a blank line after each sentence, which fit reads back.

// sentenceTokens returns the tokens of each sentence of c.
func sentenceTokens(c *seq.Corpus) [][]string {
	tokens := make([][]string, len(c.Sentences))
	for i, s := range c.Sentences {
		tokens[i] = s.Tokens
	}
	return tokens
}

// predictTagger runs predict for a tagger and reports whether m is one.
func predictTagger(env *Env, o *predictOptions, m gendisc.Model) (bool, error) {
	t, ok := m.(gendisc.Tagger)
	if !ok {
		return false, nil
	}
	c, err := env.readSentences(o.data, &o.seq)
	if err != nil {
		return true, err
	}
	st, err := newSentenceTagger(o.model, t, c)
	if err != nil {
		return true, err
	}
	if o.marginals && !st.hasMarginals() {
		return true, wrongKind(o.model, m.Kind(), "has no posterior marginals of the tags")
	}
	tags := t.Tags()
	pred, err := st.tagAll(c)
	if err != nil {
		return true, err
	}
	return true, o.write(env, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		header := []string{"sentence", "token", "word", "tag"}
		if o.marginals {
			for _, tag := range tags {
				header = append(header, "p_"+tag)
			}
		}
		writeCSVRow(bw, header)
		row := make([]string, len(header))
		for i, s := range c.Sentences {
			var p [][]float64
			if o.marginals {
				p, _ = st.marginals(s) // nil: probability 0
			}
			for j, tag := range pred[i] {
				word := "" // none for a sentence given as attributes
				if s.Tokens != nil {
					word = s.Tokens[j]
				}
				row = append(row[:0], strconv.Itoa(i+1), strconv.Itoa(j+1), word, tag)
				for k := range tags {
					if p == nil { // probability 0 under the model: no posterior
						row = append(row, "")
					} else {
						row = append(row, fmtFloat(p[j][k]))
					}
				}
				writeCSVRow(bw, row[:len(header)])
			}
		}
		return bw.Flush()
	})
}

// writeCSVRow writes the fields of a CSV row, quoted where they need it.
func writeCSVRow(w *bufio.Writer, fields []string) {
	for i, f := range fields {
		if i > 0 {
			w.WriteByte(',')
		}
		if f == "" || !strings.ContainsAny(f, ",\"\r\n") && strings.TrimSpace(f) == f {
			w.WriteString(f)
			continue
		}
		w.WriteString(`"` + strings.ReplaceAll(f, `"`, `""`) + `"`)
	}
	w.WriteByte('\n')
}

// scoreSequences runs score for a tagger and reports whether m is one:
// log p(words) of every sentence by the forward algorithm for a
// generative tagger (gendisc.SequenceDensity), else log p(tags | words)
// of every tagged sentence for a discriminative one
// (gendisc.ConditionalTagScorer), and the summary scoreSummary, its rows
// being sentences.
func scoreSequences(env *Env, o *scoreOptions, m gendisc.Model) (bool, error) {
	t, ok := m.(gendisc.Tagger)
	if !ok {
		return false, nil
	}
	c, err := env.readSentences(o.data, &o.seq)
	if err != nil {
		return true, err
	}
	st, err := newSentenceTagger(o.model, t, c)
	if err != nil {
		return true, err
	}
	d, density := m.(gendisc.SequenceDensity)
	density = density && st.attrs == nil
	cond, conditional := st.conditional()
	if !density && !conditional {
		return true, wrongKind(o.model, m.Kind(), "has neither a density p(words) nor a probability p(tags | words) to score")
	}
	scores := make([]float64, len(c.Sentences))
	for i, s := range c.Sentences {
		if density {
			scores[i] = d.LogProb(s.Tokens)
			continue
		}
		if !s.Tagged() {
			return true, fmt.Errorf("%s:%d: sentence %d has no tags: a discriminative tagger scores p(tags | words)", c.Source, s.Line, i+1)
		}
		if scores[i], err = cond(s); err != nil {
			return true, fmt.Errorf("%s:%d: sentence %d: %w", c.Source, s.Line, i+1, err)
		}
	}
	if o.out != "" {
		out, err := env.createRows(o.out)
		if err != nil {
			return true, err
		}
		defer out.Abort()
		w := bufio.NewWriter(out)
		fmt.Fprintln(w, "sentence,tokens,log_p_nats,log_p_bits")
		for i, v := range scores {
			fmt.Fprintf(w, "%d,%d,%s,%s\n", i+1, c.Sentences[i].Len(), fmtFloat(v), fmtFloat(v/math.Ln2))
		}
		if err := w.Flush(); err != nil {
			return true, err
		}
		if err := out.Commit(); err != nil {
			return true, err
		}
	}
	s := summarize(scores)
	if o.json {
		return true, writeJSON(env.Stdout, s)
	}
	if !env.Quiet {
		fmt.Fprintf(env.Stderr, "gendisc: score: %d sentences, %d tokens, mean log-likelihood %s nats (%s bits) per sentence, total %s nats\n",
			s.Rows, c.Tokens(), num(float64(s.MeanNats)), num(float64(s.MeanBits)), num(float64(s.TotalNats)))
	}
	return true, nil
}

// evalTagger runs eval for a tagger and reports whether m is one: the
// token, unknown-word and sentence accuracies, per-tag precision, recall
// and F1 and the confusion matrix, and with --spans the span figures of
// BIO/IOB tags as conlleval computes them.
func evalTagger(env *Env, o *evalOptions, m gendisc.Model) (bool, error) {
	t, ok := m.(gendisc.Tagger)
	if !ok {
		return false, nil
	}
	if o.weight != "" {
		return true, usagef("--weight: the sentences of a tagger have no weight column")
	}
	c, err := env.readSentences(o.data, &o.seq)
	if err != nil {
		return true, err
	}
	truth := make([][]string, len(c.Sentences))
	for i, s := range c.Sentences {
		if !s.Tagged() {
			return true, fmt.Errorf("%s:%d: sentence %d has no tags to evaluate against", c.Source, s.Line, i+1)
		}
		truth[i] = s.Tags
	}
	st, err := newSentenceTagger(o.model, t, c)
	if err != nil {
		return true, err
	}
	tokens := sentenceTokens(c)
	pred, err := st.tagAll(c)
	if err != nil {
		return true, err
	}
	var known func(string) bool // the accuracy on unknown words, when the model knows its words
	if v, ok := m.(gendisc.Vocabulary); ok && st.attrs == nil && hasVocabulary(m) {
		known = v.Known
	}
	rep, err := seqeval.Evaluate(truth, pred, tokens, known)
	if err != nil {
		return true, err
	}
	out := seqEvalReport{Tokens: rep}
	if o.spans {
		if out.Spans, err = seqeval.Spans(truth, pred); err != nil {
			return true, err
		}
	}
	if o.json {
		return true, writeJSON(env.Stdout, out.json())
	}
	return true, out.writeText(env.Stdout)
}

// hasVocabulary reports whether a gendisc.Vocabulary has its words: all
// do but a gendisc.OptionalVocabulary without them.
func hasVocabulary(m gendisc.Model) bool {
	o, ok := m.(gendisc.OptionalVocabulary)
	return !ok || o.HasVocabulary()
}

// seqEvalReport is what eval reports of a tagger.
type seqEvalReport struct {
	Tokens *seqeval.Report
	Spans  *seqeval.SpanReport // nil without --spans
}

// orNull returns v, or nil (JSON's null) for NaN, a figure whose
// denominator is 0.
func orNull(v float64) *float64 {
	if math.IsNaN(v) {
		return nil
	}
	return &v
}

// json returns the report in the layout of eval --json.
func (r seqEvalReport) json() any {
	type tagJSON struct {
		Tag       string   `json:"tag"`
		Precision *float64 `json:"precision"`
		Recall    *float64 `json:"recall"`
		F1        *float64 `json:"f1"`
		Support   int      `json:"support"`
	}
	type out struct {
		Tokens           int                 `json:"tokens"`
		Correct          int                 `json:"correct"`
		Accuracy         *float64            `json:"accuracy"`
		Unknown          int                 `json:"unknown_tokens"`
		UnknownCorrect   int                 `json:"unknown_correct"`
		UnknownAccuracy  *float64            `json:"unknown_accuracy"`
		Sentences        int                 `json:"sentences"`
		SentencesCorrect int                 `json:"sentences_correct"`
		SentenceAccuracy *float64            `json:"sentence_accuracy"`
		Tags             []string            `json:"tags"`
		PerTag           []tagJSON           `json:"per_tag"`
		Confusion        [][]int             `json:"confusion"`
		Spans            *seqeval.SpanReport `json:"spans,omitempty"`
	}
	t := r.Tokens
	o := out{
		Tokens: t.Tokens, Correct: t.Correct, Accuracy: orNull(t.Accuracy),
		Unknown: t.Unknown, UnknownCorrect: t.UnknownCorrect, UnknownAccuracy: orNull(t.UnknownAccuracy),
		Sentences: t.Sentences, SentencesCorrect: t.SentencesCorrect, SentenceAccuracy: orNull(t.SentenceAccuracy),
		Tags: t.Tags, Confusion: t.Confusion, Spans: r.Spans,
	}
	for _, m := range t.PerTag {
		o.PerTag = append(o.PerTag, tagJSON{m.Tag, orNull(m.Precision), orNull(m.Recall), orNull(m.F1), m.Support})
	}
	return o
}

// ratio writes a share with its counts: "0.9335 (23475/25147)", or
// "undefined (0/0)".
func ratio(v float64, k, n int) string {
	if math.IsNaN(v) {
		return fmt.Sprintf("undefined (%d/%d)", k, n)
	}
	return fmt.Sprintf("%.4f (%d/%d)", v, k, n)
}

// seqFigure writes a precision, recall or F1, "undefined" for NaN.
func seqFigure(v float64) string {
	if math.IsNaN(v) {
		return "undefined"
	}
	return fmt.Sprintf("%.4f", v)
}

// writeText writes the report as eval prints it.
func (r seqEvalReport) writeText(w io.Writer) error {
	t := r.Tokens
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "token accuracy\t%s\n", ratio(t.Accuracy, t.Correct, t.Tokens))
	fmt.Fprintf(tw, "unknown-word accuracy\t%s\n", ratio(t.UnknownAccuracy, t.UnknownCorrect, t.Unknown))
	fmt.Fprintf(tw, "sentence accuracy\t%s\n", ratio(t.SentenceAccuracy, t.SentencesCorrect, t.Sentences))
	fmt.Fprintf(tw, "\ntag\tprecision\trecall\tf1\tsupport\n")
	for _, m := range t.PerTag {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\n", m.Tag, seqFigure(m.Precision), seqFigure(m.Recall), seqFigure(m.F1), m.Support)
	}
	fmt.Fprintf(tw, "\nconfusion (rows: true tag, columns: predicted)\t%s\n", strings.Join(t.Tags, "\t"))
	for i, row := range t.Confusion {
		fmt.Fprintf(tw, "%s", t.Tags[i])
		for _, n := range row {
			fmt.Fprintf(tw, "\t%d", n)
		}
		fmt.Fprintln(tw)
	}
	if s := r.Spans; s != nil {
		fmt.Fprintf(tw, "\nspans\tprecision\trecall\tf1\ttrue\tpredicted\tcorrect\n")
		fmt.Fprintf(tw, "all\t%s\t%s\t%s\t%d\t%d\t%d\n", seqFigure(s.Precision), seqFigure(s.Recall), seqFigure(s.F1), s.True, s.Predicted, s.Correct)
		for _, m := range s.Types {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%d\n", m.Type, seqFigure(m.Precision), seqFigure(m.Recall), seqFigure(m.F1), m.True, m.Predicted, m.Correct)
		}
	}
	return tw.Flush()
}

// sampleSentences runs sample for a model that draws tagged sentences and
// reports whether m is one: -n sentences of at most --max-words tokens,
// beginning with --prompt's words or --prompt-tags' tags, in the column
// format.
func sampleSentences(env *Env, o *sampleOptions, m gendisc.Model) (bool, error) {
	if _, ok := m.(gendisc.Tagger); !ok {
		return false, nil
	}
	s, ok := m.(gendisc.SentenceSampler)
	if !ok {
		return true, wrongKind(o.model, m.Kind(), "does not generate sentences")
	}
	if o.class != "" || o.clip {
		return true, usagef("--class and --clip are for rows: a tagger draws sentences (--prompt, --prompt-tags)")
	}
	var prompt seq.Prompt
	if words := strings.Fields(o.lm.prompt); len(words) > 0 {
		prompt.Words = words
	}
	if tags := strings.Fields(o.promptTags); len(tags) > 0 {
		if prompt.Words != nil {
			return true, usagef("--prompt and --prompt-tags: a sentence starts with words or with tags, not both")
		}
		prompt.Tags = tags
	}
	w, commit, abort, err := env.stdoutOrCreate(o.out, false)
	if err != nil {
		return true, err
	}
	defer abort()
	rng := rand.New(rand.NewPCG(o.seed, 0))
	for range int(o.n) {
		sentence, err := s.Sample(rng, prompt, o.lm.maxWords)
		if err != nil {
			return true, err
		}
		for i, word := range sentence.Tokens {
			fmt.Fprintf(w, "%s\t%s\n", word, sentence.Tags[i])
		}
		if _, err := fmt.Fprintln(w); err != nil {
			return true, err
		}
	}
	return true, commit()
}
