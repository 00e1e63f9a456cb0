//go:build goexperiment.simd && amd64

package gda

import (
	"math"
	"math/rand/v2"
	"testing"

	"simd/archsimd"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/bundled"
)

// TestGroupSolver compares the AVX-512 distances with the Trsm path, for
// groups of 32 rows and a partial last group, an even and an odd number of
// features.
func TestGroupSolver(t *testing.T) {
	if !archsimd.X86.AVX512() {
		t.Skip("no AVX-512")
	}
	for _, name := range []string{"sonar", "wine"} {
		checkGroupSolver(t, bundled.Load(t, name, data.Options{}))
	}
}

func checkGroupSolver(t *testing.T, d *data.Dataset) {
	m, err := QDAConfig{}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	c := m.m.comps[1]
	if c.gs == nil {
		t.Fatal("no group solver with AVX-512")
	}
	p, rows := d.D(), 77 // sonar 208 rows, wine 178
	rng := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, rows*p)
	for i := range x {
		x[i] = d.X[i] + 0.01*rng.NormFloat64()
	}
	q := make([]float64, rows)
	c.gs.distances(q, make([]float64, group*p), x, rows, c.centre)
	z := make([]float64, rows*p)
	for i := range z {
		z[i] = x[i] - c.centre[i%p]
	}
	c.f.solveRows(z, rows)
	for r := range rows {
		want := sumSq(z[r*p : (r+1)*p])
		if math.Abs(q[r]-want) > 1e-12*want {
			t.Fatalf("row %d: %v, Trsm %v", r, q[r], want)
		}
	}
}
