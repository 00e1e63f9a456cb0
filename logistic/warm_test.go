package logistic

import (
	"math"
	"testing"

	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
)

// TestFitFrom checks the warm start: from the model of all the rows, the
// fit of most of them (a cross-validation fold's training part) reaches
// the cold fit's optimum (objective to 1e-9 relative, probabilities to
// 1e-5) in fewer iterations, with Newton and with L-BFGS; from a model of
// other classes it is the cold fit, bit for bit.
func TestFitFrom(t *testing.T) {
	iris := bundled.Load(t, "iris", dataio.Options{})
	var rows []int
	for i := range iris.N {
		if i%10 != 3 {
			rows = append(rows, i)
		}
	}
	part := iris.Subset(rows)
	for _, solver := range []Solver{Newton, LBFGS} {
		cfg := Config{Solver: solver, Tol: 1e-8}
		full, err := cfg.Fit(iris)
		if err != nil {
			t.Fatal(err)
		}
		cold, err := cfg.Fit(part)
		if err != nil {
			t.Fatal(err)
		}
		warm, err := cfg.FitFrom(part, full)
		if err != nil {
			t.Fatal(err)
		}
		dc, dw := cold.Diagnostics(), warm.Diagnostics()
		t.Logf("%v: %d iterations warm, %d cold", solver, dw.Iterations, dc.Iterations)
		if math.Abs(dw.Objective-dc.Objective) > 1e-9*math.Abs(dc.Objective) || dw.Iterations >= dc.Iterations {
			t.Errorf("%v: warm objective %v in %d iterations, cold %v in %d", solver, dw.Objective, dw.Iterations, dc.Objective, dc.Iterations)
		}
		pc, pw := cold.LogProba(nil, part), warm.LogProba(nil, part)
		for i := range pc {
			if math.Abs(math.Exp(pc[i])-math.Exp(pw[i])) > 1e-5 {
				t.Fatalf("%v: probability %d: warm %v, cold %v", solver, i, math.Exp(pw[i]), math.Exp(pc[i]))
			}
		}
	}
	// Two classes: parameters of another shape, so a cold start.
	var two []int
	for i, y := range iris.Y {
		if y < 2 {
			two = append(two, i)
		}
	}
	sub := iris.Subset(two)
	sub.Schema = sub.Schema.Clone()
	sub.Schema.Target.Levels = sub.Schema.Target.Levels[:2]
	cfg := Config{}
	other, err := cfg.Fit(sub)
	if err != nil {
		t.Fatal(err)
	}
	cold, _ := cfg.Fit(part)
	warm, err := cfg.FitFrom(part, other)
	if err != nil {
		t.Fatal(err)
	}
	if cold.Diagnostics() != warm.Diagnostics() {
		t.Errorf("from a model of two classes: %+v, cold %+v", warm.Diagnostics(), cold.Diagnostics())
	}
}

// TestFitFromPath checks the warm start along a regularisation path with
// Newton: from the fit of the same rows at the neighbouring larger λ
// (whose last Hessian takes the first step, and whose last evaluation
// and design serve the same data set), the fit of each λ reaches the
// cold fit's optimum (objective to 1e-9 relative) in no more iterations,
// with a pass over the rows per iteration and none to start; the models
// of Newton keep a Hessian for the next. Of a copy of the rows, the warm
// fit evaluates its start itself, to the same optimum.
func TestFitFromPath(t *testing.T) {
	pima := bundled.Load(t, "pima_indians_diabetes", dataio.Options{})
	var from *Model
	for _, l2 := range []float64{1000, 100, 10, 1, 0.1} {
		cfg := Config{Solver: Newton, L2: l2, Tol: 1e-8}
		cold, err := cfg.Fit(pima)
		if err != nil {
			t.Fatal(err)
		}
		if len(cold.hessian) != 9*9 {
			t.Fatalf("l2 %g: a Newton fit keeps a Hessian of %d values, want 81", l2, len(cold.hessian))
		}
		if from == nil {
			from = cold
			continue
		}
		warm, err := cfg.FitFrom(pima, from)
		if err != nil {
			t.Fatal(err)
		}
		dc, dw := cold.Diagnostics(), warm.Diagnostics()
		t.Logf("l2 %g: %d iterations warm, %d cold", l2, dw.Iterations, dc.Iterations)
		if math.Abs(dw.Objective-dc.Objective) > 1e-9*math.Abs(dc.Objective) || dw.Iterations > dc.Iterations || !dw.Converged {
			t.Errorf("l2 %g: warm objective %v in %d iterations, cold %v in %d", l2, dw.Objective, dw.Iterations, dc.Objective, dc.Iterations)
		}
		if dw.Evaluations != dw.Iterations {
			t.Errorf("l2 %g: %d evaluations for %d iterations from the fit of the same rows", l2, dw.Evaluations, dw.Iterations)
		}
		copied := *pima // the same rows, another data set
		other, err := cfg.FitFrom(&copied, from)
		if err != nil {
			t.Fatal(err)
		}
		do := other.Diagnostics()
		if do.Evaluations != do.Iterations+1 || math.Abs(do.Objective-dc.Objective) > 1e-9*math.Abs(dc.Objective) {
			t.Errorf("l2 %g: from the fit of other rows: %d evaluations for %d iterations, objective %v, cold %v", l2, do.Evaluations, do.Iterations, do.Objective, dc.Objective)
		}
		// A fit keeps the rows' targets only along a path: from the
		// second fit of the same rows on, every fit shares one copy.
		switch {
		case cold.last.y != nil:
			t.Errorf("l2 %g: a model of Fit keeps its rows' classes", l2)
		case warm.last.y == nil || len(warm.last.v) != pima.N:
			t.Errorf("l2 %g: a model of FitFrom does not keep its rows' classes and weights", l2)
		case from.last.y != nil && &from.last.v[0] != &warm.last.v[0]:
			t.Errorf("l2 %g: the row weights of a path are copied from fit to fit", l2)
		}
		from = warm
	}
}
