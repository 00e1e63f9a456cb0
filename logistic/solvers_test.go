package logistic

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
)

// TestSolversAgree checks that every solver reaches Newton's optimum, to
// 1e-6 relative in the coefficients (gd and sgd on small data with a
// tight tolerance).
func TestSolversAgree(t *testing.T) {
	// First-order methods need O(condition number) iterations: gd and sgd
	// run on the well-conditioned cases only.
	cases := []struct {
		dataset string
		cfg     Config
		solvers []Solver
	}{
		{"pima_indians_diabetes", Config{}, []Solver{LBFGS, GD, SGD}},
		{"iris", Config{L2: 0.5}, []Solver{LBFGS, GD, SGD}},
		{"wine", Config{ClassWeight: Balanced}, []Solver{LBFGS}},
		{"sonar", Config{L2: 0.1}, []Solver{LBFGS}},
	}
	for _, tc := range cases {
		d := bundled.Load(t, tc.dataset, dataio.Options{})
		ref := tc.cfg
		ref.Solver, ref.Tol = Newton, 1e-12
		want := fit(t, ref, d)
		for _, s := range tc.solvers {
			t.Run(tc.dataset+"/"+string(s), func(t *testing.T) {
				cfg := tc.cfg
				cfg.Solver, cfg.Tol = s, 1e-10
				cfg.Rand = rand.New(rand.NewPCG(7, 7))
				got := fit(t, cfg, d)
				diag := got.Diagnostics()
				t.Logf("%+v", diag)
				if !diag.Converged {
					t.Errorf("not converged: %s", diag.Warning)
				}
				compareCoefficients(t, got, want, 1e-6)
			})
		}
	}
}

func fit(t testing.TB, cfg Config, d *data.Dataset) *Model {
	t.Helper()
	m, err := cfg.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// compareCoefficients checks the standardised coefficients of got against
// want, relative to the largest of want.
func compareCoefficients(t *testing.T, got, want *Model, tol float64) {
	t.Helper()
	gw, gb := got.Coefficients()
	ww, wb := want.Coefficients()
	scale := 0.0
	for c := range ww {
		scale = max(scale, maxAbs(ww[c]), math.Abs(wb[c]))
	}
	for c := range ww {
		for j := range ww[c] {
			if !closeRel(gw[c][j], ww[c][j], tol, scale) {
				t.Errorf("w[%d][%d] = %.10g, want %.10g", c, j, gw[c][j], ww[c][j])
			}
		}
		if !closeRel(gb[c], wb[c], tol, scale) {
			t.Errorf("b[%d] = %.10g, want %.10g", c, gb[c], wb[c])
		}
	}
}
