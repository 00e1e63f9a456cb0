package gda

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
)

// travel returns e after a round trip through its encoding.
func travel(t *testing.T, e *EStats) *EStats {
	t.Helper()
	b, err := e.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var d EStats
	if err := d.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	return &d
}

// shardEStep returns the merged E-step statistics of the shards under p, each
// shard's statistics encoded and decoded on the way.
func shardEStep(t *testing.T, accs []*Accumulator, p *EMParams) *EStats {
	t.Helper()
	var all *EStats
	for _, a := range accs {
		e, err := a.EStep(p)
		if err != nil {
			t.Fatal(err)
		}
		e = travel(t, e)
		if all == nil {
			all = e
		} else if err := all.Merge(e); err != nil {
			t.Fatal(err)
		}
	}
	return all
}

// TestEMDriverEqualsFit runs the EM of LDA and QDA over rows with missing
// cells from outside: three shards with their classes in different
// orders, only the public per-pass statistics (EStep, Merge, the
// encoding, MStep, Converged). From the start of Fit, it reaches Fit's
// model (means, covariances, predictions to 1e-8 relative) in as many
// iterations, with the same log-likelihood to 1e-8 relative, and the
// log-likelihood never decreases.
func TestEMDriverEqualsFit(t *testing.T) {
	wine := bundled.Load(t, "wine", dataio.Options{})
	rng := rand.New(rand.NewPCG(9, 9))
	for i := range wine.X {
		if rng.Float64() < 0.05 {
			wine.X[i] = math.NaN()
		}
	}
	for _, d := range []*data.Dataset{bundled.Load(t, "breast_cancer_wisconsin", dataio.Options{}), wine} {
		parts := shards(d, 4)
		for _, kind := range []string{KindLDA, KindQDA} {
			for _, c := range []Config{{}, {Shrinkage: 0.2, Estimator: Unbiased}} {
				want := fitKind(t, kind, c, d)
				accs := make([]*Accumulator, len(parts))
				for s, p := range parts {
					accs[s] = newAcc(t, kind, c)
					if err := accs[s].Add(p); err != nil {
						t.Fatal(err)
					}
				}
				cfg := accs[0].cfg // defaults applied
				params, err := shardEStep(t, accs, nil).MStep()
				if err != nil {
					t.Fatal(err)
				}
				var last *EStats
				prev := math.Inf(-1)
				it := 1
				for ; ; it++ {
					last = shardEStep(t, accs, params)
					ll := last.LogLikelihood()
					if c.Shrinkage == 0 && ll < prev-1e-9*math.Abs(prev) {
						t.Errorf("%s %s: log-likelihood fell from %.17g to %.17g at iteration %d", d.Source, kind, prev, ll, it)
					}
					prev = ll
					next, err := last.MStep()
					if err != nil {
						t.Fatal(err)
					}
					done := it >= cfg.MaxIter || params.Converged(next, cfg.Tol)
					params = next
					if done {
						break
					}
				}
				if it != want.EMIterations() {
					t.Errorf("%s %s: %d iterations, Fit took %d", d.Source, kind, it, want.EMIterations())
				}
				got, err := last.Model()
				if err != nil {
					t.Fatal(err)
				}
				what := d.Source.Name + " " + kind
				sameFit(t, what+" driver", got.(gdaModel), want, d, 1e-8)
				// The log-likelihood at Fit's parameters and at the
				// driver's.
				merged := newAcc(t, kind, c)
				for _, a := range accs {
					if err := merged.Merge(a); err != nil {
						t.Fatal(err)
					}
				}
				wp := &EMParams{Classes: want.Classes(), Means: want.Means(), Covariances: covs(want)}
				wantLL, err := merged.EStep(wp)
				if err != nil {
					t.Fatal(err)
				}
				gotLL := shardEStep(t, accs, params).LogLikelihood()
				if w := wantLL.LogLikelihood(); !(math.Abs(gotLL-w) <= 1e-8*math.Abs(w)) {
					t.Errorf("%s: log-likelihood %.17g, Fit's %.17g", what, gotLL, w)
				}
			}
		}
	}
}

// TestEStepLogLikelihood checks the log-likelihood of the E-step against
// the model's own marginal densities: Σ_i w_i (log p(x_i,o, y_i) − log π_y_i).
// On iris the accumulator holds no row with missing cells.
func TestEStepLogLikelihood(t *testing.T) {
	for _, name := range []string{"breast_cancer_wisconsin", "iris"} {
		testEStepLogLikelihood(t, bundled.Load(t, name, dataio.Options{}))
	}
}

func testEStepLogLikelihood(t *testing.T, d *data.Dataset) {
	for _, kind := range []string{KindLDA, KindQDA} {
		m := fitKind(t, kind, Config{}, d)
		a := m.Accumulator().(*Accumulator)
		e, err := a.EStep(&EMParams{Classes: m.Classes(), Means: m.Means(), Covariances: covs(m)})
		if err != nil {
			t.Fatal(err)
		}
		K := len(m.Classes())
		joint := m.JointLogLikelihood(nil, d)
		prior := m.Priors()
		want := 0.0
		for i := range d.N {
			if y := d.Y[i]; y == y {
				want += joint[i*K+int(y)] - math.Log(prior[int(y)])
			}
		}
		if got := e.LogLikelihood(); math.Abs(got-want) > 1e-10*math.Abs(want) {
			t.Errorf("%s %s: log-likelihood %.17g, want %.17g", d.Source, kind, got, want)
		}
	}
}

// TestEStatsErrors: statistics of another configuration, or of the start
// with those of an iteration, do not merge; parameters without one of the
// shard's classes are an error.
func TestEStatsErrors(t *testing.T) {
	d := bundled.Load(t, "breast_cancer_wisconsin", dataio.Options{})
	a, b := newAcc(t, KindLDA, Config{}), newAcc(t, KindLDA, Config{Shrinkage: 0.1})
	for _, x := range []*Accumulator{a, b} {
		if err := x.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	ea, _ := a.EStep(nil)
	eb, _ := b.EStep(nil)
	var me *gendisc.MergeError
	if err := ea.Merge(eb); !errors.As(err, &me) {
		t.Errorf("merge of another configuration: %v", err)
	}
	p, err := ea.MStep()
	if err != nil {
		t.Fatal(err)
	}
	e1, err := a.EStep(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := ea.Merge(e1); !errors.As(err, &me) {
		t.Errorf("merge of the start and an iteration: %v", err)
	}
	if _, err := ea.Model(); err == nil {
		t.Error("a model of the start")
	}
	p.Classes = []string{"x", "y"}
	if _, err := a.EStep(p); err == nil {
		t.Error("parameters of other classes accepted")
	}
}
