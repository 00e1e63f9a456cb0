package mixture

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
)

// shardEStep returns the merged E-step statistics of the shards under p,
// each shard's statistics encoded and decoded on the way.
func shardEStep(t *testing.T, c Config, parts []*data.Dataset, p Params) *EStats {
	t.Helper()
	var all *EStats
	for _, d := range parts {
		e, err := c.EStep(d, p)
		if err != nil {
			t.Fatal(err)
		}
		b, err := e.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var dec EStats
		if err := dec.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		if b2, _ := dec.MarshalBinary(); string(b2) != string(b) {
			t.Fatal("encoding not stable")
		}
		if all == nil {
			all = &dec
		} else if err := all.Merge(&dec); err != nil {
			t.Fatal(err)
		}
	}
	return all
}

// relClose fails unless |got − want| ≤ tol·max|want| elementwise.
func relClose(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	scale := 0.0
	for _, v := range want {
		scale = max(scale, math.Abs(v))
	}
	for i := range got {
		if !(math.Abs(got[i]-want[i]) <= tol*scale) {
			t.Fatalf("%s[%d] = %.17g, want %.17g", what, i, got[i], want[i])
		}
	}
}

// TestEMDriverEqualsFit runs EM from outside over three disjoint shards of
// iris with 5% of the cells missing (and one feature in all of a shard)
// and row weights, with only the public
// per-pass statistics (EStep, the encoding, Merge, MStep), from the start
// that Fit is given: it stops at the same iteration, reaches Fit's
// parameters and log-likelihood to 1e-8 relative, and its log-likelihood
// never decreases; for every covariance type.
func TestEMDriverEqualsFit(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
	rng := rand.New(rand.NewPCG(11, 11))
	d.Weight = make([]float64, d.N)
	for i := range d.N {
		d.Weight[i] = 0.5 + rng.Float64()
		for j := range d.D() {
			if rng.Float64() < 0.05 && j > 0 {
				d.X[i*d.D()+j] = math.NaN()
			}
		}
	}
	perm := rng.Perm(d.N)
	for _, i := range perm[:30] { // the first shard never observes feature 0
		d.X[i*d.D()] = math.NaN()
	}
	var parts []*data.Dataset
	for _, cut := range [][2]int{{0, 30}, {30, 80}, {80, d.N}} {
		idx := slices.Clone(perm[cut[0]:cut[1]])
		parts = append(parts, d.Subset(idx))
	}
	for _, cov := range []Covariance{Full, Tied, Diag, Spherical} {
		base := Config{Components: 3, Covariance: cov, Tol: 1e-9, MaxIter: 300}
		init, err := Config{Components: 3, Covariance: cov, MaxIter: 1, Tol: -1}.Fit(d, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		start := init.Params()
		fc := base
		fc.Start = &start
		want, err := fc.Fit(d, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if len(want.Warnings()) > 0 || !want.Converged() {
			t.Fatalf("%s: Fit did not converge cleanly: %q", cov, want.Warnings())
		}
		p := start
		var trace []float64
		it := 1
		for ; it <= base.MaxIter; it++ {
			e := shardEStep(t, base, parts, p)
			trace = append(trace, e.LogLikelihood())
			if it > 1 && trace[it-1] < trace[it-2]-1e-12*math.Abs(trace[it-2]) {
				t.Errorf("%s: log-likelihood fell from %.17g to %.17g at iteration %d", cov, trace[it-2], trace[it-1], it)
			}
			if p, err = e.MStep(); err != nil {
				t.Fatal(err)
			}
			if it > 1 && math.Abs(trace[it-1]-trace[it-2])/e.Weight() < base.Tol {
				break
			}
		}
		final := shardEStep(t, base, parts, p).LogLikelihood()
		if it != want.Iterations() {
			t.Errorf("%s: %d iterations, Fit took %d", cov, it, want.Iterations())
		}
		relClose(t, cov.String()+" trace", trace, want.LogLikelihoodTrace()[:len(trace)], 1e-8)
		relClose(t, cov.String()+" log-likelihood", []float64{final}, []float64{want.LogLikelihood()}, 1e-8)
		wp := want.Params()
		relClose(t, cov.String()+" weights", p.Weights, wp.Weights, 1e-8)
		relClose(t, cov.String()+" means", p.Means, wp.Means, 1e-8)
		relClose(t, cov.String()+" covariances", p.Covariances, wp.Covariances, 1e-8)
	}
}

// TestEStatsErrors: statistics under other parameters or settings do not
// merge; a collapsed component is ErrCollapsed; bad encodings are refused.
func TestEStatsErrors(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
	c := Config{Components: 2, Covariance: Diag}
	p := Params{Weights: []float64{0.5, 0.5}, Means: make([]float64, 8), Covariances: slices.Repeat([]float64{1}, 8)}
	a, err := c.EStep(d, p)
	if err != nil {
		t.Fatal(err)
	}
	q := p
	q.Weights = []float64{0.25, 0.75}
	b, err := c.EStep(d, q)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Merge(b); !errors.Is(err, ErrMismatch) {
		t.Errorf("merge under other parameters: %v", err)
	}
	c2 := c
	c2.RegCovar = 1e-3
	b2, err := c2.EStep(d, p)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Merge(b2); !errors.Is(err, ErrMismatch) {
		t.Errorf("merge of another regularisation: %v", err)
	}
	// Every row far from the second component's mean: its weight
	// vanishes.
	far := Params{Weights: []float64{0.5, 0.5}, Means: append(make([]float64, 4), 1e6, 1e6, 1e6, 1e6), Covariances: slices.Repeat([]float64{1}, 8)}
	e, err := c.EStep(d, far)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.MStep(); !errors.Is(err, ErrCollapsed) {
		t.Errorf("collapsed component: %v", err)
	}
	if _, err := c.EStep(d, Params{Weights: []float64{1}}); err == nil {
		t.Error("parameters of the wrong shape accepted")
	}
	var dec EStats
	if err := dec.UnmarshalBinary([]byte(`{"format":"x"}`)); err == nil {
		t.Error("foreign encoding accepted")
	}
}
