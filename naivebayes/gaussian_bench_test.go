package naivebayes

import (
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"

	"github.com/gendisc/gendisc/data"
)

// benchData is the benchmark data set: 1,000,000 rows of 50 features, 10
// classes with shifted Gaussian features, from a fixed seed. It is made
// once per test binary.
var benchData = sync.OnceValue(func() *data.Dataset {
	const n, D, K = 1_000_000, 50, 10
	r := rand.New(rand.NewPCG(2001, 1))
	classes := make([]string, K)
	for k := range classes {
		classes[k] = "c" + strconv.Itoa(k)
	}
	d := &data.Dataset{Schema: &data.Schema{Target: &data.Column{Name: "class", Kind: data.Categorical, Levels: classes}},
		N: n, X: make([]float64, n*D), Y: make([]float64, n)}
	for j := range D {
		d.Schema.Features = append(d.Schema.Features, data.Column{Name: "x" + strconv.Itoa(j), Kind: data.Numeric})
	}
	for i := range n {
		k := r.IntN(K)
		d.Y[i] = float64(k)
		for j := range D {
			d.X[i*D+j] = float64((k*7+j)%K)*0.3 + r.NormFloat64()
		}
	}
	return d
})

func BenchmarkGaussianFit(b *testing.B) {
	d := benchData()
	b.SetBytes(int64(len(d.X) * 8))
	for b.Loop() {
		if _, err := (GaussianConfig{}).Fit(d); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGaussianLogProba(b *testing.B) { benchPredict(b, (*Gaussian).LogProba) }

func BenchmarkGaussianProba(b *testing.B) { benchPredict(b, (*Gaussian).Proba) }

// benchPredict times predict (LogProba or Proba) on the benchmark data
// into a destination allocated once.
func benchPredict(b *testing.B, predict func(m *Gaussian, dst []float64, d *data.Dataset) []float64) {
	d := benchData()
	m, err := GaussianConfig{}.Fit(d)
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]float64, d.N*len(m.Classes()))
	b.SetBytes(int64(len(d.X) * 8))
	for b.Loop() {
		predict(m, dst, d)
	}
}
