package gda

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
)

// TestSample draws from a fitted QDA and LDA: the class frequencies, the
// class means and covariances of the draws must match the model within
// sampling error.
func TestSample(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
	q, err := QDAConfig{ClassPrior: map[string]float64{"Iris-setosa": 0.2, "Iris-versicolor": 0.3, "Iris-virginica": 0.5}}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	l, err := LDAConfig{}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	const n = 40000
	for _, tc := range []struct {
		name   string
		sample func([]float64, *rand.Rand) ([]float64, int)
		priors []float64
		means  [][]float64
		cov    func(k int) []float64
	}{
		{"qda", q.Sample, q.Priors(), q.Means(), func(k int) []float64 { return q.Covariances()[k] }},
		{"lda", l.Sample, l.Priors(), l.Means(), func(int) []float64 { return l.Covariance() }},
	} {
		rng := rand.New(rand.NewPCG(5, 5))
		p := 4
		count := make([]float64, 3)
		sum := make([][]float64, 3)
		sq := make([][]float64, 3)
		for k := range sum {
			sum[k], sq[k] = make([]float64, p), make([]float64, p*p)
		}
		x := make([]float64, p)
		for range n {
			_, k := tc.sample(x, rng)
			count[k]++
			for j := range p {
				sum[k][j] += x[j]
				for l := range p {
					sq[k][j*p+l] += (x[j] - tc.means[k][j]) * (x[l] - tc.means[k][l])
				}
			}
		}
		for k := range 3 {
			pk := tc.priors[k]
			if se := math.Sqrt(pk * (1 - pk) / n); math.Abs(count[k]/n-pk) > 5*se {
				t.Errorf("%s: class %d drawn %.4f of the time, prior %.4f", tc.name, k, count[k]/n, pk)
			}
			cov := tc.cov(k)
			for j := range p {
				se := math.Sqrt(cov[j*p+j] / count[k])
				if got := sum[k][j] / count[k]; math.Abs(got-tc.means[k][j]) > 5*se {
					t.Errorf("%s: class %d feature %d: sample mean %.4f, μ %.4f", tc.name, k, j, got, tc.means[k][j])
				}
				for l := range p {
					se := math.Sqrt((cov[j*p+j]*cov[l*p+l] + cov[j*p+l]*cov[j*p+l]) / count[k])
					if got := sq[k][j*p+l] / count[k]; math.Abs(got-cov[j*p+l]) > 5*se {
						t.Errorf("%s: class %d: sample covariance (%d, %d) %.4f, Σ %.4f", tc.name, k, j, l, got, cov[j*p+l])
					}
				}
			}
		}
	}
	if got := q.SampleClass(nil, 2, rand.New(rand.NewPCG(1, 1))); len(got) != 4 {
		t.Errorf("SampleClass gave %d values", len(got))
	}
}
