package stats

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// columns returns rows [lo, hi) of the row-major n×d matrix x as the
// columns of a d×stride block.
func columns(x []float64, d, lo, hi, stride int) []float64 {
	b := make([]float64, d*stride)
	for i := lo; i < hi; i++ {
		for j := range d {
			b[j*stride+i-lo] = x[i*d+j]
		}
	}
	return b
}

// TestAddColumns adds the rows of one class in column blocks of uneven
// sizes (AddColumns) and compares with Add of the rows (1e-12 relative),
// for Scatter and Moments.
func TestAddColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 2))
	const n, d, stride = 1000, 5, 160
	x, _, w := correlatedRows(rng, n, d, 1)
	for i := 0; i < n; i += 7 {
		w[i] = 0
	}
	ones := make([]float64, n)
	want := NewClasses(1, d, false)
	want.Add(x, ones, w)
	wantM := NewMoments(2, d)
	wantM.Add(x, ones, w)

	s := NewScatter(d, false)
	m := NewMoments(2, d)
	buf := make([]float64, stride+d)
	for lo := 0; lo < n; {
		hi := min(n, lo+1+rng.IntN(stride))
		m.AddColumns(0, columns(x, d, lo, hi, stride), stride, w[lo:hi])
		s.AddColumns(columns(x, d, lo, hi, stride), stride, w[lo:hi], buf)
		lo = hi
	}
	got := want.Class[0]
	if s.N != got.N || !relClose([]float64{s.W}, []float64{got.W}, 1e-15) || !relClose(s.Mean, got.Mean, 1e-12) || !relClose(s.S, got.S, 1e-12) {
		t.Errorf("AddColumns: %+v, Add: %+v", s, got)
	}
	for j := range d {
		for l := range d {
			if s.S[j*d+l] != s.S[l*d+j] {
				t.Fatalf("S not symmetric at %d, %d", j, l)
			}
		}
	}
	if !relClose(m.ClassWeight, wantM.ClassWeight, 1e-15) || m.ClassWeight[1] != 0 ||
		!relClose(m.W[:d], wantM.W[:d], 1e-15) || !relClose(m.M[:d], wantM.M[:d], 1e-12) || !relClose(m.S[:d], wantM.S[:d], 1e-12) {
		t.Errorf("Moments.AddColumns: %+v, Add: %+v", m, wantM)
	}

	// The conditional variances go to the sums of squares only.
	c := m.Clone()
	c.AddConditional(1, []int{1, 3}, []float64{2, 5}, 0.5)
	c.AddConditional(0, []int{4}, []float64{3}, 2)
	for j := range d {
		add := map[int]float64{4: 6}[j]
		if c.S[j] != m.S[j]+add || c.M[j] != m.M[j] || c.W[j] != m.W[j] {
			t.Errorf("AddConditional, feature %d: %v, want %v + %v", j, c.At(0, j), m.At(0, j), add)
		}
	}
	if c.S[d+1] != 1 || c.S[d+3] != 2.5 || c.W[d+1] != 0 {
		t.Errorf("AddConditional to an empty class: %v", c.S[d:])
	}

	// Blocks of weight 0 change nothing; Reset empties.
	before := s.Clone()
	s.AddColumns(make([]float64, d*stride), stride, make([]float64, 3), buf)
	s.AddColumns(nil, stride, nil, buf)
	if s.N != before.N || s.W != before.W || !relClose(s.S, before.S, 0) {
		t.Errorf("a block of weight 0 changed the statistics")
	}
	s.Reset()
	m.Reset()
	if s.W != 0 || s.N != 0 || m.ClassWeight[0] != 0 || m.S[0] != 0 {
		t.Errorf("Reset left %+v, %+v", s, m)
	}
	for name, f := range map[string]func(){
		"Scatter fourth":  func() { NewScatter(2, true).AddColumns(make([]float64, 8), 4, make([]float64, 4), buf) },
		"Scatter buf":     func() { NewScatter(2, false).AddColumns(make([]float64, 8), 4, make([]float64, 4), buf[:5]) },
		"Scatter short x": func() { NewScatter(2, false).AddColumns(make([]float64, 7), 4, make([]float64, 4), buf) },
		"Moments class":   func() { NewMoments(2, 2).AddColumns(2, make([]float64, 8), 4, make([]float64, 4)) },
		"Moments stride":  func() { NewMoments(2, 2).AddColumns(0, make([]float64, 8), 3, make([]float64, 4)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// TestConditionalFirst checks that the conditional variances added to an
// empty class before its rows (as an E-step adds them) are kept.
func TestConditionalFirst(t *testing.T) {
	x := []float64{1, 3, 10, 14} // two rows of two features, feature-major
	w := []float64{1, 1}
	m := NewMoments(1, 2)
	m.AddConditional(0, []int{1}, []float64{2}, 3)
	m.AddColumns(0, x, 2, w)
	if a := m.At(0, 1); a.W != 2 || a.M != 12 || a.S != 6+8 {
		t.Errorf("Moments: %+v, want W 2, M 12, S 14", a)
	}
	c := NewClasses(1, 2, false)
	c.AddConditional(0, []int{1}, []float64{2}, 3)
	c.Class[0].AddColumns(slices.Clone(x), 2, w, make([]float64, 4))
	if s := c.Class[0]; s.W != 2 || s.Mean[1] != 12 || s.S[3] != 14 || s.S[1] != 4 || s.S[2] != 4 {
		t.Errorf("Scatter: %+v, want W 2, mean 12, S [2 4; 4 14]", s)
	}
}
