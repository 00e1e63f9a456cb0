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
	"golang.org/x/term"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/compare"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/datasets"
)

// The command list is set by cli.go's init, which runs before this file's
// (files initialise in name order).
func init() { commands = append(commands, cmdCompare) }

// defaultModels are the models compare runs without --models: the
// generative-discriminative pair of Ng and Jordan.
var defaultModels = []string{"nb", "logistic"}

// compareModelDefaults are model flag values that compare sets before
// parsing, where fit's default would make a model fail on the bundled
// data: logistic regression refuses missing cells unless told to impute
// them (house_votes84, mushroom, adult and breast_cancer_wisconsin have
// some), and compare's reference (compare/testdata/gen_reference.py)
// imputes the training means.
var compareModelDefaults = map[string]string{"impute": "mean"}

// binaryTasks are the two-class tasks that Ng and Jordan drew from
// optdigits, by name: bundled names for --data, and part of the default
// set.
var binaryTasks = []binaryTask{
	{"optdigits_0_vs_1", "optdigits", "0", "1"},
	{"optdigits_2_vs_3", "optdigits", "2", "3"},
}

// binaryTask is the data set of two classes a and b of a bundled data set.
type binaryTask struct{ name, source, a, b string }

// probeRows is the most rows of a data set that a model is fitted on to
// find out whether it applies to the data set's columns.
const probeRows = 2000

var cmdCompare = &Command{
	Name:      "compare",
	UsageLine: "compare [--data F]... [--models nb,logistic,...] [--splits N] [--sizes M,...] [model flags] [--seed S] [--out DIR]",
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
curves.csv with every figure, and summary.txt.

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

The models take the flags of "gendisc fit" (see below): each flag goes to
the models of --models that have it, and a flag that none of them has is an
error. --l2 is logistic regression's penalty (default 1; --l2 0 is the
paper's unpenalised maximum likelihood, stopped when the weights diverge on
separable data); --variance feature gives naive Bayes one variance per
feature shared by the classes, the exact generative partner of logistic
regression. Compare sets --impute mean for logistic regression, so that
data sets with missing cells can be compared. --seed seeds the splits and
every model that draws random numbers: the same seed gives the same report,
byte for byte, whatever --jobs.

A progress bar is shown on a terminal unless --quiet. When compare fails,
no report is written.

Example:

	gendisc compare
	gendisc compare --data sonar,ionosphere --models nb,logistic,lda --splits 1000 --variance feature --out sonar-report`,
	Flags: compareFlags,
	MoreHelp: func(w io.Writer) {
		fmt.Fprintf(w, "\nModel flags (as for gendisc fit; each goes to the models of --models that take it):\n")
		for _, name := range classifierKindNames() {
			fs := flag.NewFlagSet(name, flag.ContinueOnError)
			kinds[name].flags(fs)
			fmt.Fprintf(w, "\n--models %s:\n", name)
			printFlags(w, fs)
		}
	},
}

// compareOptions are the settings of one compare run.
type compareOptions struct {
	data, models  listFlag
	defaultModels bool // --models not given
	splits, jobs  int
	sizes         sizesFlag
	seed          uint64
	out           string
	read          dataFlags
	kinds         map[string]*modelFlags // every kind, by name
	passed        map[string]*passFlag   // the model flags, by name
	command       string                 // the command line, for the report
}

// modelFlags are one kind's flags, parsed into a FlagSet of its own, and
// the function that fits the kind with them.
type modelFlags struct {
	fs  *flag.FlagSet
	fit fitFunc
}

func compareFlags(fs *flag.FlagSet, args []string) Runner {
	o := &compareOptions{command: commandLine("compare", args)}
	fs.Var(&o.data, "data", "the data sets: CSV or TSV `files` or bundled names, comma-separated or repeated (default: every bundled data set a model applies to)")
	fs.Var(&o.models, "models", "the `models` to compare, comma-separated: "+strings.Join(classifierKindNames(), ", ")+" (default "+strings.Join(defaultModels, ",")+")")
	fs.IntVar(&o.splits, "splits", compare.DefaultSplits, "random train/test `splits` per training-set size (Ng and Jordan: 1000)")
	fs.Var(&o.sizes, "sizes", "the training-set `sizes` m, comma-separated (default: a geometric grid per data set)")
	fs.Uint64Var(&o.seed, "seed", 1, "`seed` of the splits and of the models' random draws")
	fs.StringVar(&o.out, "out", "gendisc-report", "write the report to this `directory` (replaced if it holds a report)")
	fs.IntVar(&o.jobs, "jobs", 0, "splits worked on at once (default: every core)")
	o.read.register(fs)
	if args == nil { // help: MoreHelp lists the model flags
		return nil
	}
	o.defineModelFlags(fs)
	return func(ctx context.Context, env *Env) error { return o.run(ctx, env) }
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
		mf := &modelFlags{fs: kfs, fit: kinds[name].flags(kfs)}
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

// errNotApplicable is the fit error of a model on the splits of a data
// set it does not apply to: compare leaves those curves out of the report.
var errNotApplicable = errors.New("not applicable")

// compareTask is a data set with the models that apply to it.
type compareTask struct {
	compare.Task
	applies []bool // per model
}

func (o *compareOptions) run(ctx context.Context, env *Env) error {
	if err := o.resolve(); err != nil {
		return err
	}
	tasks, err := o.readTasks(env)
	if err != nil {
		return err
	}
	learners, notes, err := o.probe(env, &tasks)
	if err != nil {
		return err
	}
	cfg := compare.Config{Splits: o.splits, Sizes: o.sizes, Seed: o.seed, Jobs: o.jobs}
	bar := env.compareBar()
	if bar != nil {
		cfg.Progress = bar.show
	}
	plain := make([]compare.Task, len(tasks))
	for t, task := range tasks {
		plain[t] = task.Task
	}
	res, err := compare.Run(ctx, plain, learners, cfg)
	if bar != nil {
		bar.done()
	}
	if err != nil {
		return err
	}
	groups := groupTasks(res, tasks)
	for _, g := range groups[1:] {
		notes = append(notes, fmt.Sprintf("%s: with %s only, in the report %s/index.html", strings.Join(g.taskNames(), ", "),
			strings.Join(g.models(), ", "), g.dir))
	}
	info := compare.ReportInfo{Command: o.command, Version: buildVersion(), Notes: notes}
	if err := writeReports(o.out, groups, info); err != nil {
		return err
	}
	for _, g := range groups {
		if len(groups) > 1 {
			fmt.Fprintf(env.Stdout, "models %s:\n", strings.Join(g.models(), ", "))
		}
		if err := g.res.WriteSummary(env.Stdout); err != nil {
			return err
		}
		if len(groups) > 1 {
			fmt.Fprintln(env.Stdout)
		}
	}
	for _, n := range notes {
		fmt.Fprintf(env.Stdout, "note: %s\n", n)
	}
	if !env.Quiet {
		fmt.Fprintf(env.Stderr, "gendisc: compare: report in %s\n", filepath.Join(o.out, compare.IndexFile))
	}
	return nil
}

// resolve applies the default models, refuses settings that no run can
// use, as misuse, and passes --seed to the models that take a seed.
func (o *compareOptions) resolve() error {
	if len(o.models) == 0 {
		o.models, o.defaultModels = slices.Clone(defaultModels), true
	}
	switch {
	case o.splits < 1:
		return usagef("--splits %d: want at least 1", o.splits)
	case o.jobs < 0:
		return usagef("--jobs %d: want at least 0 (0: every core)", o.jobs)
	}
	for i, name := range o.models {
		if _, err := lookupKind(name); err != nil {
			return usagef("--models: %v", err)
		}
		if slices.Contains(o.models[:i], name) {
			return usagef("--models: %s appears twice", name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(o.passed)) {
		p := o.passed[name]
		if p.given && !slices.ContainsFunc(p.owners, func(k string) bool { return slices.Contains(o.models, k) }) {
			return usagef("--%s is a flag of --models %s, and --models is %s", name, strings.Join(p.owners, " or "), strings.Join(o.models, ","))
		}
	}
	seed := strconv.FormatUint(o.seed, 10)
	for _, name := range o.models {
		if kfs := o.kinds[name].fs; kfs.Lookup("seed") != nil {
			kfs.Set("seed", seed)
		}
	}
	return nil
}

// readTasks reads the data sets of --data, or the default set.
func (o *compareOptions) readTasks(env *Env) ([]compareTask, error) {
	names := o.data
	if len(names) == 0 {
		names = defaultTaskNames()
	}
	var tasks []compareTask
	taken := map[string]bool{}
	for _, name := range names {
		d, err := o.readTask(env, name)
		if err != nil {
			return nil, err
		}
		label := name
		if _, ok := datasets.Info(name); !ok && !isBinaryTask(name) {
			label = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
		}
		if taken[label] {
			label = name
		}
		if taken[label] {
			return nil, usagef("--data: %s appears twice", name)
		}
		taken[label] = true
		tasks = append(tasks, compareTask{Task: compare.Task{Name: label, Data: d}})
	}
	return tasks, nil
}

// defaultTaskNames lists the bundled data sets, each optdigits task after
// optdigits.
func defaultTaskNames() []string {
	var names []string
	for _, name := range datasets.Names() {
		names = append(names, name)
		for _, b := range binaryTasks {
			if b.source == name {
				names = append(names, b.name)
			}
		}
	}
	return names
}

func isBinaryTask(name string) bool {
	return slices.ContainsFunc(binaryTasks, func(b binaryTask) bool { return b.name == name })
}

// readTask reads one --data name: a file, a bundled data set, or one of
// the two-class tasks of optdigits (when no file has that name).
func (o *compareOptions) readTask(env *Env, name string) (*data.Dataset, error) {
	for _, b := range binaryTasks {
		if _, err := os.Stat(name); name != b.name || err == nil {
			continue
		}
		d, err := env.readData(b.source, o.read.options())
		if err != nil {
			return nil, err
		}
		return compare.Binary(d, b.a, b.b)
	}
	return env.readData(name, o.read.options())
}

// probe fits every model on up to probeRows rows of every data set (rows
// spread evenly over the file) to find out which models apply to which
// data sets, and returns the learners with the notes for the report. A
// data set that no model applies to is an error when --data names it, and
// is left out with a note from the default set; so is a model that applies
// to no data set when --models names it, and a default model.
func (o *compareOptions) probe(env *Env, tasks *[]compareTask) ([]compare.Learner, []string, error) {
	L := len(o.models)
	families := make([]*compare.Family, L)
	firstReason := make([]string, L) // why a model does not apply to the first data set it does not
	var kept []compareTask
	var notes []string
	for _, task := range *tasks {
		env.verbosef("%s: %d rows, %d features, %d classes", task.Name, task.Data.N, task.Data.D(), len(task.Data.Schema.Classes()))
		task.applies = make([]bool, L)
		reasons := make([]error, L) // why a model does not apply
		sample := evenRows(task.Data, probeRows)
		applies := false
		for l, name := range o.models {
			m, err := o.kinds[name].fit(sample)
			if err != nil {
				reasons[l] = err
				if firstReason[l] == "" {
					firstReason[l] = task.Name + ": " + hinted(err)
				}
				continue
			}
			c, ok := m.(gendisc.Classifier)
			if !ok {
				return nil, nil, usagef("--models: a %s model does not classify", name)
			}
			f := compare.Discriminative
			if _, ok := c.(gendisc.Generative); ok {
				f = compare.Generative
			}
			families[l], task.applies[l], applies = &f, true, true
		}
		if !applies {
			var why []string
			for l, name := range o.models {
				why = append(why, name+": "+hinted(reasons[l]))
			}
			if len(o.data) > 0 {
				return nil, nil, fmt.Errorf("%s: none of the models applies (%s)", task.Name, strings.Join(why, "; "))
			}
			notes = append(notes, fmt.Sprintf("%s left out: none of the models applies (%s)", task.Name, strings.Join(why, "; ")))
			continue
		}
		for l, name := range o.models {
			if !task.applies[l] {
				notes = append(notes, fmt.Sprintf("%s not applicable to %s: %s", name, task.Name, hinted(reasons[l])))
			}
		}
		kept = append(kept, task)
	}
	var learners []compare.Learner
	var keep []int // the models that apply to some data set
	for l, name := range o.models {
		if families[l] == nil {
			if !o.defaultModels {
				return nil, nil, fmt.Errorf("--models %s applies to none of the data sets (%s)", name, firstReason[l])
			}
			notes = append(notes, fmt.Sprintf("%s left out: it applies to none of the data sets", name))
			continue
		}
		keep = append(keep, l)
		skip := map[*data.Schema]bool{}
		for _, task := range kept {
			if !task.applies[l] {
				skip[task.Data.Schema] = true
			}
		}
		learners = append(learners, compare.Learner{Name: name, Family: *families[l], Settings: o.settings(name),
			Fit: classifierFit(o.kinds[name].fit, skip)})
	}
	for i, task := range kept {
		applies := make([]bool, len(keep))
		for k, l := range keep {
			applies[k] = task.applies[l]
		}
		kept[i].applies = applies
	}
	*tasks = kept
	return learners, notes, nil
}

// classifierFit adapts a kind's fit function to compare: it refuses at
// once the training sets whose schema is in skip (data.Dataset.Subset
// keeps the schema of the data set it draws from), the data sets the
// model does not apply to, whose curves compare leaves out.
func classifierFit(fit fitFunc, skip map[*data.Schema]bool) func(*data.Dataset) (gendisc.Classifier, error) {
	return func(d *data.Dataset) (gendisc.Classifier, error) {
		if skip[d.Schema] {
			return nil, errNotApplicable
		}
		m, err := fit(d)
		if err != nil {
			return nil, err
		}
		return m.(gendisc.Classifier), nil
	}
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

// evenRows returns at most n rows of d, spread evenly over it.
func evenRows(d *data.Dataset, n int) *data.Dataset {
	if d.N <= n {
		return d
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i * d.N / n
	}
	return d.Subset(idx)
}

// taskGroup is a set of data sets run with the same models, and its part
// of the result.
type taskGroup struct {
	res *compare.Result
	dir string // the report's directory under --out; "" for --out itself
}

func (g *taskGroup) models() []string {
	var names []string
	for _, l := range g.res.Learners {
		names = append(names, l.Name)
	}
	return names
}

func (g *taskGroup) taskNames() []string {
	var names []string
	for _, t := range g.res.Tasks {
		names = append(names, t.Name)
	}
	return names
}

// groupTasks splits res by the set of models that apply to each task:
// one Result per set, without the curves and crossovers of the models
// that do not apply. The group with the most
// models comes first (the earliest among ties) and is the main report;
// the others' directories are named after their models.
func groupTasks(res *compare.Result, tasks []compareTask) []*taskGroup {
	var groups []*taskGroup
	var keys []string
	for t, task := range tasks {
		key := fmt.Sprint(task.applies)
		i := slices.Index(keys, key)
		if i < 0 {
			sub := *res
			sub.Learners, sub.Tasks = nil, nil
			for l, ok := range task.applies {
				if ok {
					sub.Learners = append(sub.Learners, res.Learners[l])
				}
			}
			keys, groups = append(keys, key), append(groups, &taskGroup{res: &sub})
			i = len(groups) - 1
		}
		tr := res.Tasks[t]
		tr.Curves, tr.Crossovers = nil, nil
		applies := map[string]bool{}
		for l, ok := range task.applies {
			if ok {
				tr.Curves = append(tr.Curves, res.Tasks[t].Curves[l])
				applies[res.Learners[l].Name] = true
			}
		}
		for _, x := range res.Tasks[t].Crossovers {
			if applies[x.Generative] && applies[x.Discriminative] {
				tr.Crossovers = append(tr.Crossovers, x)
			}
		}
		groups[i].res.Tasks = append(groups[i].res.Tasks, tr)
	}
	slices.SortStableFunc(groups, func(a, b *taskGroup) int { return len(b.res.Learners) - len(a.res.Learners) })
	for _, g := range groups[1:] {
		g.dir = strings.Join(g.models(), "-")
	}
	return groups
}

// writeReports writes the main report to out and the others into its
// subdirectories. The subreports are written first beside out, then the
// main report replaces out (compare.WriteReport: only a previous report or
// an empty directory is replaced), then the subreports move into it; a
// failure leaves no report.
func writeReports(out string, groups []*taskGroup, info compare.ReportInfo) (err error) {
	var stage string
	if len(groups) > 1 {
		stage, err = os.MkdirTemp(filepath.Dir(filepath.Clean(out)), "."+filepath.Base(out)+".tmp*")
		if err != nil {
			return err
		}
		defer os.RemoveAll(stage)
		for _, g := range groups[1:] {
			if err := compare.WriteReport(filepath.Join(stage, g.dir), g.res, info); err != nil {
				return err
			}
		}
	}
	if err := compare.WriteReport(out, groups[0].res, info); err != nil {
		return err
	}
	for _, g := range groups[1:] {
		if err := os.Rename(filepath.Join(stage, g.dir), filepath.Join(out, g.dir)); err != nil {
			os.RemoveAll(out)
			return err
		}
	}
	return nil
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
	f, ok := env.Stderr.(*os.File)
	if env.Quiet || !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return &compareProgress{bar: progressbar.NewOptions64(barSteps,
		progressbar.OptionSetWriter(f),
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
