package seqeval

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

// sents splits each string at spaces into a sentence's tags.
func sents(lines ...string) [][]string {
	out := make([][]string, len(lines))
	for i, l := range lines {
		out[i] = strings.Fields(l)
	}
	return out
}

func TestEvaluate(t *testing.T) {
	truth := sents("DET NOUN VERB", "PROPN VERB")
	pred := sents("DET VERB VERB", "PROPN VERB")
	tokens := sents("the run runs", "Rex barks")
	r, err := Evaluate(truth, pred, tokens, func(w string) bool { return w != "run" && w != "Rex" })
	if err != nil {
		t.Fatal(err)
	}
	// 4 of 5 tokens right; unknown "run" wrong, "Rex" right; 1 of 2
	// sentences right. VERB: predicted 3 times, 2 right, 2 true: P 2/3, R 1.
	if r.Correct != 4 || r.Accuracy != 0.8 || r.Unknown != 2 || r.UnknownAccuracy != 0.5 || r.SentenceAccuracy != 0.5 {
		t.Errorf("report %+v", r)
	}
	want := []TagMetrics{
		{"DET", 1, 1, 1, 1},
		{"NOUN", math.NaN(), 0, math.NaN(), 1},
		{"PROPN", 1, 1, 1, 1},
		{"VERB", 2.0 / 3, 1, 0.8, 2},
	}
	for i, w := range want {
		g := r.PerTag[i]
		if g.Tag != w.Tag || !same(g.Precision, w.Precision) || !same(g.Recall, w.Recall) || !same(g.F1, w.F1) || g.Support != w.Support {
			t.Errorf("tag %s: %+v, want %+v", w.Tag, g, w)
		}
	}
	if want := [][]int{{1, 0, 0, 0}, {0, 0, 0, 1}, {0, 0, 1, 0}, {0, 0, 0, 2}}; !reflect.DeepEqual(r.Confusion, want) {
		t.Errorf("confusion %v, want %v", r.Confusion, want)
	}
	if _, err := Evaluate(truth, sents("DET", "PROPN VERB"), nil, nil); !errors.Is(err, ErrLength) {
		t.Errorf("misaligned: %v", err)
	}
}

func same(a, b float64) bool {
	return a == b || math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) < 1e-15
}

// TestSpans checks span counts derived by hand from conlleval's rules.
func TestSpans(t *testing.T) {
	for _, tc := range []struct {
		name                     string
		truth, pred              [][]string
		true, predicted, correct int
	}{
		// One of two spans right: LOC predicted as ORG.
		{"BIO", sents("B-PER I-PER O B-LOC"), sents("B-PER I-PER O B-ORG"), 2, 2, 1},
		// IOB1: B- separates two adjacent PER spans in the truth; the
		// prediction joins them into one span of three tokens.
		{"IOB1", sents("I-PER I-PER B-PER O"), sents("I-PER I-PER I-PER O"), 2, 1, 0},
		// A span that begins with I- after O (IOB1 style) is the same
		// span as B- I-.
		{"I after O", sents("B-LOC I-LOC"), sents("I-LOC I-LOC"), 1, 1, 1},
		// A sentence's end ends a span: I-PER at the start of the next
		// sentence is a new span.
		{"boundary", sents("O B-PER", "I-PER O"), sents("O B-PER", "I-PER O"), 2, 2, 2},
		// A change of type inside a predicted span ends it and starts
		// another: two predicted spans, neither right.
		{"type change", sents("B-PER I-PER"), sents("B-PER I-LOC"), 1, 2, 0},
		// Right start, wrong end.
		{"longer", sents("B-PER O O"), sents("B-PER I-PER O"), 1, 1, 0},
		// Span at the very end of the data.
		{"at the end", sents("O B-MISC"), sents("O B-MISC"), 1, 1, 1},
	} {
		r, err := Spans(tc.truth, tc.pred)
		if err != nil {
			t.Fatal(err)
		}
		if r.True != tc.true || r.Predicted != tc.predicted || r.Correct != tc.correct {
			t.Errorf("%s: true %d, predicted %d, correct %d; want %d, %d, %d", tc.name, r.True, r.Predicted, r.Correct, tc.true, tc.predicted, tc.correct)
		}
	}
	r, _ := Spans(sents("B-PER I-PER O B-LOC", "B-LOC"), sents("B-PER I-PER O B-ORG", "B-LOC"))
	// 3 true, 3 predicted, 2 correct; LOC: 2 true, 1 predicted, 1 correct.
	if !same(r.Precision, 2.0/3) || !same(r.Recall, 2.0/3) || !same(r.F1, 2.0/3) {
		t.Errorf("P %v R %v F1 %v", r.Precision, r.Recall, r.F1)
	}
	want := []SpanMetrics{
		{"LOC", 2, 1, 1, 1, 0.5, 2.0 / 3},
		{"ORG", 0, 1, 0, 0, 0, 0},
		{"PER", 1, 1, 1, 1, 1, 1},
	}
	for i, w := range want {
		g := r.Types[i]
		if g.Type != w.Type || g.True != w.True || g.Predicted != w.Predicted || g.Correct != w.Correct || !same(g.Precision, w.Precision) || !same(g.Recall, w.Recall) || !same(g.F1, w.F1) {
			t.Errorf("%s: %+v, want %+v", w.Type, g, w)
		}
	}
}
