package crf

import (
	"math"
	"testing"
)

// TestStartWeights checks the warm start's matching of features by name:
// a fit's own features start at its weights bit for bit, and the features
// of other sequences (a subset, with a label order of its own) start at
// the weight of the same attribute–label pair or label bigram, 0 where
// the model has none.
func TestStartWeights(t *testing.T) {
	cfg := DefaultConfig()
	cfg.C2 = 0.1
	full, err := Fit(tinySeqs(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	warm := Config{Start: full}
	for i, v := range warm.startWeights(full.fs) {
		if math.Float64bits(v) != math.Float64bits(full.w[i]) {
			t.Fatalf("own features: weight %d starts at %v, want %v", i, v, full.w[i])
		}
	}
	// The last two sequences: labels N, V, D in that order, the
	// attributes "cap" and "w=cat" absent, "suf=gs" new to no one.
	sub := tinySeqs()[2:]
	fs := buildFeatures(sub, true, true, 0) // every pair: some the full model lacks
	w := warm.startWeights(fs)
	weight := func(f *features, ws []float64, attr, label string) float64 {
		a, ok := f.attrID[attr]
		y, ok2 := f.labelID[label]
		if !ok || !ok2 {
			return 0
		}
		if i := f.stateFeature(a, y); i >= 0 {
			return ws[i]
		}
		return 0
	}
	transition := func(f *features, ws []float64, from, to string) float64 {
		i := f.trans[int(f.labelID[from])*len(f.labels)+int(f.labelID[to])]
		if i < 0 {
			return 0
		}
		return ws[i]
	}
	checked := 0
	for _, attr := range fs.attrs {
		for _, label := range fs.labels {
			if got, want := weight(fs, w, attr, label), weight(full.fs, full.w, attr, label); got != want {
				t.Errorf("μ(%s, %s) starts at %v, want %v", attr, label, got, want)
			}
			checked++
		}
	}
	for _, a := range fs.labels {
		for _, b := range fs.labels {
			if got, want := transition(fs, w, a, b), transition(full.fs, full.w, a, b); got != want {
				t.Errorf("λ(%s, %s) starts at %v, want %v", a, b, got, want)
			}
		}
	}
	if checked == 0 || fs.labels[0] != "N" {
		t.Fatalf("the subset's features %q, labels %q: not what the test means to check", fs.attrs, fs.labels)
	}
}

// TestWarmFitConverges checks that a fit started from a model of more
// sequences reaches the optimum of a cold fit of the subset (the same
// tags, the objective within the stopping rule) in fewer iterations.
func TestWarmFitConverges(t *testing.T) {
	cfg := DefaultConfig()
	cfg.C2 = 0.1
	cfg.Period = 0 // stop on the gradient alone: both reach the same point
	cfg.Epsilon = 1e-7
	full, err := Fit(tinySeqs(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	sub := tinySeqs()[:3]
	cold, err := Fit(sub, cfg)
	if err != nil {
		t.Fatal(err)
	}
	warmCfg := cfg
	warmCfg.Start = full
	warm, err := Fit(sub, warmCfg)
	if err != nil {
		t.Fatal(err)
	}
	p := newProblem(cold.fs, cold.fs.encode(sub), cfg.C2, 1)
	fCold, fWarm := p.eval(cold.w, nil), p.eval(warm.w, nil)
	if math.Abs(fCold-fWarm) > 1e-9*math.Abs(fCold) {
		t.Errorf("objective: cold %v, warm %v", fCold, fWarm)
	}
	if warm.Iterations() >= cold.Iterations() {
		t.Errorf("warm start: %d iterations, cold %d: want fewer", warm.Iterations(), cold.Iterations())
	}
}
