package synth

import (
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/naivebayes"
)

// TestImputeCategorical removes 20% of the cells of house_votes84 at
// random, fits categorical naive Bayes on what is left and imputes the
// removed cells that had a value by their most probable level given the
// class posterior: of the row's label, and of its observed cells alone
// (label hidden). Both must be right more often than the column's mode.
// README.md quotes this test's log (go test ./synth -run
// TestImputeCategorical -v).
func TestImputeCategorical(t *testing.T) {
	full := bundled.Load(t, "house_votes84", dataio.Options{})
	d, removed := removeCells(full, 0.2, seeded(21))
	var truth []int // the removed cells that were not missing already
	for _, c := range removed {
		if full.X[c] == full.X[c] {
			truth = append(truth, c)
		}
	}
	m, err := naivebayes.Config{Family: naivebayes.Categorical}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	mode := columnModes(d)
	hidden := *d
	hidden.Y = nil
	right := [3]int{}
	for a, in := range []*data.Dataset{d, &hidden} {
		out, err := Impute(in, m, 0, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range truth {
			if out[0].X[c] == full.X[c] {
				right[a]++
			}
		}
	}
	for _, c := range truth {
		if mode[c%d.D()] == full.X[c] {
			right[2]++
		}
	}
	n := float64(len(truth))
	t.Logf("house_votes84, %d cells removed (%d of them had a value): right %.3f by categorical-nb given the label, %.3f given the observed cells only, %.3f by the column mode",
		len(removed), len(truth), float64(right[0])/n, float64(right[1])/n, float64(right[2])/n)
	if right[0] <= right[2] || right[1] <= right[2] {
		t.Errorf("categorical-nb right on %d and %d cells, the column mode on %d", right[0], right[1], right[2])
	}
}

// columnModes returns the most frequent observed level of every column of
// d (the lowest index among ties).
func columnModes(d *data.Dataset) []float64 {
	D := d.D()
	count := make([]map[float64]int, D)
	for j := range count {
		count[j] = map[float64]int{}
	}
	for i, v := range d.X {
		if v == v {
			count[i%D][v]++
		}
	}
	mode := make([]float64, D)
	for j, c := range count {
		best := -1
		for v, n := range c {
			if n > best || n == best && v < mode[j] {
				mode[j], best = v, n
			}
		}
	}
	return mode
}
