package compare

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
)

func TestFindCrossover(t *testing.T) {
	for _, c := range []struct {
		name string
		g, d []Point
		want int
	}{
		{"crosses once", points(.30, .25, .20, .18, .17), points(.40, .30, .19, .15, .12), 3},
		{"always better", points(.3, .2, .1), points(.2, .1, .05), 1},
		{"never better", points(.1, .1, .1), points(.2, .2, .2), 0},
		{"better, then worse at the end", points(.3, .2, .1), points(.2, .1, .2), 0},
		{"crosses back and forth", points(.3, .2, .2, .2, .2), points(.2, .3, .1, .3, .1), 5},
		{"tie at the end is not better", points(.3, .2), points(.2, .2), 0},
		{"empty", nil, nil, 0},
		// pima_indians_diabetes with qda: the generative learner fell back
		// at the small sizes, where its error is the majority class's.
		{"fallbacks do not start a run", fell(points(.35, .35, .3, .2), 0, 1), points(.3, .3, .25, .25), 0},
		{"fallbacks do not break a run", points(.3, .2, .3), fell(points(.2, .25, .2), 1), 1},
		{"the last size fell back", points(.3, .2, .1), fell(points(.4, .1, .05), 2), 2},
		{"every size fell back", fell(points(.3, .2), 0, 1), points(.2, .1), 0},
	} {
		if got := FindCrossover(c.g, c.d); got != c.want {
			t.Errorf("%s: m* = %d, want %d", c.name, got, c.want)
		}
	}
}

// TestCrossoverPairs checks that Run reports a crossover for every
// generative-discriminative pair, in order, with the gap at the largest m.
func TestCrossoverPairs(t *testing.T) {
	ls := learnerInfos([]Learner{stub("g1", Generative), stub("d1", Discriminative), stub("g2", Generative), stub("d2", Discriminative)})
	curves := []Curve{
		{Learner: "g1", Points: points(.3, .2)},
		{Learner: "d1", Points: points(.4, .1)},
		{Learner: "g2", Points: points(.3, .05)},
		{Learner: "d2", Points: points(.2, .15)},
	}
	// Every split of a size has the curve's mean error.
	got := crossovers(ls, curves, func(l, i int) []float64 {
		m := curves[l].Points[i].Mean
		return []float64{m, m}
	})
	want := []Crossover{
		{Generative: "g1", Discriminative: "d1", M: 2, P: 0, ClearFrom: 2, GapM: 2, Gap: .2 - .1},
		{Generative: "g1", Discriminative: "d2", M: 1, P: 0, ClearFrom: 1, GapM: 2, Gap: .2 - .15},
		{Generative: "g2", Discriminative: "d1", M: 0, P: 1, GapM: 2, Gap: .05 - .1},
		{Generative: "g2", Discriminative: "d2", M: 0, P: 1, GapM: 2, Gap: .05 - .15},
	}
	if !slices.EqualFunc(got, want, func(a, b Crossover) bool {
		return a.Generative == b.Generative && a.Discriminative == b.Discriminative && a.M == b.M &&
			a.P == b.P && a.ClearFrom == b.ClearFrom && a.GapM == b.GapM && closeTo(a.Gap, b.Gap, 1e-15)
	}) {
		t.Errorf("crossovers = %v, want %v", got, want)
	}
}

// TestPairedTTest checks the one-sided paired t-test against closed forms
// of Student's t survival function: with 2 degrees of freedom
// P(T ≥ t) = (1 − t/√(t² + 2))/2, with 1, 1/2 − atan(t)/π.
func TestPairedTTest(t *testing.T) {
	for _, c := range []struct {
		diff []float64
		want float64
	}{
		// d̄ = 0.2, s = 0.1, t = 0.2/(0.1/√3) = √12.
		{[]float64{.1, .2, .3}, (1 - math.Sqrt(12)/math.Sqrt(14)) / 2},
		// d̄ = 0.2, s = √0.03, t = 2.
		{[]float64{.1, .1, .4}, (1 - 2/math.Sqrt(6)) / 2},
		// d̄ = −0.2: t = −√12, P(T ≥ −t) = 1 − P(T ≥ t).
		{[]float64{-.1, -.2, -.3}, (1 + math.Sqrt(12)/math.Sqrt(14)) / 2},
		// d̄ = 2, s = √2, t = 2.
		{[]float64{1, 3}, .5 - math.Atan(2)/math.Pi},
		{nil, 1}, {[]float64{.3}, 1},
		{[]float64{.1, .1}, 0}, {[]float64{-.1, -.1}, 1}, {[]float64{0, 0, 0}, 1},
	} {
		got := PairedTTest(c.diff)
		if math.Abs(got-c.want) > 1e-12*math.Max(c.want, 1e-300) && got != c.want {
			t.Errorf("PairedTTest(%v) = %.17g, want %.17g", c.diff, got, c.want)
		}
	}
}

// TestCrossoverSignificance checks P, the largest p-value of the paired
// tests at the sizes from m* on, and that sizes with fallbacks take no part
// in m*, P or the gap.
func TestCrossoverSignificance(t *testing.T) {
	ls := learnerInfos([]Learner{stub("g", Generative), stub("d", Discriminative)})
	// diffs[i] are the generative minus the discriminative errors of the
	// three splits of size i; the discriminative learner errs 0.1 in each.
	diffs := [][]float64{{-.1, -.1, -.1}, {.1, .2, .3}, {.1, .1, .4}, {.5, .5, .5}}
	curve := func(fallbacks ...int) []Curve {
		g, d := points(0, 0, 0, 0), points(.1, .1, .1, .1)
		for i, df := range diffs {
			g[i].Mean = .1 + (df[0]+df[1]+df[2])/3
		}
		return []Curve{{Learner: "g", Points: fell(g, fallbacks...)}, {Learner: "d", Points: d}}
	}
	errs := func(l, i int) []float64 {
		e := []float64{.1, .1, .1}
		if l == 0 {
			for s := range e {
				e[s] += diffs[i][s]
			}
		}
		return e
	}
	p1, p2 := (1-math.Sqrt(12)/math.Sqrt(14))/2, (1-2/math.Sqrt(6))/2
	for _, c := range []struct {
		name      string
		fallbacks []int
		m         int
		p         float64
		gapM      int
		clearFrom int
	}{
		// m* = 2; the tests at sizes 2, 3 and 4 give p1 < 0.05, p2 > 0.05
		// and 0: the means cross at 2, the crossover is clear from 4.
		{"no fallbacks", nil, 2, p2, 4, 4},
		// Size 3 fell back: P is the larger of p1 and 0, clear from m*.
		{"a fallback after m*", []int{2}, 2, p1, 4, 2},
		// Sizes 3 and 4 fell back: m* = 2, and so is the gap's size.
		{"fallbacks at the end", []int{2, 3}, 2, p1, 2, 2},
	} {
		x := crossovers(ls, curve(c.fallbacks...), errs)[0]
		if x.M != c.m || math.Abs(x.P-c.p) > 1e-12*c.p || x.GapM != c.gapM || x.ClearFrom != c.clearFrom || x.Clear() != (c.clearFrom > 0) {
			t.Errorf("%s: m* %d, P %.17g, gap at %d, clear from %d; want %d, %.17g, %d, %d", c.name, x.M, x.P, x.GapM, x.ClearFrom, c.m, c.p, c.gapM, c.clearFrom)
		}
		if want := .1 + sum3(diffs[c.gapM-1])/3 - .1; math.Abs(x.Gap-want) > 1e-15 {
			t.Errorf("%s: gap %g, want %g", c.name, x.Gap, want)
		}
	}
	// Every size fell back: no m*, no gap.
	x := crossovers(ls, curve(0, 1, 2, 3), errs)[0]
	if x.Found() || x.P != 1 || x.GapM != 0 || !math.IsNaN(x.Gap) {
		t.Errorf("every size fell back: %+v, want no m* and no gap", x)
	}
}

func sum3(v []float64) float64 { return v[0] + v[1] + v[2] }

func TestStyles(t *testing.T) {
	ls := learnerInfos([]Learner{
		stub("nb", Generative), stub("logistic", Discriminative), stub("lda", Generative),
		stub("qda", Generative), {Name: "x", Style: Dashed, Fit: fitCentroid}, stub("y", Generative),
	})
	var got []Style
	for _, l := range ls {
		got = append(got, l.Style)
	}
	if want := []Style{Solid, Dotted, DashDot, LongDash, Dashed, Dotted}; !slices.Equal(got, want) {
		t.Errorf("styles %v, want %v", got, want)
	}
	ls = learnerInfos([]Learner{{Name: "a", Style: Solid, Fit: fitCentroid}, stub("nb", Generative)})
	if ls[1].Style != Dotted {
		t.Errorf("an Auto generative learner after an explicit Solid one is %v, want dotted", ls[1].Style)
	}
}

// runCSV runs the stub learners on iris and returns curves.csv.
func runCSV(t *testing.T, cfg Config, learners ...Learner) ([]byte, *Result) {
	t.Helper()
	res, err := Run(context.Background(), []Task{{"iris", bundled.Load(t, "iris", dataio.Options{})}, {"wine", bundled.Load(t, "wine", dataio.Options{})}}, learners, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := res.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), res
}

// TestRunJobs checks that the figures do not depend on the number of
// jobs and do depend on the seed.
func TestRunJobs(t *testing.T) {
	ls := []Learner{stub("nb", Generative), stub("logistic", Discriminative)}
	one, _ := runCSV(t, Config{Splits: 20, Seed: 5, Jobs: 1}, ls...)
	two, _ := runCSV(t, Config{Splits: 20, Seed: 5, Jobs: 2}, ls...)
	many, _ := runCSV(t, Config{Splits: 20, Seed: 5, Jobs: 7}, ls...)
	if !bytes.Equal(one, two) || !bytes.Equal(one, many) {
		t.Errorf("curves.csv differs between jobs = 1, 2 and 7:\n%s\n%s", one, two)
	}
	other, _ := runCSV(t, Config{Splits: 20, Seed: 6, Jobs: 2}, ls...)
	if bytes.Equal(one, other) {
		t.Error("curves.csv is the same for seeds 5 and 6")
	}
}

// recorder is a learner that records a fingerprint of every training set
// it sees.
type recorder struct {
	mu    sync.Mutex
	seen  []uint64
	sizes map[int]int
}

func (r *recorder) learner(name string) Learner {
	return Learner{Name: name, Fit: func(d *data.Dataset) (gendisc.Classifier, error) {
		h := fnv.New64a()
		fmt.Fprint(h, d.X, d.Y)
		r.mu.Lock()
		r.seen = append(r.seen, h.Sum64())
		r.sizes[d.N]++
		r.mu.Unlock()
		return fitCentroid(d)
	}}
}

// TestRunSameRows checks that every learner of a split is fitted on the
// same rows, and that each size gets its number of splits.
func TestRunSameRows(t *testing.T) {
	a, b := &recorder{sizes: map[int]int{}}, &recorder{sizes: map[int]int{}}
	res, err := Run(context.Background(), []Task{{"iris", bundled.Load(t, "iris", dataio.Options{})}},
		[]Learner{a.learner("a"), b.learner("b")}, Config{Splits: 5, Sizes: []int{2, 3, 10, 30, 149, 147, 30}})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(a.seen)
	slices.Sort(b.seen)
	if !slices.Equal(a.seen, b.seen) {
		t.Error("the learners saw different training sets")
	}
	// 2 and 149 are left out (fewer than 3 rows; fewer than 3 test rows);
	// 30 appears once.
	if want := []int{3, 10, 30, 147}; !slices.Equal(res.Tasks[0].Sizes, want) {
		t.Errorf("sizes %v, want %v", res.Tasks[0].Sizes, want)
	}
	for _, m := range res.Tasks[0].Sizes {
		if a.sizes[m] != 5 {
			t.Errorf("size %d fitted %d times, want 5", m, a.sizes[m])
		}
	}
}

// TestRunFallback checks the figures of a learner that never fits: the
// error of the majority training class. With a stratified training set of
// iris (three classes of 50) at m = 4 the allocation is [2 1 1], so the
// majority class is the first, and the test error is 98/146 in every
// split.
func TestRunFallback(t *testing.T) {
	res, err := Run(context.Background(), []Task{{"iris", bundled.Load(t, "iris", dataio.Options{})}},
		[]Learner{failing("broken"), stub("ok", Discriminative)}, Config{Splits: 3, Sizes: []int{4, 60}})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Tasks[0].Curves[0]
	p := c.Points[0]
	if p.Fallbacks != 3 || !closeTo(p.Mean, 98.0/146, 1e-15) || p.StdErr != 0 {
		t.Errorf("fallback point %+v, want 3 fallbacks and mean %v", p, 98.0/146)
	}
	if f := res.Tasks[0].Curves[1].count(fallbacks); f != 0 {
		t.Errorf("the stub learner has %d fallbacks", f)
	}
	var b bytes.Buffer
	if err := res.WriteSummary(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b.Bytes(), []byte("(6 fallbacks at m 4–60)  0.0630 ± 0.0098  none          –")) {
		t.Errorf("summary does not count the fallbacks:\n%s", b.String())
	}
}

// warning is a centroid whose fit warned.
type warning struct{ gendisc.Classifier }

func (warning) Warnings() []string { return []string{"did not converge"} }

// TestRunWarnings counts the splits whose fit warned, at the sizes where
// the learner's model has warnings (here those of m < 20), keeps their
// errors (the model's own, not a fallback's), and shows them in the
// summary and curves.csv.
func TestRunWarnings(t *testing.T) {
	warns := Learner{Name: "warns", Family: Discriminative, Fit: func(d *data.Dataset) (gendisc.Classifier, error) {
		m, err := fitCentroid(d)
		if err != nil || d.N >= 20 {
			return m, err
		}
		return warning{m}, nil
	}}
	tasks := []Task{{"iris", bundled.Load(t, "iris", dataio.Options{})}}
	cfg := Config{Splits: 3, Sizes: []int{6, 12, 60}}
	res, err := Run(context.Background(), tasks, []Learner{stub("ok", Generative), warns}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{3, 3, 0} {
		ok, w := res.Tasks[0].Curves[0].Points[i], res.Tasks[0].Curves[1].Points[i]
		if w.Warnings != want || w.Fallbacks != 0 || ok.Warnings != 0 || w.Mean != ok.Mean {
			t.Errorf("m = %d: %+v beside %+v, want %d warnings and the same error", w.M, w, ok, want)
		}
	}
	var b bytes.Buffer
	if err := res.WriteSummary(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "(6 warned at m 6–12)") {
		t.Errorf("summary does not count the warnings:\n%s", b.String())
	}
	b.Reset()
	if err := res.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "iris,warns,12,3,") || !strings.Contains(b.String(), ",0,3\niris,warns,60,3,") {
		t.Errorf("curves.csv does not count the warnings:\n%s", b.String())
	}
}

// TestRunFigures checks the mean and standard error against a direct
// computation over the same splits.
func TestRunFigures(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
	res, err := Run(context.Background(), []Task{{"iris", d}}, []Learner{stub("c", Generative)}, Config{Splits: 9, Seed: 3, Sizes: []int{12}})
	if err != nil {
		t.Fatal(err)
	}
	// Recompute each split's error on the same splits.
	var errs []float64
	for s := range 9 {
		sp, err := drawSplit(newSplitRand(3, 0, 12, s), classRows(d), 12, DefaultMaxTest)
		if err != nil {
			t.Fatal(err)
		}
		m, _ := fitCentroid(d.Subset(sp.train))
		errs = append(errs, testError(m, d.Subset(sp.test)))
	}
	var mean, ss float64
	for _, e := range errs {
		mean += e / 9
	}
	for _, e := range errs {
		ss += (e - mean) * (e - mean)
	}
	se := math.Sqrt(ss/8) / 3
	p := res.Tasks[0].Curves[0].Points[0]
	if !closeTo(p.Mean, mean, 1e-15) || !closeTo(p.StdErr, se, 1e-15) || p.Splits != 9 || p.M != 12 {
		t.Errorf("point %+v, want mean %v, std err %v", p, mean, se)
	}
}

// TestRunProgress checks that the progress counts never decrease and end
// at their totals.
func TestRunProgress(t *testing.T) {
	var last Progress
	calls := 0
	cfg := Config{Splits: 4, Sizes: []int{6, 20, 40}, Progress: func(p Progress) {
		if p.SplitsDone < last.SplitsDone || p.SizesDone < last.SizesDone || p.DatasetsDone < last.DatasetsDone || p.WorkDone < last.WorkDone {
			t.Errorf("progress went back: %+v after %+v", p, last)
		}
		last = p
		calls++
	}}
	runCSV(t, cfg, stub("a", Generative))
	want := Progress{Datasets: 2, DatasetsDone: 2, Sizes: 6, SizesDone: 6, Splits: 24, SplitsDone: 24, Work: last.Work, WorkDone: last.Work}
	last.Dataset = ""
	if calls != 24 || last != want {
		t.Errorf("%d calls, last %+v, want %+v", calls, last, want)
	}
}

func TestRunCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, []Task{{"iris", bundled.Load(t, "iris", dataio.Options{})}}, []Learner{stub("a", Generative)}, Config{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run with a cancelled context: %v", err)
	}
}

func TestRunErrors(t *testing.T) {
	iris := bundled.Load(t, "iris", dataio.Options{})
	noTarget := *iris
	noTarget.Schema = iris.Schema.Clone()
	noTarget.Schema.Target = nil
	ok := []Learner{stub("a", Generative)}
	for _, c := range []struct {
		name     string
		tasks    []Task
		learners []Learner
		cfg      Config
	}{
		{"no tasks", nil, ok, Config{}},
		{"no learners", []Task{{"iris", iris}}, nil, Config{}},
		{"unnamed learner", []Task{{"iris", iris}}, []Learner{{Fit: fitCentroid}}, Config{}},
		{"learner twice", []Task{{"iris", iris}}, []Learner{ok[0], ok[0]}, Config{}},
		{"no fit", []Task{{"iris", iris}}, []Learner{{Name: "x"}}, Config{}},
		{"task twice", []Task{{"iris", iris}, {"iris", iris}}, ok, Config{}},
		{"unnamed task", []Task{{"", iris}}, ok, Config{}},
		{"no target", []Task{{"x", &noTarget}}, ok, Config{}},
		{"no usable size", []Task{{"iris", iris}}, ok, Config{Sizes: []int{1, 2, 148}}},
		{"test cap below the classes", []Task{{"iris", iris}}, ok, Config{MaxTest: 2, Sizes: []int{10}}},
	} {
		if _, err := Run(context.Background(), c.tasks, c.learners, c.cfg); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}

func TestBinary(t *testing.T) {
	d := bundled.Load(t, "optdigits", dataio.Options{})
	b, err := Binary(d, "2", "3")
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Schema.Classes(); !slices.Equal(got, []string{"2", "3"}) {
		t.Errorf("classes %q", got)
	}
	if got := classCounts(b, indices(b.N)); !slices.Equal(got, []int{557, 572}) {
		t.Errorf("class counts %v, want [557 572]", got)
	}
	if slices.Equal(d.Schema.Classes(), b.Schema.Classes()) || len(d.Schema.Classes()) != 10 {
		t.Error("Binary changed the schema of its input")
	}
	// Row k of b is the k-th row of d whose class is 2 or 3.
	k := 0
	for i := range d.N {
		name := d.Schema.Classes()[int(d.Y[i])]
		if name != "2" && name != "3" {
			continue
		}
		if !slices.Equal(b.Row(k), d.Row(i)) || b.Schema.Classes()[int(b.Y[k])] != name {
			t.Fatalf("row %d of the task is not row %d of the data", k, i)
		}
		k++
	}
	for _, c := range [][2]string{{"2", "2"}, {"2", "x"}, {"y", "3"}} {
		if _, err := Binary(d, c[0], c[1]); err == nil {
			t.Errorf("Binary(%q, %q): no error", c[0], c[1])
		}
	}
}

func indices(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
