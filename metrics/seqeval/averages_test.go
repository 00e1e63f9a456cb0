package seqeval

import (
	"math"
	"testing"
)

// TestAverages checks the macro and micro averages of TestEvaluate's
// tags against hand-derived values, which scikit-learn's
// precision_recall_fscore_support(average="macro") gives too: DET
// (P 1, R 1, F1 1), NOUN (never predicted: P 0/0 counted 0, R 0, F1 0),
// PROPN (1, 1, 1), VERB (2/3, 1, 0.8).
func TestAverages(t *testing.T) {
	r, err := Evaluate(sents("DET NOUN VERB", "PROPN VERB"), sents("DET VERB VERB", "PROPN VERB"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := Average{Precision: (1 + 0 + 1 + 2.0/3) / 4, Recall: 0.75, F1: 0.7}
	if got := r.Macro(); !closeAverages(got, want) {
		t.Errorf("macro %+v, want %+v", got, want)
	}
	if got := r.Micro(); !closeAverages(got, Average{0.8, 0.8, 0.8}) {
		t.Errorf("micro %+v, want the accuracy 0.8", got)
	}
	// A tag listed without support or predictions (a report widened to
	// the tags of every fold) does not change the macro average.
	r.Tags = append(r.Tags, "X")
	r.PerTag = append(r.PerTag, TagMetrics{Tag: "X", Precision: math.NaN(), Recall: math.NaN(), F1: math.NaN()})
	for i := range r.Confusion {
		r.Confusion[i] = append(r.Confusion[i], 0)
	}
	r.Confusion = append(r.Confusion, make([]int, len(r.Tags)))
	if got := r.Macro(); !closeAverages(got, want) {
		t.Errorf("macro with an absent tag %+v, want %+v", got, want)
	}
	empty, _ := Evaluate(nil, nil, nil, nil)
	if got := empty.Macro(); !math.IsNaN(got.F1) || !math.IsNaN(empty.Micro().F1) {
		t.Errorf("no tokens: macro %+v, micro %+v, want NaN", got, empty.Micro())
	}
}

func closeAverages(a, b Average) bool {
	return same(a.Precision, b.Precision) && same(a.Recall, b.Recall) && same(a.F1, b.F1)
}
