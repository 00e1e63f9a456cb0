package data

import (
	"reflect"
	"testing"
)

// TestSubsetInto checks that SubsetInto gives Subset's rows and reuses
// the storage of dst: a second, smaller subset allocates nothing.
func TestSubsetInto(t *testing.T) {
	d := &Dataset{
		Schema: &Schema{Features: []Column{{Name: "a"}, {Name: "t", Kind: Text}}},
		N:      4,
		X:      []float64{1, 0, 2, 0, 3, 0, 4, 0},
		Text:   [][]string{nil, {"w", "x", "y", "z"}},
		Y:      []float64{0, 1, 0, 1},
		Weight: []float64{1, 2, 3, 4},
		Source: Provenance{Name: "f", Lines: []int{2, 3, 4, 5}},
	}
	var buf *Dataset
	for _, idx := range [][]int{{3, 0, 2}, {1, 2}, {0}} {
		buf = d.SubsetInto(buf, idx)
		if want := d.Subset(idx); !reflect.DeepEqual(buf, want) {
			t.Errorf("%v: %+v, want %+v", idx, buf, want)
		}
	}
	if n := testing.AllocsPerRun(10, func() { buf = d.SubsetInto(buf, []int{2, 1}) }); n != 0 {
		t.Errorf("%v allocations reusing the storage, want 0", n)
	}
}
