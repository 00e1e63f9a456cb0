package cv

import (
	"errors"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/linear"
	"github.com/gendisc/gendisc/naivebayes"
)

// looRefit returns the predictions of m refitted without each row, for
// row i, flattened.
func looRefit(t *testing.T, d *data.Dataset, fit func(d *data.Dataset) (gendisc.Model, error)) []float64 {
	t.Helper()
	var out []float64
	f := LeaveOneOut(d.N)
	for i := range d.N {
		train, test := f.Split(i)
		m, err := fit(d.Subset(train))
		if err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
		out = append(out, predictions(t, m, d.Subset(test))...)
	}
	return out
}

func checkLOO(t *testing.T, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d predictions, want %d", len(got), len(want))
	}
	for i := range want {
		if !nearRel(got[i], want[i], 1e-12) {
			t.Fatalf("prediction %d: downdated %.17g, refitted %.17g", i, got[i], want[i])
		}
	}
}

func TestLeaveOneOutLinear(t *testing.T) {
	d := head(regressionData(t), 60)
	cfg := linear.Config{}
	fit := func(d *data.Dataset) (gendisc.Model, error) { return model(cfg.Fit(d)) }
	got, err := LeaveOneOutLinear(cfg, d)
	if err != nil {
		t.Fatal(err)
	}
	checkLOO(t, got, looRefit(t, d, fit))
	// With row weights (1, 2, 3, 1, 2, 3, …).
	d.Weight = make([]float64, d.N)
	for i := range d.Weight {
		d.Weight[i] = float64(1 + i%3)
	}
	got, err = LeaveOneOutLinear(cfg, d)
	if err != nil {
		t.Fatal(err)
	}
	checkLOO(t, got, looRefit(t, d, fit))
	if _, err := LeaveOneOutLinear(linear.Config{L2: 1}, d); !errors.Is(err, ErrDowndate) {
		t.Errorf("ridge: %v", err)
	}
}

func TestLeaveOneOutGaussianNB(t *testing.T) {
	for _, cfg := range []naivebayes.GaussianConfig{{}, {PriorAlpha: 2, VarSmoothing: 1e-3}, {ClassPrior: map[string]float64{"Iris-setosa": 0.5, "Iris-versicolor": 0.3, "Iris-virginica": 0.2}}} {
		d := bundled.Load(t, "iris", dataio.Options{})
		fit := func(d *data.Dataset) (gendisc.Model, error) { return model(cfg.Fit(d)) }
		got, err := LeaveOneOutGaussianNB(cfg, d)
		if err != nil {
			t.Fatal(err)
		}
		checkLOO(t, got, looRefit(t, d, fit))
	}
	d := head(bundled.Load(t, "iris", dataio.Options{}), 51) // one row of the second class
	if _, err := LeaveOneOutGaussianNB(naivebayes.GaussianConfig{}, d); !errors.Is(err, ErrDowndate) {
		t.Errorf("a class of one row: %v", err)
	}
}

func TestLeaveOneOutDiscriminants(t *testing.T) {
	iris := bundled.Load(t, "iris", dataio.Options{})
	for _, c := range []struct {
		name string
		loo  func(d *data.Dataset) ([]float64, error)
		fit  func(d *data.Dataset) (gendisc.Model, error)
	}{
		{"lda", func(d *data.Dataset) ([]float64, error) { return LeaveOneOutLDA(gda.LDAConfig{}, d) },
			func(d *data.Dataset) (gendisc.Model, error) { return model(gda.LDAConfig{}.Fit(d)) }},
		{"lda unbiased alpha", func(d *data.Dataset) ([]float64, error) {
			return LeaveOneOutLDA(gda.LDAConfig{Estimator: gda.Unbiased, PriorAlpha: 3}, d)
		}, func(d *data.Dataset) (gendisc.Model, error) {
			return model(gda.LDAConfig{Estimator: gda.Unbiased, PriorAlpha: 3}.Fit(d))
		}},
		{"qda", func(d *data.Dataset) ([]float64, error) { return LeaveOneOutQDA(gda.QDAConfig{}, d) },
			func(d *data.Dataset) (gendisc.Model, error) { return model(gda.QDAConfig{}.Fit(d)) }},
		{"qda unbiased", func(d *data.Dataset) ([]float64, error) {
			return LeaveOneOutQDA(gda.QDAConfig{Estimator: gda.Unbiased}, d)
		},
			func(d *data.Dataset) (gendisc.Model, error) {
				return model(gda.QDAConfig{Estimator: gda.Unbiased}.Fit(d))
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.loo(iris)
			if err != nil {
				t.Fatal(err)
			}
			checkLOO(t, got, looRefit(t, iris, c.fit))
		})
	}
	if _, err := LeaveOneOutLDA(gda.LDAConfig{Shrinkage: 0.5}, iris); !errors.Is(err, ErrDowndate) {
		t.Errorf("shrinkage: %v", err)
	}
}
