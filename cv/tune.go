package cv

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/ngram"
	"github.com/gendisc/gendisc/registry"
)

// Param is the values searched for one flag of a kind (registry.Kind.Flags):
// a list of values, or a range of numbers from Lo to Hi, spaced evenly on
// a log scale (Log) or a linear one, of which a grid takes N.
type Param struct {
	// Name is the flag's name, without dashes.
	Name string
	// Values are the flag values of a list, as the flag takes them; nil
	// for a range.
	Values []string
	// Lo, Hi, N and Log are a range's: N values from Lo to Hi (N = 0
	// when the range is only drawn from, see Search.Random).
	Lo, Hi float64
	N      int
	Log    bool
}

// logRatio is the ratio Hi/Lo from which a range of positive numbers is
// spaced on a log scale unless its scale is written (ParseParam): two
// decades or more, as the strengths of a penalty or a smoothing are
// searched; a narrower range, such as 1..10 for a count, is linear.
const logRatio = 100

// ParseParam parses the search of one flag, NAME=SPEC, where SPEC is
//
//	v1,v2,...       the listed values (numbers or words: l2=0.01,0.1,1 or variance=feature,class-feature)
//	lo..hi:n        n numbers from lo to hi, both included
//	lo..hi          a range only drawn from (Search.Random)
//
// A range is log-spaced (lo·(hi/lo)^(i/(n−1))) when 0 < lo and hi/lo ≥
// 100, and linear (lo + (i/(n−1))(hi−lo)) otherwise; the prefix "log:" or
// "lin:" of the range (l2=lin:0..10:11) chooses the scale. The values of
// a range are written with 12 significant digits, so that 0..1:11 gives
// 0.3, not 0.30000000000000004. Whether a value suits the flag is the
// flag's own business (Search.Config).
func ParseParam(s string) (Param, error) {
	name, spec, ok := strings.Cut(s, "=")
	name = strings.TrimLeft(strings.TrimSpace(name), "-")
	if !ok || name == "" {
		return Param{}, fmt.Errorf("cv: search %q: want NAME=v1,v2,... or NAME=lo..hi:n", s)
	}
	p := Param{Name: name}
	scale, rest, scaled := "", spec, false
	if before, after, found := strings.Cut(spec, ":"); found && (before == "log" || before == "lin") {
		scale, rest, scaled = before, after, true
	}
	lo, hi, isRange := strings.Cut(rest, "..")
	if !isRange {
		if scaled {
			return Param{}, fmt.Errorf("cv: search %s: %s: applies to a range lo..hi:n", name, scale)
		}
		for v := range strings.SplitSeq(spec, ",") {
			if v = strings.TrimSpace(v); v == "" {
				return Param{}, fmt.Errorf("cv: search %s: an empty value in %q", name, spec)
			}
			p.Values = append(p.Values, v)
		}
		return p, nil
	}
	hi, n, hasN := strings.Cut(hi, ":")
	var err error
	if p.Lo, err = rangeBound(name, lo); err != nil {
		return Param{}, err
	}
	if p.Hi, err = rangeBound(name, hi); err != nil {
		return Param{}, err
	}
	if p.Hi < p.Lo {
		return Param{}, fmt.Errorf("cv: search %s: the range %s..%s ends below its start", name, lo, hi)
	}
	if hasN {
		if p.N, err = strconv.Atoi(strings.TrimSpace(n)); err != nil || p.N < 1 || p.N > maxValues {
			return Param{}, fmt.Errorf("cv: search %s: the number of values %q is not a whole number from 1 to %d", name, n, maxValues)
		}
		if p.N == 1 && p.Lo != p.Hi {
			return Param{}, fmt.Errorf("cv: search %s: one value of the range %s..%s: give 2 or more, or the value alone", name, lo, hi)
		}
	}
	switch scale {
	case "log":
		if p.Lo <= 0 {
			return Param{}, fmt.Errorf("cv: search %s: a log-spaced range needs a start above 0, not %s", name, lo)
		}
		p.Log = true
	case "":
		p.Log = p.Lo > 0 && p.Hi/p.Lo >= logRatio
	}
	return p, nil
}

// maxValues bounds the values of one range, and the settings of a
// search: each is a cross-validation.
const maxValues = 10000

func rangeBound(name, s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("cv: search %s: the range bound %q is not a finite number", name, s)
	}
	return v, nil
}

// Grid returns the values of p on a grid: its list, or the N values of
// its range. A range without N is an error.
func (p Param) Grid() ([]string, error) {
	if p.Values != nil {
		return p.Values, nil
	}
	if p.N == 0 {
		return nil, fmt.Errorf("cv: search %s: the range %g..%g has no number of values (lo..hi:n); only random draws take a bare range", p.Name, p.Lo, p.Hi)
	}
	vs := make([]string, p.N)
	for i := range p.N {
		t := 0.0
		if p.N > 1 {
			t = float64(i) / float64(p.N-1)
		}
		vs[i] = p.at(t)
	}
	return vs, nil
}

// at returns the value of p's range at the fraction t of its length, on
// its scale.
func (p Param) at(t float64) string {
	var v float64
	switch {
	case t == 0:
		v = p.Lo
	case t == 1:
		v = p.Hi
	case p.Log:
		v = math.Exp(math.Log(p.Lo) + t*(math.Log(p.Hi)-math.Log(p.Lo)))
	default:
		v = p.Lo*(1-t) + p.Hi*t // without the overflow of hi − lo
	}
	return formatValue(v)
}

// formatValue writes v with 12 significant digits, an exponent without
// leading zeros (1e-9, as one would write it, not 1e-09).
func formatValue(v float64) string {
	s := strconv.FormatFloat(v, 'g', 12, 64)
	if mant, exp, ok := strings.Cut(s, "e"); ok {
		sign := exp[:1]
		if sign == "+" {
			sign = ""
		}
		s = mant + "e" + sign + strings.TrimLeft(exp[1:], "0")
	}
	return s
}

// draw returns a random value of p: one of its list with equal
// probabilities, or one of its range, uniform on its scale (log-uniform
// for a log-spaced range).
func (p Param) draw(r *rand.Rand) string {
	if p.Values != nil {
		return p.Values[r.IntN(len(p.Values))]
	}
	return p.at(r.Float64())
}

// Setting is the values of some flags of a kind, in order: one point of a
// search.
type Setting []FlagValue

// FlagValue is the value of one flag, as the flag takes it.
type FlagValue struct{ Name, Value string }

// String writes s as "name=value, name=value".
func (s Setting) String() string {
	parts := make([]string, len(s))
	for i, fv := range s {
		parts[i] = fv.Name + "=" + fv.Value
	}
	return strings.Join(parts, ", ")
}

// MarshalJSON writes s as one object of the flags' values, as strings, in
// order.
func (s Setting) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, fv := range s {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(fv.Name)
		v, _ := json.Marshal(fv.Value)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Metric is a figure of the fold reports that a search optimises.
type Metric struct {
	// Name is the metric's name: log-loss, error, brier, auc, rmse or
	// perplexity.
	Name string
	// Path is the figure's keys in the reports' JSON.
	Path []string
	// Larger is true for a figure where larger is better (auc).
	Larger bool
}

// metrics are the metrics a search takes, by the models' reports: a
// classifier's (metrics.Report: log-loss, the error rate, the multiclass
// Brier score, and the ROC AUC averaged one-vs-rest over the classes,
// which for two classes is the binary AUC), a regressor's (the root mean
// squared error) and a language model's (perplexity, and a classifier's
// for a language model of classes).
var (
	classMetrics = []Metric{
		{Name: "log-loss", Path: []string{"log_loss"}},
		{Name: "error", Path: []string{"error"}},
		{Name: "brier", Path: []string{"brier"}},
		{Name: "auc", Path: []string{"macro_avg", "roc_auc"}, Larger: true},
	}
	regressionMetrics = []Metric{{Name: "rmse", Path: []string{"rmse"}}}
	languageMetrics   = languageModelMetrics()
)

// languageModelMetrics are the metrics of a language model's reports
// (metrics.LanguageModelReport): the perplexity of the held-out text, and
// for a language model of classes, the classification's metrics.
func languageModelMetrics() []Metric {
	ms := []Metric{{Name: "perplexity", Path: []string{"language_model", "perplexity"}}}
	for _, m := range classMetrics {
		m.Path = append([]string{"classification"}, m.Path...)
		ms = append(ms, m)
	}
	return ms
}

// Metrics returns the metrics that a search of kind k can optimise, the
// default first: those of the reports of its models (Evaluate, or for a
// kind of sentences SequenceReport: sequenceMetrics), none for
// a kind whose models have no held-out metrics (a mixture of the
// features).
func Metrics(k *registry.Kind) []Metric {
	switch {
	case k.Input == registry.Sequences:
		return sequenceMetrics
	case k.Type != nil && k.Type.Implements(reflect.TypeFor[ngram.LanguageModel]()):
		return languageMetrics
	case k.Target == registry.Number:
		return regressionMetrics
	case k.Target == registry.Classes:
		return classMetrics
	}
	return nil
}

// MetricNamed returns the metric name of kind k, or an error naming those
// it has.
func MetricNamed(k *registry.Kind, name string) (Metric, error) {
	ms := Metrics(k)
	var names []string
	for _, m := range ms {
		if m.Name == name {
			return m, nil
		}
		names = append(names, m.Name)
	}
	if len(ms) == 0 {
		return Metric{}, fmt.Errorf("cv: a %s model has no held-out metric to search by", k.Name)
	}
	return Metric{}, fmt.Errorf("cv: no metric %q for a %s model (metrics: %s)", name, k.Name, strings.Join(names, ", "))
}

// Search searches settings of the flags of a kind by cross-validation:
// every setting is evaluated on the same folds (Runner.Run), and the best
// by Metric chosen.
type Search struct {
	// Kind is the kind searched; it must have Flags.
	Kind *registry.Kind
	// Base is the flags set in every setting, before those searched.
	Base Setting
	// Params are the flags searched.
	Params []Param
	// Random, when above 0, draws that many settings at random (each
	// flag's value independently, see Param.draw) with the seed Seed,
	// instead of the grid of every combination of the Params' values.
	Random int
	Seed   uint64
	// Metric is what the search optimises.
	Metric Metric
	// OneSE chooses, rather than the best setting, the most regularised
	// one whose mean is within one standard error of the best's (see
	// mostRegularised).
	OneSE bool
	// SkipFailed leaves out a setting whose cross-validation fails (a
	// fit error on some fold: a singular covariance without shrinkage
	// on few rows), recording the error in its Trial, instead of failing
	// the search; the search fails only when every setting does.
	SkipFailed bool
	// Workers and Progress are those of the runner of every setting;
	// Progress counts the folds of all the settings.
	Workers  int
	Progress func(done, total int)
}

// Settings returns the settings the search evaluates, in order: with
// Random, that many draws; otherwise the grid of every combination of the
// Params' values, the last Param varying fastest. No Params, a Param
// without values, or more than 10000 settings is an error.
func (s *Search) Settings() ([]Setting, error) {
	if len(s.Params) == 0 {
		return nil, errors.New("cv: nothing to search: no flag values")
	}
	if s.Random > 0 {
		if s.Random > maxValues {
			return nil, fmt.Errorf("cv: %d random settings, more than %d", s.Random, maxValues)
		}
		r := newRand(s.Seed)
		out := make([]Setting, s.Random)
		for i := range out {
			for _, p := range s.Params {
				out[i] = append(out[i], FlagValue{p.Name, p.draw(r)})
			}
		}
		return out, nil
	}
	out := []Setting{nil}
	for _, p := range s.Params {
		vs, err := p.Grid()
		if err != nil {
			return nil, err
		}
		if len(out)*len(vs) > maxValues {
			return nil, fmt.Errorf("cv: more than %d settings in the grid", maxValues)
		}
		var next []Setting
		for _, set := range out {
			for _, v := range vs {
				next = append(next, append(slices.Clone(set), FlagValue{p.Name, v}))
			}
		}
		out = next
	}
	return out, nil
}

// Config returns the configuration of kind k with the flags of base and
// then set, as a fresh flag set defined by k.Flags takes them: a flag the
// kind lacks is an error, and a value the flag refuses is the flag's own
// error, both naming the setting; so is a combination that the kind's
// configuration refuses.
func Config(k *registry.Kind, base, set Setting) (registry.Config, error) {
	if k.Flags == nil {
		return nil, fmt.Errorf("cv: model kind %s is read, not fitted", k.Name)
	}
	fs := flag.NewFlagSet(k.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cfg := k.Flags(fs)
	for _, fv := range append(slices.Clone(base), set...) {
		if fs.Lookup(fv.Name) == nil {
			return nil, fmt.Errorf("cv: a %s model has no setting %q", k.Name, fv.Name)
		}
		if err := fs.Set(fv.Name, fv.Value); err != nil {
			return nil, fmt.Errorf("cv: setting %s: %s %q: %w", set, fv.Name, fv.Value, err)
		}
	}
	c, err := cfg()
	if err != nil {
		return nil, fmt.Errorf("cv: setting %s: %w", set, err)
	}
	return c, nil
}

// Trial is the cross-validation of one setting.
type Trial struct {
	Setting Setting
	Result  *Result
	// Mean and SE are the metric's mean and standard error over the
	// folds; Mean is NaN when no fold defines it.
	Mean, SE float64
	// Err is why the setting's cross-validation failed, with
	// Search.SkipFailed (Result is then nil and Mean NaN).
	Err error
}

// SearchResult is a search: every setting's trial, in the order of
// Settings, and the chosen one.
type SearchResult struct {
	Trials []Trial
	// Best is the index of the setting with the best mean of the metric
	// (the first of equals, as scikit-learn's GridSearchCV); Chosen is
	// Best, or the one-standard-error choice with Search.OneSE.
	Best, Chosen int
	Metric       Metric
}

// Run evaluates every setting on d with the fold assignments repeats
// (the same for every setting), each by a Runner of the setting's
// configuration, one-pass for a registry.OnePassConfig, and chooses one.
// Every setting's configuration is checked (Config) before any is fitted.
//
// A kind with warm starts (registry.WarmStartConfig: logistic
// regression) runs every regularisation path (paths) from its most
// regularised setting to its least, as scikit-learn's
// LogisticRegressionCV does: each fold's fit starts from the same fold's
// model of the previous setting on the path, and reaches the optimum of
// a cold fit within the optimiser's tolerance in fewer iterations. The
// paths are fitted fold by fold (fitPaths: a fold's training rows copied
// once for all its fits, the folds in parallel), then the fold models of
// every setting evaluated together, in one pass over the rows per
// assignment (foldModels.evaluate).
//
// The settings of a one-pass kind whose statistics do not depend on
// them (registry.SharedStatisticsConfig: naive Bayes's α, variance
// smoothing and tying and class prior, LDA's and QDA's fixed shrinkage
// and prior, linear regression's ridge penalty, an n-gram model's
// smoothing) share one pass over the rows per assignment (sharing,
// foldStatistics): each fold's model of every such setting is made of
// the same merged fold accumulators (ModelFrom). Other one-pass settings
// take a pass each.
func (s *Search) Run(d *data.Dataset, repeats ...Folds) (*SearchResult, error) {
	settings, err := s.Settings()
	if err != nil {
		return nil, err
	}
	if s.Metric.Name == "" {
		return nil, errors.New("cv: no metric to search by")
	}
	configs := make([]registry.Config, len(settings))
	for i, set := range settings {
		if configs[i], err = Config(s.Kind, s.Base, set); err != nil {
			return nil, err
		}
	}
	// The assignments are checked once, not for every setting.
	if len(repeats) == 0 {
		return nil, errors.New("cv: no fold assignment")
	}
	folds := 0
	var classes []string
	var y []float64
	if classes = d.Schema.Classes(); classes != nil {
		y = d.Y
	}
	for rep, f := range repeats {
		if _, err := Check(f, d.N, classes, y); err != nil {
			return nil, (&Runner{}).inRepeat(rep, len(repeats), err)
		}
		folds += f.K()
	}
	res := &SearchResult{Trials: make([]Trial, len(settings)), Metric: s.Metric}
	order, from := paths(settings, configs)
	var models foldModels // the fold models of the paths, fitted fold by fold
	var evalErrs []error  // why a setting's fold models could not be evaluated
	group := sharing(configs)
	if order != nil {
		models = s.fitPaths(d, repeats, configs, order, from)
		evalErrs = models.evaluate(d, repeats, s.workers())
	} else {
		order = make([]int, len(configs))
		for i := range order {
			order[i] = i
		}
		// The settings that share statistics one after the other.
		first := func(i int) int { return cmp.Or(group[i]+1, i+1) - 1 }
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(first(a), first(b)) })
	}
	var stats *sharedStatistics // the fold accumulators of the settings of one group
	for step, i := range order {
		c := configs[i]
		r := &Runner{Fit: c.Fit, Workers: s.Workers}
		switch op, ok := c.(registry.OnePassConfig); {
		case models != nil:
			r.Model = models.of(i)
		case group[i] >= 0:
			if stats == nil || stats.group != group[i] {
				stats.release()
				stats = s.foldStatistics(d, repeats, configs[group[i]].(registry.OnePassConfig), group[i])
			}
			r.Model = stats.modelOf(c.(registry.SharedStatisticsConfig))
		case ok:
			r.NewAccumulator = op.NewAccumulator
		}
		if s.Progress != nil && models == nil {
			r.Progress = func(done, _ int) { s.Progress(step*folds+done, len(configs)*folds) }
		}
		var cvr *Result
		err := stats.failed(group[i])
		if err == nil {
			cvr, err = r.Run(d, repeats...)
		}
		if err == nil && evalErrs != nil && evalErrs[i] != nil {
			cvr, err = nil, evalErrs[i]
		}
		if err != nil {
			err = fmt.Errorf("cv: setting %s: %w", settings[i], err)
			if !s.SkipFailed {
				return nil, err
			}
			res.Trials[i] = Trial{Setting: settings[i], Mean: math.NaN(), SE: math.NaN(), Err: err}
			continue
		}
		t := Trial{Setting: settings[i], Result: cvr, Mean: math.NaN(), SE: math.NaN()}
		if mean, se, ok := cvr.Metric(s.Metric.Path...); ok {
			t.Mean, t.SE = mean, se
		}
		res.Trials[i] = t
	}
	return s.choose(res)
}

// paths returns, for a kind with warm starts (registry.WarmStartConfig)
// and a searched flag that regularises (pathFlag), the order in which
// the settings are fitted and, for each setting, the setting whose fold
// models its fits start from (−1 for a cold start): the settings that
// differ only in the value of the path flag make a path, fitted from the
// largest value (the most regularised) to the smallest, each starting
// from the one before. Without such a kind or flag, order is nil.
func paths(settings []Setting, configs []registry.Config) (order, from []int) {
	j := pathFlag(settings)
	if _, warm := configs[0].(registry.WarmStartConfig); !warm || j < 0 {
		return nil, nil
	}
	value := func(i int) float64 {
		v, _ := strconv.ParseFloat(settings[i][j].Value, 64)
		return v
	}
	// others is a setting's values without the path flag's: its path.
	others := func(i int) string {
		set := slices.Clone(settings[i])
		return slices.Delete(set, j, j+1).String()
	}
	order, from = make([]int, len(settings)), make([]int, len(settings))
	for i := range order {
		order[i], from[i] = i, -1
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := strings.Compare(others(a), others(b)); c != 0 {
			return c
		}
		return cmp.Compare(value(b), value(a))
	})
	for n := 1; n < len(order); n++ {
		if others(order[n]) == others(order[n-1]) {
			from[order[n]] = order[n-1]
		}
	}
	return order, from
}

// foldModels are the fold models of every setting: [setting][repeat][fold].
type foldModels [][][]foldModel

// foldModel is a fold model, or why it could not be fitted, and its
// report on the fold's rows once evaluate made it.
type foldModel struct {
	m      gendisc.Model
	err    error
	report Report
}

// of returns the fold models of setting i and their reports, as
// Runner.Model takes them.
func (f foldModels) of(i int) func(rep, k int) (gendisc.Model, Report, error) {
	return func(rep, k int) (gendisc.Model, Report, error) {
		fm := f[i][rep][k]
		return fm.m, fm.report, fm.err
	}
}

// evaluate evaluates the fold models of every setting that classify
// (batchEvaluable), repeat by repeat, in one pass over the rows for all
// the settings (evaluateClassifiers: each block of rows scattered into
// the folds' buffers once and predicted there by the fold's model of
// every setting, not scattered again for each), and keeps each model's
// report; the others are evaluated by Runner.Run. It returns, for each
// setting, why its models could not be evaluated (as Runner.Run would
// say it), nil when they were.
func (f foldModels) evaluate(d *data.Dataset, repeats []Folds, workers int) []error {
	errs := make([]error, len(f))
	for rep, folds := range repeats {
		sets := make([][]gendisc.Classifier, len(f))
		for i := range f {
			sets[i] = make([]gendisc.Classifier, len(f[i][rep]))
			for k, fm := range f[i][rep] {
				if c, ok := batchEvaluable(fm.m); ok && fm.err == nil {
					sets[i][k] = c
				}
			}
		}
		reports, setErrs := evaluateClassifiers(sets, d, folds, workers)
		for i := range f {
			if setErrs[i] != nil {
				errs[i] = cmp.Or(errs[i], (&Runner{}).inRepeat(rep, len(repeats), setErrs[i]))
				continue
			}
			for k, rp := range reports[i] {
				f[i][rep][k].report = rp
			}
		}
	}
	return errs
}

// fitPaths fits the fold models of every setting, fold by fold: the
// training rows of a fold are copied once, and its models fitted in
// order, each with FitFrom from the fold's model of the setting from
// says (registry.WarmStartConfig), or with Fit; up to Workers folds at
// once. A failed fit is kept as the fold's error (the next fit on its
// path then starts cold). Progress counts the fits.
func (s *Search) fitPaths(d *data.Dataset, repeats []Folds, configs []registry.Config, order, from []int) foldModels {
	type job struct{ rep, k int }
	var jobs []job
	for rep, f := range repeats {
		for k := range f.K() {
			jobs = append(jobs, job{rep, k})
		}
	}
	out := make(foldModels, len(configs))
	for i := range out {
		out[i] = make([][]foldModel, len(repeats))
		for rep, f := range repeats {
			out[i][rep] = make([]foldModel, f.K())
		}
	}
	workers := s.workers()
	var next, done atomic.Int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range min(workers, len(jobs)) {
		wg.Go(func() {
			for {
				j := int(next.Add(1)) - 1
				if j >= len(jobs) {
					return
				}
				rep, k := jobs[j].rep, jobs[j].k
				train, _ := repeats[rep].Split(k)
				dt := d.Subset(train)
				for _, i := range order {
					fm := &out[i][rep][k]
					if wc, ok := configs[i].(registry.WarmStartConfig); ok && from[i] >= 0 {
						fm.m, fm.err = wc.FitFrom(dt, out[from[i]][rep][k].m)
					} else {
						fm.m, fm.err = configs[i].Fit(dt)
					}
					if s.Progress != nil {
						mu.Lock()
						s.Progress(int(done.Add(1)), len(jobs)*len(configs))
						mu.Unlock()
					}
				}
			}
		})
	}
	wg.Wait()
	return out
}

// sharing returns, for every setting, the first setting whose
// accumulators gather its statistics (registry.SharedStatisticsConfig:
// itself for the first of them), or −1 for a setting that shares its
// statistics with no other: a setting whose configuration is not a
// SharedStatisticsConfig, or one whose statistics no other has.
func sharing(configs []registry.Config) []int {
	group := make([]int, len(configs))
	members := make([]int, len(configs))
	for i, c := range configs {
		group[i] = -1
		if _, ok := c.(registry.SharedStatisticsConfig); !ok {
			continue
		}
		for j := range i {
			if g := group[j]; g == j && configs[g].(registry.SharedStatisticsConfig).SameStatistics(c) {
				group[i] = g
				break
			}
		}
		if group[i] < 0 {
			group[i] = i
		}
		members[group[i]]++
	}
	for i, g := range group {
		if g >= 0 && members[g] < 2 {
			group[i] = -1
		}
	}
	return group
}

// sharedStatistics are the fold accumulators of the settings of a group
// (sharing): for every repeat, fold i's merge of the other folds'
// statistics, or why they could not be gathered.
type sharedStatistics struct {
	group int
	accs  [][]gendisc.Accumulator
	err   error
}

// foldStatistics takes one pass over the rows for every assignment of
// repeats, adding each row to the accumulator of its fold (the
// accumulators of c, the configuration of the group's first setting),
// and returns every fold's merge of the other folds' (foldAccumulators).
func (s *Search) foldStatistics(d *data.Dataset, repeats []Folds, c registry.OnePassConfig, group int) *sharedStatistics {
	st := &sharedStatistics{group: group, accs: make([][]gendisc.Accumulator, len(repeats))}
	for rep, f := range repeats {
		if st.accs[rep], st.err = foldAccumulators(d, f, c.NewAccumulator, s.workers()); st.err != nil {
			st.err = (&Runner{}).inRepeat(rep, len(repeats), st.err)
			break
		}
	}
	return st
}

// modelOf returns the fold models of c, made of the group's statistics,
// as Runner.Model takes them.
func (st *sharedStatistics) modelOf(c registry.SharedStatisticsConfig) func(rep, k int) (gendisc.Model, Report, error) {
	return func(rep, k int) (gendisc.Model, Report, error) {
		m, err := c.ModelFrom(st.accs[rep][k])
		return m, nil, err
	}
}

// release lets the accumulators of st go, once its group is done.
func (st *sharedStatistics) release() {
	if st != nil {
		st.accs = nil
	}
}

// failed returns why the statistics of group could not be gathered, nil
// when they were or st is of another group.
func (st *sharedStatistics) failed(group int) error {
	if st == nil || st.group != group || group < 0 {
		return nil
	}
	return st.err
}

// workers returns the goroutines of a search's fits: Workers, or
// runtime.GOMAXPROCS(0).
func (s *Search) workers() int {
	if s.Workers > 0 {
		return s.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// pathFlag returns the position in the settings of the flag of a
// regularisation path: the first searched flag that regularises (see
// regularising) and whose values are all numbers; −1 when none is.
func pathFlag(settings []Setting) int {
	for j, fv := range settings[0] {
		if slices.Contains(regularising, fv.Name) && numbers(j, settings) {
			return j
		}
	}
	return -1
}

// numbers reports whether the value of flag j of every setting is a
// number.
func numbers(j int, settings []Setting) bool {
	for _, set := range settings {
		if _, err := strconv.ParseFloat(set[j].Value, 64); err != nil {
			return false
		}
	}
	return true
}

// better reports whether a is better than b by m.
func (m Metric) better(a, b float64) bool {
	if m.Larger {
		return a > b
	}
	return a < b
}

// regularising are the flags whose larger values regularise more: the
// penalty λ of logistic and linear regression (l2), the pseudo-count of
// naive Bayes and Lidstone smoothing (alpha), the share of the largest
// variance added to every variance (var-smoothing) and the shrinkage of
// LDA/QDA's covariance matrices towards a multiple of the identity
// (shrinkage); of a CRF, its L2 and L1 coefficients and the attributes'
// cut-off frequency (c2, c1, min-freq); of an HMM, the pseudo-count of
// its emissions and TnT's θ of the suffix model (emission-alpha,
// theta-factor; its alpha is the transitions').
var regularising = []string{"l2", "alpha", "var-smoothing", "shrinkage", "c2", "c1", "min-freq", "emission-alpha", "theta-factor"}

// mostRegularised returns the one-standard-error choice: among the
// settings whose mean is within the best's standard error of the best's
// (no worse than best + SE, or best − SE for a metric where larger is
// better), the most regularised: the one with the largest value of the
// first searched flag that regularises (see regularising) and whose
// values are all numbers, ties broken by the next such flag, then by the
// better mean, then by order. Without such a flag, or without a standard
// error (one fold), it is the best setting.
func (r *SearchResult) mostRegularised() int {
	best := r.Trials[r.Best]
	if math.IsNaN(best.SE) {
		return r.Best
	}
	bound := best.Mean + best.SE
	if r.Metric.Larger {
		bound = best.Mean - best.SE
	}
	var within []int
	for i, t := range r.Trials {
		if !math.IsNaN(t.Mean) && !r.Metric.better(bound, t.Mean) {
			within = append(within, i)
		}
	}
	// The positions in the settings of the numeric regularising flags.
	var keys []int
	withinSettings := make([]Setting, len(within))
	for n, i := range within {
		withinSettings[n] = r.Trials[i].Setting
	}
	for j, fv := range best.Setting {
		if slices.Contains(regularising, fv.Name) && numbers(j, withinSettings) {
			keys = append(keys, j)
		}
	}
	if len(keys) == 0 {
		return r.Best
	}
	value := func(i, j int) float64 {
		v, _ := strconv.ParseFloat(r.Trials[i].Setting[j].Value, 64)
		return v
	}
	chosen := within[0]
	for _, i := range within[1:] {
		more := 0 // +1 when i is more regularised than chosen, −1 when less
		for _, j := range keys {
			if a, b := value(i, j), value(chosen, j); a != b {
				more = 1
				if a < b {
					more = -1
				}
				break
			}
		}
		if more > 0 || (more == 0 && r.Metric.better(r.Trials[i].Mean, r.Trials[chosen].Mean)) {
			chosen = i
		}
	}
	return chosen
}

// MarshalJSON writes r as one object: "metric", the metric's name;
// "settings", a list with per setting its flag values under "params" and
// the mean and standard error of every figure of the fold reports under
// "mean" and "se" (those of Result.MarshalJSON), or under "error" why its
// cross-validation failed (Search.SkipFailed); "best", the chosen
// setting's "params" (with Search.OneSE, the one-standard-error choice),
// and "best_mean" and "best_se", its metric's.
func (r *SearchResult) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"metric":%q,"settings":[`, r.Metric.Name)
	for i, t := range r.Trials {
		if i > 0 {
			b.WriteByte(',')
		}
		p, _ := t.Setting.MarshalJSON()
		b.WriteString(`{"params":`)
		b.Write(p)
		if t.Err != nil {
			e, _ := json.Marshal(t.Err.Error())
			b.WriteString(`,"error":`)
			b.Write(e)
			b.WriteByte('}')
			continue
		}
		mean, se, err := t.Result.summary()
		if err != nil {
			return nil, err
		}
		b.WriteString(`,"mean":`)
		mean.write(&b)
		b.WriteString(`,"se":`)
		se.write(&b)
		b.WriteByte('}')
	}
	c := r.Trials[r.Chosen]
	p, _ := c.Setting.MarshalJSON()
	b.WriteString(`],"best":{"params":`)
	b.Write(p)
	b.WriteString(`,"mean":`)
	(&tree{num: c.Mean, isNum: true}).write(&b)
	b.WriteString(`,"se":`)
	(&tree{num: c.SE, isNum: true}).write(&b)
	b.WriteString("}}")
	return b.Bytes(), nil
}

// Text writes r as a table: a row per setting with its flag values and
// the metric's mean ± standard error (or "failed: " and why, with
// Search.SkipFailed), the best marked "best" and the chosen one, when
// another, "chosen (one SE)".
func (r *SearchResult) Text(w io.Writer) error {
	var b bytes.Buffer
	head := r.Trials[0].Setting
	for _, fv := range head {
		fmt.Fprintf(&b, "%-14s ", fv.Name)
	}
	fmt.Fprintf(&b, "%s (mean ± SE)\n", r.Metric.Name)
	for i, t := range r.Trials {
		for _, fv := range t.Setting {
			fmt.Fprintf(&b, "%-14s ", fv.Value)
		}
		if t.Err != nil {
			fmt.Fprintf(&b, "failed: %s\n", strings.Join(strings.Fields(t.Err.Error()), " "))
			continue
		}
		fmt.Fprintf(&b, "%.6g ± %.3g", t.Mean, t.SE)
		switch {
		case i == r.Best:
			b.WriteString("  best")
		case i == r.Chosen:
			b.WriteString("  chosen (one SE)")
		}
		b.WriteByte('\n')
	}
	_, err := w.Write(b.Bytes())
	return err
}

// Fit fits the chosen setting of s, as its result r chose it, to all of d.
func (s *Search) Fit(r *SearchResult, d *data.Dataset) (gendisc.Model, error) {
	c, err := Config(s.Kind, s.Base, r.Trials[r.Chosen].Setting)
	if err != nil {
		return nil, err
	}
	return c.Fit(d)
}
