package logistic

import (
	"testing"

	"github.com/gendisc/gendisc/internal/design"
	"github.com/gendisc/gendisc/internal/parallel"
)

// TestEvalAllocations: an evaluation allocates nothing per row; the only
// allocations are parallel.For's goroutines, a constant per call.
func TestEvalAllocations(t *testing.T) {
	d := load(t, "optdigits") // 5620 rows, 10 classes
	enc, err := design.Fit(d, design.Options{})
	if err != nil {
		t.Fatal(err)
	}
	z := enc.Encode(d)
	y, tot, err := classes(d)
	if err != nil {
		t.Fatal(err)
	}
	pr := newProblem(z.Dense, z.N, z.P, len(tot), y, rowWeights(d, y, tot, Unweighted), 1)
	theta := initialTheta(pr)
	g := make([]float64, len(theta))
	allocs := testing.AllocsPerRun(5, func() { pr.eval(theta, g) })
	if max := 3 * parallel.Workers(); allocs > float64(max) {
		t.Errorf("%v allocations per evaluation, want at most %d", allocs, max)
	}
}
