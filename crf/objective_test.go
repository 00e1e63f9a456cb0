package crf

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func tinyProblem(c2 float64, jobs int, allStates, allTrans bool) *problem {
	seqs := tinySeqs()
	fs := buildFeatures(seqs, allStates, allTrans, 0)
	return newProblem(fs, fs.encode(seqs), c2, jobs)
}

// TestGradientFiniteDifferences checks ∇f against central differences of
// f at random weights, for every feature.
func TestGradientFiniteDifferences(t *testing.T) {
	for _, all := range []bool{false, true} {
		p := tinyProblem(0.3, 1, all, all)
		rng := rand.New(rand.NewPCG(5, 6))
		w := make([]float64, p.fs.nFeatures)
		for i := range w {
			w[i] = rng.NormFloat64()
		}
		g := make([]float64, len(w))
		p.eval(w, g)
		scratch := make([]float64, len(w))
		const h = 1e-5
		for i := range w {
			wi := w[i]
			w[i] = wi + h
			fp := p.eval(w, scratch)
			w[i] = wi - h
			fm := p.eval(w, scratch)
			w[i] = wi
			if fd := (fp - fm) / (2 * h); math.Abs(fd-g[i]) > 1e-6*max(1, math.Abs(g[i])) {
				t.Errorf("all %v: ∂f/∂w_%d = %v, finite difference %v", all, i, g[i], fd)
			}
		}
	}
}

// TestEvalSameBitsAnyJobs checks that f and ∇f do not depend on the
// number of goroutines.
func TestEvalSameBitsAnyJobs(t *testing.T) {
	seqs := make([]Sequence, 0, 200)
	for range 50 {
		seqs = append(seqs, tinySeqs()...)
	}
	fs := buildFeatures(seqs, false, false, 0)
	e := fs.encode(seqs)
	rng := rand.New(rand.NewPCG(7, 8))
	w := make([]float64, fs.nFeatures)
	for i := range w {
		w[i] = rng.NormFloat64()
	}
	var f0 float64
	var g0 []float64
	for _, jobs := range []int{1, 2, 3, 8} {
		p := newProblem(fs, e, 1, jobs)
		g := make([]float64, len(w))
		f := p.eval(w, g)
		if g0 == nil {
			f0, g0 = f, g
			if len(p.buffers) < 2 {
				t.Fatalf("%d chunks: the test needs several", len(p.buffers))
			}
			continue
		}
		if f != f0 || !slices.Equal(g, g0) {
			t.Errorf("jobs %d: f = %v, want the bits of %v (or the gradient differs)", jobs, f, f0)
		}
	}
}

// TestObservedCounts checks E_data on the tiny data set by hand: the
// attribute "suf=og" with value 0.5 once under N, "cap" 2 under N, the
// bigram D→N three times.
func TestObservedCounts(t *testing.T) {
	p := tinyProblem(0, 1, false, false)
	fs := p.fs
	N, D := fs.labelID["N"], fs.labelID["D"]
	for _, c := range []struct {
		attr  string
		label int32
		want  float64
	}{{"suf=og", N, 0.5}, {"cap", N, 2}, {"bias", N, 4}, {"bias", D, 3}, {"w=the", D, 2}} {
		if got := p.obs[fs.stateFeature(fs.attrID[c.attr], c.label)]; got != c.want {
			t.Errorf("E_data[%s, %s] = %v, want %v", c.attr, fs.labels[c.label], got, c.want)
		}
	}
	if got := p.obs[fs.trans[int(D)*len(fs.labels)+int(N)]]; got != 3 {
		t.Errorf("E_data[D→N] = %v, want 3", got)
	}
	if f := fs.trans[int(N)*len(fs.labels)+int(N)]; f != -1 {
		t.Errorf("N→N never occurs but has feature %d", f)
	}
}
