package stats

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// naive computes the statistics of class k and feature j by the textbook
// two passes over the rows.
func naive(x, y, w []float64, d, k, j int) Moment {
	var a Moment
	for i, yi := range y {
		if v := x[i*d+j]; yi == float64(k) && v == v {
			a.W += weight(w, i)
			a.M += weight(w, i) * v
		}
	}
	if a.W == 0 {
		return Moment{}
	}
	a.M /= a.W
	for i, yi := range y {
		if v := x[i*d+j]; yi == float64(k) && v == v {
			a.S += weight(w, i) * (v - a.M) * (v - a.M)
		}
	}
	return a
}

// randomRows returns n rows of d features of k classes with some missing
// cells, missing labels and zero weights, and positive weights (nil when
// !weighted).
func randomRows(r *rand.Rand, n, d, k int, missing, weighted bool) (x, y, w []float64) {
	x, y = make([]float64, n*d), make([]float64, n)
	for i := range y {
		y[i] = float64(r.IntN(k))
		if missing && r.IntN(50) == 0 {
			y[i] = math.NaN()
		}
		for j := range d {
			x[i*d+j] = 100 + float64(j) + r.NormFloat64()*(1+y[i])
			if missing && r.IntN(20) == 0 {
				x[i*d+j] = math.NaN()
			}
		}
	}
	if weighted {
		w = make([]float64, n)
		for i := range w {
			w[i] = float64(r.IntN(4))
		}
	}
	return x, y, w
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*max(1, math.Abs(a), math.Abs(b)) }

func closeMoment(a, b Moment, tol float64) bool {
	return near(a.W, b.W, tol) && near(a.M, b.M, tol) && near(a.S, b.S, tol)
}

func TestAddMatchesTwoPass(t *testing.T) {
	defer func(b int) { blockCells = b }(blockCells)
	blockCells = 64 // blocks of a few rows: many block merges
	for _, c := range []struct {
		name              string
		missing, weighted bool
	}{{"complete", false, false}, {"missing", true, false}, {"weighted", false, true}, {"both", true, true}} {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			const n, d, k = 5000, 7, 4
			x, y, w := randomRows(r, n, d, k, c.missing, c.weighted)
			m := NewMoments(k, d)
			m.Add(x, y, w)
			for kk := range k {
				cw := 0.0
				for i, yi := range y {
					if yi == float64(kk) {
						cw += weight(w, i)
					}
				}
				if !near(m.ClassWeight[kk], cw, 1e-15) {
					t.Errorf("class %d weight %v, want %v", kk, m.ClassWeight[kk], cw)
				}
				for j := range d {
					if got, want := m.At(kk, j), naive(x, y, w, d, kk, j); !closeMoment(got, want, 1e-12) {
						t.Errorf("class %d feature %d: %+v, want %+v", kk, j, got, want)
					}
				}
			}
		})
	}
}

func TestAddIndependentOfCores(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	x, y, w := randomRows(r, 40000, 3, 3, true, true)
	fit := func(procs int) *Moments {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		m := NewMoments(3, 3)
		m.Add(x, y, w)
		return m
	}
	a, b := fit(1), fit(5)
	for i := range a.W {
		if a.W[i] != b.W[i] || a.M[i] != b.M[i] || a.S[i] != b.S[i] {
			t.Fatalf("cell %d: 1 core %v %v %v, 5 cores %v %v %v", i, a.W[i], a.M[i], a.S[i], b.W[i], b.M[i], b.S[i])
		}
	}
}

func TestMergeAndGrow(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const n, d = 3000, 4
	x, y, w := randomRows(r, n, d, 3, true, true)
	whole := NewMoments(3, d)
	whole.Add(x, y, w)

	// The first part holds classes 0 and 1 only; class 2 is appended.
	var xa, ya, wa, xb, yb, wb []float64
	for i := range n {
		if y[i] != 2 && i%3 != 0 {
			xa, ya, wa = append(xa, x[i*d:(i+1)*d]...), append(ya, y[i]), append(wa, w[i])
		} else {
			xb, yb, wb = append(xb, x[i*d:(i+1)*d]...), append(yb, y[i]), append(wb, w[i])
		}
	}
	a := NewMoments(2, d)
	a.Add(xa, ya, wa)
	a.Grow(3)
	b := NewMoments(3, d)
	b.Add(xb, yb, wb)
	c := a.Clone()
	c.Merge(b)
	for k := range 3 {
		if !near(c.ClassWeight[k], whole.ClassWeight[k], 1e-15) {
			t.Errorf("class %d weight %v, want %v", k, c.ClassWeight[k], whole.ClassWeight[k])
		}
		for j := range d {
			if !closeMoment(c.At(k, j), whole.At(k, j), 1e-12) {
				t.Errorf("class %d feature %d: merged %+v, whole %+v", k, j, c.At(k, j), whole.At(k, j))
			}
		}
	}
	if a.K() != 3 || a.At(2, 0) != (Moment{}) {
		t.Errorf("Clone shares storage or Grow did not add an empty class: %+v", a.At(2, 0))
	}
}

func TestFeature(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	const n, d = 500, 3
	x, y, w := randomRows(r, n, d, 3, true, true)
	m := NewMoments(3, d)
	m.Add(x, y, w)
	// Every labelled row as one class.
	one := make([]float64, n)
	for i := range one {
		if y[i] != y[i] {
			one[i] = math.NaN()
		}
	}
	for j := range d {
		if got, want := m.Feature(j), naive(x, one, w, d, 0, j); !closeMoment(got, want, 1e-12) {
			t.Errorf("feature %d: %+v, want %+v", j, got, want)
		}
	}
}

func TestMomentMergeEmpty(t *testing.T) {
	a := Moment{W: 2, M: 3, S: 4}
	if got := a.Merge(Moment{}); got != a {
		t.Errorf("merge with empty = %+v", got)
	}
	if got := (Moment{}).Merge(a); got != a {
		t.Errorf("empty merged with a = %+v", got)
	}
}

func TestPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"Merge shape":        func() { NewMoments(2, 3).Merge(NewMoments(3, 3)) },
		"Grow down":          func() { NewMoments(2, 3).Grow(1) },
		"Add lengths":        func() { NewMoments(2, 3).Add(make([]float64, 5), make([]float64, 2), nil) },
		"Add no labels, K 2": func() { NewMoments(2, 3).Add(make([]float64, 6), nil, nil) },
		"Add no labels, D 0": func() { NewMoments(1, 0).Add(nil, nil, nil) },
		"Add no labels, cut": func() { NewMoments(1, 3).Add(make([]float64, 5), nil, nil) },
		"Add no labels, w":   func() { NewMoments(1, 3).Add(make([]float64, 6), nil, []float64{1}) },
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

// TestAddWithoutLabels checks that nil labels put every row in the one
// class, bit for bit as labels of 0 do.
func TestAddWithoutLabels(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	x, _, w := randomRows(r, 30000, 4, 1, true, true)
	zeros := make([]float64, len(w))
	for _, w := range [][]float64{w, nil} {
		a, b := NewMoments(1, 4), NewMoments(1, 4)
		a.Add(x, nil, w)
		b.Add(x, zeros, w)
		if !slices.Equal(a.ClassWeight, b.ClassWeight) || !slices.Equal(a.W, b.W) || !slices.Equal(a.M, b.M) || !slices.Equal(a.S, b.S) {
			t.Errorf("nil labels: %+v, labels 0: %+v", a, b)
		}
	}
}
