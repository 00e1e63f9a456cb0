package gauss

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// patterns calls fn with every observed set of p dimensions but the empty
// and the full one.
func patterns(p int, fn func(obs []int)) {
	for mask := 1; mask < 1<<p-1; mask++ {
		var obs []int
		for j := range p {
			if mask&(1<<j) != 0 {
				obs = append(obs, j)
			}
		}
		fn(obs)
	}
}

// TestComputeFromSigma: for a well-conditioned Σ the Pattern computed from
// Σ_oo (the fallback) equals the one computed from the precision, to
// 1e-10.
func TestComputeFromSigma(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const p = 5
	b := make([]float64, p*p)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	sigma := make([]float64, p*p)
	for i := range p {
		for j := range p {
			for k := range p {
				sigma[i*p+j] += b[i*p+k] * b[j*p+k]
			}
		}
		sigma[i*p+i] += 1
	}
	c, err := New(sigma, p, 0)
	if err != nil {
		t.Fatal(err)
	}
	patterns(p, func(obs []int) {
		want, got := &Pattern{}, &Pattern{}
		if err := c.PatternTo(want, obs); err != nil {
			t.Fatal(err)
		}
		if err := c.PatternTo(got, obs); err != nil {
			t.Fatal(err)
		}
		if err := got.computeFromSigma(false); err != nil {
			t.Fatal(err)
		}
		for _, pair := range [][2][]float64{{got.a, want.a}, {got.c, want.c}, {got.cvar, want.cvar}, {{got.logDetO}, {want.logDetO}}} {
			for i := range pair[1] {
				if math.Abs(pair[0][i]-pair[1][i]) > 1e-10*(1+math.Abs(pair[1][i])) {
					t.Fatalf("obs %v: %v from Σ_oo, %v from Λ", obs, pair[0], pair[1])
				}
			}
		}
	})
}

// TestNearlySingular: for a Σ of tiny, nearly collinear dimensions, whose
// precision has blocks Λ_mm that overflow or do not factor (checked), every pattern
// is computed (from Σ_oo) with a finite marginal log-density, and draws
// given the observed cells are finite: the rows of a model file with
// such a covariance no longer reach the panics of the families' guards.
func TestNearlySingular(t *testing.T) {
	const p = 4
	// Dimensions 0 and 1 correlate to 1 − 1e-10 with variances of 1e-300,
	// so that the precision's entries (about 1e308) overflow; 2 and 3
	// are apart.
	const v, r = 1e-300, 1 - 1e-10
	sigma := []float64{
		v, r * v, 0, 0,
		r * v, v, 0, 0,
		0, 0, 1, 0.5,
		0, 0, 0.5, 1,
	}
	c, err := New(sigma, p, 0)
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	patterns(p, func(obs []int) {
		var mis []int
		for j := range p {
			if !contains(obs, j) {
				mis = append(mis, j)
			}
		}
		lmm := make([]float64, len(mis)*len(mis))
		for a, i := range mis {
			for b, j := range mis {
				lmm[a*len(mis)+b] = c.prec[i*p+j]
			}
		}
		finite := true
		for _, v := range lmm {
			finite = finite && !math.IsInf(v, 0) && !math.IsNaN(v)
		}
		if _, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Lower, N: len(mis), Stride: len(mis), Data: lmm}); !ok || !finite {
			failed++
		}
	})
	if failed == 0 {
		t.Fatal("every block Λ_mm is finite and factors: the test does not reach the fallback")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	mu := []float64{1, 2, 3, 4}
	patterns(p, func(obs []int) {
		x := []float64{math.NaN(), math.NaN(), math.NaN(), math.NaN()}
		for _, j := range obs {
			x[j] = float64(j) + 0.5
		}
		pat, err := c.PatternOf(x)
		if err != nil {
			t.Fatalf("obs %v: %v", obs, err)
		}
		if lp := pat.LogPdf(x, mu, nil); math.IsNaN(lp) || math.IsInf(lp, 0) {
			t.Errorf("obs %v: log-density %v", obs, lp)
		}
		dst := make([]float64, p)
		pat.CondRand(dst, x, mu, rng)
		for _, v := range dst {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("obs %v: draw %v", obs, dst)
			}
		}
	})
}

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
