package compare

import (
	"errors"
	"math"
	"slices"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/mathx"
)

// centroid is a stub classifier for the tests: nearest class mean,
//
//	log P(y = k | x) ∝ −‖x − μ_k‖² / 2,
//
// on numeric features without missing values.
type centroid struct {
	schema *data.Schema
	mean   []float64 // K × D
}

func fitCentroid(d *data.Dataset) (gendisc.Classifier, error) {
	K, D := len(d.Schema.Classes()), d.D()
	m := &centroid{schema: d.Schema, mean: make([]float64, K*D)}
	count := make([]float64, K)
	for i, y := range d.Y {
		k := int(y)
		count[k]++
		for j, v := range d.Row(i) {
			m.mean[k*D+j] += v
		}
	}
	for k, c := range count {
		if c == 0 {
			return nil, errors.New("centroid: a class has no rows")
		}
		for j := range D {
			m.mean[k*D+j] /= c
		}
	}
	return m, nil
}

func (m *centroid) Kind() string         { return "centroid" }
func (m *centroid) Schema() *data.Schema { return m.schema }
func (m *centroid) Classes() []string    { return m.schema.Classes() }
func (m *centroid) LogProba(dst []float64, d *data.Dataset) []float64 {
	K, D := len(m.Classes()), d.D()
	if dst == nil {
		dst = make([]float64, d.N*K)
	}
	for i := range d.N {
		s := dst[i*K : (i+1)*K]
		for k := range K {
			var ss float64
			for j, v := range d.Row(i) {
				e := v - m.mean[k*D+j]
				ss += e * e
			}
			s[k] = -ss / 2
		}
		mathx.NormalizeLog(s)
	}
	return dst
}

// stub is a learner that fits a centroid.
func stub(name string, f Family) Learner {
	return Learner{Name: name, Family: f, Fit: fitCentroid}
}

// failing is a learner whose fit always fails.
func failing(name string) Learner {
	return Learner{Name: name, Fit: func(*data.Dataset) (gendisc.Classifier, error) {
		return nil, errors.New("no fit")
	}}
}

// points makes a curve of means at sizes 1, 2, 3, ...
func points(means ...float64) []Point {
	p := make([]Point, len(means))
	for i, m := range means {
		p[i] = Point{M: i + 1, Mean: m}
	}
	return p
}

// fell marks the points at the indices as having fallen back in one split.
func fell(pts []Point, at ...int) []Point {
	for _, i := range at {
		pts[i].Fallbacks = 1
	}
	return pts
}

func sum(v []int) int {
	s := 0
	for _, x := range v {
		s += x
	}
	return s
}

func isSortedUnique(v []int) bool {
	return slices.IsSorted(v) && len(slices.Compact(slices.Clone(v))) == len(v)
}

func closeTo(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// classCounts counts the rows of each class of d among rows.
func classCounts(d *data.Dataset, rows []int) []int {
	c := make([]int, len(d.Schema.Classes()))
	for _, i := range rows {
		c[int(d.Y[i])]++
	}
	return c
}
