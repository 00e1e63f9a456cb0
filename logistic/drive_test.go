package logistic_test

import (
	"errors"
	"math"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/logistic"
)

// TestSolve checks that Solve, evaluating the objective by passes over
// three shards (each shard's pass encoded and decoded), reaches Fit's
// optimum on all the rows: coefficients and objective within 1e-8
// relative, the same solver and verdict, and for Newton the same number
// of iterations.
func TestSolve(t *testing.T) {
	cases := []struct {
		name string
		d    *data.Dataset
		cfg  logistic.Config
	}{
		{"iris auto", readBundled("iris"), logistic.Config{}},
		{"iris lbfgs", readBundled("iris"), logistic.Config{Solver: logistic.LBFGS, Tol: 1e-10}},
		{"wine bins lbfgs", withBins(readBundled("wine"), 0), logistic.Config{Solver: logistic.LBFGS, L2: 0.5, Tol: 1e-10}},
		{"wine bins newton balanced", withBins(readBundled("wine"), 0), logistic.Config{Solver: logistic.Newton, ClassWeight: logistic.Balanced}},
		{"pima newton", readBundled("pima_indians_diabetes"), logistic.Config{Solver: logistic.Newton, L2: 0.1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, err := c.cfg.Fit(c.d)
			if err != nil {
				t.Fatal(err)
			}
			shards := threeShards(c.d)
			p := setUp(t, c.cfg, shards)
			calls := 0
			got, err := c.cfg.Solve(p, func(theta []float64, hessian bool) (*logistic.Pass, error) {
				calls++
				return pass(t, p, shards, theta, hessian), nil
			})
			if err != nil {
				t.Fatal(err)
			}
			gd, wd := got.Diagnostics(), want.Diagnostics()
			if gd.Solver != wd.Solver || gd.Converged != wd.Converged || !gd.Converged || gd.Evaluations != calls {
				t.Errorf("diagnostics %+v (%d passes), want %+v", gd, calls, wd)
			}
			if wd.Solver == logistic.Newton && gd.Iterations != wd.Iterations {
				t.Errorf("%d Newton iterations, Fit's %d", gd.Iterations, wd.Iterations)
			}
			if !closeRel(gd.Objective, wd.Objective, 1e-8) || !closeRel(gd.LogLikelihood, wd.LogLikelihood, 1e-8) {
				t.Errorf("objective %v, log-likelihood %v; Fit's %v, %v", gd.Objective, gd.LogLikelihood, wd.Objective, wd.LogLikelihood)
			}
			gw, gb := got.Coefficients()
			ww, wb := want.Coefficients()
			scale := 0.0
			for c := range ww {
				for _, v := range append(ww[c], wb[c]) {
					scale = max(scale, math.Abs(v))
				}
			}
			for c := range ww {
				for j := range ww[c] {
					if math.Abs(gw[c][j]-ww[c][j]) > 1e-8*scale {
						t.Errorf("w[%d][%d] = %v, Fit's %v", c, j, gw[c][j], ww[c][j])
					}
				}
				if math.Abs(gb[c]-wb[c]) > 1e-8*scale {
					t.Errorf("b[%d] = %v, Fit's %v", c, gb[c], wb[c])
				}
			}
		})
	}
}

func closeRel(a, b, rel float64) bool { return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b)) }

// TestSolveSeparable checks that Solve stops an unpenalised fit of
// separable data as Fit does, with the warning.
func TestSolveSeparable(t *testing.T) {
	d := readBundled("iris")
	var rows []int
	for i := range d.N {
		if d.Y[i] != 2 {
			rows = append(rows, i)
		}
	}
	d = d.Subset(rows) // setosa and versicolor: separable
	d.Schema = d.Schema.Clone()
	d.Schema.Target.Levels = d.Schema.Target.Levels[:2]
	cfg := logistic.Config{NoPenalty: true}
	want, err := cfg.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	shards := threeShards(d)
	p := setUp(t, cfg, shards)
	got, err := cfg.Solve(p, func(theta []float64, hessian bool) (*logistic.Pass, error) {
		return pass(t, p, shards, theta, hessian), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	gd, wd := got.Diagnostics(), want.Diagnostics()
	if !wd.Separable || gd.Separable != wd.Separable || gd.Converged || gd.Warning == "" {
		t.Errorf("diagnostics %+v, want %+v", gd, wd)
	}
}

// TestSolveErrors checks that Solve returns the error of a pass, refuses
// the solvers that need the rows and a configuration other than the
// setup's.
func TestSolveErrors(t *testing.T) {
	d := readBundled("iris")
	shards := threeShards(d)
	cfg := logistic.Config{}
	p := setUp(t, cfg, shards)
	failed := errors.New("shard 2 is gone")
	n := 0
	_, err := cfg.Solve(p, func(theta []float64, hessian bool) (*logistic.Pass, error) {
		if n++; n == 3 {
			return nil, failed
		}
		return pass(t, p, shards, theta, hessian), nil
	})
	if !errors.Is(err, failed) {
		t.Errorf("error %v, want the pass's", err)
	}
	if _, err := (logistic.Config{Solver: logistic.SGD}).Solve(p, nil); err == nil {
		t.Error("Solve with sgd: no error")
	}
	var ce *gendisc.MergeError
	if _, err := (logistic.Config{L2: 3}).Solve(p, nil); !errors.As(err, &ce) {
		t.Errorf("Solve with another λ: %v, want a *gendisc.MergeError", err)
	}
	_, err = cfg.Solve(p, func(theta []float64, hessian bool) (*logistic.Pass, error) {
		return p.NewPass(make([]float64, len(theta)), hessian), nil
	})
	if err == nil {
		t.Error("a pass at another θ: no error")
	}
}
