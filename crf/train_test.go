package crf

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestFitTagsTrainingData fits the tiny data set with a light penalty and
// checks that the fit converged, tags its own sentences right, and that
// log p(y | x) of the training labels is the log of a probability.
func TestFitTagsTrainingData(t *testing.T) {
	cfg := DefaultConfig()
	cfg.C2 = 0.01
	m, err := Fit(tinySeqs(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if w := m.Warnings(); w != nil {
		t.Errorf("warnings %q", w)
	}
	for _, s := range tinySeqs() {
		if got := m.Tag(s.Items); !slices.Equal(got, s.Labels) {
			t.Errorf("Tag = %q, want %q", got, s.Labels)
		}
		lp, err := m.LogProb(s)
		if err != nil || !(lp < 0 && lp > -1) {
			t.Errorf("log p(y | x) = %v, %v: want a probability above 1/e", lp, err)
		}
		marg := m.Marginals(s.Items)
		L := len(m.Labels())
		for tt := range s.Items {
			sum := 0.0
			for _, p := range marg[tt*L : (tt+1)*L] {
				sum += p
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Errorf("marginals of item %d sum to %v", tt, sum)
			}
		}
	}
}

// TestFitStationary checks that the fitted weights are a minimum: the
// gradient there is below CRFsuite's ε relative to ‖w‖.
func TestFitStationary(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Period = 0 // only the gradient test stops the fit
	m, err := Fit(tinySeqs(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	p := tinyProblem(cfg.C2, 1, false, false)
	g := make([]float64, len(m.w))
	p.eval(m.w, g)
	gn, wn := 0.0, 0.0
	for i := range g {
		gn += g[i] * g[i]
		wn += m.w[i] * m.w[i]
	}
	if r := math.Sqrt(gn) / max(1, math.Sqrt(wn)); r > cfg.Epsilon {
		t.Errorf("‖∇f‖/max(1, ‖w‖) = %v at the fit, want ≤ %v", r, cfg.Epsilon)
	}
}

// TestFitMaxIterWarns checks the warning of a fit cut short.
func TestFitMaxIterWarns(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxIter = 2
	m, err := Fit(tinySeqs(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if w := m.Warnings(); len(w) != 1 || !strings.Contains(w[0], "iteration limit (2)") || m.Iterations() != 2 {
		t.Errorf("warnings %q after %d iterations", w, m.Iterations())
	}
}

// TestFitSameAnyJobs checks that the fitted weights are the same bits
// for any number of goroutines.
func TestFitSameAnyJobs(t *testing.T) {
	var seqs []Sequence
	for range 40 {
		seqs = append(seqs, tinySeqs()...)
	}
	var w0 []float64
	for _, jobs := range []int{1, 2, 5} {
		cfg := DefaultConfig()
		cfg.Jobs = jobs
		m, err := Fit(seqs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if w0 == nil {
			w0 = m.w
		} else if !slices.Equal(m.w, w0) {
			t.Errorf("jobs %d: other weights", jobs)
		}
	}
}

// TestFitL1Sparse checks that OWL-QN with a large c1 zeroes weights that
// L2 alone keeps, and lowers f + c1‖w‖₁ below its value at w = 0.
func TestFitL1Sparse(t *testing.T) {
	cfg := DefaultConfig()
	cfg.C1, cfg.C2 = 1, 0
	m, err := Fit(tinySeqs(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	zeros := 0
	for _, v := range m.w {
		if v == 0 {
			zeros++
		}
	}
	if zeros == 0 || zeros == len(m.w) {
		t.Errorf("%d of %d weights are 0 under c1 = 1", zeros, len(m.w))
	}
	p := tinyProblem(0, 1, false, false)
	g := make([]float64, len(m.w))
	obj := func(w []float64) float64 {
		l1 := 0.0
		for _, v := range w {
			l1 += math.Abs(v)
		}
		return p.eval(w, g) + cfg.C1*l1
	}
	if f, f0 := obj(m.w), obj(make([]float64, len(m.w))); !(f < f0) {
		t.Errorf("f + c1‖w‖₁ = %v at the fit, %v at 0", f, f0)
	}
}

// TestFitRejects checks the errors for bad training data.
func TestFitRejects(t *testing.T) {
	for _, c := range []struct {
		seqs []Sequence
		want string
	}{
		{nil, "no sequences"},
		{[]Sequence{{Items: []Item{{{Name: "a", Value: 1}}}, Labels: []string{"X"}}, {}}, "sequence 2: no items"},
		{[]Sequence{{Items: []Item{{{Name: "a", Value: 1}}}, Labels: nil}}, "0 labels for 1 items"},
		{[]Sequence{{Items: []Item{{{Name: "a", Value: math.NaN()}}}, Labels: []string{"X"}}}, `attribute "a" has the value NaN`},
	} {
		if _, err := Fit(c.seqs, DefaultConfig()); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
	m, _ := Fit(tinySeqs(), DefaultConfig())
	if _, err := m.LogProb(Sequence{Items: []Item{{}}, Labels: []string{"ADJ"}}); err == nil || !strings.Contains(err.Error(), `label "ADJ" not seen`) {
		t.Errorf("LogProb of an unknown label: %v", err)
	}
}

// TestPerceptron checks that the averaged perceptron learns the tiny data
// set, and the averaging on one sequence by hand: one mistake at step
// c = 1, none at c = 2, gives w̄ = Δw − 1·Δw/3 = 2Δw/3.
func TestPerceptron(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Perceptron = true
	m, err := Fit(tinySeqs(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range tinySeqs() {
		if got := m.Tag(s.Items); !slices.Equal(got, s.Labels) {
			t.Errorf("Tag = %q, want %q", got, s.Labels)
		}
	}
	// One item, labels A (first) and B: w = 0 tags A (ties to the
	// smaller label); for a sequence labelled B the first epoch makes
	// one mistake, the second none.
	seqs := []Sequence{{Items: []Item{{{Name: "x", Value: 1}}}, Labels: []string{"A"}}, {Items: []Item{{{Name: "x", Value: 1}, {Name: "y", Value: 2}}}, Labels: []string{"B"}}}
	fs := buildFeatures(seqs, false, false, 0)
	e := fs.encode(seqs[1:])
	w, epochs := fitPerceptron(fs, e, 10, 1)
	if epochs != 2 {
		t.Errorf("%d epochs, want 2", epochs)
	}
	// Epoch 1 (c = 1), a mistake: Δ(x, B) = +1, Δ(x, A) = −1,
	// Δ(y, B) = +2; epoch 2 (c = 2) right; c ends at 3.
	want := map[[2]string]float64{{"x", "B"}: 2.0 / 3, {"x", "A"}: -2.0 / 3, {"y", "B"}: 4.0 / 3}
	for k, v := range want {
		if got := w[fs.stateFeature(fs.attrID[k[0]], fs.labelID[k[1]])]; math.Abs(got-v) > 1e-15 {
			t.Errorf("w̄(%s, %s) = %v, want %v", k[0], k[1], got, v)
		}
	}
}
