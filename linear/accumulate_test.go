package linear

import (
	"encoding/json"
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
)

// wineClass reads wine with alcohol as the target and the class as a
// categorical feature (levels 1, 2, 3), row weights 1, 2, 3, … in turn
// when weighted, and with missing cells punched in a numeric and the
// categorical column when holes.
func wineClass(t *testing.T, weighted, holes bool) *data.Dataset {
	d := bundled.Load(t, "wine", dataio.Options{Target: "alcohol", NumericTarget: true})
	if weighted {
		d.Weight = make([]float64, d.N)
		for i := range d.Weight {
			d.Weight[i] = 1 + float64(i%3)
		}
	}
	if holes {
		d.X = slices.Clone(d.X)
		cls := d.Schema.Feature("class")
		for i := 0; i < d.N; i += 7 {
			d.X[i*d.D()+1] = math.NaN()
		}
		for i := 3; i < d.N; i += 11 {
			d.X[i*d.D()+cls] = math.NaN()
		}
	}
	return d
}

// withLevels returns d's rows idx with the categorical feature j
// renumbered into the levels given (which must hold those of the rows),
// as data read on its own would have them.
func withLevels(d *data.Dataset, idx []int, j int, levels []string) *data.Dataset {
	s := d.Subset(idx)
	s.Schema = d.Schema.Clone()
	s.Schema.Features[j].Levels = levels
	s.X = slices.Clone(s.X)
	for i := range s.N {
		if v := s.X[i*s.D()+j]; v == v {
			s.X[i*s.D()+j] = float64(slices.Index(levels, d.Schema.Features[j].Levels[int(v)]))
		}
	}
	return s
}

// shards splits d into three shards whose schemas hold only some of the
// class levels, in other orders: the first the rows of classes 1 and 2
// and some of 3 (levels 1, 2, 3), the second rows of classes 3 and 1
// (levels 3, 1), the third the rest (levels 2, 1, 3). Their union schema
// is d's.
func shards(d *data.Dataset) []*data.Dataset {
	j := d.Schema.Feature("class")
	lv := d.Schema.Features[j].Levels
	var idx [3][]int
	for i := range d.N {
		switch v := d.X[i*d.D()+j]; {
		case i%3 == 0 && v != 1:
			idx[1] = append(idx[1], i)
		case i%3 == 1:
			idx[2] = append(idx[2], i)
		default:
			idx[0] = append(idx[0], i)
		}
	}
	return []*data.Dataset{
		withLevels(d, idx[0], j, lv),
		withLevels(d, idx[1], j, []string{lv[2], lv[0]}),
		withLevels(d, idx[2], j, []string{lv[1], lv[0], lv[2]}),
	}
}

// sameFit fails unless got's coefficients, σ², log-likelihood and R²
// equal want's to tol relative (coefficients relative to the largest).
func sameFit(t *testing.T, got, want *Model, tol float64) {
	t.Helper()
	gw, gb := got.Coefficients()
	ww, wb := want.Coefficients()
	if !slices.Equal(got.Terms(), want.Terms()) {
		t.Fatalf("terms %v, want %v", got.Terms(), want.Terms())
	}
	scale := max(maxAbs(ww), math.Abs(wb))
	for j := range ww {
		if math.Abs(gw[j]-ww[j]) > tol*scale {
			t.Errorf("w[%d] = %.17g, want %.17g", j, gw[j], ww[j])
		}
	}
	if math.Abs(gb-wb) > tol*scale {
		t.Errorf("intercept %.17g, want %.17g", gb, wb)
	}
	for name, v := range map[string][2]float64{
		"sigma2": {got.Sigma2(), want.Sigma2()}, "loglik": {got.LogLikelihood(), want.LogLikelihood()}, "r2": {got.R2(), want.R2()},
	} {
		if !closeRel(v[0], v[1], tol) {
			t.Errorf("%s = %.17g, want %.17g", name, v[0], v[1])
		}
	}
}

// TestShards: three shards with levels arriving in other orders, fitted
// apart and merged (in the library, and through MarshalBinary and
// UnmarshalBinary), give the fit on all the rows to 1e-12, for ordinary
// least squares, ridge, ridge on unstandardised features, with weights
// and with imputed missing cells; so does adding the shards one after
// the other to one accumulator.
func TestShards(t *testing.T) {
	cases := []struct {
		name            string
		cfg             Config
		weighted, holes bool
	}{
		{"ols", Config{}, false, false},
		{"ridge-weighted", Config{L2: 3}, true, false},
		{"ridge-raw", Config{L2: 0.5, NoStandardize: true}, false, false},
		{"impute", Config{Impute: true}, true, true},
		{"impute-ridge-raw", Config{L2: 2, NoStandardize: true, Impute: true}, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := wineClass(t, tc.weighted, tc.holes)
			want, err := tc.cfg.Fit(d)
			if err != nil {
				t.Fatal(err)
			}
			parts := shards(d)
			accs := make([]*Accumulator, len(parts))
			for s, p := range parts {
				if accs[s], err = tc.cfg.NewAccumulator(); err != nil {
					t.Fatal(err)
				}
				if err := accs[s].Add(p); err != nil {
					t.Fatal(err)
				}
			}
			t.Run("merge", func(t *testing.T) {
				a, _ := tc.cfg.NewAccumulator()
				for _, o := range accs {
					if err := a.Merge(o); err != nil {
						t.Fatal(err)
					}
				}
				sameFit(t, finish(t, a), want, 1e-12)
			})
			t.Run("binary", func(t *testing.T) {
				var a Accumulator
				for s, o := range accs {
					b, err := o.MarshalBinary()
					if err != nil {
						t.Fatal(err)
					}
					var dec Accumulator
					if err := dec.UnmarshalBinary(b); err != nil {
						t.Fatal(err)
					}
					if again, _ := dec.MarshalBinary(); string(again) != string(b) {
						t.Fatal("the encoding does not read back bit for bit")
					}
					if s == 0 {
						a = dec
					} else if err := a.Merge(&dec); err != nil {
						t.Fatal(err)
					}
				}
				sameFit(t, finish(t, &a), want, 1e-12)
			})
			t.Run("add", func(t *testing.T) {
				a, _ := tc.cfg.NewAccumulator()
				for _, p := range parts {
					if err := a.Add(p); err != nil {
						t.Fatal(err)
					}
				}
				sameFit(t, finish(t, a), want, 1e-12)
			})
			t.Run("model-file", func(t *testing.T) {
				// Models fitted on the shards, saved and read back, merge.
				var acc gendisc.Accumulator
				for s, p := range parts {
					m, err := tc.cfg.Fit(p)
					if err != nil {
						t.Fatal(err)
					}
					b, err := m.MarshalJSON()
					if err != nil {
						t.Fatal(err)
					}
					back, err := UnmarshalLinear(p.Schema, b)
					if err != nil {
						t.Fatal(err)
					}
					if s == 0 {
						acc = back.Accumulator()
					} else if err := acc.Merge(back.Accumulator()); err != nil {
						t.Fatal(err)
					}
				}
				sameFit(t, finish(t, acc), want, 1e-12)
			})
		})
	}
}

func finish(t *testing.T, a gendisc.Accumulator) *Model {
	t.Helper()
	m, err := a.Model()
	if err != nil {
		t.Fatal(err)
	}
	return m.(*Model)
}

// TestMergeErrors: another configuration is a *gendisc.MergeError; a model file
// without statistics still predicts, and its accumulator refuses to
// update or merge with ErrNoStatistics; bad encodings are refused.
func TestMergeErrors(t *testing.T) {
	d := wineClass(t, false, false)
	a, _ := Config{L2: 1}.NewAccumulator()
	b, _ := Config{L2: 2}.NewAccumulator()
	if err := a.Add(d); err != nil {
		t.Fatal(err)
	}
	if err := b.Add(d); err != nil {
		t.Fatal(err)
	}
	var me *gendisc.MergeError
	if err := a.Merge(b); !errors.As(err, &me) || !strings.Contains(me.Reason, "L2:2 ") {
		t.Errorf("merging another configuration: %v", err)
	}
	m, err := Config{}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	buf, _ := m.MarshalJSON()
	var p map[string]json.RawMessage
	if err := json.Unmarshal(buf, &p); err != nil {
		t.Fatal(err)
	}
	delete(p, "statistics")
	old, _ := json.Marshal(p)
	om, err := UnmarshalLinear(d.Schema, old)
	if err != nil {
		t.Fatal(err)
	}
	if om.Predict(nil, d)[5] != m.Predict(nil, d)[5] {
		t.Error("a model without statistics predicts differently")
	}
	acc := om.Accumulator()
	if err := acc.Add(d); !errors.Is(err, ErrNoStatistics) {
		t.Errorf("adding to a model without statistics: %v", err)
	}
	if err := m.Accumulator().Merge(acc); !errors.Is(err, ErrNoStatistics) {
		t.Errorf("merging a model without statistics: %v", err)
	}
	if _, err := acc.Model(); !errors.Is(err, ErrNoStatistics) {
		t.Errorf("finishing a model without statistics: %v", err)
	}
	txt := *d
	txt.Schema = d.Schema.Clone()
	txt.Schema.Features[0].Kind = data.Text
	if err := a.Add(&txt); err == nil {
		t.Error("a text column accepted")
	}
	holes := wineClass(t, false, true)
	if err := a.Add(holes); !errors.Is(err, design.ErrMissing) {
		t.Errorf("a missing cell without imputation: %v", err)
	}
	if m, err := a.Model(); err != nil || m.(*Model).stats.rows != d.N {
		t.Errorf("the accumulator changed after refusing rows: %v", err)
	}
	enc, _ := a.MarshalBinary()
	var dec Accumulator
	for _, bad := range [][]byte{enc[:len(enc)-1], enc[10:], append([]byte(header), `{"config":{"l2":-1}}`...)} {
		if err := dec.UnmarshalBinary(bad); err == nil {
			t.Errorf("bad encoding accepted: %.60q", bad)
		}
	}
}

// TestFarFromZero: a feature whose mean lies 10⁸ standard deviations from
// zero, where the normal equations (Σ x² − n x̄², in effect) would lose
// every digit, fitted on three shards and merged, gives the slope and
// residual variance of the two-pass centred formulas to 1e-12.
func TestFarFromZero(t *testing.T) {
	s := &data.Schema{Features: []data.Column{{Name: "x", Kind: data.Numeric}}, Target: &data.Column{Name: "y", Kind: data.Numeric}}
	d := &data.Dataset{Schema: s, N: 3000}
	u := make([]float64, d.N)
	for i := range d.N {
		d.X = append(d.X, 1e8+math.Sin(float64(i)))
		u[i] = d.X[i] - 1e8 // exact
		d.Y = append(d.Y, 3+0.5*u[i]+0.01*math.Cos(float64(7*i)))
	}
	ubar, ybar := 0.0, 0.0
	for i := range d.N {
		ubar += u[i] / float64(d.N)
		ybar += d.Y[i] / float64(d.N)
	}
	sxy, sxx := 0.0, 0.0
	for i := range d.N {
		sxy += (u[i] - ubar) * (d.Y[i] - ybar)
		sxx += (u[i] - ubar) * (u[i] - ubar)
	}
	slope, rss := sxy/sxx, 0.0
	for i := range d.N {
		r := d.Y[i] - ybar - slope*(u[i]-ubar)
		rss += r * r
	}
	a, _ := Config{}.NewAccumulator()
	for lo := 0; lo < d.N; lo += 1000 {
		part, _ := Config{}.NewAccumulator()
		idx := make([]int, 1000)
		for i := range idx {
			idx[i] = lo + (i*7+lo)%1000
		}
		if err := part.Add(d.Subset(idx)); err != nil {
			t.Fatal(err)
		}
		if err := a.Merge(part); err != nil {
			t.Fatal(err)
		}
	}
	m := finish(t, a)
	w, _ := m.OriginalCoefficients()
	if !closeRel(w[0], slope, 1e-12) || !closeRel(m.Sigma2(), rss/float64(d.N), 1e-12) {
		t.Errorf("slope %.15g, σ² %.15g; want %.15g, %.15g", w[0], m.Sigma2(), slope, rss/float64(d.N))
	}
}
