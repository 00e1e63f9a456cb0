package cli

import (
	"context"
	"flag"
	"slices"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/cv"
	"github.com/gendisc/gendisc/registry"
)

// defaultTuneFolds is the number of folds of tune without --folds: five,
// as scikit-learn's GridSearchCV, since every setting is a
// cross-validation.
const defaultTuneFolds = 5

var cmdTune = &Command{
	Name:      "tune",
	UsageLine: "tune --data F --model KIND --grid NAME=VALUES [--grid ...] [--random N] [--metric M] [--folds K|loo] [--repeats R] [--seed S] [--group COLUMN] [--folds-in FILE] [--folds-out FILE] [--one-se] [--json] [data flags] [model flags] --out M.json",
	Short:     "choose a model's settings by cross-validation and fit the best",
	Long: `
Tune searches settings of the flags of a model kind by cross-validation:
every setting is fitted and evaluated on the same stratified folds
(--folds, 5 by default, drawn with --seed; plain folds for a regression
or a language model), the setting with the best mean of --metric is
chosen, refitted on all the rows, and its model written to --out as fit
writes it (atomically: when tune fails, no file is left).

The fold flags are cv's: --folds loo is leave-one-out, --group COLUMN
keeps the rows of each value of that column in one fold (the column is
then not a feature), --repeats R searches on R assignments drawn with
the seeds S, S+1, ..., --folds-out FILE writes the assignment used and
--folds-in FILE takes one (the CSV of cv: the header "fold" and one
0-based fold number per row) in place of --folds, --group, --repeats and
--seed. A kind of sentences is folded by sentences, one fold number per
sentence, without loo or --group.

--grid NAME=VALUES searches the model flag --NAME; give one --grid per
flag, and the settings are every combination of their values (the last
--grid varying fastest). VALUES is

	v1,v2,...     the listed values: l2=0.01,0.1,1,10 or variance=feature,class-feature
	lo..hi:n      n numbers from lo to hi, both included: l2=1e-4..1e2:13

A range of positive numbers spanning two decades or more (hi/lo >= 100)
is spaced evenly on a log scale, as penalties and smoothings are searched
(1e-4..1e2:13 is 1e-4, 3.16e-4, 1e-3, ...); any other is linear
(shrinkage=0..1:11 is 0, 0.1, ..., 1); the prefix log: or lin: chooses
(l2=lin:1..100:3). Each value is given to the flag as on the command
line, so a value the flag refuses is an error naming the setting. Model
flags given outside --grid (those of gendisc fit --model KIND, listed by
gendisc help fit) hold in every setting; a kind's --seed is the seed of
the folds too.

With --random N, N settings are drawn instead (with --seed): each
flag's value uniformly from its list, uniformly within a linear range,
log-uniformly within a log one; a range may then omit :n.

--metric is what the search minimises (maximises for auc): log-loss,
error, brier or auc for a classifier (log-loss by default), rmse for a
regression, perplexity for a language model. With --one-se the choice is
the most regularised setting whose mean is within one standard error of
the best's: the largest value of the first searched flag among l2, alpha,
var-smoothing and shrinkage (more of each regularises more), then of the
next; with none of them searched, the best.

The table of every setting's mean ± standard error of --metric goes to
standard error; with --json, standard output gets one object: "metric",
"settings" (per setting its flag values under "params", as strings, and
the "mean" and "se" over the folds of every figure of gendisc eval
--json) and "best" (the chosen "params", with the metric's "mean" and
"se").

A kind whose models keep sufficient statistics builds every fold's model
from one pass over the rows, and the settings that only change how a
model is made of the statistics (naive Bayes's --alpha, --var-smoothing,
--variance and prior; LDA's and QDA's fixed --shrinkage and prior; linear
regression's --l2 and --no-standardize; an n-gram model's --smoothing
and --alpha) share that pass: one pass per assignment for all of them.
The settings of a regularisation path (logistic regression's --l2, the
other searched flags fixed) are fitted fold by fold from the most
regularised to the least, each fold's fit starting from the fold's fit
of the previous value, as scikit-learn's LogisticRegressionCV does: the
same figures as cold fits, to the solver's tolerance, in fewer
iterations.

A kind of sentences (hmm, crf) is searched on folds of its sentences, as
cv folds them, by error (1 - token accuracy) by default, or
sentence-accuracy, unknown-accuracy, macro-f1 or span-f1 (BIO/IOB tags);
--one-se prefers the largest c2, c1 or min-freq of a CRF, the largest
emission-alpha or theta-factor of an HMM.

Example:

	gendisc tune --data pima_indians_diabetes --model logistic --grid 'l2=1e-3..1e3:7' --out pima.json`,
	Required:    []string{"data", "model", "grid", "out"},
	Flags:       tuneFlags,
	WritesModel: true,
}

type tuneOptions struct {
	train  fitOptions // --data, --model, the data flags, and the kind, read as fit reads them
	grids  []string
	base   cv.Setting // the model flags given outside --grid, in order
	random int
	metric string
	foldFlags
	oneSE   bool
	json    bool
	out     string
	kindErr error // an unknown --model
}

func tuneFlags(fs *flag.FlagSet, args []string) Runner {
	o := &tuneOptions{}
	fs.StringVar(&o.train.data, "data", "", "training data: a CSV or TSV `file`, - for standard input, or a bundled data set's name")
	fs.StringVar(&o.train.model, "model", "", "the model `kind`: "+strings.Join(kindNames(), ", "))
	o.train.read.register(fs)
	o.train.seq.register(fs) // a kind of sentences (cv_seq.go)
	fs.Var((*gridFlag)(&o.grids), "grid", "search the model flag `NAME=VALUES`: v1,v2,... or a range lo..hi:n (repeatable)")
	fs.IntVar(&o.random, "random", 0, "draw `N` settings at random from the grids instead of trying every one")
	fs.StringVar(&o.metric, "metric", "", "the `metric` to optimise: log-loss, error, brier, auc (classifiers; log-loss by default), rmse (regressions), perplexity (language models)")
	o.foldFlags.register(fs, defaultTuneFolds, "")
	fs.BoolVar(&o.oneSE, "one-se", false, "choose the most regularised setting within one standard error of the best")
	fs.BoolVar(&o.json, "json", false, "print the settings' results as JSON on standard output")
	fs.StringVar(&o.out, "out", "", "write the chosen setting's model to this `file`; - for standard output")
	// The kind's flags are defined before parsing, as fit's.
	var k *registry.Kind
	if args != nil {
		if k, o.kindErr = lookupKind(flagValue(args, "model", "")); o.kindErr == nil {
			o.train.kind, o.train.numericTarget = k, k.Target == registry.Number
			o.defineKindFlags(fs, k)
		}
	}
	o.registerSeed(fs, "`seed` of the fold assignment and the random draws")
	if args == nil {
		return nil
	}
	if k != nil {
		defineOtherKindsFlags(fs, k.Name)
	} else {
		defineOtherKindsFlags(fs, "")
	}
	return func(ctx context.Context, env *Env) error {
		if o.kindErr != nil {
			return usagef("%v", o.kindErr)
		}
		if err := checkKindReadFlags(fs, k); err != nil {
			return err
		}
		o.noteGiven(fs)
		nFolds, err := o.check()
		if err != nil {
			return err
		}
		if o.random < 0 {
			return usagef("--random %d: want a number of settings", o.random)
		}
		if o.json && (o.out == "-" || o.foldsOut == "-") || o.out == "-" && o.foldsOut == "-" {
			return usagef("one of --json, --out - and --folds-out - can go to standard output")
		}
		s, err := o.search()
		if err != nil {
			return err
		}
		if sequenceInput(k) {
			return o.runSequences(env, s, nFolds)
		}
		return o.run(env, s, nFolds)
	}
}

// gridFlag is --grid, which gathers one search a time.
type gridFlag []string

func (g *gridFlag) String() string {
	if g == nil {
		return ""
	}
	return strings.Join(*g, " ")
}

func (g *gridFlag) Set(s string) error {
	*g = append(*g, s)
	return nil
}

// Repeatable marks --grid as a flag given once per flag searched
// (checkRepeated).
func (g *gridFlag) Repeatable() bool { return true }

// repeatable is a flag that gathers the values of its repetitions.
type repeatable interface{ Repeatable() bool }

// defineKindFlags defines the flags of kind k on fs, each recording the
// value it is given in o.base (after the flag's own check), and the
// kind's --seed, if it has one, as the seed of the folds too
// (foldFlags.registerSeed).
func (o *tuneOptions) defineKindFlags(fs *flag.FlagSet, k *registry.Kind) {
	kfs := flag.NewFlagSet(k.Name, flag.ContinueOnError)
	k.Flags(kfs)
	kfs.VisitAll(func(f *flag.Flag) {
		fs.Var(&recordedFlag{Value: f.Value, name: f.Name, to: &o.base}, f.Name, f.Usage)
	})
}

// recordedFlag is a model flag of tune: a value given to it is checked by
// the kind's flag, and recorded, to be set in every setting.
type recordedFlag struct {
	flag.Value
	name string
	to   *cv.Setting
}

func (f *recordedFlag) Set(s string) error {
	if err := f.Value.Set(s); err != nil {
		return err
	}
	*f.to = append(*f.to, cv.FlagValue{Name: f.name, Value: s})
	return nil
}

func (f *recordedFlag) IsBoolFlag() bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// search returns the search the flags describe, every setting checked:
// a --grid of no flag of the kind (with the flags it may have meant), a
// flag both given and searched, a value a flag refuses (naming the
// setting), or a metric the kind lacks is a misuse.
func (o *tuneOptions) search() (*cv.Search, error) {
	k := o.train.kind
	kfs := flag.NewFlagSet(k.Name, flag.ContinueOnError)
	k.Flags(kfs)
	var names []string
	kfs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	s := &cv.Search{Kind: k, Base: o.base, Random: o.random, Seed: o.seed(), OneSE: o.oneSE}
	for _, g := range o.grids {
		p, err := cv.ParseParam(g)
		if err != nil {
			return nil, usagef("--grid %s", strings.TrimPrefix(err.Error(), "cv: search "))
		}
		if kfs.Lookup(p.Name) == nil {
			return nil, usagef("--grid %s: --model %s has no flag --%s%s", g, k.Name, p.Name, didYouMean(p.Name, names, func(n string) string { return "--" + n }))
		}
		if slices.ContainsFunc(o.base, func(fv cv.FlagValue) bool { return fv.Name == p.Name }) {
			return nil, usagef("--%s is both given and searched by --grid: give one", p.Name)
		}
		if slices.ContainsFunc(s.Params, func(q cv.Param) bool { return q.Name == p.Name }) {
			return nil, usagef("--grid searches --%s twice: give its values in one --grid", p.Name)
		}
		s.Params = append(s.Params, p)
	}
	metric := o.metric
	if metric == "" {
		if ms := cv.Metrics(k); len(ms) > 0 {
			metric = ms[0].Name
		}
	}
	m, err := cv.MetricNamed(k, metric)
	if err != nil {
		return nil, usagef("--metric: %s", strings.TrimPrefix(err.Error(), "cv: "))
	}
	s.Metric = m
	settings, err := s.Settings()
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "cv: ")
		if rest, ok := strings.CutPrefix(msg, "search "); ok {
			msg = "--grid " + rest
		}
		return nil, usagef("%s", msg)
	}
	for _, set := range settings {
		if _, err := cv.Config(k, o.base, set); err != nil {
			return nil, usagef("%s", strings.TrimPrefix(err.Error(), "cv: "))
		}
	}
	return s, nil
}

func (o *tuneOptions) run(env *Env, s *cv.Search, k int) error {
	d, err := o.train.readTrainingData(env, o.withGroup(o.train.readOptions()))
	if err != nil {
		return err
	}
	if o.train.kind.Input == registry.Text {
		if err := checkPlainText(d); err != nil {
			return err
		}
	}
	d, folds, err := o.assign(d, k)
	if err != nil {
		return err
	}
	show := env.progress()
	s.Progress = func(done, total int) { show("tune: %d of %d fits", done, total) }
	res, err := s.Run(d, folds...)
	show("")
	if err != nil {
		return kindHint(err, d)
	}
	if err := o.report(env, res); err != nil {
		return err
	}
	m, err := s.Fit(res, d)
	if err != nil {
		return kindHint(err, d)
	}
	return o.write(env, m, folds[0])
}

// write writes the chosen setting's model m to --out, with its warnings,
// and the fold assignment f to --folds-out when given.
func (o *tuneOptions) write(env *Env, m gendisc.Model, f cv.Folds) error {
	warnModel(env, m)
	if err := env.writeCVFiles(o.foldsOut, "", f, nil); err != nil {
		return err
	}
	return env.writeModel(o.out, persistent(m))
}

// warnTrials writes the warnings of the settings' cross-validations: once
// a warning that every setting has (a fold with fewer rows than classes),
// and a setting's own with its setting.
func warnTrials(env *Env, trials []cv.Trial) {
	settings := map[string]int{} // how many settings have each warning
	var order []string
	for _, t := range trials {
		for _, w := range slices.Compact(slices.Sorted(slices.Values(t.Result.Warnings))) {
			if settings[w] == 0 {
				order = append(order, w)
			}
			settings[w]++
		}
	}
	for _, w := range order {
		if settings[w] == len(trials) {
			env.warnf("%s", w)
		}
	}
	for _, t := range trials {
		for _, w := range t.Result.Warnings {
			if settings[w] < len(trials) {
				env.warnf("%s: %s", t.Setting, w)
			}
		}
	}
}
