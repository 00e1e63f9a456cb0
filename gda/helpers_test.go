package gda

import (
	"math"
	"strconv"
	"testing"

	"github.com/gendisc/gendisc/data"
)

// matrix returns a data set of numeric features x0, x1, ... holding rows x
// with class indices y (-1 for a missing label) among classes.
func matrix(classes []string, x [][]float64, y []int) *data.Dataset {
	D := len(x[0])
	d := &data.Dataset{Schema: &data.Schema{Target: &data.Column{Name: "class", Kind: data.Categorical, Levels: classes}},
		N: len(x), Y: make([]float64, len(x)), Source: data.Named("matrix")}
	for j := range D {
		d.Schema.Features = append(d.Schema.Features, data.Column{Name: "x" + strconv.Itoa(j), Kind: data.Numeric})
	}
	for i, row := range x {
		d.X = append(d.X, row...)
		d.Y[i] = float64(y[i])
		if y[i] < 0 {
			d.Y[i] = math.NaN()
		}
	}
	return d
}

// near fails unless |got[i] − want[i]| ≤ tol for every i.
func near(t testing.TB, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if !(math.Abs(got[i]-want[i]) <= tol) {
			t.Fatalf("%s[%d] = %.17g, want %.17g (difference %.3g > %.3g)", what, i, got[i], want[i], got[i]-want[i], tol)
		}
	}
}

// nearRel fails unless |got[i] − want[i]| ≤ tol·max_j |want[j]|.
func nearRel(t testing.TB, what string, got, want []float64, tol float64) {
	t.Helper()
	scale := 0.0
	for _, v := range want {
		scale = max(scale, math.Abs(v))
	}
	near(t, what, got, want, tol*scale)
}

// proba returns exp of the log-probabilities of m on d.
func proba(m interface {
	LogProba([]float64, *data.Dataset) []float64
}, d *data.Dataset) []float64 {
	lp := m.LogProba(nil, d)
	for i, v := range lp {
		lp[i] = math.Exp(v)
	}
	return lp
}

func flatten(a [][]float64) []float64 {
	var out []float64
	for _, r := range a {
		out = append(out, r...)
	}
	return out
}
