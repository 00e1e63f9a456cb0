package naivebayes

import (
	"math"
	"math/rand/v2"
	"sort"
	"sync"
	"testing"

	"github.com/gendisc/gendisc/text"
)

// syntheticCounts is the term-count matrix of the benchmark,
// 200,000 documents over 50,000 terms (countMatrix), made once.
var syntheticCounts = sync.OnceValues(func() (*text.CSR, []int) { return countMatrix(200_000, 50_000) })

// countMatrix returns a term-count matrix made as bench/gendata.py makes
// its text, and the class of each row: docs documents of about 100
// tokens (100 + 10·N(0, 1)) over vocab terms of frequency ∝
// exp(N(0, 0.5²)) / (t + 10), drawn afresh for each of 4 classes of prior
// ∝ 1, 2, 3, 4. Columns are in order of first occurrence, as text makes
// them.
func countMatrix(docs, vocab int) (*text.CSR, []int) {
	const tokens, classes = 100, 4
	rng := rand.New(rand.NewPCG(3, 4))
	cum := make([][]float64, classes)
	for c := range cum {
		cum[c] = make([]float64, vocab)
		s := 0.0
		for t := range vocab {
			s += math.Exp(0.5*rng.NormFloat64()) / (float64(t) + 10)
			cum[c][t] = s
		}
		for t := range cum[c] {
			cum[c][t] /= s
		}
	}
	m := &text.CSR{Rows: docs, Cols: vocab, Indptr: make([]int, 1, docs+1)}
	y := make([]int, docs)
	at := make([]int, vocab) // where term t is stored, if in the current row
	for i := range docs {
		c := sort.SearchFloat64s([]float64{0.1, 0.3, 0.6}, rng.Float64())
		y[i] = c
		start := len(m.Indices)
		for range max(1, int(math.Round(tokens+10*rng.NormFloat64()))) {
			t := min(sort.SearchFloat64s(cum[c], rng.Float64()), vocab-1)
			if e := at[t]; e >= start && e < len(m.Indices) && m.Indices[e] == int32(t) {
				m.Data[e]++
				continue
			}
			at[t] = len(m.Indices)
			m.Indices = append(m.Indices, int32(t))
			m.Data = append(m.Data, 1)
		}
		m.Indptr = append(m.Indptr, len(m.Indices))
	}
	return m, y
}

var benchClasses = []string{"a", "b", "c", "d"}

// BenchmarkMultinomialMatrixFit fits multinomial naive Bayes to the
// synthetic count matrix: the per-class column sums and the log-weights.
func BenchmarkMultinomialMatrixFit(b *testing.B) {
	x, y := syntheticCounts()
	b.ResetTimer()
	for b.Loop() {
		if _, err := (Config{Family: Multinomial}).FitMatrix(x, y, benchClasses, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMultinomialMatrixProba computes the class probabilities of the
// rows of the synthetic count matrix.
func BenchmarkMultinomialMatrixProba(b *testing.B) {
	x, y := syntheticCounts()
	m, err := Config{Family: Multinomial}.FitMatrix(x, y, benchClasses, nil)
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]float64, x.Rows*len(benchClasses))
	b.ResetTimer()
	for b.Loop() {
		m.Proba(dst, x)
	}
}
