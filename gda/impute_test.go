package gda

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
)

// condMean returns μ_m + Σ_mo Σ_oo⁻¹ (x_o − μ_o) for the missing cells m
// of x, by a dense solve.
func condMean(mu, cov, x []float64) map[int]float64 {
	p := len(mu)
	var obs, mis []int
	for j, v := range x {
		if v == v {
			obs = append(obs, j)
		} else {
			mis = append(mis, j)
		}
	}
	soo := mat.NewDense(len(obs), len(obs), nil)
	r := mat.NewVecDense(len(obs), nil)
	for a, j := range obs {
		r.SetVec(a, x[j]-mu[j])
		for b, l := range obs {
			soo.Set(a, b, cov[j*p+l])
		}
	}
	var sol mat.VecDense
	if err := sol.SolveVec(soo, r); err != nil {
		panic(err)
	}
	out := map[int]float64{}
	for _, j := range mis {
		v := mu[j]
		for a, l := range obs {
			v += cov[j*p+l] * sol.AtVec(a)
		}
		out[j] = v
	}
	return out
}

func TestImpute(t *testing.T) {
	d := bundled.Load(t, "wine", dataio.Options{})
	lda, err := LDAConfig{}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	qda, err := QDAConfig{}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	miss := d.Subset([]int{3, 70, 150})
	p := d.D()
	miss.X[0*p+2], miss.X[0*p+9] = math.NaN(), math.NaN()
	miss.X[1*p+0] = math.NaN()
	for _, tc := range []struct {
		name   string
		impute func([]float64, *data.Dataset) []float64
		means  [][]float64
		cov    func(k int) []float64
		proba  []float64
	}{
		{"lda", lda.Impute, lda.Means(), func(int) []float64 { return lda.Covariance() }, proba(lda, miss)},
		{"qda", qda.Impute, qda.Means(), func(k int) []float64 { return qda.Covariances()[k] }, proba(qda, miss)},
	} {
		// With labels: the class's conditional mean.
		got := tc.impute(nil, miss)
		for i := range miss.N {
			k := int(miss.Y[i])
			for j, want := range condMean(tc.means[k], tc.cov(k), miss.Row(i)) {
				near(t, tc.name+" labelled", got[i*p+j:i*p+j+1], []float64{want}, 1e-12*math.Abs(want))
			}
			for j, v := range miss.Row(i) {
				if v == v && got[i*p+j] != v {
					t.Fatalf("%s: observed cell %d of row %d changed", tc.name, j, i)
				}
			}
		}
		// Without labels: the mixture by the posterior given x_o.
		nolabel := miss.Subset([]int{0, 1, 2})
		nolabel.Y = nil
		got = tc.impute(nil, nolabel)
		for i := range miss.N {
			want := map[int]float64{}
			for k := range 3 {
				for j, v := range condMean(tc.means[k], tc.cov(k), miss.Row(i)) {
					want[j] += tc.proba[i*3+k] * v
				}
			}
			for j, w := range want {
				near(t, tc.name+" unlabelled", got[i*p+j:i*p+j+1], []float64{w}, 1e-12*math.Abs(w))
			}
		}
	}
}
