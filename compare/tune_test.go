package compare

import (
	"context"
	"flag"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/cv"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/registry"
)

// rowRecorder is a kind for the tests whose fits record the rows they are
// given (feature 0 holds each row's number) and fit a centroid; its flag
// alpha is searched by a Tuning and shifts the log-posteriors by nothing,
// so that every setting ties.
type rowRecorder struct {
	mu   sync.Mutex
	fits [][]int // the row numbers of every fit
}

func (r *rowRecorder) kind() *registry.Kind {
	return &registry.Kind{Name: "rowRecorder", Target: registry.Classes,
		Flags: func(fs *flag.FlagSet) func() (registry.Config, error) {
			fs.Float64("alpha", 1, "a flag to search")
			return func() (registry.Config, error) { return r, nil }
		}}
}

func (r *rowRecorder) Fit(d *data.Dataset) (gendisc.Model, error) {
	ids := make([]int, d.N)
	for i := range ids {
		ids[i] = int(d.Row(i)[0])
	}
	slices.Sort(ids)
	r.mu.Lock()
	r.fits = append(r.fits, ids)
	r.mu.Unlock()
	return fitCentroid(d)
}

// numbered returns iris with feature 0 replaced by the row number.
func numbered(t *testing.T) *data.Dataset {
	d := bundled.Load(t, "iris", dataio.Options{})
	for i := range d.N {
		d.X[i*d.D()] = float64(i)
	}
	return d
}

// TestTuneNeverSeesTestRows runs compare with a tuned learner whose every
// fit, those of the inner cross-validation and the final one, records its
// rows: each fit's rows lie inside the training rows of one split, none
// of that split's test rows among them, and the inner folds fit fewer
// rows than m.
func TestTuneNeverSeesTestRows(t *testing.T) {
	d := numbered(t)
	rec := &rowRecorder{}
	k := rec.kind()
	metric, err := cv.MetricNamed(k, "log-loss")
	if err != nil {
		t.Fatal(err)
	}
	tuning := &Tuning{Kind: k, Params: []cv.Param{{Name: "alpha", Values: []string{"0.1", "1"}}}, Folds: 3, Metric: metric, Seed: 5}
	learner := Learner{Name: "tuned", Tuned: []string{"alpha"}, Fit: classifierFit(tuning.Fit, nil)}
	cfg := Config{Splits: 4, Sizes: []int{20, 50}, Seed: 9, Jobs: 2}
	res, err := Run(context.Background(), []Task{{Name: "iris", Data: d}}, []Learner{learner}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	byClass := classRows(d)
	type split struct{ train, test []int }
	var splits []split
	for _, m := range []int{20, 50} {
		for s := range cfg.Splits {
			sp, err := drawSplit(newSplitRand(cfg.Seed, 0, m, s), byClass, m, cfg.maxTest())
			if err != nil {
				t.Fatal(err)
			}
			splits = append(splits, split{slices.Sorted(slices.Values(sp.train)), sp.test})
		}
	}
	inner := 0
	for _, ids := range rec.fits {
		within := false
		for _, sp := range splits {
			if isSubset(ids, sp.train) {
				within = true
				for _, i := range sp.test {
					if slices.Contains(ids, i) {
						t.Fatalf("a fit saw test row %d", i)
					}
				}
			}
		}
		if !within {
			t.Fatalf("a fit of %d rows is inside no split's training rows: %v", len(ids), ids)
		}
		if len(ids) != 20 && len(ids) != 50 {
			inner++
		}
	}
	// Per split: 2 settings × 3 folds, then the final fit.
	if want := 2 * 4 * (2*3 + 1); len(rec.fits) != want || inner != 2*4*2*3 {
		t.Errorf("%d fits (%d inner), want %d (%d inner)", len(rec.fits), inner, want, 2*4*2*3)
	}
	for _, p := range res.Tasks[0].Curves[0].Points {
		// Every setting ties: the first, 0.1, is chosen in every split.
		want := []TunedSummary{{Name: "alpha", Median: 0.1, Min: 0.1, Max: 0.1}}
		if !reflect.DeepEqual(p.Tuned, want) {
			t.Errorf("m = %d: tuned %+v, want %+v", p.M, p.Tuned, want)
		}
	}
}

// isSubset reports whether the sorted a is inside the sorted b.
func isSubset(a, b []int) bool {
	for _, v := range a {
		if _, ok := slices.BinarySearch(b, v); !ok {
			return false
		}
	}
	return true
}

// TestTuneReproducible: a tuned logistic regression and LDA on iris give
// the same result, chosen values included, with 1 and 3 jobs, and the
// chosen values lie on the grids.
func TestTuneReproducible(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
	var ls []Learner
	for _, name := range []string{"logistic", "lda"} {
		k, err := registry.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		metric, _ := cv.MetricNamed(k, "log-loss")
		params := TuneParams(k)
		if len(params) != 1 {
			t.Fatalf("%s: tune params %+v, want one", name, params)
		}
		tu := &Tuning{Kind: k, Params: params, Metric: metric, Seed: 1}
		ls = append(ls, Learner{Name: name, Tuned: []string{params[0].Name}, Fit: classifierFit(tu.Fit, nil)})
	}
	run := func(jobs int) *Result {
		r, err := Run(context.Background(), []Task{{Name: "iris", Data: d}}, ls, Config{Splits: 3, Sizes: []int{20, 50}, Seed: 3, Jobs: jobs})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a, b := run(1), run(3)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the results differ between 1 and 3 jobs")
	}
	for l, c := range a.Tasks[0].Curves {
		grid, _ := TuneParams(mustKind(t, c.Learner))[0].Grid()
		for _, p := range c.Points {
			if len(p.Tuned) != 1 || p.Tuned[0].Defaults != 0 {
				t.Fatalf("%s m = %d: tuned %+v", a.Learners[l].Name, p.M, p.Tuned)
			}
			for _, v := range []float64{p.Tuned[0].Min, p.Tuned[0].Max} {
				if !slices.ContainsFunc(grid, func(g string) bool { return formatFloat(v) == g || closeTo(v, parse(g), 1e-12*math.Abs(v)) }) {
					t.Errorf("%s m = %d: chosen %g is not on the grid %v", c.Learner, p.M, v, grid)
				}
			}
		}
	}
}

func mustKind(t *testing.T, name string) *registry.Kind {
	k, err := registry.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func parse(s string) float64 {
	var v float64
	_, _ = fmt.Sscan(s, &v)
	return v
}

// TestTuneTooFewRows: a training set with one row of a class cannot be
// cross-validated with every class in every fold: the default setting is
// fitted and noted, and summariseTuned counts it.
func TestTuneTooFewRows(t *testing.T) {
	d := numbered(t)
	rows := []int{0, 1, 2, 3, 50, 51, 52, 100} // one row of the third class
	rec := &rowRecorder{}
	k := rec.kind()
	metric, _ := cv.MetricNamed(k, "log-loss")
	tu := &Tuning{Kind: k, Params: []cv.Param{{Name: "alpha", Values: []string{"0.1", "1"}}}, Metric: metric}
	m, err := tu.Fit(d.Subset(rows))
	if err != nil {
		t.Fatal(err)
	}
	tm := m.(*TunedModel)
	if !tm.Default || tm.Folds != 0 || !math.IsNaN(tm.Values[0]) || len(rec.fits) != 1 {
		t.Errorf("model %+v after %d fits, want the default setting in one fit", tm, len(rec.fits))
	}
	// Two rows of every class: two folds.
	rec.fits = nil
	if m, err = tu.Fit(d.Subset([]int{0, 1, 50, 51, 100, 101})); err != nil {
		t.Fatal(err)
	}
	if tm := m.(*TunedModel); tm.Default || tm.Folds != 2 || tm.Values[0] != 0.1 || len(rec.fits) != 2*2+1 {
		t.Errorf("model %+v after %d fits, want 2 folds", tm, len(rec.fits))
	}
	s := summariseTuned("alpha", []float64{1, math.NaN(), 0.01, 10, 0.1})
	if want := (TunedSummary{Name: "alpha", Median: 0.55, Min: 0.01, Max: 10, Defaults: 1}); s != want {
		t.Errorf("summary %+v, want %+v", s, want)
	}
}

// TestSetUntuned: the untuned run's crossovers go beside the tuned run's,
// in the summary and the crossover table, and a run of other sizes or
// models is refused.
func TestSetUntuned(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
	tasks := []Task{{Name: "iris", Data: d}}
	learners := []Learner{{Name: "gen", Family: Generative, Fit: fitCentroid}, stub("disc", Discriminative)}
	run := func(sizes []int, ls []Learner) *Result {
		r, err := Run(context.Background(), tasks, ls, Config{Splits: 2, Sizes: sizes, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	tuned, untuned := run([]int{20, 40}, learners), run([]int{20, 40}, learners)
	untuned.Tasks[0].Crossovers[0].M = 40 // told apart from the tuned run's
	if err := tuned.SetUntuned(run([]int{20, 50}, learners)); err == nil {
		t.Error("other sizes were taken")
	}
	if err := tuned.SetUntuned(run([]int{20, 40}, []Learner{learners[1], {Name: "gen", Family: Discriminative, Fit: fitCentroid}})); err == nil {
		t.Error("other pairs were taken")
	}
	if tuned.HasUntuned() {
		t.Fatal("a refused run was recorded")
	}
	if err := tuned.SetUntuned(untuned); err != nil {
		t.Fatal(err)
	}
	header, rows := tuned.crossoverTable()
	if n := len(header); header[n-2] != "m* untuned" || rows[0][n-2] != "40" || rows[0][n-1] != untuned.Tasks[0].Crossovers[0].clearCell() {
		t.Errorf("crossover table %q %q", header, rows)
	}
	header, rows = tuned.summary()
	if n := len(header); header[n-1] != "m* untuned gen/disc" || rows[0][n-1] != untuned.Tasks[0].Crossovers[0].crossoverCell() {
		t.Errorf("summary %q %q", header, rows)
	}
}

// TestPlotUntuned: with the untuned run set, the plot draws the tuned
// learner's untuned curve (thin, a lighter shade of its colour, in the
// legend) beside the tuned one, but not that of a learner that was not
// tuned (the same curve), and the untuned m* as a grey triangle; the
// caption of index.html says so. Without it, none of that is drawn.
func TestPlotUntuned(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
	tasks := []Task{{Name: "iris", Data: d}}
	disc := stub("disc", Discriminative)
	disc.Tuned = []string{"alpha"}
	run := func(ls []Learner) *Result {
		r, err := Run(context.Background(), tasks, ls, Config{Splits: 2, Sizes: []int{20, 40}, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	tuned, untuned := run([]Learner{stub("gen", Generative), disc}), run([]Learner{stub("gen", Generative), stub("disc", Discriminative)})
	for i := range untuned.Tasks[0].Curves[1].Points {
		untuned.Tasks[0].Curves[1].Points[i].Mean += 0.1
	}
	untuned.Tasks[0].Crossovers[0] = Crossover{Generative: "gen", Discriminative: "disc", M: 40, ClearFrom: 40, P: 0.01}
	svg := func() string {
		var b strings.Builder
		if err := tuned.WriteSVG(&b, 0); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	light := fmt.Sprintf("#%02X%02X%02X", 0xD5+(0xff-0xD5)/2, 0x5E+(0xff-0x5E)/2, 0xff/2) // disc's vermillion, halfway to white
	before := svg()
	for _, absent := range []string{"untuned", light, "#888888"} {
		if strings.Contains(before, absent) {
			t.Errorf("the plot without the untuned run has %q", absent)
		}
	}
	if err := tuned.SetUntuned(untuned); err != nil {
		t.Fatal(err)
	}
	after := svg()
	for _, want := range []string{">disc, untuned<", "stroke:" + light, ">untuned: clear from here on<", "fill:#888888"} {
		if !strings.Contains(after, want) {
			t.Errorf("the plot with the untuned run lacks %q", want)
		}
	}
	if strings.Contains(after, "gen, untuned") {
		t.Error("the plot draws the untuned curve of gen, which was not tuned")
	}
	files, err := tuned.render(ReportInfo{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(files[IndexFile]), "Thin lines in a lighter shade: the tuned models’ curves in the untuned run") {
		t.Error("index.html does not describe the untuned curves")
	}
}
