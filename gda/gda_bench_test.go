package gda

import (
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"

	"github.com/gendisc/gendisc/data"
)

// The benchmarks run on the synthetic shape: 500,000 rows, 100
// features, 5 classes (50,000 rows with -short):
//
//	go test -run '^$' -bench . -benchtime 3x ./gda
//
// Each class has its own mean and a banded covariance
// (x_j = z_j + ½ z_{j−1} + μ_kj, z standard normal).
const (
	benchRows     = 500_000
	benchFeatures = 100
	benchClasses  = 5
)

var bench = sync.OnceValue(func() *data.Dataset {
	n := benchRows
	if testing.Short() {
		n /= 10
	}
	p, K := benchFeatures, benchClasses
	rng := rand.New(rand.NewPCG(1, 2))
	classes := make([]string, K)
	mu := make([]float64, K*p)
	for k := range classes {
		classes[k] = "c" + strconv.Itoa(k)
		for j := range p {
			mu[k*p+j] = rng.NormFloat64()
		}
	}
	d := &data.Dataset{Schema: &data.Schema{Target: &data.Column{Name: "class", Kind: data.Categorical, Levels: classes}},
		N: n, X: make([]float64, n*p), Y: make([]float64, n), Source: "bench"}
	for j := range p {
		d.Schema.Features = append(d.Schema.Features, data.Column{Name: "x" + strconv.Itoa(j), Kind: data.Numeric})
	}
	z := make([]float64, p)
	for i := range n {
		k := rng.IntN(K)
		d.Y[i] = float64(k)
		for j := range z {
			z[j] = rng.NormFloat64()
		}
		row := d.X[i*p : (i+1)*p]
		for j := range row {
			row[j] = z[j] + mu[k*p+j]
			if j > 0 {
				row[j] += z[j-1] / 2
			}
		}
	}
	return d
})

func BenchmarkLDAFit(b *testing.B) {
	d := bench()
	b.ResetTimer()
	for b.Loop() {
		if _, err := (LDAConfig{}).Fit(d); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkQDAFit(b *testing.B) {
	d := bench()
	b.ResetTimer()
	for b.Loop() {
		if _, err := (QDAConfig{}).Fit(d); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLDAPredict(b *testing.B) {
	d := bench()
	m, err := LDAConfig{}.Fit(d)
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]float64, d.N*benchClasses)
	b.ResetTimer()
	for b.Loop() {
		m.LogProba(dst, d)
	}
}

func BenchmarkQDAPredict(b *testing.B) {
	d := bench()
	m, err := QDAConfig{}.Fit(d)
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]float64, d.N*benchClasses)
	b.ResetTimer()
	for b.Loop() {
		m.LogProba(dst, d)
	}
}
