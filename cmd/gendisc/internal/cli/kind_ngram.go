package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/cmd/gendisc/modelflags"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/metrics"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/ngram"
)

func init() {
	register(&kind{
		name:    ngram.Kind,
		short:   "word n-gram language model of a text column or a .txt file (one per class with a target): Kneser–Ney, Witten–Bell, Lidstone or MLE; sample generates text",
		flags:   ngramFlags,
		inspect: inspectNgram,
		read:    readNgramData,
		accumulator: func(fs *flag.FlagSet) func() (gendisc.Accumulator, error) {
			cfg, _ := ngramConfig(fs)
			return func() (gendisc.Accumulator, error) {
				c, err := cfg()
				if err != nil {
					return nil, err
				}
				return modelflags.AccumulatorOf(ngram.NewAccumulator(c))
			}
		},
	})
}

// ngramFlags defines the flags of ngram.Config.
func ngramFlags(fs *flag.FlagSet) fitFunc {
	cfg, paragraphs := ngramConfig(fs)
	return func(d *data.Dataset) (modelfile.Persistent, error) {
		c, err := cfg()
		if err != nil {
			return nil, err
		}
		if s := d.Schema; strings.HasSuffix(d.Source.Name, ".txt") && (s.Target != nil || len(s.Features) != 1 || s.Features[0].Name != "text") {
			// Read as a table: fit --stream and update read CSV chunks.
			return nil, fmt.Errorf("%s: plain text is read whole: fit it without --stream, and update a model with text in a table", d.Source)
		}
		if *paragraphs {
			d = joinParagraphs(d)
		}
		return c.Fit(d)
	}
}

// ngramConfig defines the flags of ngram.Config and returns the function
// that gives the configuration once they are parsed (a usage error for
// invalid values), and --paragraphs.
func ngramConfig(fs *flag.FlagSet) (func() (ngram.Config, error), *bool) {
	var cfg ngram.Config
	cfg.Order, cfg.MinCount = 3, 1
	fs.Var(modelflags.AtLeast(&cfg.Order, 1), "order", "the n-gram `length` n: each word is predicted from the n−1 before it")
	smoothing := fs.String("smoothing", "kneser-ney", "the `smoothing`: kneser-ney (interpolated modified), witten-bell, lidstone (with --alpha) or mle (unseen n-grams get probability 0)")
	alpha := modelflags.NonNegative(1)
	fs.Var(&alpha, "alpha", "lidstone's pseudo-count `α` added to every word's count (1 is Laplace)")
	fs.Var(modelflags.AtLeast(&cfg.MinCount, 1), "min-count", "keep the words seen at least `n` times; rarer ones become <unk>")
	fs.BoolVar(&cfg.KeepPunct, "keep-punct", false, "keep case and punctuation as tokens (generated text reads better)")
	fs.StringVar(&cfg.Column, "column", "", "the text `column` to model (default: the only text column)")
	paragraphs := fs.Bool("paragraphs", false, "a document is a paragraph: lines up to a blank line (default: one document per line of a .txt file)")
	return func() (ngram.Config, error) {
		c := cfg
		sm, err := ngram.ParseSmoothing(*smoothing)
		if err != nil {
			return c, usagef("--smoothing %q: want kneser-ney, witten-bell, lidstone or mle", *smoothing)
		}
		if alpha == 0 {
			return c, usagef("--alpha must be positive")
		}
		c.Smoothing, c.Alpha = sm, float64(alpha)
		return c, nil
	}, paragraphs
}

// joinParagraphs returns d with the documents of its only text column
// joined into paragraphs: runs of non-empty cells up to an empty one (a
// blank line of a text file), each ending the paragraph's lines with a
// space. Data with a target is returned as it is.
func joinParagraphs(d *data.Dataset) *data.Dataset {
	if d.Schema.Target != nil || len(d.Text) == 0 {
		return d
	}
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for _, line := range d.Text[0] {
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(line)
	}
	flush()
	return data.TextDataset(out, data.Named(d.Source.Name))
}

// readTraining reads the training data named by --data for the kind: with
// the kind's own reader when it has one, else as every kind does.
func (k *kind) readTraining(env *Env, name string, opt dataio.Options) (*data.Dataset, error) {
	if k != nil && k.read != nil {
		return k.read(env, name, opt)
	}
	return env.readData(name, opt)
}

// readNgramData reads the text of a language model: a plain text file
// (.txt, or the bundled corpus tinyshakespeare) with one document per
// line, blank lines kept as empty documents for --paragraphs; or a table
// (a CSV file, a bundled data set or the corpus shakespeare_speeches),
// whose only column, when it has one, is the text without a target.
func readNgramData(env *Env, name string, opt dataio.Options) (*data.Dataset, error) {
	r, source, isText, err := openText(env, name)
	if err != nil {
		return nil, err
	}
	if r == nil {
		d, err := env.readData(name, opt)
		if err == nil && d.D() == 0 && opt.Target == "" && name != "-" {
			opt.NoTarget = true // a single column: the text
			return env.readData(name, opt)
		}
		return d, err
	}
	defer r.Close()
	opt.Limits = env.limits
	if !isText {
		return dataio.Read(r, source, opt)
	}
	if opt.Target != "" {
		return nil, usagef("--target %s: %s is plain text, without columns", opt.Target, source)
	}
	return dataio.ReadLines(r, source, env.limits)
}

// plainText reports whether --data names plain text, which the language
// model reads whole: a file whose name ends in .txt, or a bundled text
// corpus.
func plainText(name string) bool {
	c, ok := datasets.CorpusInfo(name)
	return strings.HasSuffix(name, ".txt") || ok && strings.HasSuffix(c.File, ".txt")
}

// openText opens what --data names when it is plain text (a file whose
// name ends in .txt, or a bundled text corpus) or a bundled corpus in CSV;
// r is nil for anything else.
func openText(env *Env, name string) (r io.ReadCloser, source string, isText bool, err error) {
	if strings.HasSuffix(name, ".txt") {
		if name == "-" {
			return io.NopCloser(env.Stdin), "<stdin>", true, nil
		}
		f, err := os.Open(name)
		return f, name, true, err
	}
	if _, err := os.Stat(name); name == "-" || !errors.Is(err, fs.ErrNotExist) {
		return nil, "", false, nil
	}
	c, ok := datasets.CorpusInfo(name)
	if !ok {
		return nil, "", false, nil
	}
	r, err = datasets.OpenCorpus(name)
	return r, name, strings.HasSuffix(c.File, ".txt"), err
}

// readLMData reads the documents that score and eval apply a language
// model to: plain text as readNgramData reads it, else with the model's
// schema.
func readLMData(env *Env, name string, m ngram.LanguageModel, opt dataio.SchemaOptions) (*data.Dataset, error) {
	r, source, isText, err := openText(env, name)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return env.readWithSchema(name, m.Schema(), opt)
	}
	defer r.Close()
	opt.Limits = env.limits
	if !isText {
		return dataio.ReadWithSchema(r, source, m.Schema(), opt)
	}
	if opt.RequireTarget && m.Schema().Target != nil {
		return nil, fmt.Errorf("%s: plain text has no class column %q", source, m.Schema().Target.Name)
	}
	d, err := dataio.ReadLines(r, source, env.limits)
	if err != nil {
		return nil, err
	}
	if len(m.Schema().Features) != 1 {
		return nil, fmt.Errorf("%s: plain text has no column %q for the model", source, m.Schema().Features[m.Column()].Name)
	}
	d.Schema = m.Schema()
	return d, nil
}

// scoreLanguageModel runs score for a language model and reports whether
// m is one: per document its log-probability in nats and bits, its tokens
// (words and the end), bits per token and perplexity; the totals on
// standard error, or with --json on standard output.
func scoreLanguageModel(env *Env, o *scoreOptions, m gendisc.Model) (bool, error) {
	lm, ok := m.(ngram.LanguageModel)
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
	lm, ok := m.(ngram.LanguageModel)
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
	fs.Var((*positive)(&f.temperature), "temperature", "a language model draws each word with probability ∝ P^(1/`T`)")
	return f
}

// sampleLanguageModel runs sample for a language model and reports
// whether m is one: -n documents, one a line, drawn word by word.
func sampleLanguageModel(env *Env, o *sampleOptions, m gendisc.Model) (bool, error) {
	lm, ok := m.(ngram.LanguageModel)
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

// ngramReport is what inspect shows of a language model.
type ngramReport struct {
	Order      int                `json:"order"`
	Smoothing  string             `json:"smoothing"`
	Alpha      float64            `json:"alpha,omitempty"`
	MinCount   int                `json:"min_count"`
	KeepPunct  bool               `json:"keep_punct"`
	Vocabulary int                `json:"vocabulary"` // words, <unk> and </s>
	Classes    []ngramClassReport `json:"classes"`
}

type ngramClassReport struct {
	Class     string              `json:"class"`
	Documents int64               `json:"documents"`
	Orders    []ngram.OrderStats  `json:"orders"`
	Contexts  []ngramContinuation `json:"frequent_contexts"`
}

type ngramContinuation struct {
	Context []string  `json:"context"`
	Next    []string  `json:"next"`
	Prob    []float64 `json:"prob"`
}

// arpaReport is what inspect shows of an ARPA model: its order, the
// n-grams of each order and how it tokenizes documents.
type arpaReport struct {
	Order        int    `json:"order"`
	NGrams       []int  `json:"ngrams"`
	Tokenization string `json:"tokenization"`
}

func inspectARPA(a *ngram.ARPA) report {
	return &arpaReport{Order: a.Order(), NGrams: a.Size(), Tokenization: a.Tokenization()}
}

func (r *arpaReport) writeText(w io.Writer) error {
	fmt.Fprintf(w, "order: %d (a back-off model read from an ARPA file)\ntokenization: %s\n", r.Order, r.Tokenization)
	for k, n := range r.NGrams {
		fmt.Fprintf(w, "%d-grams: %d\n", k+1, n)
	}
	return nil
}

// inspectContexts and inspectNext are how many frequent contexts inspect
// shows per class, and how many continuations of each.
const inspectContexts, inspectNext = 5, 5

func inspectNgram(m gendisc.Model) report {
	lm := m.(*ngram.Model)
	c := lm.Config()
	r := &ngramReport{Order: c.Order, Smoothing: c.Smoothing.String(), MinCount: c.MinCount, KeepPunct: c.KeepPunct,
		Vocabulary: len(lm.Vocabulary()) - 1}
	if c.Smoothing == ngram.Lidstone {
		r.Alpha = c.Alpha
	}
	vocab := lm.Vocabulary()
	for k, name := range lm.Classes() {
		cr := ngramClassReport{Class: name, Documents: lm.Docs(k), Orders: lm.Stats(k)}
		var p []float64
		for _, ctx := range lm.FrequentContexts(k, inspectContexts) {
			p = lm.Next(p, k, ctx)
			idx := make([]int, len(p))
			for i := range idx {
				idx[i] = i
			}
			slices.SortStableFunc(idx, func(a, b int) int {
				switch {
				case p[a] > p[b]:
					return -1
				case p[a] < p[b]:
					return 1
				}
				return 0
			})
			cn := ngramContinuation{Context: ctx}
			for _, v := range idx[:min(inspectNext, len(idx))] {
				cn.Next, cn.Prob = append(cn.Next, vocab[v]), append(cn.Prob, p[v])
			}
			cr.Contexts = append(cr.Contexts, cn)
		}
		r.Classes = append(r.Classes, cr)
	}
	return r
}

func (r *ngramReport) writeText(w io.Writer) error {
	fmt.Fprintf(w, "Word %d-gram language model, %s smoothing", r.Order, r.Smoothing)
	if r.Smoothing == ngram.Lidstone.String() {
		fmt.Fprintf(w, " (α = %s)", num(r.Alpha))
	}
	fmt.Fprintf(w, "\n\n\tlog P(doc) = Σ_i log P(w_i | w_{i−%d} … w_{i−1}) over the words and </s>\n", r.Order-1)
	fmt.Fprintf(w, "\tvocabulary: %d (the words seen at least %s, <unk> and </s>); punctuation and case kept: %v\n", r.Vocabulary, count(r.MinCount, "time", "times"), r.KeepPunct)
	for _, c := range r.Classes {
		if c.Class != "" || len(r.Classes) > 1 {
			fmt.Fprintf(w, "\nclass %s", c.Class)
		}
		fmt.Fprintf(w, "\n%s\n", count(int(c.Documents), "document", "documents"))
		rows := [][]string{}
		for _, o := range c.Orders {
			row := []string{strconv.Itoa(o.Order), strconv.Itoa(o.NGrams), strconv.Itoa(o.Contexts)}
			for _, n := range o.Counts {
				row = append(row, strconv.FormatInt(n, 10))
			}
			if r.Smoothing == ngram.KneserNey.String() {
				row = append(row, num(o.Discount[0]), num(o.Discount[1]), num(o.Discount[2]))
			}
			rows = append(rows, row)
		}
		header := []string{"order", "n-grams", "contexts", "n1", "n2", "n3", "n4"}
		if r.Smoothing == ngram.KneserNey.String() {
			header = append(header, "D1", "D2", "D3+")
		}
		if err := writeTable(w, header, rows); err != nil {
			return err
		}
		fmt.Fprintf(w, "\nmost probable continuations of the most frequent contexts\n")
		for _, cn := range c.Contexts {
			fmt.Fprintf(w, "  %s →", strings.Join(cn.Context, " "))
			for i, nx := range cn.Next {
				fmt.Fprintf(w, " %s (%s)", nx, num(cn.Prob[i]))
			}
			fmt.Fprintln(w)
		}
	}
	return nil
}

var cmdExport = &Command{
	Name:      "export",
	UsageLine: "export --model M.json --format arpa [--class C] [--out M.arpa]",
	Short:     "write a language model in the ARPA format of SRILM and KenLM",
	Long: `
Export writes a fitted language model (--model ngram) in another program's
format. The only format is arpa: the back-off n-gram format that SRILM
and KenLM read, with log10 probabilities and back-off weights. The
interpolated smoothings (kneser-ney, witten-bell) have that form exactly:
a listed n-gram carries its interpolated probability and a context its
interpolation weight. lidstone and mle do not, and are refused. A model
with classes exports one class, named by --class.

Example:

	gendisc fit --data tinyshakespeare --model ngram --order 3 --out shakes.json
	gendisc export --model shakes.json --format arpa --out shakes.arpa`,
	Required: []string{"model", "format"},
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		var model, format, class, out string
		fs.StringVar(&model, "model", "", "the model `file` of a language model; - for standard input")
		fs.StringVar(&format, "format", "", "the `format`: arpa")
		fs.StringVar(&class, "class", "", "the `class` whose model to export (required when the model has classes)")
		fs.StringVar(&out, "out", "-", "write to this `file`; - for standard output")
		return func(ctx context.Context, env *Env) error {
			if format != "arpa" {
				return usagef("--format %q: the only format is arpa", format)
			}
			_, m, err := env.loadModel(model)
			if err != nil {
				return err
			}
			lm, err := modelAs[*ngram.Model](model, m, "is not a language model (ngram)")
			if err != nil {
				return err
			}
			k := 0
			if lm.Schema().Target != nil {
				if k = slices.Index(lm.Classes(), class); class == "" || k < 0 {
					return usagef("--class: the model has classes, name one of %s", strings.Join(lm.Classes(), ", "))
				}
			}
			w, commit, abort, err := env.stdoutOrCreate(out, false)
			if err != nil {
				return err
			}
			defer abort()
			if err := lm.WriteARPA(w, k); err != nil {
				return fmt.Errorf("%s: %w", model, err)
			}
			return commit()
		}
	},
}
