package cv

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/metrics"
	"github.com/gendisc/gendisc/naivebayes"
)

// TestSummarize checks the mean and standard error against values by
// hand: 1, 2, 6 have mean 3, s² = (4 + 1 + 9)/2 = 7, SE = √(7/3); a null
// is left out; a string equal in every report is kept, others dropped.
func TestSummarize(t *testing.T) {
	var ts []*tree
	for _, s := range []string{
		`{"name":"a","x":1,"y":null,"v":[1,2],"who":"p"}`,
		`{"name":"a","x":2,"y":4,"v":[3,4],"who":"q"}`,
		`{"name":"a","x":6,"y":null,"v":[5,6],"who":"r"}`,
	} {
		tr, err := parseTree([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, tr)
	}
	mean, se := summarize(ts)
	if m, _ := mean.lookup([]string{"x"}); m != 3 {
		t.Errorf("mean x = %v, want 3", m)
	}
	if s, _ := se.lookup([]string{"x"}); math.Abs(s-math.Sqrt(7.0/3)) > 1e-15 {
		t.Errorf("se x = %v, want √(7/3)", s)
	}
	mj, _ := mean.MarshalJSON()
	sj, _ := se.MarshalJSON()
	if string(mj) != `{"name":"a","x":3,"y":4,"v":[3,4]}` {
		t.Errorf("mean %s", mj)
	}
	if string(sj) != `{"name":"a","x":1.5275252316519468,"y":null,"v":[1.1547005383792517,1.1547005383792517]}` {
		t.Errorf("se %s", sj)
	}
}

func logisticFit(d *data.Dataset) (gendisc.Model, error) {
	return model(logistic.Config{}.Fit(d))
}

// TestRunDeterministic checks that the results, refitting logistic
// regression per fold, are the same byte for byte with one worker and
// with four, and that Progress counts every fold.
func TestRunDeterministic(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
	f, err := Stratified(d.Y, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, w := range []int{1, 4} {
		var calls atomic.Int64
		r := &Runner{Fit: logisticFit, Workers: w, Progress: func(done, total int) {
			calls.Add(1)
			if total != 5 {
				t.Errorf("total %d, want 5", total)
			}
		}}
		res, err := r.Run(d, f)
		if err != nil {
			t.Fatal(err)
		}
		if calls.Load() != 5 {
			t.Errorf("%d progress calls, want 5", calls.Load())
		}
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	if out[0] != out[1] {
		t.Error("one worker and four give different results")
	}
	var shape struct {
		Folds []map[string]any `json:"folds"`
		Mean  map[string]any   `json:"mean"`
		SE    map[string]any   `json:"se"`
	}
	if err := json.Unmarshal([]byte(out[0]), &shape); err != nil {
		t.Fatalf("%v: %s", err, out[0])
	}
	if len(shape.Folds) != 5 || shape.Folds[2]["fold"] != 2.0 || shape.Folds[2]["rows"] != 30.0 {
		t.Errorf("folds %v", shape.Folds)
	}
	for _, k := range []string{"log_loss", "accuracy", "brier", "macro_avg"} {
		if shape.Folds[0][k] == nil || shape.Mean[k] == nil || shape.SE[k] == nil {
			t.Errorf("%s missing from a fold, the mean or the SE", k)
		}
	}
}

// TestRunMeanOfFolds checks Metric against the folds' own figures.
func TestRunMeanOfFolds(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
	folds, err := Repeat(2, 5, func(seed uint64) (Folds, error) { return Stratified(d.Y, 3, seed) })
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&Runner{Fit: logisticFit}).Run(d, folds...)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Folds) != 6 || res.Folds[4].Repeat != 1 || res.Folds[4].Fold != 1 {
		t.Fatalf("folds %+v", res.Folds)
	}
	sum := 0.0
	for _, f := range res.Folds {
		sum += f.Report.(*metrics.Report).LogLoss
	}
	mean := sum / 6
	ss := 0.0
	for _, f := range res.Folds {
		e := f.Report.(*metrics.Report).LogLoss - mean
		ss += e * e
	}
	m, se, ok := res.Metric("log_loss")
	if !ok || math.Abs(m-mean) > 1e-15 || math.Abs(se-math.Sqrt(ss/5/6)) > 1e-15 {
		t.Errorf("log-loss %v ± %v, want %v ± %v", m, se, mean, math.Sqrt(ss/5/6))
	}
	if _, _, ok := res.Metric("macro_avg", "roc_auc"); !ok {
		t.Error("no macro ROC AUC")
	}
	b, _ := json.Marshal(res)
	if !strings.HasPrefix(string(b), `{"folds":[{"repeat":0,"fold":0,"rows":50,"classes":`) {
		t.Errorf("JSON %.80s", b)
	}
}

// TestRunErrorNamesFold checks that a fit that fails on one fold reports
// the fold, and that a class held by one fold is refused before fitting.
func TestRunErrorNamesFold(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
	f, _ := Stratified(d.Y, 3, 0)
	boom := errors.New("boom")
	// The fit fails on the fold whose training part lacks row 0.
	r := &Runner{Fit: func(train *data.Dataset) (gendisc.Model, error) {
		if !slices.Contains(train.Source.Lines, d.Source.Lines[0]) {
			return nil, boom
		}
		return logisticFit(train)
	}}
	_, err := r.Run(d, f)
	if want := fmt.Sprintf("fold %d: boom", f[0]); !errors.Is(err, boom) || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	bad := make(Folds, d.N)
	for i, y := range d.Y {
		if y == 2 {
			bad[i] = 1
		} else {
			bad[i] = i % 2
		}
	}
	_, err = (&Runner{Fit: logisticFit}).Run(d, bad)
	if !errors.Is(err, ErrFolds) || !strings.Contains(err.Error(), `fold 1 holds every row of class "Iris-virginica"`) {
		t.Errorf("class in one fold: %v", err)
	}
}

// warning is a classifier with a warning.
type warning struct{ gendisc.Classifier }

func (warning) Warnings() []string { return []string{"something odd"} }

// TestRunModelWarnings checks that the fold models' warnings reach the
// result, each naming its fold (and repeat), in fold order.
func TestRunModelWarnings(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
	folds, _ := Repeat(2, 0, func(seed uint64) (Folds, error) { return Stratified(d.Y, 2, seed) })
	r := &Runner{Fit: func(d *data.Dataset) (gendisc.Model, error) {
		m, err := logistic.Config{}.Fit(d)
		return warning{m}, err
	}}
	res, err := r.Run(d, folds...)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"repeat 0: fold 0: something odd", "repeat 0: fold 1: something odd", "repeat 1: fold 0: something odd", "repeat 1: fold 1: something odd"}
	if !slices.Equal(res.Warnings, want) {
		t.Errorf("warnings %q, want %q", res.Warnings, want)
	}
}

// nanRow is a classifier whose probabilities are NaN for the row that
// comes from source line line.
type nanRow struct {
	gendisc.Classifier
	line int
}

func (m nanRow) LogProba(dst []float64, d *data.Dataset) []float64 {
	dst = m.Classifier.LogProba(dst, d)
	K := len(m.Classes())
	for i := range d.N {
		if d.Line(i) == m.line {
			dst[i*K] = math.NaN()
		}
	}
	return dst
}

// TestRunEvaluatesFoldsAsEvaluate checks the one-pass evaluation of a
// classifier's folds (evaluateClassifiers) against Evaluate on each
// fold's rows copied out, bit for bit, on three classes with row weights
// and more rows than an evaluation block; and that a bad probability is
// an error naming the fold and the row's source line.
func TestRunEvaluatesFoldsAsEvaluate(t *testing.T) {
	d := jitteredIris(t)
	if d.N <= evalBlock {
		t.Fatalf("%d rows, not more than a block of %d", d.N, evalBlock)
	}
	cfg := naivebayes.GaussianConfig{}
	fit := func(d *data.Dataset) (gendisc.Model, error) { return model(cfg.Fit(d)) }
	f, err := Stratified(d.Y, 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	sameReportsAsEvaluate(t, d, f, fit)

	const bad = 4321 // the line of row 4319
	_, err = (&Runner{Fit: func(d *data.Dataset) (gendisc.Model, error) {
		m, err := cfg.Fit(d)
		if err != nil {
			return nil, err
		}
		return nanRow{m, bad}, nil
	}}).Run(d, f)
	var pe *data.ParseError
	if !errors.As(err, &pe) || pe.Line != bad || !errors.Is(err, metrics.ErrProbability) ||
		!strings.HasPrefix(err.Error(), fmt.Sprintf("fold %d: ", f[bad-2])) {
		t.Errorf("a NaN probability on line %d (fold %d): %v", bad, f[bad-2], err)
	}
}

// jitteredIris returns 40 copies of iris, the cells jittered, with
// weights and source lines: 6000 rows.
func jitteredIris(t *testing.T) *data.Dataset {
	iris := bundled.Load(t, "iris", dataio.Options{})
	rng := rand.New(rand.NewPCG(11, 12))
	var rows []int
	for range 40 {
		for i := range iris.N {
			rows = append(rows, i)
		}
	}
	d := iris.Subset(rows)
	d.Weight = make([]float64, d.N)
	for i := range d.N {
		d.Source.Lines[i] = i + 2
		d.Weight[i] = 0.5 + rng.Float64()
		for j := range d.Row(i) {
			d.Row(i)[j] += 0.1 * rng.NormFloat64()
		}
	}
	return d
}

// TestEvaluateSetsAsEvaluate checks evaluateClassifiers on several sets
// of fold models at once (a search's settings, each block of rows
// scattered once for all): every set's reports are those of Evaluate on
// each fold's rows copied out, bit for bit; a fold without a model (nil)
// has no report; and a set whose model fails on a row (a NaN
// probability) fails alone, naming the fold and the row's line, the
// other sets evaluated as before.
func TestEvaluateSetsAsEvaluate(t *testing.T) {
	d := jitteredIris(t)
	f, err := Stratified(d.Y, 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	const bad = 4321 // the line of row 4319
	smoothing := []float64{1e-9, 1e-3, 0.1}
	sets := make([][]gendisc.Classifier, len(smoothing)+1)
	for s := range sets {
		sets[s] = make([]gendisc.Classifier, f.K())
		for k := range f.K() {
			train, _ := f.Split(k)
			cfg := naivebayes.GaussianConfig{VarSmoothing: smoothing[min(s, len(smoothing)-1)]}
			m, err := cfg.Fit(d.Subset(train))
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case s == 1 && k == 2:
				continue // no model of this fold
			case s == len(smoothing):
				sets[s][k] = nanRow{m, bad}
			default:
				sets[s][k] = m
			}
		}
	}
	reports, errs := evaluateClassifiers(sets, d, f, 3)
	for s, models := range sets[:len(smoothing)] {
		if errs[s] != nil {
			t.Fatalf("set %d: %v", s, errs[s])
		}
		for k, m := range models {
			if m == nil {
				if reports[s][k] != nil {
					t.Errorf("set %d, fold %d: a report without a model", s, k)
				}
				continue
			}
			want, err := Evaluate(m, d.Subset(f.Rows(k)))
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(reports[s][k])
			w, _ := json.Marshal(want)
			if string(got) != string(w) {
				t.Errorf("set %d, fold %d: report\n%s\nwant\n%s", s, k, got, w)
			}
		}
	}
	var pe *data.ParseError
	if err := errs[len(smoothing)]; !errors.As(err, &pe) || pe.Line != bad || !strings.HasPrefix(err.Error(), fmt.Sprintf("fold %d: ", f[bad-2])) {
		t.Errorf("a NaN probability on line %d (fold %d): %v", bad, f[bad-2], err)
	}
}

// TestRunWarmStart checks Runner.WarmFit: every fold starts from the
// model of all the rows, and the folds' figures are those of cold fits
// within the optimiser's tolerance.
func TestRunWarmStart(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
	f, _ := Stratified(d.Y, 5, 1)
	cfg := logistic.Config{Tol: 1e-10}
	fit := func(d *data.Dataset) (gendisc.Model, error) { return model(cfg.Fit(d)) }
	all, err := cfg.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int64
	warm, err := (&Runner{Fit: fit, WarmFit: func(train *data.Dataset, from gendisc.Model) (gendisc.Model, error) {
		calls.Add(1)
		if from.(*logistic.Model).Diagnostics() != all.Diagnostics() {
			t.Errorf("a fold starts from %+v, not the fit of all rows %+v", from.(*logistic.Model).Diagnostics(), all.Diagnostics())
		}
		return model(cfg.FitFrom(train, from.(*logistic.Model)))
	}}).Run(d, f)
	if err != nil {
		t.Fatal(err)
	}
	cold, err := (&Runner{Fit: fit}).Run(d, f)
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != int64(f.K()) {
		t.Errorf("WarmFit called %d times for %d folds", calls.Load(), f.K())
	}
	for k := range f.K() {
		w, c := warm.Folds[k].Report.(*metrics.Report), cold.Folds[k].Report.(*metrics.Report)
		if math.Abs(w.LogLoss-c.LogLoss) > 1e-7 || w.Accuracy != c.Accuracy {
			t.Errorf("fold %d: warm log-loss %v accuracy %v, cold %v %v", k, w.LogLoss, w.Accuracy, c.LogLoss, c.Accuracy)
		}
	}
}

// TestRunEvaluatesTextFoldsAsEvaluate is TestRunEvaluatesFoldsAsEvaluate
// for a model of a text column beside a numeric one (mixed naive Bayes),
// whose folds' rows carry their documents into the buffers the batch
// evaluation predicts them from: the reports are those of Evaluate on
// each fold's rows copied out, bit for bit, with more rows than a block.
func TestRunEvaluatesTextFoldsAsEvaluate(t *testing.T) {
	words := [][]string{{"red", "green", "blue", "dark"}, {"cat", "dog", "fish", "dark"}, {"one", "two", "three", "dark"}}
	rng := rand.New(rand.NewPCG(5, 6))
	var b strings.Builder
	b.WriteString("n,note,class\n")
	const rows = evalBlock + 500
	for range rows {
		c := rng.IntN(3)
		fmt.Fprintf(&b, "%.3f,", float64(c)+rng.NormFloat64())
		for w := range 1 + rng.IntN(4) {
			if w > 0 {
				b.WriteByte(' ')
			}
			l := c
			if rng.IntN(3) == 0 {
				l = rng.IntN(3)
			}
			b.WriteString(words[l][rng.IntN(4)])
		}
		fmt.Fprintf(&b, ",c%d\n", c)
	}
	d, err := dataio.Read(strings.NewReader(b.String()), "notes.csv", dataio.Options{Text: []string{"note"}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := naivebayes.Config{}
	fit := func(d *data.Dataset) (gendisc.Model, error) { return cfg.Fit(d) }
	f, err := Stratified(d.Y, 4, 9)
	if err != nil {
		t.Fatal(err)
	}
	sameReportsAsEvaluate(t, d, f, fit)
}

// sameReportsAsEvaluate checks that Run's report of every fold under f
// is, bit for bit, Evaluate's of a refit on the other folds' rows copied
// out, on the fold's rows copied out.
func sameReportsAsEvaluate(t *testing.T, d *data.Dataset, f Folds, fit func(d *data.Dataset) (gendisc.Model, error)) {
	t.Helper()
	res, err := (&Runner{Fit: fit}).Run(d, f)
	if err != nil {
		t.Fatal(err)
	}
	for k := range f.K() {
		train, test := f.Split(k)
		m, err := fit(d.Subset(train))
		if err != nil {
			t.Fatal(err)
		}
		want, err := Evaluate(m, d.Subset(test))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(res.Folds[k].Report)
		w, _ := json.Marshal(want)
		if string(got) != string(w) || res.Folds[k].Rows != len(test) {
			t.Errorf("fold %d (%d rows): report\n%s\nwant (%d rows)\n%s", k, res.Folds[k].Rows, got, len(test), w)
		}
	}
}
