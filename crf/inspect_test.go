package crf

import (
	"math"
	"testing"
)

// TestTopWeights checks the largest weights against the weight vector.
func TestTopWeights(t *testing.T) {
	m, err := Fit(tinySeqs(), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	tr := m.TopTransitions(100)
	L := len(m.fs.labels)
	if len(tr) != 3 { // the tiny data's bigrams D→N, N→V, V→D
		t.Errorf("transitions %v, want the 3 bigrams seen", tr)
	}
	for i, w := range tr {
		if got := m.tr.logT[int(m.fs.labelID[w.From])*L+int(m.fs.labelID[w.To])]; got != w.Value {
			t.Errorf("λ(%s, %s) = %v, the model has %v", w.From, w.To, w.Value, got)
		}
		if i > 0 && math.Abs(w.Value) > math.Abs(tr[i-1].Value) {
			t.Errorf("not by magnitude: %v", tr)
		}
	}
	st := m.TopStates("N", 2)
	if len(st) != 2 || math.Abs(st[0].Value) < math.Abs(st[1].Value) {
		t.Fatalf("TopStates = %v", st)
	}
	for _, w := range st {
		if got := m.w[m.fs.stateFeature(m.fs.attrID[w.Attribute], m.fs.labelID["N"])]; got != w.Value {
			t.Errorf("μ(%s, N) = %v, the model has %v", w.Attribute, w.Value, got)
		}
	}
	if m.TopStates("ADJ", 3) != nil || len(m.TopTransitions(-1)) != 0 {
		t.Error("an unknown label or k < 0 gave weights")
	}
}
