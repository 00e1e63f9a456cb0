package synth

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/mixture"
)

// TestConditionalGaussian checks the imputation of two missing cells of a
// labelled row under one Gaussian per class (lda, qda, and mixtures of
// one component) against the Schur complement computed here,
//
//	E[x_m | x_o] = μ_m + Σ_mo Σ_oo⁻¹ (x_o − μ_o),  C = Σ_mm − Σ_mo Σ_oo⁻¹ Σ_om:
//
// Impute gives the mean to 1e-12, and 20,000 draws of ImputeRand have
// their means, variances and covariance within 4 standard errors of it.
func TestConditionalGaussian(t *testing.T) {
	iris := bundled.Load(t, "iris", dataio.Options{})
	noTarget := *iris
	noTarget.Schema = iris.Schema.Clone()
	noTarget.Schema.Target, noTarget.Y = nil, nil
	mis, obs := []int{1, 3}, []int{0, 2}
	for _, tc := range []struct {
		name string
		fit  func() (gendisc.Model, error)
		// gauss returns the mean and covariance of class 0 (or of the
		// mixture's one component).
		gauss func(m gendisc.Model) ([]float64, []float64)
	}{
		{"lda", func() (gendisc.Model, error) { return gda.LDAConfig{}.Fit(iris) },
			func(m gendisc.Model) ([]float64, []float64) {
				return m.(*gda.LDA).Means()[0], m.(*gda.LDA).Covariance()
			}},
		{"qda", func() (gendisc.Model, error) { return gda.QDAConfig{}.Fit(iris) },
			func(m gendisc.Model) ([]float64, []float64) {
				return m.(*gda.QDA).Means()[0], m.(*gda.QDA).Covariances()[0]
			}},
		{"gmm", func() (gendisc.Model, error) { return mixture.Config{Components: 1}.Fit(&noTarget, seeded(1)) },
			func(m gendisc.Model) ([]float64, []float64) {
				return m.(*mixture.GMM).Means(), m.(*mixture.GMM).Covariances()
			}},
		{"mda", func() (gendisc.Model, error) {
			return mixture.MDAConfig{ComponentsPerClass: 1}.Fit(iris, seeded(1))
		},
			func(m gendisc.Model) ([]float64, []float64) {
				g := m.(*mixture.MDA).Mixture(0)
				return g.Means(), g.Covariances()
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := tc.fit()
			if err != nil {
				t.Fatal(err)
			}
			mu, cov := tc.gauss(m)
			sigma := mat.NewSymDense(4, cov)
			x := iris.Row(0)
			// The Schur complement, by gonum.
			sub := func(r, c []int) *mat.Dense {
				out := mat.NewDense(len(r), len(c), nil)
				for a, i := range r {
					for b, j := range c {
						out.Set(a, b, sigma.At(i, j))
					}
				}
				return out
			}
			soo, smo, smm := sub(obs, obs), sub(mis, obs), sub(mis, mis)
			var a mat.Dense // (Σ_mo Σ_oo⁻¹)ᵀ = Σ_oo⁻¹ Σ_om
			if err := a.Solve(soo, smo.T()); err != nil {
				t.Fatal(err)
			}
			co := mat.NewVecDense(2, []float64{x[obs[0]] - mu[obs[0]], x[obs[1]] - mu[obs[1]]})
			var e mat.VecDense
			e.MulVec(a.T(), co)
			var c mat.Dense
			c.Mul(a.T(), smo.T())
			c.Sub(smm, &c)
			want := []float64{mu[mis[0]] + e.AtVec(0), mu[mis[1]] + e.AtVec(1)}

			const n = 20000
			d := &data.Dataset{Schema: m.Schema(), N: n, X: make([]float64, 4*n)}
			if m.Schema().Target != nil {
				d.Y = make([]float64, n) // class 0
			}
			for i := range n {
				copy(d.Row(i), x)
				d.Row(i)[mis[0]], d.Row(i)[mis[1]] = math.NaN(), math.NaN()
			}
			got := m.(gendisc.Imputer).Impute(nil, d.Subset([]int{0}))
			for b, j := range mis {
				if math.Abs(got[j]-want[b]) > 1e-12*math.Abs(want[b]) {
					t.Errorf("Impute: cell %d = %.17g, Schur complement %.17g", j, got[j], want[b])
				}
			}
			draws := m.(gendisc.RandImputer).ImputeRand(nil, d, seeded(11))
			var s [2]float64
			var ss [2][2]float64
			for i := range n {
				r := draws[i*4 : (i+1)*4]
				for b, j := range mis {
					e := r[j] - want[b]
					s[b] += e
					for b2, j2 := range mis {
						ss[b][b2] += e * (r[j2] - want[b2])
					}
				}
			}
			for b := range 2 {
				if !within(s[b]/n, 0, math.Sqrt(c.At(b, b)/n)) {
					t.Errorf("draws of cell %d: mean %g, want %g", mis[b], want[b]+s[b]/n, want[b])
				}
				for b2 := range 2 {
					v := c.At(b, b2)
					se := math.Sqrt((c.At(b, b)*c.At(b2, b2) + v*v) / n)
					if !within(ss[b][b2]/n, v, se) {
						t.Errorf("draws: covariance (%d, %d) = %g, Schur complement %g ± %g", b, b2, ss[b][b2]/n, v, se)
					}
				}
			}
		})
	}
}
