package linear

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/gendisc/gendisc/data"
)

// benchData returns n rows of d numeric features and one categorical
// feature of five levels, with a target linear in them plus noise.
func benchData(n, d int) *data.Dataset {
	rng := rand.New(rand.NewPCG(3, 4))
	s := &data.Schema{Target: &data.Column{Name: "y", Kind: data.Numeric}}
	for j := range d {
		s.Features = append(s.Features, data.Column{Name: "x" + strconv.Itoa(j), Kind: data.Numeric})
	}
	s.Features = append(s.Features, data.Column{Name: "c", Kind: data.Categorical, Levels: []string{"a", "b", "c", "d", "e"}})
	D := d + 1
	ds := &data.Dataset{Schema: s, N: n, X: make([]float64, n*D), Y: make([]float64, n)}
	for i := range n {
		row := ds.X[i*D : (i+1)*D]
		y := rng.NormFloat64()
		for j := range d {
			row[j] = 10 + 3*rng.NormFloat64()
			y += float64(j%5) * row[j]
		}
		row[d] = float64(rng.IntN(5))
		ds.Y[i] = y + row[d]
	}
	return ds
}

// BenchmarkFit times an ordinary least-squares fit of 100,000 rows of 20
// numeric features and a categorical one.
func BenchmarkFit(b *testing.B) {
	d := benchData(100000, 20)
	for b.Loop() {
		if _, err := (Config{}).Fit(d); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFitSmall times a ridge fit of the wine data.
func BenchmarkFitSmall(b *testing.B) {
	d := load(b, "wine", "alcohol")
	for b.Loop() {
		if _, err := (Config{L2: 1}).Fit(d); err != nil {
			b.Fatal(err)
		}
	}
}
