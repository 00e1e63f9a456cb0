package compare

import (
	"fmt"
	"math"

	"github.com/gendisc/gendisc/data"
)

// Binary returns the rows of d whose class is a or b as a two-class data
// set with the classes [a, b] in that order: the binary tasks of Ng and
// Jordan on optdigits ("0" vs "1", "2" vs "3"). The features and their
// schema are copied; d is unchanged. It is an error when d has no
// categorical target, when a or b is not one of its classes, or when
// a == b.
func Binary(d *data.Dataset, a, b string) (*data.Dataset, error) {
	t := d.Schema.Target
	if t == nil || t.Kind != data.Categorical {
		return nil, fmt.Errorf("compare: %s: no categorical target to take classes %q and %q from", d.Source, a, b)
	}
	if a == b {
		return nil, fmt.Errorf("compare: %s: binary task of class %q against itself", d.Source, a)
	}
	ia, ib := t.Level(a), t.Level(b)
	for _, c := range []struct {
		name string
		i    int
	}{{a, ia}, {b, ib}} {
		if c.i < 0 {
			return nil, fmt.Errorf("compare: %s: no class %q among %q", d.Source, c.name, t.Levels)
		}
	}
	var idx []int
	for i, y := range d.Y {
		if y == float64(ia) || y == float64(ib) {
			idx = append(idx, i)
		}
	}
	s := d.Subset(idx)
	s.Schema = d.Schema.Clone()
	s.Schema.Target.Levels = []string{a, b}
	for i, y := range s.Y {
		s.Y[i] = 0
		if y == float64(ib) {
			s.Y[i] = 1
		}
	}
	s.Source.Name = fmt.Sprintf("%s (%s vs %s)", d.Source, a, b)
	return s, nil
}

// classRows returns the indices of the rows of each class of d, in row
// order; rows with a missing target are left out.
func classRows(d *data.Dataset) [][]int {
	rows := make([][]int, len(d.Schema.Classes()))
	for i, y := range d.Y {
		if !math.IsNaN(y) {
			rows[int(y)] = append(rows[int(y)], i)
		}
	}
	return rows
}
