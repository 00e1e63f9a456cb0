package crf

import (
	"encoding/json"
	"os"
	"testing"
)

// reference is testdata/crf_reference.json, written by
// testdata/crf_reference.py from the formulas by enumeration of every
// label sequence.
type reference struct {
	C2   float64
	Data []struct {
		Items  [][][2]json.RawMessage
		Labels []string
	}
	State []struct {
		Attr, Label      string
		Weight, Gradient float64
	}
	Transitions []struct {
		From, To         string
		Weight, Gradient float64
	}
	Objective float64
}

// TestReferenceObjective checks f(w) and ∇f(w) at the reference's weights
// against the independent script's values, to 1e-9 relative, feature by
// feature by name: this also checks that the features are the seen pairs
// and bigrams.
func TestReferenceObjective(t *testing.T) {
	raw, err := os.ReadFile("testdata/crf_reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref reference
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	var seqs []Sequence
	for _, d := range ref.Data {
		s := Sequence{Labels: d.Labels}
		for _, item := range d.Items {
			var it Item
			for _, pair := range item {
				var a Attribute
				if json.Unmarshal(pair[0], &a.Name) != nil || json.Unmarshal(pair[1], &a.Value) != nil {
					t.Fatalf("bad attribute %s", pair)
				}
				it = append(it, a)
			}
			s.Items = append(s.Items, it)
		}
		seqs = append(seqs, s)
	}
	fs := buildFeatures(seqs, false, false, 0)
	if want := len(ref.State) + len(ref.Transitions); fs.nFeatures != want {
		t.Fatalf("%d features, the reference has %d", fs.nFeatures, want)
	}
	w := make([]float64, fs.nFeatures)
	index := func(kind string, i int) int {
		if i < 0 {
			t.Fatalf("the reference's %s feature is not a feature", kind)
		}
		return i
	}
	for _, s := range ref.State {
		w[index("state", fs.stateFeature(fs.attrID[s.Attr], fs.labelID[s.Label]))] = s.Weight
	}
	L := len(fs.labels)
	for _, tr := range ref.Transitions {
		w[index("transition", int(fs.trans[int(fs.labelID[tr.From])*L+int(fs.labelID[tr.To])]))] = tr.Weight
	}
	p := newProblem(fs, fs.encode(seqs), ref.C2, 2)
	g := make([]float64, len(w))
	if f := p.eval(w, g); !closeRel(f, ref.Objective, 1e-9) {
		t.Errorf("f = %.17g, reference %.17g", f, ref.Objective)
	}
	for _, s := range ref.State {
		if got := g[fs.stateFeature(fs.attrID[s.Attr], fs.labelID[s.Label])]; !closeRel(got, s.Gradient, 1e-9) {
			t.Errorf("∂f/∂μ(%s, %s) = %.17g, reference %.17g", s.Attr, s.Label, got, s.Gradient)
		}
	}
	for _, tr := range ref.Transitions {
		if got := g[fs.trans[int(fs.labelID[tr.From])*L+int(fs.labelID[tr.To])]]; !closeRel(got, tr.Gradient, 1e-9) {
			t.Errorf("∂f/∂λ(%s, %s) = %.17g, reference %.17g", tr.From, tr.To, got, tr.Gradient)
		}
	}
}
