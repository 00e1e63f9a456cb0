package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/gendisc/gendisc/compare"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/modelflags"
	"github.com/gendisc/gendisc/naivebayes"
	"github.com/gendisc/gendisc/registry"
)

// The command list is set by cli.go's init, which runs before this file's
// (files initialise in name order).

// defaultModels are the models compare runs without --models: the
// generative-discriminative pair of Ng and Jordan.
var defaultModels = []string{naivebayes.KindMixed, logistic.Kind}

// compareModelDefaults are model flag values that compare sets before
// parsing, where fit's default would make a model fail on the bundled
// data: logistic regression refuses missing cells unless told to impute
// them (house_votes84, mushroom, adult and breast_cancer_wisconsin have
// some), and compare's reference (compare/testdata/gen_reference.py)
// imputes the training means.
var compareModelDefaults = map[string]string{"impute": "mean"}

var cmdCompare = &Command{
	Name:      "compare",
	UsageLine: "compare [--data F]... [--models nb,logistic,...] [--splits N] [--sizes M,...] [model flags] [--tune] [--seed S] [--out DIR] [--format pdf,png]",
	Short:     "learning curves of generative against discriminative classifiers, with an HTML report",
	Long: `
Compare runs the experiment of Ng and Jordan ("On discriminative vs.
generative classifiers", NIPS 2001): for each data set and each training-set
size m, it draws --splits random stratified splits, fits every model of
--models on the same m training rows, and measures the test error on the
rows left out (at most 5000 of them). It prints a table of the mean test
error at the largest m, the crossover m* after which the discriminative
model stays better (or "none" in range) and the gap between the two, and
writes a report directory (--out): index.html, which opens offline, one SVG
plot per data set (mean error ± 1 standard error against m, log scale),
curves.csv with every figure, and summary.txt. --format pdf,png writes the
plots as PDF and PNG files as well.

A crossover is clear when a one-sided paired t-test of the per-split
differences of the two models' test errors (the models share each split's
rows) finds the discriminative model better at every size from m* on, at
level 0.05; otherwise m* reads "no clear crossover". A fit that fails on
a split (a singular covariance on a small training set) scores the
majority class instead: the table counts these fallbacks and names the
sizes where they happened, the plots draw those sizes hollow, and they
take no part in m* or the gap. A fit that ends with a warning (logistic
regression stopped by --max-iter, or on separable data with --l2 0) scores
as fitted; the table counts these splits too, "(n warned at m …)", and
curves.csv has them in its warnings column.

--data takes files, bundled data sets, and the two-class tasks of the paper,
optdigits_0_vs_1 and optdigits_2_vs_3 (repeat the flag or separate names by
commas). Without --data every bundled data set is run, with the two
optdigits tasks, except those that none of the models can fit (a note
names them: sms_spam, a text column, when no model of --models takes text).

--sizes defaults to 15 sizes spaced geometrically from the smallest m that
gives every class two training rows to 70% of the rows, at most 5000.

The default models, nb (mixed naive Bayes: Gaussian, categorical or
multinomial per column type) and logistic, fit every bundled data set, so
the default run writes one report. A model of --models that cannot fit a
data set's columns (lda or qda on categorical or text columns, say) is not
applicable to it: it is not run there, a note says why, and the data sets
that lack some of the models get a report of their own in a subdirectory of
--out named after the models they were run with, which index.html names.
With one data set too, the models that apply are compared and a note says
why the others were left out; compare fails only when fewer than two of
the models apply to the data.

The models take the flags of "gendisc fit" (see below): each flag goes to
the models of --models that have it, and a flag that none of them has is an
error. --l2 is logistic regression's penalty (default 1; --l2 0 is the
paper's unpenalised maximum likelihood, stopped when the weights diverge on
separable data); --variance feature gives naive Bayes one variance per
feature shared by the classes, the exact generative partner of logistic
regression. Compare sets --impute mean for logistic regression, so that
data sets with missing cells can be compared. --seed seeds the splits and
every model that draws random numbers: the same seed gives the same report,
byte for byte, whatever --jobs (but for the PDF plots of --format pdf,
which carry the time they were written).

--tune chooses each model's regularisation inside every training set of
every split, by a stratified cross-validation of those rows alone
(--tune-folds, default 5; fewer when a class has fewer training rows, and
the default setting when a class has fewer than 2) minimising
--tune-metric (default log-loss), over a fixed grid per flag: --l2
1e-4..1e2 (7 values, log-spaced), --alpha 1e-3..1e1 (5), --var-smoothing
1e-12..1e-3 (4), --shrinkage 0, 0.25, 0.5, 0.75, 1; a model with several
(nb: --alpha and --var-smoothing) is tuned on their combinations. Compare
then runs twice on the same splits, at the fixed settings and tuned: the
report is the tuned run's, with the values chosen per size (median and
range over the splits) in the table, index.html and curves.csv, m* of
the untuned run beside the tuned one, and the untuned curves of the tuned
models in the plots (thin, lighter). A tuned flag cannot be set as well;
--tune takes tables only.

On sequence data (--data a bundled treebank such as ud_english_ewt_dev,
or .conllu, .conll or .jsonl files, or any with --seq-format; read as fit
reads them: --tags, --tag-column) the sizes m are
numbers of training sentences (default: 15 sizes spaced geometrically from
50 sentences to 90% of them), a split draws the training sentences at
random, the test set is the held-out sentences up to 5000 tokens, and the
error is the token error rate, 1 − token accuracy. --test-data names test
sentences of their own, one name per --data name (such as
ud_english_ewt_dev for ud_english_ewt): the sizes then reach all the
training sentences, and split s of every size tests on the s-th of
--splits random parts of them (disjoint, of about equal numbers of
tokens), so that at m = all, where every split trains on the same
sentences, the paired test compares the models over independent test
samples. The models are the
taggers (hmm, and the other kinds of sentences) and the per-token pair,
nb-token and logistic-token: naive Bayes and logistic regression on each
token's features by itself (the lower-cased word, its suffixes of 1–3
letters, capitalised, has a digit, has a hyphen), which shows what the
sequence structure adds; by default all of them.

A progress bar is shown on a terminal unless --quiet. When compare fails,
no report is written.

Example:

	gendisc compare
	gendisc compare --data sonar,ionosphere --models nb,logistic,lda --splits 1000 --variance feature --out sonar-report
	gendisc compare --data ud_english_ewt --models hmm,nb-token,logistic-token --splits 20 --out ewt-report
	gendisc compare --data ud_english_ewt --test-data ud_english_ewt_dev --models hmm,crf --sizes 50,500,5000,12544 --splits 4`,
	Flags: compareFlags,
	MoreHelp: func(w io.Writer) {
		fmt.Fprintf(w, "\nModel flags (as for gendisc fit; each goes to the models of --models that take it):\n")
		for _, name := range classifierKindNames() {
			fs := flag.NewFlagSet(name, flag.ContinueOnError)
			k, _ := registry.Lookup(name)
			k.Flags(fs)
			fmt.Fprintf(w, "\n--models %s:\n", name)
			printFlags(w, fs)
		}
	},
}

// compareOptions are the settings of one compare run.
type compareOptions struct {
	data, models modelflags.List
	splits, jobs int
	sizes        sizesFlag
	seed         uint64
	out          string
	formats      modelflags.List // further formats of the plots
	read         dataFlags
	tune         compareTuneOptions
	kinds        map[string]*modelFlags // every kind, by name
	passed       map[string]*passFlag   // the model flags, by name
	command      string                 // the command line, for the report
	sentences    bool                   // --data names sequence data (compare_seq.go)
	testData     modelflags.List        // --test-data (compare_testdata.go)
	seq          seqFlags               // how to read sequence data, as fit reads it
}

// classifierKindNames returns the names of the kinds whose models
// classify the rows of tables (registry.Classes, not registry.Sequences),
// in sorted order: compare's --models.
func classifierKindNames() []string {
	return kindsWith(func(k *registry.Kind) bool { return k.Target == registry.Classes && k.Input != registry.Sequences })
}

// modelFlags are one kind's flags, parsed into a FlagSet of its own, and
// the function that fits the kind with them.
type modelFlags struct {
	fs     *flag.FlagSet
	config func() (registry.Config, error)
	fit    fitFunc
}

func compareFlags(fs *flag.FlagSet, args []string) Runner {
	o := &compareOptions{command: commandLine("compare", args)}
	fs.Var(&o.data, "data", "the data sets: CSV or TSV `files` or bundled names, comma-separated or repeated (default: every bundled data set a model applies to)")
	fs.Var(&o.models, "models", "the `models` to compare, comma-separated: "+strings.Join(classifierKindNames(), ", ")+" (default "+strings.Join(defaultModels, ",")+"); on sentences: "+strings.Join(sequenceModelNames(), ", ")+" (default all)")
	fs.IntVar(&o.splits, "splits", compare.DefaultSplits, "random train/test `splits` per training-set size (Ng and Jordan: 1000)")
	fs.Var(&o.sizes, "sizes", "the training-set `sizes` m, comma-separated (default: a geometric grid per data set)")
	fs.Uint64Var(&o.seed, "seed", 1, "`seed` of the splits and of the models' random draws")
	fs.StringVar(&o.out, "out", "gendisc-report", "write the report to this `directory` (replaced if it holds a report)")
	fs.IntVar(&o.jobs, "jobs", 0, "splits worked on at once (default: every core)")
	fs.Var(&o.formats, "format", "write the plots in these `formats` as well as SVG, comma-separated: pdf, png")
	o.read.register(fs)
	o.seq.register(fs)
	o.tune.register(fs)
	o.registerTestData(fs)
	if args == nil { // help: MoreHelp lists the model flags
		return nil
	}
	o.defineModelFlags(fs)
	return func(ctx context.Context, env *Env) error { return o.run(ctx, env, fs) }
}

// commandLine returns the command line "gendisc NAME ARGS..." with the
// arguments quoted for a POSIX shell where they need it.
func commandLine(name string, args []string) string {
	parts := []string{"gendisc", name}
	for _, a := range args {
		if a == "" || strings.ContainsFunc(a, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.,/=:+@%", r))
		}) {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}

// defineModelFlags gives every kind a FlagSet of its own, sets
// compareModelDefaults in them, and defines on fs one passFlag for each
// flag name of the kinds that fs lacks.
func (o *compareOptions) defineModelFlags(fs *flag.FlagSet) {
	o.kinds, o.passed = map[string]*modelFlags{}, map[string]*passFlag{}
	for _, name := range kindNames() {
		kfs := flag.NewFlagSet(name, flag.ContinueOnError)
		kfs.SetOutput(io.Discard)
		k, _ := registry.Lookup(name)
		config := kindConfig(k, kfs)
		mf := &modelFlags{fs: kfs, config: config, fit: configFit(k, config)}
		o.kinds[name] = mf
		kfs.VisitAll(func(f *flag.Flag) {
			if v, ok := compareModelDefaults[f.Name]; ok {
				if err := kfs.Set(f.Name, v); err != nil {
					panic("cli: compare default --" + f.Name + ": " + err.Error())
				}
			}
			if fs.Lookup(f.Name) != nil && o.passed[f.Name] == nil {
				return // compare's own flag: --seed reaches the models in resolve
			}
			p := o.passed[f.Name]
			if p == nil {
				b, ok := f.Value.(interface{ IsBoolFlag() bool })
				p = &passFlag{name: f.Name, isBool: ok && b.IsBoolFlag()}
				o.passed[f.Name] = p
				fs.Var(p, f.Name, f.Usage)
			}
			p.owners = append(p.owners, name)
			p.sets = append(p.sets, kfs)
		})
	}
}

// passFlag is a model flag on compare's command line: Set passes the
// value to the FlagSet of every kind that has the flag.
type passFlag struct {
	name   string
	owners []string // the kinds that have the flag
	sets   []*flag.FlagSet
	isBool bool
	given  bool
}

func (p *passFlag) String() string   { return "" }
func (p *passFlag) IsBoolFlag() bool { return p.isBool }
func (p *passFlag) Set(s string) error {
	for _, fs := range p.sets {
		if err := fs.Set(p.name, s); err != nil {
			return err
		}
	}
	p.given = true
	return nil
}

// sizesFlag is a comma-separated list of training-set sizes; repeating
// the flag appends.
type sizesFlag []int

func (s *sizesFlag) String() string {
	parts := make([]string, len(*s))
	for i, m := range *s {
		parts[i] = strconv.Itoa(m)
	}
	return strings.Join(parts, ",")
}

func (s *sizesFlag) Set(v string) error {
	for _, part := range strings.Split(v, ",") {
		m, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || m < 1 {
			return fmt.Errorf("%q: want whole numbers of rows ≥ 1, such as 10,20,50", part)
		}
		*s = append(*s, m)
	}
	return nil
}

// run reads the data sets, turns the models and their flags into
// compare.Models, plans the experiment with compare.Plan, runs it under
// the progress bar, writes the reports and prints the tables and notes.
func (o *compareOptions) run(ctx context.Context, env *Env, fs *flag.FlagSet) error {
	sentences, err := o.sequenceData()
	if err != nil {
		return err
	}
	o.sentences = sentences
	if err := checkReadFlags(fs, o.sentences, "--data holds "+readsWhat(o.sentences)); err != nil {
		return err
	}
	if err := o.checkTestData(); err != nil {
		return err
	}
	if err := o.checkTuneData(); err != nil {
		return err
	}
	if err := o.resolve(); err != nil {
		return err
	}
	if o.sentences {
		return o.runSequences(ctx, env)
	}
	tasks, err := o.readTasks(env)
	if err != nil {
		return err
	}
	for _, t := range tasks {
		env.verbosef("%s: %d rows, %d features, %d classes", t.Name, t.Data.N, t.Data.D(), len(t.Data.Schema.Classes()))
	}
	models := make([]compare.Model, len(o.models))
	for l, name := range o.models {
		models[l] = compare.Model{Name: name, Settings: o.settings(name), Fit: o.kinds[name].fit}
	}
	tuned, err := o.tunedModels()
	if err != nil {
		return err
	}
	res, err := o.runModels(ctx, env, tasks, models)
	if err != nil {
		return err
	}
	if o.tune.on {
		// The same splits (the same seed, tasks and sizes) with the
		// models tuned; the report shows m* of both runs.
		untuned := res
		if res, err = o.runModels(ctx, env, tasks, tuned); err != nil {
			return err
		}
		if err := res.SetUntuned(untuned); err != nil {
			return err
		}
	}
	if err := res.WriteReports(o.out, compare.ReportInfo{Command: o.command, Version: gendiscVersion(), Formats: o.formats}); err != nil {
		return err
	}
	if err := res.WriteSummary(env.Stdout); err != nil {
		return err
	}
	if !env.Quiet {
		fmt.Fprintf(env.Stderr, "gendisc: compare: report in %s\n", filepath.Join(o.out, compare.IndexFile))
	}
	return nil
}

// runModels plans and runs the experiment of models on tasks under the
// progress bar.
func (o *compareOptions) runModels(ctx context.Context, env *Env, tasks []compare.Task, models []compare.Model) (*compare.Outcome, error) {
	e, err := compare.Plan(tasks, models, compare.PlanOptions{RequireTasks: len(o.data) > 0, Describe: hinted})
	if err != nil {
		return nil, planError(err)
	}
	if len(e.Learners) < min(2, len(models)) {
		return nil, fmt.Errorf("--models: %s: compare needs two models that apply to the data", strings.Join(e.Notes, "; "))
	}
	cfg := compare.Config{Splits: o.splits, Sizes: o.sizes, Seed: o.seed, Jobs: o.jobs}
	bar := env.compareBar()
	if bar != nil {
		cfg.Progress = bar.show
	}
	res, err := e.Run(ctx, cfg)
	if bar != nil {
		bar.done()
	}
	return res, err
}

// planError gives the errors of compare.Plan the flags they are about.
func planError(err error) error {
	var (
		nc *compare.NotClassifierError
		tn *compare.TaskNotApplicableError
	)
	switch {
	case errors.As(err, &nc):
		return usagef("--models: a %s model does not classify", nc.Model)
	case errors.As(err, &tn):
		return fmt.Errorf("%s: none of the models applies (%s)", tn.Task, tn.Why())
	}
	return err
}

// resolve applies the default models, refuses settings that no run can
// use, as misuse, and passes --seed to the models that take a seed.
func (o *compareOptions) resolve() error {
	if len(o.models) == 0 {
		o.models = o.modelsByDefault()
	}
	switch {
	case o.splits < 1:
		return usagef("--splits %d: want at least 1", o.splits)
	case o.jobs < 0:
		return usagef("--jobs %d: want at least 0 (0: every core)", o.jobs)
	}
	for _, f := range o.formats {
		if !slices.Contains(compare.PlotFormats, f) {
			return usagef("--format %s: want pdf or png (comma-separated)", f)
		}
	}
	for i, name := range o.models {
		if err := o.checkModel(name); err != nil {
			return err
		}
		if slices.Contains(o.models[:i], name) {
			return usagef("--models: %s appears twice", name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(o.passed)) {
		p := o.passed[name]
		if p.given && !slices.ContainsFunc(p.owners, func(k string) bool { return slices.Contains(o.kindsOfModels(), k) }) {
			return usagef("--%s is a flag of --models %s, and --models is %s", name, strings.Join(p.owners, " or "), strings.Join(o.models, ","))
		}
	}
	seed := strconv.FormatUint(o.seed, 10)
	for _, name := range o.kindsOfModels() {
		if err := checkFlags(o.kinds[name].fs); err != nil {
			return err
		}
		if kfs := o.kinds[name].fs; kfs.Lookup("seed") != nil {
			kfs.Set("seed", seed)
		}
	}
	return nil
}

// readTasks reads the data sets of --data, or the default set.
func (o *compareOptions) readTasks(env *Env) ([]compare.Task, error) {
	names := o.data
	if len(names) == 0 {
		names = compare.DefaultTaskNames()
	}
	var tasks []compare.Task
	taken := map[string]bool{}
	for _, name := range names {
		d, err := o.readTask(env, name)
		if err != nil {
			return nil, err
		}
		label := name
		if _, ok := datasets.Info(name); !ok {
			if _, ok := compare.LookupTwoClassTask(name); !ok {
				label = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
			}
		}
		if taken[label] {
			label = name
		}
		if taken[label] {
			return nil, usagef("--data: %s appears twice", name)
		}
		taken[label] = true
		tasks = append(tasks, compare.Task{Name: label, Data: d})
	}
	return tasks, nil
}

// readTask reads one --data name: a file, a bundled data set, or one of
// the two-class tasks of optdigits (when no file has that name).
func (o *compareOptions) readTask(env *Env, name string) (*data.Dataset, error) {
	if b, ok := compare.LookupTwoClassTask(name); ok {
		if _, err := os.Stat(name); err != nil {
			d, err := env.readData(b.Source, o.read.options())
			if err != nil {
				return nil, err
			}
			return compare.Binary(d, b.A, b.B)
		}
	}
	return env.readData(name, o.read.options())
}

// settings describes the model flags of a kind for the report: every flag
// that was set, and every other whose value is not empty, false or 0.
func (o *compareOptions) settings(name string) string {
	kfs := o.kinds[name].fs
	set := map[string]bool{}
	kfs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var parts []string
	kfs.VisitAll(func(f *flag.Flag) {
		if v := f.Value.String(); set[f.Name] || v != "" && v != "false" && v != "0" {
			parts = append(parts, "--"+f.Name+" "+v)
		}
	})
	return strings.Join(parts, " ")
}

// compareProgress draws compare's progress bar on a terminal.
type compareProgress struct {
	bar *progressbar.ProgressBar
}

// barSteps is the resolution of the progress bar, whose position is the
// fraction of the estimated work done (compare.Progress.Work).
const barSteps = 1000

// compareBar returns a progress bar on Stderr, or nil with --quiet or when
// Stderr is not a terminal.
func (env *Env) compareBar() *compareProgress {
	if !env.showProgress() {
		return nil
	}
	return &compareProgress{bar: progressbar.NewOptions64(barSteps,
		progressbar.OptionSetWriter(env.Stderr),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionFullWidth(),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetDescription("compare"))}
}

func (p *compareProgress) show(pr compare.Progress) {
	p.bar.Describe(fmt.Sprintf("datasets %d/%d, sizes %d/%d, splits %d/%d",
		pr.DatasetsDone, pr.Datasets, pr.SizesDone, pr.Sizes, pr.SplitsDone, pr.Splits))
	p.bar.Set64(int64(pr.WorkDone / pr.Work * barSteps))
}

func (p *compareProgress) done() {
	p.bar.Finish()
	p.bar.Close()
}
