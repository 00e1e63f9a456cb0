package cli

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/metrics"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/modelflags"
	"github.com/gendisc/gendisc/ngram"
)

// lmScores holds, per document, log P in nats and the tokens predicted.
type lmScores struct {
	logp   []float64
	tokens []int
}

// scoreDocs scores the documents of d under m: the marginal over the
// classes (class −1) or the class of each row (byClass).
func scoreDocs(m gendisc.LanguageModel, d *data.Dataset, byClass bool) lmScores {
	s := lmScores{logp: make([]float64, d.N), tokens: make([]int, d.N)}
	for i, doc := range d.Text[m.Column()] {
		k := -1
		if byClass {
			k = int(d.Y[i])
		}
		s.logp[i], s.tokens[i] = m.LogProb(doc, k)
	}
	return s
}

// lmSummary is the totals of a language model's scores: cross-entropy H
// in bits per token and perplexity 2^H over the documents and the End
// symbols they predict.
type lmSummary struct {
	Documents    int             `json:"documents"`
	Tokens       int             `json:"tokens"`
	TotalNats    modelfile.Float `json:"total_log_prob_nats"`
	TotalBits    modelfile.Float `json:"total_log_prob_bits"`
	CrossEntropy modelfile.Float `json:"cross_entropy_bits_per_token"`
	Perplexity   modelfile.Float `json:"perplexity"`
}

func summarizeLM(logp []float64, tokens []int) lmSummary {
	var s lmSummary
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

func (s lmSummary) text() string {
	return fmt.Sprintf("%d documents, %d tokens: log-probability %s nats (%s bits), cross-entropy %s bits per token, perplexity %s",
		s.Documents, s.Tokens, num(float64(s.TotalNats)), num(float64(s.TotalBits)), num(float64(s.CrossEntropy)), num(float64(s.Perplexity)))
}

// scoreLanguageModel runs score for a language model and reports whether
// m is one: per document its log-probability in nats and bits, its tokens
// (words and the end), bits per token and perplexity; the totals on
// standard error, or with --json on standard output.
func scoreLanguageModel(env *Env, o *scoreOptions, m gendisc.Model) (bool, error) {
	lm, ok := m.(gendisc.LanguageModel)
	if !ok {
		return false, nil
	}
	d, err := readLMData(env, o.data, lm, data.SchemaOptions{UnseenClassMissing: true})
	if err != nil {
		return true, err
	}
	s := scoreDocs(lm, d, false)
	if o.out != "" {
		out, err := env.createRows(o.out)
		if err != nil {
			return true, err
		}
		defer out.Abort()
		w := bufio.NewWriter(out)
		fmt.Fprintln(w, "log_p_nats,log_p_bits,tokens,bits_per_token,perplexity")
		for i, v := range s.logp {
			bits := v / math.Ln2
			if s.tokens[i] == 0 { // an empty document: no tokens to average over
				fmt.Fprintf(w, "0,0,0,,\n")
				continue
			}
			h := -bits / float64(s.tokens[i])
			fmt.Fprintf(w, "%s,%s,%d,%s,%s\n", fmtFloat(v), fmtFloat(bits), s.tokens[i], fmtFloat(h), fmtFloat(math.Exp2(h)))
		}
		if err := w.Flush(); err != nil {
			return true, err
		}
		if err := out.Commit(); err != nil {
			return true, err
		}
	}
	sum := summarizeLM(s.logp, s.tokens)
	if o.json {
		return true, writeJSON(env.Stdout, sum)
	}
	if !env.Quiet {
		fmt.Fprintf(env.Stderr, "gendisc: score: %s\n", sum.text())
	}
	return true, nil
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// lmEval is what eval reports of a language model: the cross-entropy and
// perplexity of the held-out documents (under their own class's model
// when the model has classes, overall and per class) and, with classes,
// the classification report.
type lmEval struct {
	Overall  lmSummary            `json:"language_model"`
	PerClass map[string]lmSummary `json:"per_class,omitempty"`
	Report   *metrics.Report      `json:"classification,omitempty"`
	classes  []string
}

// evalLanguageModel runs eval for a language model and reports whether m
// is one.
func evalLanguageModel(env *Env, o *evalOptions, m gendisc.Model) (bool, error) {
	lm, ok := m.(gendisc.LanguageModel)
	if !ok {
		return false, nil
	}
	hasClasses := lm.Schema().Target != nil
	d, err := readLMData(env, o.data, lm, data.SchemaOptions{Weight: o.weight, RequireTarget: hasClasses})
	if err != nil {
		return true, err
	}
	rep := &lmEval{}
	if c, ok := m.(gendisc.Classifier); ok && hasClasses {
		for i, y := range d.Y {
			if math.IsNaN(y) {
				return true, d.RowError(i, "%w: eval needs the true class of every row", data.ErrMissingTarget)
			}
		}
		if rep.Report, err = metrics.Evaluate(c, d); err != nil {
			return true, err
		}
	}
	s := scoreDocs(lm, d, hasClasses)
	rep.Overall = summarizeLM(s.logp, s.tokens)
	if hasClasses {
		rep.classes = lm.Classes()
		rep.PerClass = map[string]lmSummary{}
		for k, c := range rep.classes {
			var lp []float64
			var tok []int
			for i, y := range d.Y {
				if int(y) == k {
					lp, tok = append(lp, s.logp[i]), append(tok, s.tokens[i])
				}
			}
			if len(lp) > 0 {
				rep.PerClass[c] = summarizeLM(lp, tok)
			}
		}
	}
	if o.json {
		return true, writeJSON(env.Stdout, rep)
	}
	return true, rep.Text(env.Stdout)
}

func (r *lmEval) Text(w io.Writer) error {
	fmt.Fprintf(w, "language model: %s\n", r.Overall.text())
	if r.PerClass != nil {
		fmt.Fprintf(w, "(each document under its own class's model)\n")
		for _, c := range r.classes {
			if s, ok := r.PerClass[c]; ok {
				fmt.Fprintf(w, "  %s: %s\n", c, s.text())
			}
		}
	}
	if r.Report == nil {
		return nil
	}
	fmt.Fprintln(w)
	return r.Report.Text(w)
}

// lmSampleFlags are sample's flags for language models.
type lmSampleFlags struct {
	maxWords    int
	prompt      string
	temperature float64
}

// sampleLMFlags defines sample's flags for language models on fs.
func sampleLMFlags(fs *flag.FlagSet) *lmSampleFlags {
	f := &lmSampleFlags{maxWords: 100, temperature: 1}
	fs.Var(modelflags.AtLeast(&f.maxWords, 1), "max-words", "a language model (ngram) stops a document after `n` tokens")
	fs.StringVar(&f.prompt, "prompt", "", "a language model continues these `words`")
	fs.Var((*modelflags.Positive)(&f.temperature), "temperature", "a language model draws each word with probability ∝ P^(1/`T`)")
	return f
}

// sampleLanguageModel runs sample for a language model and reports
// whether m is one: -n documents, one a line, drawn word by word.
func sampleLanguageModel(env *Env, o *sampleOptions, m gendisc.Model) (bool, error) {
	lm, ok := m.(gendisc.LanguageModel)
	if !ok {
		return false, nil
	}
	f := o.lm
	class := -1
	if o.class != "" {
		if class = slices.Index(lm.Classes(), o.class); class < 0 || lm.Schema().Target == nil {
			return true, usagef("--class %q: the model's classes are %s", o.class, strings.Join(lm.Classes(), ", "))
		}
		if nm, ok := lm.(*ngram.Model); ok && nm.Docs(class) == 0 {
			return true, fmt.Errorf("%s: --class %q: the model has no training documents of that class", o.model, o.class)
		}
	}
	w, commit, abort, err := env.stdoutOrCreate(o.out, false)
	if err != nil {
		return true, err
	}
	defer abort()
	rng := rand.New(rand.NewPCG(o.seed, 0))
	for range int(o.n) {
		words := lm.Sample(class, f.prompt, f.maxWords, f.temperature, rng)
		if _, err := fmt.Fprintln(w, ngram.Detokenize(words)); err != nil {
			return true, err
		}
	}
	return true, commit()
}
