package crf

import (
	"math"
	"strings"
	"testing"
)

func defaultSettings() lbfgsSettings {
	c := DefaultConfig()
	return lbfgsSettings{memory: c.Memory, epsilon: c.Epsilon, period: c.Period, delta: c.Delta, maxIter: c.MaxIter, maxLinesearch: c.MaxLinesearch}
}

// TestMinimiseQuadratic checks L-BFGS on f(w) = Σ_i i (w_i − 1)², whose
// minimum is w = 1: converged by the gradient test.
func TestMinimiseQuadratic(t *testing.T) {
	eval := func(w, g []float64) float64 {
		f := 0.0
		for i, v := range w {
			f += float64(i+1) * (v - 1) * (v - 1)
			g[i] = 2 * float64(i+1) * (v - 1)
		}
		return f
	}
	w := make([]float64, 5)
	set := defaultSettings()
	set.period = 0
	o := minimise(eval, w, set)
	if o.reason != stopConverged {
		t.Fatalf("stopped by %v: %v", o.reason, o.err)
	}
	for i, v := range w {
		if math.Abs(v-1) > 1e-5 {
			t.Errorf("w_%d = %v, want 1", i, v)
		}
	}
}

// TestMinimiseLinesearchFailure checks that a line search that cannot
// succeed (f unbounded below along the direction: f(w) = −w) ends the
// run with the last iterate and a warning.
func TestMinimiseLinesearchFailure(t *testing.T) {
	eval := func(w, g []float64) float64 {
		g[0] = -1
		return -w[0]
	}
	w := []float64{0}
	o := minimise(eval, w, defaultSettings())
	if o.reason != stopLinesearch || !strings.Contains(o.describe(1000), "L-BFGS stopped after 0 iterations: the line search") || w[0] != 0 {
		t.Errorf("reason %v, %q, w = %v", o.reason, o.describe(1000), w)
	}
}

// TestMinimiseDeltaRule checks libLBFGS's past-δ rule on
// f(w) = 1 + exp(−w), which decreases towards 1 without a minimum: the
// run stops at the first iteration k ≥ period with
// (f_{k−period} − f_k)/f_k < δ, f_0 the value at the start.
func TestMinimiseDeltaRule(t *testing.T) {
	eval := func(w, g []float64) float64 {
		g[0] = -math.Exp(-w[0])
		return 1 + math.Exp(-w[0])
	}
	set := defaultSettings()
	set.epsilon = 0
	set.period = 3
	set.delta = 1e-3
	fs := []float64{eval([]float64{0}, []float64{0})}
	set.progress = func(_ int, f, _, _ float64, _ int) { fs = append(fs, f) }
	w := []float64{0}
	o := minimise(eval, w, set)
	if o.reason != stopDelta {
		t.Fatalf("stopped by %v (%v) after %d iterations", o.reason, o.err, o.iters)
	}
	want := 0
	for k := set.period; k < len(fs); k++ {
		if (fs[k-set.period]-fs[k])/fs[k] < set.delta {
			want = k
			break
		}
	}
	if o.iters != want || want == 0 {
		t.Errorf("stopped after %d iterations, the rule holds first at %d (f = %v)", o.iters, want, fs)
	}
}
