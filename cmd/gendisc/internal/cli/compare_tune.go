package cli

import (
	"flag"
	"fmt"
	"strings"

	"github.com/gendisc/gendisc/compare"
	"github.com/gendisc/gendisc/cv"
)

// compareTuneOptions are compare's --tune flags.
type compareTuneOptions struct {
	on     bool
	folds  int
	metric string
	fs     *flag.FlagSet // compare's, to tell the flags given
}

func (t *compareTuneOptions) register(fs *flag.FlagSet) {
	t.fs = fs
	fs.BoolVar(&t.on, "tune", false, "choose each model's regularisation (--l2, --alpha, --var-smoothing or --shrinkage) by an inner cross-validation of every training set, and compare m* with the untuned run")
	fs.IntVar(&t.folds, "tune-folds", compare.DefaultTuneFolds, "inner stratified `folds` of --tune (fewer when a class has fewer training rows)")
	fs.StringVar(&t.metric, "tune-metric", "log-loss", "the `metric` --tune minimises: log-loss, error, brier or auc (maximised)")
}

// checkTuneData returns the misuse of --tune, --tune-folds or
// --tune-metric on sequence data, whose models compare does not tune
// (their flags are not those of compare.TuneGrids).
func (o *compareOptions) checkTuneData() error {
	var given error
	if o.sentences {
		o.tune.fs.Visit(func(f *flag.Flag) {
			if given == nil && strings.HasPrefix(f.Name, "tune") {
				given = usagef("--%s applies to tables: compare does not tune the models of sentences", f.Name)
			}
		})
	}
	return given
}

// tunedModels returns the models of o with their regularisation chosen by
// compare.Tuning on every training set, in the order of o.models. A model
// whose kind has no flag of compare.TuneGrids keeps its fixed settings.
// Setting the tuned flag as well is a misuse; so is --tune-folds or
// --tune-metric without --tune (then no models are returned).
func (o *compareOptions) tunedModels() ([]compare.Model, error) {
	if !o.tune.on {
		var given error
		o.tune.fs.Visit(func(f *flag.Flag) {
			if given == nil && (f.Name == "tune-folds" || f.Name == "tune-metric") {
				given = usagef("--%s applies with --tune", f.Name)
			}
		})
		return nil, given
	}
	if o.tune.folds < 2 {
		return nil, usagef("--tune-folds %d: want at least 2", o.tune.folds)
	}
	models := make([]compare.Model, len(o.models))
	for l, name := range o.models {
		k, _ := lookupKind(name)
		models[l] = compare.Model{Name: name, Settings: o.settings(name), Fit: o.kinds[name].fit}
		params := compare.TuneParams(k)
		if params == nil {
			models[l].Settings = strings.TrimSpace(models[l].Settings + " (not tuned: no regularisation flag)")
			continue
		}
		metric, err := cv.MetricNamed(k, o.tune.metric)
		if err != nil {
			return nil, usagef("--tune-metric: %v", err)
		}
		var names, grids []string
		for _, p := range params {
			if pf := o.passed[p.Name]; pf != nil && pf.given {
				return nil, usagef("--%s: --tune chooses it for --models %s; leave it out, or leave out --tune", p.Name, name)
			}
			grid, _ := p.Grid()
			names = append(names, p.Name)
			grids = append(grids, "--"+p.Name+" "+strings.Join(grid, ","))
		}
		var base cv.Setting
		o.kinds[name].fs.Visit(func(f *flag.Flag) {
			base = append(base, cv.FlagValue{Name: f.Name, Value: f.Value.String()})
		})
		t := &compare.Tuning{Kind: k, Base: base, Params: params, Folds: o.tune.folds, Metric: metric, Seed: o.seed}
		models[l].Fit, models[l].Tuned = t.Fit, names
		models[l].Settings = strings.TrimSpace(fmt.Sprintf("%s; tuned by %d-fold CV of %s in every training set over %s",
			models[l].Settings, o.tune.folds, o.tune.metric, strings.Join(grids, " × ")))
	}
	return models, nil
}
