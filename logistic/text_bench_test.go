package logistic

import (
	"testing"

	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/internal/design"
	"github.com/gendisc/gendisc/text"
)

// BenchmarkFitText times a fit of the bundled sms_spam messages (5,574
// rows, 8,750 term counts) with the default settings.
func BenchmarkFitText(b *testing.B) {
	d := bundled.Load(b, "sms_spam", dataio.Options{Text: []string{"text"}})
	var m *Model
	for b.Loop() {
		var err error
		if m, err = (Config{}).Fit(d); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(m.Diagnostics().Evaluations), "evals")
}

// BenchmarkEvalText times one evaluation of the objective and its
// gradient on sms_spam's term counts.
func BenchmarkEvalText(b *testing.B) {
	d := bundled.Load(b, "sms_spam", dataio.Options{Text: []string{"text"}})
	pr, theta := benchProblem(b, d, design.Options{Text: &text.VectorizerConfig{}})
	for j := range theta {
		theta[j] += 0.01 * float64(j%7-3)
	}
	g := make([]float64, len(theta))
	b.ReportAllocs()
	for b.Loop() {
		pr.eval(theta, g)
	}
}
