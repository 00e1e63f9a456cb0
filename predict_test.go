package gendisc

import (
	"math"
	"slices"
	"testing"

	"github.com/gendisc/gendisc/data"
)

func TestArgmaxRows(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		name string
		v    []float64
		k    int
		want []int
	}{
		{"largest", []float64{-3, -0.1, -2, -0.5, -0.7, -0.2}, 3, []int{1, 2}},
		{"ties to the lowest", []float64{-1, -0.5, -0.5, -0.7, -0.7, -0.7}, 3, []int{1, 0}},
		{"one column", []float64{-1, 0, 5}, 1, []int{0, 0, 0}},
		{"NaN left out", []float64{nan, -1, -0.5, -0.2, nan, -0.3}, 3, []int{2, 0}},
		{"row of NaN", []float64{nan, nan}, 2, []int{0}},
		{"infinities", []float64{math.Inf(-1), math.Inf(-1), -inf, inf}, 2, []int{0, 1}},
		{"no rows", nil, 4, []int{}},
	} {
		if got := ArgmaxRows(nil, c.v, c.k); !slices.Equal(got, c.want) {
			t.Errorf("%s: ArgmaxRows(%v, %d) = %v, want %v", c.name, c.v, c.k, got, c.want)
		}
	}
}

func TestArgmaxRowsPanics(t *testing.T) {
	for _, c := range []struct {
		dst []int
		v   []float64
		k   int
	}{{nil, []float64{1, 2, 3}, 2}, {nil, []float64{1}, 0}, {make([]int, 2), []float64{1, 2}, 2}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("ArgmaxRows(%v, %v, %d) did not panic", c.dst, c.v, c.k)
				}
			}()
			ArgmaxRows(c.dst, c.v, c.k)
		}()
	}
}

// fixedClassifier is a classifier whose LogProba is the fixed matrix lp.
type fixedClassifier struct {
	classes []string
	lp      []float64
}

func (f fixedClassifier) Kind() string         { return "fixed" }
func (f fixedClassifier) Schema() *data.Schema { return &data.Schema{} }
func (f fixedClassifier) Classes() []string    { return f.classes }
func (f fixedClassifier) LogProba(dst []float64, d *data.Dataset) []float64 {
	return append(dst[:0], f.lp[:d.N*len(f.classes)]...)
}

func TestPredict(t *testing.T) {
	c := fixedClassifier{classes: []string{"a", "b"}, lp: []float64{math.Log(0.3), math.Log(0.7), math.Log(0.5), math.Log(0.5), math.Log(0.9), math.Log(0.1)}}
	got := Predict(c, &data.Dataset{N: 3})
	if want := []int{1, 0, 0}; !slices.Equal(got, want) {
		t.Errorf("Predict = %v, want %v", got, want)
	}
}
