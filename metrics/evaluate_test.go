package metrics

import (
	"errors"
	"math"
	"testing"

	"github.com/gendisc/gendisc/data"
)

// fixedClassifier is a classifier that gives the same probabilities to every row.
type fixedClassifier struct {
	schema *data.Schema
	logp   []float64
}

func (f fixedClassifier) Kind() string         { return "fixed" }
func (f fixedClassifier) Schema() *data.Schema { return f.schema }
func (f fixedClassifier) Classes() []string    { return f.schema.Classes() }
func (f fixedClassifier) LogProba(dst []float64, d *data.Dataset) []float64 {
	for range d.N {
		dst = append(dst, f.logp...)
	}
	return dst
}

func TestEvaluate(t *testing.T) {
	schema := &data.Schema{
		Features: []data.Column{{Name: "x", Kind: data.Numeric}},
		Target:   &data.Column{Name: "y", Kind: data.Categorical, Levels: []string{"no", "yes"}},
	}
	c := fixedClassifier{schema, []float64{math.Log(.25), math.Log(.75)}}
	d := &data.Dataset{Schema: schema, N: 3, X: make([]float64, 3), Y: []float64{1, 1, 0},
		Weight: []float64{1, 1, 2}, Source: data.Provenance{Name: "t.csv", Lines: []int{2, 3, 5}}}
	r, err := Evaluate(c, d)
	if err != nil {
		t.Fatal(err)
	}
	if r.Accuracy != .5 || r.Binary.TP != 2 || r.Binary.FP != 2 || !near(r.LogLoss, -(2*math.Log(.75)+2*math.Log(.25))/4) {
		t.Errorf("Evaluate: accuracy %v, TP %v, FP %v, log-loss %v", r.Accuracy, r.Binary.TP, r.Binary.FP, r.LogLoss)
	}

	for _, tc := range []struct {
		name string
		y    []float64
		want error
		msg  string
	}{
		{"missing target", []float64{1, math.NaN(), 0}, data.ErrMissingTarget, "t.csv:3: missing target value: eval needs the true class of every row"},
		{"fraction", []float64{1, 1, 0.5}, ErrClass, "t.csv:5: class index out of range: target 0.5"},
		{"out of range", []float64{1, 2, 0}, ErrClass, "t.csv:3: class index out of range: 2, want 0 to 1"},
	} {
		bad := *d
		bad.Y = tc.y
		_, err := Evaluate(c, &bad)
		var pe *data.ParseError
		if !errors.Is(err, tc.want) || !errors.As(err, &pe) || err.Error() != tc.msg {
			t.Errorf("%s: error %v, want %q wrapping %v", tc.name, err, tc.msg, tc.want)
		}
	}

	bad := *d
	bad.Schema = schema.Clone()
	bad.Schema.Target.Levels = []string{"yes", "no"}
	if _, err := Evaluate(c, &bad); err == nil {
		t.Error("Evaluate accepts data whose classes are in another order")
	}
	bad = *d
	bad.Y = nil
	if _, err := Evaluate(c, &bad); err == nil {
		t.Error("Evaluate accepts data without a target")
	}
}
