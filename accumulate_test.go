package gendisc_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
)

// TestMergeError: the one merge error reads as the families' did and
// wraps ErrMerge.
func TestMergeError(t *testing.T) {
	var err error = &gendisc.MergeError{Package: "naivebayes", Kind: "nb", Other: "gaussian-nb", Reason: "another kind of model"}
	err = fmt.Errorf("two.json: %w", err)
	if want := "two.json: naivebayes: cannot merge the statistics of gaussian-nb into nb: another kind of model"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	var me *gendisc.MergeError
	if !errors.Is(err, gendisc.ErrMerge) || !errors.As(err, &me) || me.Other != "gaussian-nb" {
		t.Errorf("%v: not a *MergeError wrapping ErrMerge", err)
	}
}

// TestLabelled: the rows with a NaN target are left out and counted; a
// dataset without unlabelled rows or without a target comes back as it is.
func TestLabelled(t *testing.T) {
	nan := math.NaN()
	s := &data.Schema{Features: []data.Column{{Name: "x", Kind: data.Numeric}},
		Target: &data.Column{Name: "y", Kind: data.Categorical, Levels: []string{"a", "b"}}}
	d := &data.Dataset{Schema: s, N: 4, X: []float64{1, 2, 3, 4}, Y: []float64{0, nan, 1, nan}}
	l, n := gendisc.Labelled(d)
	if n != 2 || l.N != 2 || !slices.Equal(l.X, []float64{1, 3}) || !slices.Equal(l.Y, []float64{0, 1}) {
		t.Errorf("Labelled: %d rows %v %v, %d dropped; want rows x = 1, 3 and 2 dropped", l.N, l.X, l.Y, n)
	}
	if l, n := gendisc.Labelled(l); n != 0 || l.N != 2 {
		t.Errorf("Labelled of labelled rows: %d rows, %d dropped", l.N, n)
	}
	u := &data.Dataset{Schema: &data.Schema{Features: s.Features}, N: 4, X: d.X}
	if l, n := gendisc.Labelled(u); n != 0 || l != u {
		t.Errorf("Labelled without a target: %d rows, %d dropped; want d itself", l.N, n)
	}
}
