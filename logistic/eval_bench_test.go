package logistic

import (
	"testing"

	"github.com/gendisc/gendisc/internal/design"
)

// benchProblem builds the fitting problem of the synthetic data without
// solving it.
func benchProblem(b *testing.B, N, K int) (*problem, []float64) {
	d := benchData(N, K)
	enc, err := design.Fit(d, design.Options{})
	if err != nil {
		b.Fatal(err)
	}
	z := enc.Encode(d)
	y, tot, err := classes(d)
	if err != nil {
		b.Fatal(err)
	}
	k := K
	if K == 2 {
		k = 1
	}
	pr := newProblem(z.Dense, z.N, z.P, k, y, rowWeights(d, y, tot, Unweighted), 1)
	return pr, initialTheta(pr)
}

// BenchmarkEval times one evaluation of the objective and its gradient
// (one pass over the data) on 100,000 × 100 rows.
func BenchmarkEval(b *testing.B) {
	for _, K := range []int{2, 5} {
		b.Run(map[int]string{2: "binary", 5: "multinomial5"}[K], func(b *testing.B) {
			pr, theta := benchProblem(b, 100_000, K)
			g := make([]float64, len(theta))
			b.SetBytes(int64(8 * len(pr.z)))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				pr.eval(theta, g)
			}
		})
	}
}
