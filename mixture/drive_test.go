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

// TestFitEStep checks that Starts and FitEStep, the E-steps run over
// three shards of iris (weighted rows, missing cells), give Fit's model
// for the same seed: two restarts from Fit's starting points, the same
// iterations and verdict, trace, restarts' log-likelihoods and parameters
// within 1e-8 relative, OnIter called alike; for every covariance type
// but identity (slow to converge here).
func TestFitEStep(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
	rng := rand.New(rand.NewPCG(5, 5))
	d.Weight = make([]float64, d.N)
	for i := range d.N {
		d.Weight[i] = 0.5 + rng.Float64()
		for j := range d.D() {
			if rng.Float64() < 0.05 {
				d.X[i*d.D()+j] = math.NaN()
			}
		}
	}
	perm := rng.Perm(d.N)
	var parts []*data.Dataset
	for _, cut := range [][2]int{{0, 40}, {40, 90}, {90, d.N}} {
		parts = append(parts, d.Subset(slices.Clone(perm[cut[0]:cut[1]])))
	}
	for _, cov := range []Covariance{Full, Tied, Diag, Spherical} {
		var calls [2][][3]float64
		c := Config{Components: 3, Covariance: cov, Restarts: 2, Tol: 1e-8, MaxIter: 200}
		c.OnIter = func(r, it int, ll float64) { calls[0] = append(calls[0], [3]float64{float64(r), float64(it), ll}) }
		want, err := c.Fit(d, rand.New(rand.NewPCG(3, 0)))
		if err != nil {
			t.Fatal(err)
		}
		if len(want.Warnings()) > 0 {
			t.Fatalf("%s: Fit re-seeded or did not converge: %q", cov, want.Warnings())
		}
		starts, err := c.Starts(d, rand.New(rand.NewPCG(3, 0)))
		if err != nil {
			t.Fatal(err)
		}
		c.OnIter = func(r, it int, ll float64) { calls[1] = append(calls[1], [3]float64{float64(r), float64(it), ll}) }
		passes := 0
		got, err := c.FitEStep(d.Schema, starts, func(p Params) (*EStats, error) {
			passes++
			return shardEStep(t, c, parts, p), nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if got.Iterations() != want.Iterations() || got.Converged() != want.Converged() || math.Abs(got.NumRows()-want.NumRows()) > 1e-12*want.NumRows() {
			t.Errorf("%s: %d iterations, converged %v, %v rows; Fit's %d, %v, %v", cov, got.Iterations(), got.Converged(), got.NumRows(),
				want.Iterations(), want.Converged(), want.NumRows())
		}
		if len(calls[1]) != len(calls[0]) || len(calls[1]) != passes {
			t.Fatalf("%s: OnIter called %d times in %d passes, by Fit %d times", cov, len(calls[1]), passes, len(calls[0]))
		}
		for i := range calls[0] {
			a, b := calls[1][i], calls[0][i]
			if a[0] != b[0] || a[1] != b[1] || math.Abs(a[2]-b[2]) > 1e-8*math.Abs(b[2]) {
				t.Errorf("%s: OnIter call %d: %v, Fit's %v", cov, i, a, b)
			}
		}
		relClose(t, cov.String()+" trace", got.LogLikelihoodTrace(), want.LogLikelihoodTrace(), 1e-8)
		relClose(t, cov.String()+" restarts", got.RestartLogLikelihoods(), want.RestartLogLikelihoods(), 1e-8)
		gp, wp := got.Params(), want.Params()
		relClose(t, cov.String()+" weights", gp.Weights, wp.Weights, 1e-8)
		relClose(t, cov.String()+" means", gp.Means, wp.Means, 1e-8)
		relClose(t, cov.String()+" covariances", gp.Covariances, wp.Covariances, 1e-8)
		tr := got.LogLikelihoodTrace()
		for i := 1; i < len(tr); i++ {
			if tr[i] < tr[i-1]-1e-9*math.Abs(tr[i-1]) {
				t.Errorf("%s: log-likelihood fell from %.17g to %.17g", cov, tr[i-1], tr[i])
			}
		}
	}
}

// TestFitEStepErrors: the error of an E-step is FitEStep's, a collapsed
// component is ErrCollapsed, statistics under other parameters are
// ErrMismatch, and Starts returns c.Start.
func TestFitEStepErrors(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
	c := Config{Components: 2}
	starts, err := c.Starts(d, rand.New(rand.NewPCG(1, 0)))
	if err != nil || len(starts) != 1 {
		t.Fatalf("%d starts, %v", len(starts), err)
	}
	failed := errors.New("the shard is gone")
	if _, err := c.FitEStep(d.Schema, starts, func(Params) (*EStats, error) { return nil, failed }); !errors.Is(err, failed) {
		t.Errorf("error %v, want the E-step's", err)
	}
	// Always the E-step of the start: the second iteration's is not.
	if _, err := c.FitEStep(d.Schema, starts, func(Params) (*EStats, error) { return c.EStep(d, starts[0]) }); !errors.Is(err, ErrMismatch) {
		t.Errorf("E-step under other parameters: %v, want ErrMismatch", err)
	}
	// One row far away: the component seeded there collapses.
	lone := Params{Weights: []float64{1 - 1e-12, 1e-12}, Means: append(slices.Clone(starts[0].Means[:4]), 1e6, 1e6, 1e6, 1e6), Covariances: starts[0].Covariances}
	if _, err := c.FitEStep(d.Schema, []Params{lone}, func(p Params) (*EStats, error) { return c.EStep(d, p) }); !errors.Is(err, ErrCollapsed) {
		t.Errorf("a collapsing component: %v, want ErrCollapsed", err)
	}
	cs := c
	cs.Start = &starts[0]
	if s, err := cs.Starts(d, nil); err != nil || len(s) != 1 || !slices.Equal(s[0].Means, starts[0].Means) {
		t.Errorf("Starts with Start set: %v, %v", s, err)
	}
}
