package linear

import (
	"errors"
	"math"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/internal/testsupport/refdata"
)

// load reads a bundled data set with target as a numeric target and the
// class column left out.
func load(t testing.TB, name, target string) *data.Dataset {
	t.Helper()
	return bundled.Load(t, name, dataio.Options{Target: target, NumericTarget: true, Ignore: []string{"class"}})
}

type refCase struct {
	Dataset, Target string
	Lambda          float64
	SampleWeight    string `json:"sample_weight"`
	Standardize     bool
	Scale           string
	Coef            []float64
	Intercept       float64
	Sigma2          float64
	LogLikelihood   float64 `json:"log_likelihood"`
	R2              float64
	Pred            []float64
}

func closeRel(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*max(math.Abs(want), 1e-300)
}

func TestReference(t *testing.T) {
	var ref struct{ Cases []refCase }
	refdata.ReadJSON(t, "testdata/reference.json", &ref)
	const tol = 1e-9
	for _, rc := range ref.Cases {
		t.Run(rc.Dataset+"/"+rc.Target, func(t *testing.T) {
			d := load(t, rc.Dataset, rc.Target)
			if rc.SampleWeight == "cycle3" {
				d.Weight = make([]float64, d.N)
				for i := range d.Weight {
					d.Weight[i] = 1 + float64(i%3)
				}
			}
			m, err := Config{L2: rc.Lambda, NoStandardize: !rc.Standardize}.Fit(d)
			if err != nil {
				t.Fatal(err)
			}
			w, b := m.Coefficients()
			if rc.Scale == "original" {
				w, b = m.OriginalCoefficients()
			}
			scale := max(maxAbs(rc.Coef), math.Abs(rc.Intercept))
			for j := range rc.Coef {
				if math.Abs(w[j]-rc.Coef[j]) > tol*max(math.Abs(rc.Coef[j]), 1e-3*scale) {
					t.Errorf("w[%d] = %.15g, sklearn %.15g", j, w[j], rc.Coef[j])
				}
			}
			if !closeRel(b, rc.Intercept, tol) {
				t.Errorf("intercept %.15g, sklearn %.15g", b, rc.Intercept)
			}
			for name, got := range map[string][2]float64{
				"sigma2": {m.Sigma2(), rc.Sigma2}, "loglik": {m.LogLikelihood(), rc.LogLikelihood}, "r2": {m.R2(), rc.R2},
			} {
				if !closeRel(got[0], got[1], tol) {
					t.Errorf("%s = %.15g, sklearn %.15g", name, got[0], got[1])
				}
			}
			pred := m.Predict(nil, d.Subset([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}))
			for i, p := range rc.Pred {
				if !closeRel(pred[i], p, tol) {
					t.Errorf("prediction %d = %.15g, sklearn %.15g", i, pred[i], p)
				}
			}
		})
	}
}

func maxAbs(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		m = max(m, math.Abs(v))
	}
	return m
}

func TestRoundTrip(t *testing.T) {
	d := load(t, "wine", "alcohol")
	m, err := Config{L2: 0.5}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	m2, err := UnmarshalLinear(d.Schema, b)
	if err != nil {
		t.Fatal(err)
	}
	p1, p2 := m.Predict(nil, d), m2.Predict(nil, d)
	for i := range p1 {
		if p1[i] != p2[i] {
			t.Fatalf("row %d: %v after the round trip, %v before", i, p2[i], p1[i])
		}
	}
	if m2.Sigma2() != m.Sigma2() || m2.R2() != m.R2() || m2.LogLikelihood() != m.LogLikelihood() || m2.Kind() != "linear" {
		t.Error("statistics changed in the round trip")
	}
	if _, err := UnmarshalLinear(d.Schema, []byte(`{"design":[],"weights":[1]}`)); err == nil {
		t.Error("bad params accepted")
	}
}

func TestErrors(t *testing.T) {
	d := load(t, "wine", "alcohol")
	if _, err := (Config{L2: -1}).Fit(d); err == nil {
		t.Error("negative L2 accepted")
	}
	// A duplicated column is collinear: refused without a penalty,
	// fitted with one.
	D := d.D()
	x := make([]float64, 0, d.N*(D+1))
	for i := range d.N {
		x = append(append(x, d.Row(i)...), d.Row(i)[0])
	}
	dup := *d
	dup.Schema = d.Schema.Clone()
	dup.Schema.Features = append(dup.Schema.Features, data.Column{Name: "copy", Kind: data.Numeric})
	dup.X = x
	if _, err := (Config{}).Fit(&dup); !errors.Is(err, ErrRankDeficient) {
		t.Errorf("collinear columns: %v", err)
	}
	if _, err := (Config{L2: 1}).Fit(&dup); err != nil {
		t.Errorf("ridge on collinear columns: %v", err)
	}
	if _, err := (Config{}).Fit(bundled.Load(t, "iris", dataio.Options{})); err == nil {
		t.Error("categorical target accepted")
	}
}

// TestCategorical: a categorical feature enters as indicators of every
// level but the first, whose weights are the level effects; an exact fit
// has σ² = 0 and survives the round trip.
func TestCategorical(t *testing.T) {
	s := &data.Schema{
		Features: []data.Column{{Name: "x", Kind: data.Numeric}, {Name: "color", Kind: data.Categorical, Levels: []string{"blue", "green", "red"}}},
		Target:   &data.Column{Name: "y", Kind: data.Numeric},
	}
	d := &data.Dataset{Schema: s, Source: data.Named("toy")}
	effect := []float64{0, -1, 3}
	for i := range 30 {
		x, c := float64(i%7), i%3
		d.X = append(d.X, x, float64(c))
		d.Y = append(d.Y, 2+0.5*x+effect[c])
		d.N++
	}
	m, err := Config{}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	w, b := m.OriginalCoefficients()
	if names := m.Terms(); len(names) != 3 || names[1] != "color=green" || names[2] != "color=red" {
		t.Fatalf("terms %v", names)
	}
	for j, want := range []float64{0.5, -1, 3} {
		if math.Abs(w[j]-want) > 1e-12 {
			t.Errorf("w[%d] = %v, want %v", j, w[j], want)
		}
	}
	if math.Abs(b-2) > 1e-12 || m.Sigma2() > 1e-25 || m.R2() < 1-1e-12 {
		t.Errorf("b = %v, σ² = %v, R² = %v", b, m.Sigma2(), m.R2())
	}
	buf, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := UnmarshalLinear(s, buf); err != nil {
		t.Error(err)
	}
}
