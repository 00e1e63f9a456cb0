package compare

import (
	"context"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/naivebayes"
)

// BenchmarkSplit measures one split at every size of the default grid for
// Gaussian naive Bayes and logistic regression (λ = 1, missing cells
// imputed): a default run of compare costs about 100 times this per data
// set, spread over the cores. A learner that cannot fit a data set's
// column types falls back, as in a real run.
func BenchmarkSplit(b *testing.B) {
	learners := []Learner{
		{Name: "nb", Fit: func(d *data.Dataset) (gendisc.Classifier, error) { return naivebayes.GaussianConfig{}.Fit(d) }},
		{Name: "logistic", Family: Discriminative, Fit: func(d *data.Dataset) (gendisc.Classifier, error) {
			return logistic.Config{Impute: true}.Fit(d)
		}},
	}
	for _, name := range []string{"adult", "mushroom", "optdigits", "pima_indians_diabetes"} {
		d := bundled.Load(b, name, dataio.Options{})
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Run(context.Background(), []Task{{name, d}}, learners, Config{Splits: 1, Jobs: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
