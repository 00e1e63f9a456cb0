package gda

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/internal/kernel"
)

// TestLaneSolver compares the lane solver's distances with a Trsm solve,
// with the kernel in use and the portable one forced, for full groups of
// rows and a partial last group, an even and an odd number of features,
// the offsets of LDA's classes and QDA's zero.
func TestLaneSolver(t *testing.T) {
	inUse := kernel.SolveLanes
	defer func() { kernel.SolveLanes = inUse }()
	for _, k := range []func(*kernel.Tri, []float64, []float64, []float64, int, []float64, int){inUse, kernel.SolveLanesGo} {
		kernel.SolveLanes = k
		for _, name := range []string{"sonar", "wine"} {
			checkSolver(t, bundled.Load(t, name, data.Options{}))
		}
	}
}

// checkSolver checks the distances of the lane solvers of the components
// of an LDA and a QDA fitted to d against a Trsm solve, on 77 rows of d
// with a little noise.
func checkSolver(t *testing.T, d *data.Dataset) {
	t.Helper()
	lda, err := LDAConfig{}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	qda, err := QDAConfig{}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	p, rows := d.D(), 77 // sonar 208 rows, wine 178
	rng := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, rows*p)
	for i := range x {
		x[i] = d.X[i] + 0.01*rng.NormFloat64()
	}
	for _, c := range []component{lda.m.comps[0], qda.m.comps[1]} {
		q := make([]float64, rows*len(c.nu))
		xt := make([]float64, chunkRows*p)
		transposeRows(xt, x, p)
		newLaneSolver(c.f, c.nu).distances(q, make([]float64, lanes*p), xt, p, rows, c.centre)
		z := make([]float64, rows*p)
		for i := range z {
			z[i] = x[i] - c.centre[i%p]
		}
		trsmRows(c.f, z, rows)
		for a, nu := range c.nu {
			for r := range rows {
				want := 0.0
				for j, v := range z[r*p : (r+1)*p] {
					want += (v - nu[j]) * (v - nu[j])
				}
				if got := q[a*rows+r]; math.Abs(got-want) > 1e-12*want {
					t.Fatalf("%d classes, offset %d, row %d: %v, Trsm %v", len(c.nu), a, r, got, want)
				}
			}
		}
	}
}

// trsmRows replaces each row x of the rows×p matrix z (stride p) by
// U⁻ᵀx with BLAS Trsm (Z ← Z·U⁻¹).
func trsmRows(f *factor, z []float64, rows int) {
	p := f.u.N
	blas64.Trsm(blas.Right, blas.NoTrans, 1, f.u, blas64.General{Rows: rows, Cols: p, Stride: p, Data: z})
}
