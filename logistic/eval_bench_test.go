package logistic

import (
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/design"
)

// benchProblem builds the fitting problem of d, encoded with opt, with
// λ = 1, without solving it, and returns it with a starting point.
func benchProblem(b testing.TB, d *data.Dataset, opt design.Options) (*problem, []float64) {
	enc, err := design.Fit(d, opt)
	if err != nil {
		b.Fatal(err)
	}
	z := enc.Encode(d)
	y, tot, err := classes(d)
	if err != nil {
		b.Fatal(err)
	}
	k := len(tot)
	if k == 2 {
		k = 1
	}
	pr := newProblem(z.Dense, z.N, z.P, k, y, rowWeights(d, y, tot, Unweighted), 1)
	if z.Sparse != nil {
		pr.setSparse(z.Sparse)
	}
	return pr, initialTheta(pr)
}

// BenchmarkEval times one evaluation of the objective and its gradient
// (one pass over the data) on 100,000 × 100 rows.
func BenchmarkEval(b *testing.B) {
	for _, K := range []int{2, 5} {
		b.Run(map[int]string{2: "binary", 5: "multinomial5"}[K], func(b *testing.B) {
			pr, theta := benchProblem(b, benchData(100_000, K), design.Options{})
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
