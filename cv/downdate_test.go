package cv

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/linear"
	"github.com/gendisc/gendisc/naivebayes"
)

// TestLeaveOneOutDowndate checks that the leave-one-out result by
// downdating equals Runner.Run's with LeaveOneOut folds, which refits
// every row, figure for figure to 1e-12 relative, for each configuration
// it covers; and that another one is refused with ErrDowndate.
func TestLeaveOneOutDowndate(t *testing.T) {
	classes, values := head(classData(t), 150), head(regressionData(t), 60)
	for _, c := range []struct {
		settings any
		d        *data.Dataset
		fit      func(d *data.Dataset) (gendisc.Model, error)
	}{
		{naivebayes.GaussianConfig{PriorAlpha: 2}, classes, func(d *data.Dataset) (gendisc.Model, error) {
			return model(naivebayes.GaussianConfig{PriorAlpha: 2}.Fit(d))
		}},
		{gda.LDAConfig{}, classes, func(d *data.Dataset) (gendisc.Model, error) { return model(gda.LDAConfig{}.Fit(d)) }},
		{gda.QDAConfig{}, classes, func(d *data.Dataset) (gendisc.Model, error) { return model(gda.QDAConfig{}.Fit(d)) }},
		{linear.Config{}, values, func(d *data.Dataset) (gendisc.Model, error) { return model(linear.Config{}.Fit(d)) }},
	} {
		t.Run(fmt.Sprintf("%T", c.settings), func(t *testing.T) {
			got, err := LeaveOneOutDowndate(c.settings, c.d)
			if err != nil {
				t.Fatal(err)
			}
			want, err := (&Runner{Fit: c.fit}).Run(c.d, LeaveOneOut(c.d.N))
			if err != nil {
				t.Fatal(err)
			}
			if path, ok := sameJSON(t, got, want); !ok {
				t.Errorf("%s differs from a refit's", path)
			}
		})
	}
	if _, err := LeaveOneOutDowndate(naivebayes.GaussianConfig{Variance: naivebayes.FeatureVariance}, classes); !errors.Is(err, ErrDowndate) {
		t.Errorf("tied variances: %v, want ErrDowndate", err)
	}
	if _, err := LeaveOneOutDowndate("logistic", classes); !errors.Is(err, ErrDowndate) {
		t.Errorf("an unknown configuration: %v, want ErrDowndate", err)
	}
}

// sameJSON reports whether a and b marshal to the same JSON, numbers to
// 1e-12 relative (nearRel), and the path of the first difference.
func sameJSON(t *testing.T, a, b any) (string, bool) {
	t.Helper()
	var va, vb any
	for _, p := range []struct {
		v   any
		out *any
	}{{a, &va}, {b, &vb}} {
		j, err := json.Marshal(p.v)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(j, p.out); err != nil {
			t.Fatal(err)
		}
	}
	var walk func(path string, a, b any) (string, bool)
	walk = func(path string, a, b any) (string, bool) {
		switch a := a.(type) {
		case map[string]any:
			bm, ok := b.(map[string]any)
			if !ok || len(bm) != len(a) {
				return path, false
			}
			for k, v := range a {
				if p, ok := walk(path+"."+k, v, bm[k]); !ok {
					return p, false
				}
			}
		case []any:
			bs, ok := b.([]any)
			if !ok || len(bs) != len(a) {
				return path, false
			}
			for i := range a {
				if p, ok := walk(fmt.Sprintf("%s[%d]", path, i), a[i], bs[i]); !ok {
					return p, false
				}
			}
		case float64:
			bf, ok := b.(float64)
			return path, ok && nearRel(a, bf, 1e-12)
		default:
			return path, a == b
		}
		return path, true
	}
	return walk("", va, vb)
}
