package cv

import (
	"flag"
	"sync/atomic"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/naivebayes"
	"github.com/gendisc/gendisc/registry"
)

// wrappedKind returns kind k whose configurations are wrap of its own.
func wrappedKind(k *registry.Kind, wrap func(c registry.Config) registry.Config) *registry.Kind {
	w := *k
	w.Flags = func(fs *flag.FlagSet) func() (registry.Config, error) {
		cfg := k.Flags(fs)
		return func() (registry.Config, error) {
			c, err := cfg()
			if err != nil {
				return nil, err
			}
			return wrap(c), nil
		}
	}
	return &w
}

// withoutSharing returns kind k whose configurations are plain
// registry.OnePass ones, without registry.SharedStatisticsConfig: a
// search of it takes one pass over the rows per setting.
func withoutSharing(k *registry.Kind) *registry.Kind {
	return wrappedKind(k, func(c registry.Config) registry.Config {
		op := c.(registry.OnePassConfig)
		return registry.OnePass(op.Fit, op.NewAccumulator)
	})
}

// countingAccumulator counts the rows added to a Gaussian naive Bayes
// accumulator.
type countingAccumulator struct {
	*naivebayes.GaussianAccumulator
	rows *atomic.Int64
}

func (a *countingAccumulator) Add(d *data.Dataset) error {
	a.rows.Add(int64(d.N))
	return a.GaussianAccumulator.Add(d)
}

// AddFolds counts the rows once and adds them to the wrapped
// accumulators of their folds (gendisc.FoldAdder).
func (a *countingAccumulator) AddFolds(d *data.Dataset, fold []int, accs []gendisc.Accumulator) error {
	a.rows.Add(int64(d.N))
	inner := make([]gendisc.Accumulator, len(accs))
	for i, o := range accs {
		inner[i] = o.(*countingAccumulator).GaussianAccumulator
	}
	return a.GaussianAccumulator.AddFolds(d, fold, inner)
}

func (a *countingAccumulator) Merge(o gendisc.Accumulator) error {
	if c, ok := o.(*countingAccumulator); ok {
		o = c.GaussianAccumulator
	}
	return a.GaussianAccumulator.Merge(o)
}

// countedGaussian returns kind gaussian-nb whose accumulators count the
// rows added to them in rows, with the kind's sharing of statistics
// (shared) or without.
func countedGaussian(t *testing.T, shared bool, rows *atomic.Int64) *registry.Kind {
	return wrappedKind(lookupKind(t, naivebayes.KindGaussian), func(c registry.Config) registry.Config {
		gc := registry.Settings(c).(naivebayes.GaussianConfig)
		newAcc := func() (*countingAccumulator, error) {
			a, err := gc.NewAccumulator()
			return &countingAccumulator{a, rows}, err
		}
		if !shared {
			return registry.OnePass(gc.Fit, newAcc)
		}
		return registry.OnePassShared(gc, gc.Fit, newAcc, gc.SameStatistics, func(a *countingAccumulator) (*naivebayes.Gaussian, error) {
			return gc.ModelFrom(a.GaussianAccumulator)
		})
	})
}

// parseParams returns the searches of grids (ParseParam).
func parseParams(t *testing.T, grids []string) []Param {
	t.Helper()
	var params []Param
	for _, g := range grids {
		p, err := ParseParam(g)
		if err != nil {
			t.Fatal(err)
		}
		params = append(params, p)
	}
	return params
}

// search runs a search of kind k over grids on d with folds.
func search(t *testing.T, k *registry.Kind, metric string, grids []string, d *data.Dataset, folds ...Folds) *SearchResult {
	t.Helper()
	params := parseParams(t, grids)
	m, err := MetricNamed(k, metric)
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&Search{Kind: k, Params: params, Metric: m}).Run(d, folds...)
	if err != nil {
		t.Fatalf("%s: %v", k.Name, err)
	}
	return res
}

// TestTuneSharedStatistics: the settings of a one-pass kind that only
// change how a model is made of the statistics share one pass over the
// rows per assignment: a search of Gaussian naive Bayes over 3 variance
// smoothings × 2 tyings × 2 priors on 5 folds, repeated twice, adds
// every row once per repeat (against 12 times without sharing), and its
// figures are those of a pass per setting to 1e-12. Before the sharing,
// every setting took its own pass.
func TestTuneSharedStatistics(t *testing.T) {
	d := head(bundled.Load(t, "wine", dataio.Options{}), 1000)
	reps, err := Repeat(2, 1, func(seed uint64) (Folds, error) { return Stratified(d.Y, 5, seed) })
	if err != nil {
		t.Fatal(err)
	}
	grids := []string{"var-smoothing=1e-9,1e-3,0.1", "variance=class-feature,feature", "prior-alpha=0,5"}
	var sharedRows, ownRows atomic.Int64
	shared := search(t, countedGaussian(t, true, &sharedRows), "log-loss", grids, d, reps...)
	own := search(t, countedGaussian(t, false, &ownRows), "log-loss", grids, d, reps...)
	if got, want := sharedRows.Load(), int64(2*d.N); got != want {
		t.Errorf("sharing the statistics: %d rows added, want %d (every row once per repeat)", got, want)
	}
	if got, want := ownRows.Load(), int64(12*2*d.N); got != want {
		t.Errorf("a pass per setting: %d rows added, want %d", got, want)
	}
	if path, ok := sameJSON(t, shared, own); !ok {
		t.Errorf("gaussian-nb: the searches differ at %s", path)
	}
}

// TestTuneSharedStatisticsKinds: for every kind that shares statistics,
// a search over the settings it applies when a model is made of them
// gives the figures of a pass per setting (the kind without
// registry.SharedStatisticsConfig) to 1e-12.
func TestTuneSharedStatisticsKinds(t *testing.T) {
	cases := map[string]struct {
		grids  []string
		metric string
	}{
		"gaussian-nb":    {[]string{"var-smoothing=1e-9,0.01", "variance=feature,shared", "prior-alpha=0,3"}, "log-loss"},
		"multinomial-nb": {[]string{"alpha=0.1,1,3", "prior-alpha=0,2"}, "log-loss"},
		"lda":            {[]string{"shrinkage=0,0.3,0.9", "prior-alpha=0,2"}, "brier"},
		"qda":            {[]string{"shrinkage=0.1,0.5"}, "log-loss"},
		"linear":         {[]string{"l2=0,0.1,10", "no-standardize=false,true"}, "rmse"},
		"ngram":          {[]string{"smoothing=kneser-ney,witten-bell,lidstone", "alpha=0.5,1"}, "perplexity"},
	}
	for _, kc := range statisticsKinds() {
		c, ok := cases[kc.name]
		if !ok {
			t.Fatalf("no grid for %s", kc.name)
		}
		k := lookupKind(t, kc.name)
		cfg, err := k.DefaultConfig()
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := cfg.(registry.SharedStatisticsConfig); !ok {
			t.Errorf("%s does not share its statistics", kc.name)
			continue
		}
		d := kc.data(t)
		folds, err := Assign(d, 4, nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		shared := search(t, k, c.metric, c.grids, d, folds)
		own := search(t, withoutSharing(k), c.metric, c.grids, d, folds)
		if path, ok := sameJSON(t, shared, own); !ok {
			t.Errorf("%s: the searches differ at %s", kc.name, path)
		}
	}
}
