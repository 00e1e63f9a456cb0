package cv

import (
	"math"
	"sync/atomic"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/registry"
)

// countedLogistic returns kind logistic whose fits add their iterations
// to iters: with warm starts (its Config a registry.WarmStartConfig, as
// the registered kind's) or without (every fit cold).
func countedLogistic(t *testing.T, warm bool, iters *atomic.Int64) *registry.Kind {
	return wrappedKind(lookupKind(t, logistic.Kind), func(c registry.Config) registry.Config {
		wc := c.(registry.WarmStartConfig)
		count := func(m gendisc.Model, err error) (*logistic.Model, error) {
			if err != nil {
				return nil, err
			}
			lm := m.(*logistic.Model)
			iters.Add(int64(lm.Diagnostics().Iterations))
			return lm, nil
		}
		fit := func(d *data.Dataset) (*logistic.Model, error) { return count(wc.Fit(d)) }
		if !warm {
			return registry.FitConfig(fit)
		}
		return registry.WarmFit(fit, func(d *data.Dataset, from *logistic.Model) (*logistic.Model, error) {
			return count(wc.FitFrom(d, from))
		})
	})
}

// TestTuneWarmPath: a search of logistic regression's λ over 13 values
// runs the regularisation path, each fold's fit warm-started from the
// fold's fit of the next larger λ: its figures are those of cold fits to
// the solver's tolerance (run to a gradient of 1e-10, every setting's
// mean log-loss and error rate to 1e-9 relative), it chooses the same λ,
// and it takes fewer iterations in all. With a second searched flag, each of its values has
// a path of its own. On the code before the path, warm and cold searches
// fitted alike, with as many iterations.
func TestTuneWarmPath(t *testing.T) {
	d := classData(t)
	folds := readFolds(t, classFolds, d.N)
	for _, grids := range [][]string{{"l2=1e-4..1e4:13"}, {"no-standardize=false,true", "l2=1e-4..1e4:13"}} {
		params := parseParams(t, grids)
		var results [2]*SearchResult
		var iters [2]atomic.Int64
		for i, warm := range []bool{false, true} {
			k := countedLogistic(t, warm, &iters[i])
			m, _ := MetricNamed(k, "log-loss")
			res, err := (&Search{Kind: k, Base: Setting{{"tol", "1e-10"}}, Params: params, Metric: m}).Run(d, folds)
			if err != nil {
				t.Fatal(err)
			}
			results[i] = res
		}
		cold, warm := results[0], results[1]
		t.Logf("%v: %d iterations cold, %d warm", grids, iters[0].Load(), iters[1].Load())
		if iters[1].Load() >= iters[0].Load() {
			t.Errorf("%v: the warm path took %d iterations, the cold fits %d", grids, iters[1].Load(), iters[0].Load())
		}
		if cold.Best != warm.Best {
			t.Errorf("%v: warm path chose %s, cold fits %s", grids, warm.Trials[warm.Best].Setting, cold.Trials[cold.Best].Setting)
		}
		for i, ct := range cold.Trials {
			wt := warm.Trials[i]
			for _, path := range [][]string{{"log_loss"}, {"error"}} {
				c, _, _ := ct.Result.Metric(path...)
				w, _, _ := wt.Result.Metric(path...)
				if math.Abs(w-c) > 1e-9*math.Abs(c) {
					t.Errorf("%s: %s warm %.12g, cold %.12g", ct.Setting, path[0], w, c)
				}
			}
		}
	}
}
