package classprior

import (
	"math"
	"strings"
	"testing"
)

func TestEstimate(t *testing.T) {
	classes := []string{"a", "b", "c"}
	w := []float64{6, 3, 0}
	for _, tc := range []struct {
		name  string
		alpha float64
		fixed map[string]float64
		want  []float64
	}{
		{"mle", 0, nil, []float64{6.0 / 9, 3.0 / 9, 0}},
		{"alpha", 1, nil, []float64{7.0 / 12, 4.0 / 12, 1.0 / 12}},
		{"fixed", 0, map[string]float64{"a": 0.2, "b": 0.3, "c": 0.5}, []float64{0.2, 0.3, 0.5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := Check(tc.alpha, tc.fixed); err != nil {
				t.Fatal(err)
			}
			got, err := Estimate(tc.alpha, tc.fixed, classes, w)
			if err != nil {
				t.Fatal(err)
			}
			sum := 0.0
			for k := range got {
				sum += got[k]
				if math.Abs(got[k]-tc.want[k]) > 1e-15 {
					t.Errorf("π_%d = %v, want %v", k, got[k], tc.want[k])
				}
			}
			if math.Abs(sum-1) > 1e-15 {
				t.Errorf("Σ π_k = %v", sum)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		alpha float64
		fixed map[string]float64
		want  string
	}{
		{-1, nil, "prior alpha -1"},
		{math.NaN(), nil, "prior alpha NaN"},
		{math.Inf(1), nil, "prior alpha +Inf"},
		{1, map[string]float64{"a": 1}, "exclude each other"},
		{0, map[string]float64{}, "is empty"},
		{0, map[string]float64{"a": 0, "b": 1}, `class prior of "a" is 0`},
		{0, map[string]float64{"a": 0.5, "b": 0.6}, "sum to 1.1"},
	} {
		err := Check(tc.alpha, tc.fixed)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Check(%v, %v) = %v, want an error with %q", tc.alpha, tc.fixed, err, tc.want)
		}
	}
	classes := []string{"a", "b"}
	for _, tc := range []struct {
		fixed map[string]float64
		want  string
	}{
		{map[string]float64{"a": 0.5, "z": 0.5}, `class prior for "z", which is not a class`},
		{map[string]float64{"a": 1}, `lacks class "b"`},
	} {
		if _, err := Estimate(0, tc.fixed, classes, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Estimate(%v) = %v, want an error with %q", tc.fixed, err, tc.want)
		}
	}
}
