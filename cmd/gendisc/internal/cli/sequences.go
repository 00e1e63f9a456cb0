package cli

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/cv"
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
	pred, err := cv.TagSentences(t, c)
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
// and F1 with their macro and micro averages and the confusion matrix,
// and with --spans the span figures of BIO/IOB tags as conlleval computes
// them (cv.EvaluateSequences, the figures of every fold of cv).
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
	if _, err := newSentenceTagger(o.model, t, c); err != nil {
		return true, err
	}
	rep, err := cv.EvaluateSequences(t, c, o.spans)
	if err != nil {
		return true, err
	}
	if o.json {
		return true, writeJSON(env.Stdout, rep)
	}
	return true, rep.Text(env.Stdout)
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
