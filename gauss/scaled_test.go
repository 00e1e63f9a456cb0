package gauss

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gendisc/gendisc/internal/mathx"
)

// TestLogPdfScaled checks that the Value of LogPdfScaled is LogPdf (to
// 1e-9 relative) on rows of every pattern of missing cells, ordinary ones
// and with a cell of 1e6 (which the split scales), under a full and a
// diagonal covariance matrix; and that far out (1e300) it is −Inf, its
// quadratic part −½‖L⁻¹x̃‖² of the scaled cells alone.
func TestLogPdfScaled(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const p = 4
	sigma, mu := randomCov(p, rng)
	full, err := New(sigma, p, 0)
	if err != nil {
		t.Fatal(err)
	}
	v := make([]float64, p)
	for j := range v {
		v[j] = sigma[j*p+j]
	}
	diag, err := NewDiag(v)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*Cov{full, diag} {
		for mask := range 1 << p {
			for _, far := range []float64{0, 1e6} {
				x := make([]float64, p)
				for j := range x {
					x[j] = mu[j] + rng.NormFloat64()
					if mask&(1<<j) != 0 {
						x[j] = math.NaN()
					}
				}
				if far != 0 {
					x[1] = far
				}
				pat, err := c.PatternOf(x)
				if err != nil {
					t.Fatal(err)
				}
				s := mathx.RowScale(x)
				got, want := pat.LogPdfScaled(x, mu, s, nil).Value(s.C), pat.LogPdf(x, mu, nil)
				if math.Abs(got-want) > 1e-9*max(1, math.Abs(want)) {
					t.Errorf("diagonal %v, mask %b, x %v: %v, want %v", c.Diagonal(), mask, x, got, want)
				}
			}
		}
		x := []float64{1e300, 1, 2, 3}
		s := mathx.RowScale(x)
		pat, _ := c.PatternOf(x)
		ls := pat.LogPdfScaled(x, mu, s, nil)
		u := []float64{1, 0, 0, 0}
		if !c.Diagonal() {
			c.whiten(u)
		} else {
			u[0] *= c.LInv()[0]
		}
		if want := -0.5 * (u[0]*u[0] + u[1]*u[1] + u[2]*u[2] + u[3]*u[3]); math.Abs(ls.Quad-want) > 1e-15*math.Abs(want) || !math.IsInf(ls.Value(s.C), -1) {
			t.Errorf("diagonal %v far out: %+v, want Quad %v and Value -Inf", c.Diagonal(), ls, want)
		}
	}
}
