package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/cv"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/registry"
)

// defaultFolds is the number of folds of cv without --folds.
const defaultFolds = 10

// maxOnePassFolds is the most folds cv takes the one-pass path for: it
// keeps a merged copy of the kind's statistics per fold, which for
// leave-one-out of a large data set would take memory in proportion to
// the rows times the model's size; beyond, the folds are refitted, each
// fit in the memory of one. A variable for the tests.
var maxOnePassFolds = 2000

// maxTextFolds is the most folds whose figures the text report shows one
// column each; with more (leave-one-out, many repeats) it shows the mean
// and standard error alone.
const maxTextFolds = 10

var cmdCV = &Command{
	Name:      "cv",
	UsageLine: "cv --data F [--model KIND] [data flags] [model flags] [--folds K|loo] [--repeats R] [--seed S] [--group COLUMN] [--json] [--out folds.csv] [--folds-out FILE] [--folds-in FILE]",
	Short:     "cross-validate a model kind: eval's figures per fold, their mean and standard error",
	Long: `
Cv cross-validates a model kind on a data set: it assigns the rows to
--folds folds (10 by default), fits the kind, with its model flags as fit
takes them, to the rows of all folds but one, evaluates the model on that
fold with the figures of eval (a classifier's, a regressor's or a
language model's), and reports every fold's figures with their mean and
standard error (the sample standard deviation of the folds' figures over
the square root of their number, over the folds where a figure is
defined). --data, --model, the data flags and the model flags are those
of fit, which reads the training data the same way: rows without a label
are left out, with a note.

The folds are stratified for classes (each fold holds about a k-th of
every class), plain for a numeric target or a language model's text, and
with --group COLUMN keep the rows of each value of that column in one
fold (the column is then not a feature). --folds loo is leave-one-out, a
fold per row. --repeats R repeats the cross-validation with R
assignments drawn with the seeds S, S+1, ... (--seed, 1 by default; a kind
whose fit takes --seed shares it), and the mean and standard error are
over all R·k folds.

The kinds whose models are sums of sufficient statistics (naive Bayes,
LDA, QDA, linear regression, n-gram language models) take one pass over
the rows: each row's statistics go to its fold's, and each fold's model
is the merge of the other folds', the same model as a refit (to 1e-12).
The other kinds are refitted per fold, the folds in parallel; logistic
regression's fits start from its fit to all the rows (a warm start: the
same optimum, within the solver's tolerance, in fewer iterations), while
the mixtures' EM starts afresh in every fold, since a start from a model
that saw the fold would pull a local optimum toward it. With --folds
loo, linear regression (without --l2), Gaussian naive Bayes (with its
default variances), LDA and QDA (without shrinkage), on data without
weights or missing cells, downdate the fit to all rows, in time linear in
the rows; other kinds with statistics take the one pass (up to 2000
folds: it keeps merged statistics per fold), and the rest are fitted once
per row, which cv notes on standard error (--verbose tells the path
taken).

Fold assignments travel as CSV files with the header "fold" and one
0-based fold number per row in the rows' order (the rows cv uses: those
with a label): --folds-out FILE writes the one used, --folds-in FILE takes
one in place of --folds, --group, --repeats and --seed.

The text report has a line per figure (those of eval's report that are
not per class), with its mean, standard error and the value of each fold
(for at most 10 folds), after a line of the folds' rows (for sentences,
the line "sentences" gives them). --json writes one object: "folds", a list with per
fold its "fold", "rows" and the keys of eval --json ("repeat" too with
--repeats), and "mean" and "se" with the keys of eval --json. --out FILE
writes the table of folds as CSV, a row per fold and a column per figure
(per class ones too, named by path: macro_avg.f1, per_class.NAME.recall).
Files are written atomically: when cv fails, none is left. --out - and
--folds-out - write to standard output in place of the report.

A kind of sentences (hmm, crf) reads --data as fit does (CoNLL-U,
CoNLL columns or JSON lines; --tags, --tag-column, --seq-format) and
folds the sentences: a sentence is a row, the folds plain (a sentence's
tags are not a class to stratify by), a fold file holding a fold number
per sentence in the file's order. Every fold's figures are those of eval
for a tagger (token, unknown-word and sentence accuracy, the tags'
figures with their macro and micro averages, and with --spans the span
figures of BIO/IOB tags). An HMM takes one pass, each fold's model merged
from the other folds' counts; a CRF is refitted per fold, from the
weights of its fit to all the sentences, the folds in parallel sharing
the cores of its --jobs (every core by default) with the fits.
Leave-one-out (--folds loo) and --group are refused for sentences: give
--folds N, or the folds of whole documents with --folds-in.

A configuration that cannot be cross-validated is an error naming the
fold: a fold that holds every row of a class (the other folds' training
part lacks it), more folds than rows, a fold file with too few or too many
rows. A fold with fewer rows than classes is a warning, as are the
warnings of a fold's fit (logistic regression stopped at --max-iter); on
a terminal, a progress bar counts the folds.

Example:

	gendisc cv --data iris --model gaussian-nb --folds 5
	gendisc cv --data ud_english_ewt_dev --model hmm --folds 5`,
	Required: []string{"data"},
	Flags:    cvFlags,
	MoreHelp: func(w io.Writer) {
		fmt.Fprintf(w, "\nThe model flags of every kind are listed by gendisc help fit.\n")
	},
}

// cvOptions are the flags of cv: the training data and kind as fit takes
// them, and the folds.
type cvOptions struct {
	trainingOptions
	foldFlags
	json           bool
	out            string
	config         func() (registry.Config, error)
	fit            fitFunc
	newAccumulator func() (gendisc.Accumulator, error) // nil for a kind refitted per fold
	seqCV          seqCVFlags                          // a kind of sentences (cv_seq.go)
}

func cvFlags(fs *flag.FlagSet, args []string) Runner {
	o := &cvOptions{}
	o.trainingOptions.register(fs)
	o.seqCV.register(fs)
	o.foldFlags.register(fs, defaultFolds, ", in place of the report")
	fs.BoolVar(&o.json, "json", false, "print JSON instead of text")
	fs.StringVar(&o.out, "out", "", "write the figures of every fold to this CSV `file`; - for standard output, in place of the report")
	var cfg func() (registry.Config, error)
	var err error
	if args != nil {
		cfg, err = o.defineKind(fs, args)
	}
	o.registerSeed(fs, "`seed` of the fold assignment")
	if args == nil { // help
		return nil
	}
	o.refuseOtherKinds(fs)
	if err == nil {
		o.config, o.fit = cfg, configFit(o.kind, cfg)
		if o.kind.OnePass() {
			o.newAccumulator = configAccumulator(o.kind, cfg)
		}
	}
	return func(ctx context.Context, env *Env) error {
		if err != nil {
			return usagef("%v", err)
		}
		if err := checkKindReadFlags(fs, o.kind); err != nil {
			return err
		}
		o.noteGiven(fs)
		if sequenceInput(o.kind) {
			return o.runSequences(env, fs)
		}
		return o.run(env)
	}
}

// checkFlags returns the misuse of cv's flags that the data does not
// decide, and the number of folds (0 for leave-one-out).
func (o *cvOptions) checkFlags() (k int, err error) {
	heldOut := func(k *registry.Kind) bool { return k.Target != registry.None }
	switch {
	case o.kind.Target == registry.None:
		return 0, usagef("--model %s has no held-out figures to cross-validate (kinds that do: %s)",
			o.kind.Name, strings.Join(kindsWith(heldOut), ", "))
	case o.seqCV.spans && !sequenceInput(o.kind):
		return 0, usagef("--spans is for the BIO/IOB tags of a kind of sentences, not --model %s", o.kind.Name)
	}
	if o.out == "-" && (o.foldsOut == "-" || o.json) || o.foldsOut == "-" && o.json {
		return 0, usagef("one of --out -, --folds-out - and --json can go to standard output")
	}
	return o.foldFlags.check()
}

// run cross-validates as the flags say and writes the report.
func (o *cvOptions) run(env *Env) error {
	k, err := o.checkFlags()
	if err != nil {
		return err
	}
	d, err := o.readTrainingData(env, o.withGroup(o.readOptions()))
	if err != nil {
		return err
	}
	d, folds, err := o.assign(d, k)
	if err != nil {
		return err
	}
	res, err := o.runCV(env, d, folds)
	if err != nil {
		return kindHint(err, d)
	}
	for _, w := range res.Warnings {
		env.warnf("%s", w)
	}
	if err := env.writeCVFiles(o.foldsOut, o.out, folds[0], res); err != nil {
		return err
	}
	switch {
	case o.out == "-" || o.foldsOut == "-": // the file is standard output
		return nil
	case o.json:
		return writeJSON(env.Stdout, res)
	}
	return writeCVText(env.Stdout, res)
}

// writeCVFiles writes the fold assignment f to foldsPath (a fold file,
// cv.WriteFolds) and the table of the folds of res to tablePath
// (writeCVTable), those of them that are not "", "-" meaning standard
// output. Both files appear or neither does.
func (env *Env) writeCVFiles(foldsPath, tablePath string, f cv.Folds, res *cv.Result) error {
	var opened []*output
	defer func() {
		for _, out := range opened {
			out.Abort()
		}
	}()
	for _, file := range []struct {
		path  string
		write func(w io.Writer) error
	}{
		{foldsPath, func(w io.Writer) error { return cv.WriteFolds(w, f) }},
		{tablePath, func(w io.Writer) error { return writeCVTable(w, res) }},
	} {
		if file.path == "" {
			continue
		}
		out, err := env.create(file.path)
		if err != nil {
			return err
		}
		opened = append(opened, out)
		if err := file.write(out); err != nil {
			return err
		}
	}
	for _, out := range opened {
		if err := out.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// runCV cross-validates the kind on d with the fold assignments folds:
// in one pass for a one-pass kind (cv.Runner.NewAccumulator), otherwise
// refitting every fold, with a progress bar on a terminal.
func (o *cvOptions) runCV(env *Env, d *data.Dataset, folds []cv.Folds) (*cv.Result, error) {
	loo := len(folds) == 1 && slices.Equal(folds[0], cv.LeaveOneOut(d.N)) // from --folds loo or --folds-in
	if loo {
		if res, err := o.downdate(env, d); res != nil || err != nil {
			return res, err
		}
	}
	r := &cv.Runner{Fit: o.fit, WarmFit: configWarmFit(o.kind, o.config)}
	k := 0
	for _, f := range folds {
		k = max(k, f.K())
	}
	if r.WarmFit != nil {
		env.verbosef("cv: each fold's fit starts from the fit to all the rows")
	}
	switch {
	case o.newAccumulator != nil && k <= maxOnePassFolds:
		r.NewAccumulator = o.newAccumulator
		env.verbosef("cv: one pass over the rows, the folds' models merged from their statistics")
	case o.newAccumulator != nil && !env.Quiet:
		fmt.Fprintf(env.Stderr, "gendisc: note: %d folds: more than the %d cv merges statistics for; --model %s is fitted %s\n", k, maxOnePassFolds, o.kind.Name, count(k, "time", "times"))
	case loo && !env.Quiet:
		fmt.Fprintf(env.Stderr, "gendisc: note: --model %s has no one-pass cross-validation: leave-one-out fits it %s\n", o.kind.Name, count(d.N, "time", "times"))
	}
	if env.showProgress() {
		total := 0
		for _, f := range folds {
			total += f.K()
		}
		bar := progressbar.NewOptions(total,
			progressbar.OptionSetWriter(env.Stderr),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionFullWidth(),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionSetDescription("cv: folds"))
		r.Progress = func(done, total int) { bar.Set(done) }
		defer func() {
			bar.Finish()
			bar.Close()
		}()
	}
	return r.Run(d, folds...)
}

// downdate returns the leave-one-out cross-validation of the kind on d
// by downdating its fit to all the rows (cv.LeaveOneOutDowndate), or nil
// when the kind, its flags or the data are not of those it covers (the
// reason shown with --verbose).
func (o *cvOptions) downdate(env *Env, d *data.Dataset) (*cv.Result, error) {
	c, err := o.config()
	if err != nil {
		return nil, err
	}
	settings := registry.Settings(c)
	if settings == nil {
		env.verbosef("cv: --model %s has no leave-one-out by downdating", o.kind.Name)
		return nil, nil
	}
	res, err := cv.LeaveOneOutDowndate(settings, d)
	if errors.Is(err, cv.ErrDowndate) {
		env.verbosef("%v (the folds are fitted instead)", err)
		return nil, nil
	}
	if err == nil {
		env.verbosef("cv: leave-one-out by downdating the fit to all %s, without refits", count(d.N, "row", "rows"))
	}
	return res, err
}

// figure is one number of a report, at its path in the report's JSON
// (keys joined by "."); ok is false for null, an undefined figure.
type figure struct {
	path  string
	value float64
	ok    bool
}

// figures returns the numbers of the JSON object b in order, each at its
// path: an object's keys joined by ".", an array's items by their
// "class", "tag" or "type" field when they are objects that have one
// (per_class.NAME, per_tag.NOUN, spans.Types.PER), by their index
// otherwise. A null (an undefined figure) is one that is
// not ok; strings and booleans are left out. With scalarsOnly, the
// numbers inside arrays (per class, the confusion matrix) are left out
// too.
func figures(b []byte, scalarsOnly bool) ([]figure, error) {
	var out []figure
	var walk func(path string, raw json.RawMessage, inArray bool) error
	walk = func(path string, raw json.RawMessage, inArray bool) error {
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 || scalarsOnly && inArray {
			return nil
		}
		switch raw[0] {
		case '{':
			dec := json.NewDecoder(bytes.NewReader(raw))
			if _, err := dec.Token(); err != nil {
				return err
			}
			for dec.More() {
				key, err := dec.Token()
				if err != nil {
					return err
				}
				var val json.RawMessage
				if err := dec.Decode(&val); err != nil {
					return err
				}
				if err := walk(joinPath(path, fmt.Sprint(key)), val, inArray); err != nil {
					return err
				}
			}
		case '[':
			var items []json.RawMessage
			if err := json.Unmarshal(raw, &items); err != nil {
				return err
			}
			for i, item := range items {
				var named struct{ Class, Tag, Type *string } // a class's, a tag's, a span type's figures
				name := strconv.Itoa(i)
				if json.Unmarshal(item, &named) == nil {
					for _, n := range []*string{named.Class, named.Tag, named.Type} {
						if n != nil {
							name = *n
						}
					}
				}
				if err := walk(joinPath(path, name), item, true); err != nil {
					return err
				}
			}
		case 'n':
			out = append(out, figure{path: path})
		case '"', 't', 'f':
		default:
			v, err := strconv.ParseFloat(string(raw), 64)
			if err != nil {
				return err
			}
			out = append(out, figure{path: path, value: v, ok: true})
		}
		return nil
	}
	return out, walk("", b, false)
}

// joinPath returns the path of key in the object at path.
func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// foldFigures returns the figures of every fold of res (all of them, or
// the scalars alone) and those of the mean and standard error.
func foldFigures(res *cv.Result, scalarsOnly bool) (folds [][]figure, mean, se []figure, err error) {
	for _, f := range res.Folds {
		b, err := json.Marshal(f.Report)
		if err != nil {
			return nil, nil, nil, err
		}
		fig, err := figures(b, scalarsOnly)
		if err != nil {
			return nil, nil, nil, err
		}
		folds = append(folds, fig)
	}
	m, s, err := res.Summary()
	if err != nil {
		return nil, nil, nil, err
	}
	for _, p := range []struct {
		m   json.Marshaler
		out *[]figure
	}{{m, &mean}, {s, &se}} {
		b, err := p.m.MarshalJSON()
		if err != nil {
			return nil, nil, nil, err
		}
		if *p.out, err = figures(b, scalarsOnly); err != nil {
			return nil, nil, nil, err
		}
	}
	return folds, mean, se, nil
}

// figureText formats a figure for the text report: "undefined" for a
// null, an integer as such, other numbers with 4 decimals.
func figureText(f figure) string {
	switch {
	case !f.ok || math.IsNaN(f.value):
		return "undefined"
	case f.value == math.Trunc(f.value) && math.Abs(f.value) < 1e15:
		return strconv.FormatFloat(f.value, 'f', -1, 64)
	}
	return strconv.FormatFloat(f.value, 'f', 4, 64)
}

// figureAt returns the figure at path in figs, or an undefined one.
func figureAt(figs []figure, path string) figure {
	for _, f := range figs {
		if f.path == path {
			return f
		}
	}
	return figure{path: path}
}

// writeCVText writes res as cv's text report: a line per figure of the
// reports that is not per class (their order), with its mean, standard
// error and, for at most maxTextFolds folds, the value of every fold.
func writeCVText(w io.Writer, res *cv.Result) error {
	folds, mean, se, err := foldFigures(res, true)
	if err != nil {
		return err
	}
	perFold := len(res.Folds) <= maxTextFolds
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := []string{"figure", "mean", "se"}
	if perFold {
		for _, f := range res.Folds {
			header = append(header, foldName(res, f))
		}
	}
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	// The rows of a fold of sentences are its sentences, a figure of
	// their report already: no line of rows then.
	if !figureAt(mean, "sentences").ok {
		rows := []string{"rows", "", ""}
		if perFold {
			for _, f := range res.Folds {
				rows = append(rows, strconv.Itoa(f.Rows))
			}
		}
		fmt.Fprintln(tw, strings.Join(rows, "\t"))
	}
	for _, m := range mean {
		line := []string{m.path, figureText(m), figureText(figureAt(se, m.path))}
		if perFold {
			for _, f := range folds {
				line = append(line, figureText(figureAt(f, m.path)))
			}
		}
		fmt.Fprintln(tw, strings.Join(line, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if !perFold {
		_, err = fmt.Fprintf(w, "(%d folds: --json or --out FILE gives every fold's figures)\n", len(res.Folds))
	}
	return err
}

// foldName names fold f of res in the text report's header: "fold K",
// "R/K" with several repeats.
func foldName(res *cv.Result, f cv.FoldResult) string {
	if len(res.Folds) > 0 && res.Folds[len(res.Folds)-1].Repeat > 0 {
		return fmt.Sprintf("%d/%d", f.Repeat, f.Fold)
	}
	return "fold " + strconv.Itoa(f.Fold)
}

// writeCVTable writes the figures of every fold of res to w as CSV: the
// columns repeat (with several repeats), fold, rows, and every figure of
// the reports, by path; an undefined figure is an empty cell.
func writeCVTable(w io.Writer, res *cv.Result) error {
	folds, _, _, err := foldFigures(res, false)
	if err != nil {
		return err
	}
	repeats := len(res.Folds) > 0 && res.Folds[len(res.Folds)-1].Repeat > 0
	// The columns: the figures of every fold, in order of first
	// appearance (a fold may lack a class's figures).
	var columns []string
	seen := map[string]bool{}
	for _, f := range folds {
		for _, g := range f {
			if !seen[g.path] {
				seen[g.path] = true
				columns = append(columns, g.path)
			}
		}
	}
	cw := csv.NewWriter(w)
	header := []string{"fold", "rows"}
	if repeats {
		header = append([]string{"repeat"}, header...)
	}
	cw.Write(append(header, columns...))
	for i, f := range res.Folds {
		rec := []string{strconv.Itoa(f.Fold), strconv.Itoa(f.Rows)}
		if repeats {
			rec = append([]string{strconv.Itoa(f.Repeat)}, rec...)
		}
		for _, c := range columns {
			g := figureAt(folds[i], c)
			cell := ""
			if g.ok {
				cell = strconv.FormatFloat(g.value, 'g', -1, 64)
			}
			rec = append(rec, cell)
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}
