package naivebayes

import (
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/gendisc/gendisc/data"
)

// matrix returns a data set of numeric features x0, x1, ... holding rows x
// with class indices y (-1 for a missing label) among classes.
func matrix(classes []string, x [][]float64, y []int) *data.Dataset {
	names := make([]string, len(x[0]))
	for j := range names {
		names[j] = "x" + strconv.Itoa(j)
	}
	labels := slices.Clone(y)
	for i := range labels {
		labels[i] = max(labels[i], 0)
	}
	d := data.FromMatrix(names, slices.Concat(x...), classes, labels)
	for i, c := range y {
		if c < 0 {
			d.Y[i] = math.NaN()
		}
	}
	d.Source.Name = "matrix"
	return d
}

func fit(t testing.TB, c GaussianConfig, d *data.Dataset) *Gaussian {
	t.Helper()
	m, err := c.Fit(d)
	if err != nil {
		t.Fatalf("Fit: %v", err)
	}
	return m
}

// near reports whether a and b agree within tol relative to max(1, |b|).
func near(a, b, tol float64) bool {
	return a == b || math.Abs(a-b) <= tol*max(1, math.Abs(b))
}

func checkNear(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if !near(got[i], want[i], tol) {
			t.Fatalf("%s[%d] = %v, want %v (diff %.3g)", what, i, got[i], want[i], got[i]-want[i])
		}
	}
}
