package cli

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/metrics"
	"github.com/gendisc/gendisc/modelflags"
	"github.com/gendisc/gendisc/ngram"
)

// scoreLanguageModel runs score for a language model and reports whether
// m is one: per document its log-probability in nats and bits, its tokens
// (words and the end), bits per token and perplexity; the totals on
// standard error, or with --json on standard output.
func scoreLanguageModel(env *Env, o *scoreOptions, m gendisc.Model) (bool, error) {
	lm, ok := m.(gendisc.LanguageModel)
	if !ok {
		return false, nil
	}
	d, err := readLMData(env, o.data, lm, dataio.SchemaOptions{UnseenClassMissing: true})
	if err != nil {
		return true, err
	}
	logp, tokens := metrics.ScoreDocuments(lm, d, false)
	if o.out != "" {
		out, err := env.createRows(o.out)
		if err != nil {
			return true, err
		}
		defer out.Abort()
		w := bufio.NewWriter(out)
		fmt.Fprintln(w, "log_p_nats,log_p_bits,tokens,bits_per_token,perplexity")
		for i, v := range logp {
			bits := v / math.Ln2
			if tokens[i] == 0 { // an empty document: no tokens to average over
				fmt.Fprintf(w, "0,0,0,,\n")
				continue
			}
			h := -bits / float64(tokens[i])
			fmt.Fprintf(w, "%s,%s,%d,%s,%s\n", fmtFloat(v), fmtFloat(bits), tokens[i], fmtFloat(h), fmtFloat(math.Exp2(h)))
		}
		if err := w.Flush(); err != nil {
			return true, err
		}
		if err := out.Commit(); err != nil {
			return true, err
		}
	}
	sum := metrics.SummarizeLanguageModel(logp, tokens)
	if o.json {
		return true, writeJSON(env.Stdout, sum)
	}
	if !env.Quiet {
		fmt.Fprintf(env.Stderr, "gendisc: score: %s\n", sum)
	}
	return true, nil
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// evalLanguageModel runs eval for a language model and reports whether m
// is one.
func evalLanguageModel(env *Env, o *evalOptions, m gendisc.Model) (bool, error) {
	lm, ok := m.(gendisc.LanguageModel)
	if !ok {
		return false, nil
	}
	hasClasses := lm.Schema().Target != nil
	d, err := readLMData(env, o.data, lm, dataio.SchemaOptions{Weight: o.weight, RequireTarget: hasClasses})
	if err != nil {
		return true, err
	}
	rep, err := metrics.EvaluateLanguageModel(lm, d)
	if err != nil {
		return true, err
	}
	if o.json {
		return true, writeJSON(env.Stdout, rep)
	}
	return true, rep.Text(env.Stdout)
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
