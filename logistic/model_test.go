package logistic

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/internal/design"
	"github.com/gendisc/gendisc/internal/testsupport/conformance"
)

func TestConformance(t *testing.T) {
	for _, name := range []string{"iris", "pima_indians_diabetes", "house_votes84"} {
		t.Run(name, func(t *testing.T) {
			d := bundled.Load(t, name, dataio.Options{})
			cfg := Config{Tol: 1e-12, Impute: true}
			conformance.Check(t, func(d *data.Dataset) (gendisc.Classifier, error) {
				return cfg.Fit(d)
			}, d, conformance.Decode(func(b []byte) (gendisc.Classifier, error) {
				return UnmarshalLogistic(d.Schema, b)
			}))
		})
	}
}

// TestSeparable fits λ = 0 to data that a line separates: the fit must
// stop with the warning, finite weights, and classify every row right.
func TestSeparable(t *testing.T) {
	x := []float64{0, 0, 1, 0.5, 0.2, 1, 2, 2, 3, 2.5, 2.2, 3.1}
	y := []int{0, 0, 0, 1, 1, 1}
	d := data.FromMatrix([]string{"a", "b"}, x, []string{"no", "yes"}, y)
	for _, s := range []Solver{Newton, LBFGS, GD, SGD} {
		t.Run(string(s), func(t *testing.T) {
			m := fit(t, Config{NoPenalty: true, Solver: s}, d)
			diag := m.Diagnostics()
			if !diag.Separable || !strings.Contains(diag.Warning, "separable") || diag.Converged {
				t.Errorf("no separation warning: %+v", diag)
			}
			w, b := m.Coefficients()
			for _, v := range append(w[0], b[0]) {
				if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > weightLimit {
					t.Errorf("weight %v", v)
				}
			}
			lp := m.LogProba(nil, d)
			for i, c := range y {
				if p := math.Exp(lp[2*i+c]); !(p > 0.99) {
					t.Errorf("row %d: P(true class) = %v", i, p)
				}
			}
			if m.L2() != 0 {
				t.Errorf("L2 = %v", m.L2())
			}
		})
	}
}

// TestQuasiSeparable: one tied row on the boundary keeps the log-loss
// away from 0, but the weights still diverge.
func TestQuasiSeparable(t *testing.T) {
	x := []float64{0, 1, 2, 3, 3, 4, 5, 6}
	y := []int{0, 0, 0, 0, 1, 1, 1, 1}
	d := data.FromMatrix([]string{"a"}, x, []string{"no", "yes"}, y)
	m := fit(t, Config{NoPenalty: true, Solver: Newton, MaxIter: 200}, d)
	diag := m.Diagnostics()
	if !diag.Separable || diag.Converged {
		t.Errorf("no divergence warning: %+v", diag)
	}
}

// TestWeights: a weight of 2 is the same as a duplicated row, and
// balanced class weights are the class-size ratios.
func TestWeights(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
	idx := make([]int, 0, d.N+d.N/3)
	w := make([]float64, d.N)
	for i := range d.N {
		idx = append(idx, i)
		w[i] = 1
		if i%3 == 0 {
			idx = append(idx, i)
			w[i] = 2
		}
	}
	dup := d.Subset(idx)
	weighted := d.Subset(firstRows(d.N))
	weighted.Weight = w
	cfg := Config{Tol: 1e-12, L2: 0.3}
	compareCoefficients(t, fit(t, cfg, weighted), fit(t, cfg, dup), 1e-9)
}

func TestOriginalCoefficients(t *testing.T) {
	d := bundled.Load(t, "wine", dataio.Options{})
	m := fit(t, Config{}, d)
	w, b := m.OriginalCoefficients()
	lp := m.LogProba(nil, d)
	K := 3
	for i := range d.N {
		s := make([]float64, K)
		for c := range K {
			s[c] = b[c]
			for j, x := range d.Row(i) {
				s[c] += w[c][j] * x
			}
		}
		mx := max(s[0], s[1], s[2])
		lse := mx + math.Log(math.Exp(s[0]-mx)+math.Exp(s[1]-mx)+math.Exp(s[2]-mx))
		for c := range K {
			if math.Abs(s[c]-lse-lp[i*K+c]) > 1e-9 {
				t.Fatalf("row %d class %d: %v from original units, %v from the model", i, c, s[c]-lse, lp[i*K+c])
			}
		}
	}
	if got := m.Terms(); len(got) != 13 || got[0] != d.Schema.Features[0].Name {
		t.Errorf("Terms = %v", got)
	}
}

func TestMissing(t *testing.T) {
	d := bundled.Load(t, "breast_cancer_wisconsin", dataio.Options{}) // 16 missing cells
	_, err := Config{}.Fit(d)
	var pe *data.ParseError
	if !errors.As(err, &pe) || !errors.Is(err, design.ErrMissing) || pe.Line == 0 || pe.ColumnName == "" {
		t.Fatalf("error %v, want a positioned missing-value error", err)
	}
	if !strings.Contains(err.Error(), "impute") {
		t.Errorf("error %q does not suggest imputation", err)
	}
	m := fit(t, Config{Impute: true}, d)
	if !m.Diagnostics().Converged {
		t.Errorf("%+v", m.Diagnostics())
	}
}

func TestErrors(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
	for _, cfg := range []Config{{L2: -1}, {Solver: "adam"}, {ClassWeight: "x"}, {Tol: -1}} {
		if _, err := cfg.Fit(d); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
	one := d.Subset([]int{0, 1, 2}) // setosa only
	if _, err := (Config{}).Fit(one); err == nil || !strings.Contains(err.Error(), "no training rows") {
		t.Errorf("one class: %v", err)
	}
	if _, err := UnmarshalLogistic(d.Schema, []byte(`{"l2":1,"design":[],"weights":[[1]],"intercepts":[0]}`)); err == nil {
		t.Error("bad params accepted")
	}
}

// TestPredictMissing: at prediction a missing cell, or a level index
// outside the schema's levels, takes its design column's training mean.
func TestPredictMissing(t *testing.T) {
	d := bundled.Load(t, "house_votes84", dataio.Options{})
	m := fit(t, Config{Impute: true}, d)
	row := d.Subset([]int{0})
	want := m.LogProba(nil, row)
	missing := d.Subset([]int{0})
	outside := d.Subset([]int{0})
	missing.X[3] = math.NaN()
	outside.X[3] = 7 // no level 7
	a, b := m.LogProba(nil, missing), m.LogProba(nil, outside)
	if a[0] != b[0] || a[1] != b[1] || math.IsNaN(a[0]) {
		t.Errorf("missing %v, outside the levels %v", a, b)
	}
	if a[0] == want[0] {
		t.Errorf("a missing cell changed nothing: %v", a)
	}
}

// TestWarningsAndMissingRule checks what a fitted model reports of its
// fit: Warnings is empty exactly when the fit converged, and names why it
// stopped otherwise (the iteration limit; separable data with λ = 0); and
// the rule on missing cells, the same at prediction as in the fit: a
// model fitted without Impute refuses a row with a missing cell
// (CheckMissing) with Fit's error, one fitted with Impute takes it; the
// rule survives the model file.
func TestWarningsAndMissingRule(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
	m := fit(t, Config{}, d)
	if !m.Converged() || m.Warnings() != nil {
		t.Errorf("converged fit: Converged %v, Warnings %q", m.Converged(), m.Warnings())
	}
	short := fit(t, Config{MaxIter: 3}, d)
	if w := short.Warnings(); short.Converged() || len(w) != 1 || !strings.Contains(w[0], "stopped after 3 iterations without converging") {
		t.Errorf("3 iterations: Converged %v, Warnings %q", short.Converged(), w)
	}
	x := []float64{0, 0, 1, 0.5, 0.2, 1, 2, 2, 3, 2.5, 2.2, 3.1}
	sep := data.FromMatrix([]string{"a", "b"}, x, []string{"no", "yes"}, []int{0, 0, 0, 1, 1, 1})
	s := fit(t, Config{NoPenalty: true}, sep)
	if w := s.Warnings(); s.Converged() || len(w) != 1 || !strings.Contains(w[0], "separable") {
		t.Errorf("separable: Converged %v, Warnings %q", s.Converged(), w)
	}

	holed := data.FromMatrix([]string{"a", "b"}, []float64{0.5, 1, math.NaN(), 2}, []string{"no", "yes"}, []int{0, 1})
	holed.Source.Name, holed.Source.Lines = "new.csv", []int{2, 3}
	_, fitErr := Config{}.Fit(holed)
	err := s.CheckMissing(holed)
	var me *data.MissingError
	if err == nil || !errors.As(err, &me) || err.Error() != fitErr.Error() || !strings.Contains(err.Error(), "new.csv:3") {
		t.Errorf("CheckMissing without Impute: %v, want Fit's error %v", err, fitErr)
	}
	if err := s.CheckMissing(sep); err != nil {
		t.Errorf("CheckMissing of complete rows: %v", err)
	}
	imp := fit(t, Config{NoPenalty: true, Impute: true}, sep)
	if err := imp.CheckMissing(holed); err != nil || !imp.Imputes() || s.Imputes() {
		t.Errorf("Impute: CheckMissing %v, Imputes %v / %v", err, imp.Imputes(), s.Imputes())
	}
	for _, c := range []struct {
		m    *Model
		want bool
	}{{s, false}, {imp, true}} {
		b, err := c.m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		back, err := UnmarshalLogistic(sep.Schema, b)
		if err != nil {
			t.Fatal(err)
		}
		if back.Imputes() != c.want || !slices.Equal(back.Warnings(), c.m.Warnings()) {
			t.Errorf("decoded: Imputes %v, Warnings %q; want %v, %q", back.Imputes(), back.Warnings(), c.want, c.m.Warnings())
		}
	}
}
