package cv

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/parallel"
	"github.com/gendisc/gendisc/metrics/seqeval"
	"github.com/gendisc/gendisc/registry"
	"github.com/gendisc/gendisc/seq"
)

// Cross-validation of the kinds of sentences (registry.Sequences: hidden
// Markov models, linear-chain CRFs) follows that of tables with a
// sentence in place of a row:
//
//   - the folds are of sentences (SentenceFolds: plain k-fold, the
//     sentences permuted at random; there are no classes to stratify
//     by, a sentence holding many tags), a fold file holding one fold
//     number per sentence in the order of the corpus;
//   - each fold's model is evaluated on the fold's sentences with the
//     figures of gendisc eval for a tagger (SequenceReport), and Result
//     gives them per fold with their mean and standard error, the "rows"
//     of a fold being its sentences;
//   - a one-pass kind (a registry.OnePassConfig whose accumulators are
//     gendisc.SequenceAccumulator, such as an HMM counted from tagged
//     sentences) takes one pass over the sentences, each fold's model the
//     merge of the other folds' accumulators, as Runner does for tables;
//     an iterative kind is refitted per fold, the folds in parallel, each
//     fit started from the model of all the sentences when the kind can
//     (registry.WarmSequenceConfig, a CRF).

// SequenceReport is the evaluation of a tagger on held-out tagged
// sentences, the report of gendisc eval for a tagger: the token figures
// of seqeval.Evaluate and, when asked for, the span figures of BIO/IOB
// tags (seqeval.Spans). It is a Report.
type SequenceReport struct {
	Tokens *seqeval.Report
	Spans  *seqeval.SpanReport // nil unless asked for
}

// EvaluateSequences evaluates the tagger t on the tagged sentences of c,
// as gendisc eval does: token accuracy, accuracy on the words that t did
// not see in training (when t is a gendisc.Vocabulary), sentence
// accuracy, per-tag precision, recall and F1 with their macro and micro
// averages and the confusion matrix, and with spans the span figures. A
// sentence without tags, or one that t cannot tag, is an error naming its
// line in c.
func EvaluateSequences(t gendisc.Tagger, c *seq.Corpus, spans bool) (*SequenceReport, error) {
	return evaluateSentences(t, c.Source, c.Sentences, nil, spans, nil)
}

// TagSentences returns the tags t gives each of the sentences of c
// (Tagger.TagAll; for a model trained on given attributes,
// gendisc.AttributeTagger's TagAttributes of each sentence, on every
// core), or the error of the first sentence that t refuses, naming its
// line: sentences given as t does not read them (words for a model of
// attributes, attributes for a model of words), an HMM gives some words
// probability 0.
func TagSentences(t gendisc.Tagger, c *seq.Corpus) ([][]string, error) {
	return tagSentences(t, c.Source, c.Sentences, nil)
}

// tagSentences is TagSentences of sentences of the file source, whose
// numbers in the file are number (nil: their order).
func tagSentences(t gendisc.Tagger, source string, sentences []seq.Sentence, number []int) ([][]string, error) {
	at, ok := t.(gendisc.AttributeTagger)
	onAttributes := ok && at.OnAttributes()
	var pred [][]string
	if onAttributes {
		pred = make([][]string, len(sentences))
		parallel.For(len(pred), tagBlock, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				pred[i], _ = at.TagAttributes(sentences[i].Attributes)
			}
		})
	} else {
		tokens := make([][]string, len(sentences))
		for i, s := range sentences {
			tokens[i] = s.Tokens
		}
		pred = t.TagAll(tokens)
	}
	for i, p := range pred {
		if p != nil {
			continue
		}
		s := sentences[i]
		var err error
		switch {
		case onAttributes:
			_, err = at.TagAttributes(s.Attributes)
		case s.Attributes != nil:
			err = errors.New("given as attributes (CRFsuite's data format), but the model was trained on words")
		default:
			_, err = t.TagTokens(s.Tokens)
		}
		return nil, fmt.Errorf("%s: sentence %d cannot be tagged: %v", sentencePlace(source, s), sentenceNumber(number, i), err)
	}
	return pred, nil
}

// tagBlock is the fewest sentences tagSentences gives a core at a time.
const tagBlock = 16

// sentencePlace names the place of sentence s of the file source:
// "source:line", or the source alone when s has no line.
func sentencePlace(source string, s seq.Sentence) string {
	if s.Line > 0 {
		return fmt.Sprintf("%s:%d", source, s.Line)
	}
	return source
}

// sentenceNumber returns the number from 1 in its file of sentence i of
// those whose 0-based indices in the file are number (nil: i itself).
func sentenceNumber(number []int, i int) int {
	if number != nil {
		return number[i] + 1
	}
	return i + 1
}

// evaluateSentences evaluates m, which must be a gendisc.Tagger, on the
// sentences of the file source (numbered in it by number, see
// sentenceNumber), as EvaluateSequences; with tags, the per-tag figures
// and the confusion matrix cover those tags too (widenTags).
func evaluateSentences(m gendisc.Model, source string, sentences []seq.Sentence, number []int, spans bool, tags []string) (*SequenceReport, error) {
	t, ok := m.(gendisc.Tagger)
	if !ok {
		return nil, fmt.Errorf("cv: a %s model does not tag sentences", m.Kind())
	}
	truth := make([][]string, len(sentences))
	tokens := make([][]string, len(sentences))
	for i, s := range sentences {
		if !s.Tagged() {
			return nil, fmt.Errorf("%s: sentence %d has no tags to evaluate against", sentencePlace(source, s), sentenceNumber(number, i))
		}
		truth[i], tokens[i] = s.Tags, s.Tokens
	}
	pred, err := tagSentences(t, source, sentences, number)
	if err != nil {
		return nil, err
	}
	var known func(string) bool // the accuracy on unknown words, when the model knows its words
	if v, ok := m.(gendisc.Vocabulary); ok && hasVocabulary(m) {
		known = v.Known
	}
	rep, err := seqeval.Evaluate(truth, pred, tokens, known)
	if err != nil {
		return nil, err
	}
	out := &SequenceReport{Tokens: widenTags(rep, tags)}
	if spans {
		if out.Spans, err = seqeval.Spans(truth, pred); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// hasVocabulary reports whether a gendisc.Vocabulary has its words: all
// do but a gendisc.OptionalVocabulary without them (an old model file, a
// model trained on given attributes).
func hasVocabulary(m gendisc.Model) bool {
	o, ok := m.(gendisc.OptionalVocabulary)
	return !ok || o.HasVocabulary()
}

// widenTags returns r with its per-tag figures and confusion matrix over
// the union of its tags and tags, sorted: a tag that r lacks (neither
// true nor predicted in its sentences) has support 0, undefined (NaN)
// precision, recall and F1, and a row and column of zeros, as
// seqeval.Evaluate gives such a tag. The folds of a cross-validation are
// so widened to the tags of the whole corpus, so that their per-tag
// figures line up tag by tag and average (Result). r itself is returned
// when it has every tag.
func widenTags(r *seqeval.Report, tags []string) *seqeval.Report {
	all := slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(r.Tags), tags...))))
	if slices.Equal(all, r.Tags) {
		return r
	}
	at := seq.Index(r.Tags)
	out := *r
	out.Tags = all
	out.PerTag = make([]seqeval.TagMetrics, len(all))
	out.Confusion = make([][]int, len(all))
	nan := math.NaN()
	for i, t := range all {
		out.Confusion[i] = make([]int, len(all))
		j, ok := at[t]
		if !ok {
			out.PerTag[i] = seqeval.TagMetrics{Tag: t, Precision: nan, Recall: nan, F1: nan}
			continue
		}
		out.PerTag[i] = r.PerTag[j]
		for l, u := range all {
			if k, ok := at[u]; ok {
				out.Confusion[i][l] = r.Confusion[j][k]
			}
		}
	}
	return &out
}

// MarshalJSON writes r in the layout of gendisc eval --json for a tagger:
// tokens, correct, accuracy, error (1 − accuracy), unknown_tokens,
// unknown_correct, unknown_accuracy, sentences, sentences_correct,
// sentence_accuracy, macro_avg and micro_avg (precision, recall, f1;
// seqeval.Report.Macro and Micro), tags, per_tag (tag, precision,
// recall, f1, support), confusion (rows: true tags, columns: predicted),
// and with spans, spans; an undefined figure (0/0) is null.
func (r *SequenceReport) MarshalJSON() ([]byte, error) {
	type tagJSON struct {
		Tag       string   `json:"tag"`
		Precision *float64 `json:"precision"`
		Recall    *float64 `json:"recall"`
		F1        *float64 `json:"f1"`
		Support   int      `json:"support"`
	}
	type averageJSON struct {
		Precision *float64 `json:"precision"`
		Recall    *float64 `json:"recall"`
		F1        *float64 `json:"f1"`
	}
	type out struct {
		Tokens           int                 `json:"tokens"`
		Correct          int                 `json:"correct"`
		Accuracy         *float64            `json:"accuracy"`
		Error            *float64            `json:"error"`
		Unknown          int                 `json:"unknown_tokens"`
		UnknownCorrect   int                 `json:"unknown_correct"`
		UnknownAccuracy  *float64            `json:"unknown_accuracy"`
		Sentences        int                 `json:"sentences"`
		SentencesCorrect int                 `json:"sentences_correct"`
		SentenceAccuracy *float64            `json:"sentence_accuracy"`
		Macro            averageJSON         `json:"macro_avg"`
		Micro            averageJSON         `json:"micro_avg"`
		Tags             []string            `json:"tags"`
		PerTag           []tagJSON           `json:"per_tag"`
		Confusion        [][]int             `json:"confusion"`
		Spans            *seqeval.SpanReport `json:"spans,omitempty"`
	}
	average := func(a seqeval.Average) averageJSON {
		return averageJSON{orNull(a.Precision), orNull(a.Recall), orNull(a.F1)}
	}
	t := r.Tokens
	o := out{
		Tokens: t.Tokens, Correct: t.Correct, Accuracy: orNull(t.Accuracy), Error: orNull(1 - t.Accuracy),
		Unknown: t.Unknown, UnknownCorrect: t.UnknownCorrect, UnknownAccuracy: orNull(t.UnknownAccuracy),
		Sentences: t.Sentences, SentencesCorrect: t.SentencesCorrect, SentenceAccuracy: orNull(t.SentenceAccuracy),
		Macro: average(t.Macro()), Micro: average(t.Micro()),
		Tags: t.Tags, Confusion: t.Confusion, Spans: r.Spans,
	}
	for _, m := range t.PerTag {
		o.PerTag = append(o.PerTag, tagJSON{m.Tag, orNull(m.Precision), orNull(m.Recall), orNull(m.F1), m.Support})
	}
	return json.Marshal(o)
}

// orNull returns v, or nil (JSON's null) for NaN, a figure whose
// denominator is 0.
func orNull(v float64) *float64 {
	if math.IsNaN(v) {
		return nil
	}
	return &v
}

// Text writes r as gendisc eval prints it for a tagger: the accuracies
// with their counts, a line per tag (precision, recall, F1, support) and
// the macro and micro averages, the confusion matrix, and the spans.
func (r *SequenceReport) Text(w io.Writer) error {
	t := r.Tokens
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "token accuracy\t%s\n", shareText(t.Accuracy, t.Correct, t.Tokens))
	fmt.Fprintf(tw, "unknown-word accuracy\t%s\n", shareText(t.UnknownAccuracy, t.UnknownCorrect, t.Unknown))
	fmt.Fprintf(tw, "sentence accuracy\t%s\n", shareText(t.SentenceAccuracy, t.SentencesCorrect, t.Sentences))
	fmt.Fprintf(tw, "\ntag\tprecision\trecall\tf1\tsupport\n")
	for _, m := range t.PerTag {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\n", m.Tag, figureText(m.Precision), figureText(m.Recall), figureText(m.F1), m.Support)
	}
	for _, a := range []struct {
		name string
		avg  seqeval.Average
	}{{"macro avg", t.Macro()}, {"micro avg", t.Micro()}} {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\n", a.name, figureText(a.avg.Precision), figureText(a.avg.Recall), figureText(a.avg.F1), t.Tokens)
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
		fmt.Fprintf(tw, "all\t%s\t%s\t%s\t%d\t%d\t%d\n", figureText(s.Precision), figureText(s.Recall), figureText(s.F1), s.True, s.Predicted, s.Correct)
		for _, m := range s.Types {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%d\n", m.Type, figureText(m.Precision), figureText(m.Recall), figureText(m.F1), m.True, m.Predicted, m.Correct)
		}
	}
	return tw.Flush()
}

// shareText writes a share with its counts: "0.9335 (23475/25147)", or
// "undefined (0/0)".
func shareText(v float64, k, n int) string {
	return fmt.Sprintf("%s (%d/%d)", figureText(v), k, n)
}

// figureText writes a figure with 4 decimals, "undefined" for NaN.
func figureText(v float64) string {
	if math.IsNaN(v) {
		return "undefined"
	}
	return fmt.Sprintf("%.4f", v)
}

// SentenceFolds assigns n sentences to k folds at random: KFold, the
// sentences permuted and cut into k runs of ⌊n/k⌋ or ⌊n/k⌋+1 sentences.
// There is no stratification: a sentence holds many tags, and its tags
// are not a class. It returns an error wrapping ErrFolds unless 2 ≤ k ≤ n.
func SentenceFolds(n, k int, seed uint64) (Folds, error) {
	if k > n {
		return nil, fmt.Errorf("cv: %w: %d folds for %d sentences; at most one fold per sentence", ErrFolds, k, n)
	}
	return KFold(n, k, seed)
}

// CheckSentenceFolds returns an error wrapping ErrFolds, naming the fold,
// when f cannot cross-validate n sentences: f does not have n entries,
// there are fewer than 2 folds or more than sentences, or a fold has no
// sentence.
func CheckSentenceFolds(f Folds, n int) error {
	if len(f) != n {
		return fmt.Errorf("cv: %w: %d fold numbers for %d sentences", ErrFolds, len(f), n)
	}
	k := f.K()
	switch {
	case k < 2:
		return fmt.Errorf("cv: %w: %d folds; at least 2 are needed", ErrFolds, k)
	case k > n:
		return fmt.Errorf("cv: %w: %d folds for %d sentences; at most one fold per sentence", ErrFolds, k, n)
	}
	for fold, s := range f.Sizes() {
		if s == 0 {
			return fmt.Errorf("cv: %w: fold %d has no sentences (the folds are numbered 0 to %d)", ErrFolds, fold, k-1)
		}
	}
	return nil
}

// SequenceRunner cross-validates one configuration of a kind of
// sentences (see the comment at the top of this file).
type SequenceRunner struct {
	// Config is the configuration cross-validated. A OnePassConfig whose
	// accumulators are gendisc.SequenceAccumulator takes one pass over
	// the sentences; a WarmSequenceConfig is refitted per fold from the
	// model of all the sentences (unless Cold); any other is refitted
	// per fold.
	Config registry.SequenceConfig
	// Spans adds the span figures of BIO/IOB tags to every fold's report.
	Spans bool
	// Cold refits every fold from the kind's own start, without the
	// warm start of a WarmSequenceConfig. A warm fold fit reaches the
	// optimum of a cold one when the fits converge (the CRF's objective
	// is convex); a fit stopped early (at an iteration limit, which its
	// warning says) stops nearer the start, the model of all the
	// sentences, which has seen the fold: its figures may then be
	// optimistic, and Cold is the safe choice.
	Cold bool
	// Workers bounds the folds fitted and evaluated at once; 0 means
	// runtime.GOMAXPROCS(0). A fit that runs on several cores of its
	// own (a CRF's --jobs) multiplies it: the caller divides the cores
	// between them.
	Workers int
	// Progress, when set, is called after every fold's evaluation with
	// the number of folds done and the total, from one goroutine at a
	// time.
	Progress func(done, total int)
}

// Run cross-validates on the tagged sentences of c with each of the fold
// assignments repeats (each checked by CheckSentenceFolds): for every
// fold it fits a model to the sentences of the other folds, in one pass
// for a one-pass kind (each fold's model the merge of the other folds'
// accumulators, the model a refit gives, bit for bit for the counts of an
// HMM), and evaluates it on the fold's sentences (SequenceReport, its
// per-tag figures over every tag of c). The reports' figures do not
// depend on Workers. Errors name the fold (and the repeat when there are
// several); a sentence without tokens or tags is an error naming its
// line, before any fit.
func (r *SequenceRunner) Run(c *seq.Corpus, repeats ...Folds) (*Result, error) {
	if len(repeats) == 0 {
		return nil, errors.New("cv: no fold assignment")
	}
	if r.Config == nil {
		return nil, errors.New("cv: no configuration to cross-validate")
	}
	var tags []string
	for i, s := range c.Sentences {
		switch {
		case len(s.Tokens) == 0:
			return nil, fmt.Errorf("%s: sentence %d has no tokens", sentencePlace(c.Source, s), i+1)
		case !s.Tagged():
			return nil, fmt.Errorf("%s: sentence %d has no tags: cross-validation needs the tags of every sentence", sentencePlace(c.Source, s), i+1)
		}
		tags = append(tags, s.Tags...)
	}
	tags = slices.Compact(slices.Sorted(slices.Values(tags)))
	for rep, f := range repeats {
		if err := CheckSentenceFolds(f, len(c.Sentences)); err != nil {
			return nil, (&Runner{}).inRepeat(rep, len(repeats), err)
		}
	}
	runner := &Runner{
		Fit: func(d *data.Dataset) (gendisc.Model, error) {
			return r.Config.FitSequences(subCorpus(c, sentenceIndices(d)), nil)
		},
		Evaluate: func(m gendisc.Model, test *data.Dataset) (Report, error) {
			idx := sentenceIndices(test)
			return evaluateSentences(m, c.Source, subCorpus(c, idx).Sentences, idx, r.Spans, tags)
		},
		NewAccumulator: r.newAccumulator(c.Sentences),
		Workers:        r.Workers,
		Progress:       r.Progress,
	}
	if warm, ok := r.Config.(registry.WarmSequenceConfig); ok && runner.NewAccumulator == nil && !r.Cold {
		runner.WarmFit = func(d *data.Dataset, from gendisc.Model) (gendisc.Model, error) {
			return warm.FitSequencesFrom(subCorpus(c, sentenceIndices(d)), from, nil)
		}
	}
	return runner.Run(sentenceRows(len(c.Sentences)), repeats...)
}

// subCorpus returns the sentences of c at the indices idx, in that order.
func subCorpus(c *seq.Corpus, idx []int) *seq.Corpus {
	out := &seq.Corpus{Source: c.Source, Sentences: make([]seq.Sentence, len(idx))}
	for i, j := range idx {
		out.Sentences[i] = c.Sentences[j]
	}
	return out
}

// newAccumulator returns the function that gives an empty accumulator of
// r.Config for the one-pass path over sentences (sentenceAccumulator), or
// nil when the configuration has no accumulator of sentences.
func (r *SequenceRunner) newAccumulator(sentences []seq.Sentence) func() (gendisc.Accumulator, error) {
	op, ok := r.Config.(registry.OnePassConfig)
	if !ok {
		return nil
	}
	a, err := op.NewAccumulator()
	if _, isSeq := a.(gendisc.SequenceAccumulator); err != nil || !isSeq {
		return nil
	}
	return func() (gendisc.Accumulator, error) {
		a, err := op.NewAccumulator()
		if err != nil {
			return nil, err
		}
		return &sentenceAccumulator{SequenceAccumulator: a.(gendisc.SequenceAccumulator), sentences: sentences}, nil
	}
}

// sentenceRows is the table that Runner walks for n sentences: one row
// per sentence, whose one column holds the sentence's index, which the
// fits, the evaluations and a sentenceAccumulator of SequenceRunner read
// (sentenceIndices).
func sentenceRows(n int) *data.Dataset {
	x := make([]float64, n)
	for i := range x {
		x[i] = float64(i)
	}
	return data.FromMatrix([]string{"sentence"}, x, nil, nil)
}

// sentenceIndices returns the sentence indices of the rows of d, a
// subset of sentenceRows.
func sentenceIndices(d *data.Dataset) []int {
	idx := make([]int, d.N)
	for i := range idx {
		idx[i] = int(d.X[i])
	}
	return idx
}

// sentenceAccumulator is the accumulator of a sequence kind seen by the
// one-pass path of tables: the rows added to it are sentence indices
// (sentenceRows), and it adds those sentences; merges, copies and the
// model are the kind's own.
type sentenceAccumulator struct {
	gendisc.SequenceAccumulator
	sentences []seq.Sentence
}

// Add adds the sentences whose indices are the rows of d.
func (a *sentenceAccumulator) Add(d *data.Dataset) error {
	batch := make([]seq.Sentence, d.N)
	for i, j := range sentenceIndices(d) {
		batch[i] = a.sentences[j]
	}
	return a.AddSentences(batch)
}

// Merge merges the kind's accumulator of o.
func (a *sentenceAccumulator) Merge(o gendisc.Accumulator) error {
	if s, ok := o.(*sentenceAccumulator); ok {
		o = s.SequenceAccumulator
	}
	return a.SequenceAccumulator.Merge(o)
}

// sequenceMetrics are the metrics a search of a kind of sentences
// optimises (Metrics), the default first: the token error rate
// (1 − token accuracy), the sentence accuracy, the accuracy on unknown
// words, the macro-averaged F1 of the tags, and the span F1 of BIO/IOB
// tags (whose search adds the span figures to the reports).
var sequenceMetrics = []Metric{
	{Name: "error", Path: []string{"error"}},
	{Name: "sentence-accuracy", Path: []string{"sentence_accuracy"}, Larger: true},
	{Name: "unknown-accuracy", Path: []string{"unknown_accuracy"}, Larger: true},
	{Name: "macro-f1", Path: []string{"macro_avg", "f1"}, Larger: true},
	{Name: "span-f1", Path: []string{"spans", "F1"}, Larger: true},
}

// spansMetric reports whether the metric m needs the span figures.
func spansMetric(m Metric) bool { return len(m.Path) > 0 && m.Path[0] == "spans" }
