package cv

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
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
