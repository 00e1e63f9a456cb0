package naivebayes

import (
	"encoding/csv"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/datasets"
)

// load reads a bundled data set whose features are all numeric, the class
// in the last column, levels sorted as strings.
//
// TODO(data): use data.Read once it is committed.
func load(t testing.TB, name string) *data.Dataset {
	t.Helper()
	r, err := datasets.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rows, err := csv.NewReader(r).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	header, rows := rows[0], rows[1:]
	D := len(header) - 1
	var labels []string
	for _, row := range rows {
		labels = append(labels, row[D])
	}
	slices.Sort(labels)
	labels = slices.Compact(labels)
	d := &data.Dataset{Schema: &data.Schema{Target: &data.Column{Name: header[D], Kind: data.Categorical, Levels: labels}},
		N: len(rows), X: make([]float64, len(rows)*D), Y: make([]float64, len(rows)), Source: name, Lines: make([]int, len(rows))}
	for _, h := range header[:D] {
		d.Schema.Features = append(d.Schema.Features, data.Column{Name: h, Kind: data.Numeric})
	}
	for i, row := range rows {
		for j, s := range row[:D] {
			v := math.NaN()
			if s != "" {
				if v, err = strconv.ParseFloat(s, 64); err != nil {
					t.Fatal(err)
				}
			}
			d.X[i*D+j] = v
		}
		d.Y[i] = float64(slices.Index(labels, row[D]))
		d.Lines[i] = i + 2
	}
	return d
}

// matrix returns a data set of numeric features x0, x1, ... holding rows x
// with class indices y (-1 for a missing label) among classes.
func matrix(classes []string, x [][]float64, y []int) *data.Dataset {
	D := len(x[0])
	d := &data.Dataset{Schema: &data.Schema{Target: &data.Column{Name: "class", Kind: data.Categorical, Levels: classes}},
		N: len(x), Y: make([]float64, len(x)), Source: "matrix"}
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
