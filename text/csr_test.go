package text

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randomCSR returns a sparse matrix with about a third of its cells set
// to small counts, with its dense form.
func randomCSR(rng *rand.Rand, rows, cols int) (*CSR, []float64) {
	m := newCSR(rows)
	m.Cols = cols
	dense := make([]float64, rows*cols)
	for i := range rows {
		for j := range cols {
			if rng.IntN(3) == 0 {
				v := float64(1 + rng.IntN(4))
				dense[i*cols+j] = v
				m.Indices = append(m.Indices, int32(j))
				m.Data = append(m.Data, v)
			}
		}
		m.Indptr = append(m.Indptr, len(m.Indices))
	}
	return m, dense
}

func randomFloats(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*(1+math.Abs(b)) }

func TestCSRProducts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const rows, cols, k = 23, 17, 3
	m, dense := randomCSR(rng, rows, cols)
	w := randomFloats(rng, rows)
	y := make([]float64, rows)
	for i := range y {
		y[i] = float64(rng.IntN(k))
	}
	y[5] = math.NaN()

	sums := m.ColumnSums(nil, w)
	class := m.ClassColumnSums(nil, y, k, w)
	bin := m.Binarize().ClassColumnSums(nil, y, k, nil)
	for j := range cols {
		var s float64
		c := make([]float64, k)
		present := make([]float64, k)
		for i := range rows {
			x := dense[i*cols+j]
			s += w[i] * x
			if !math.IsNaN(y[i]) {
				c[int(y[i])] += w[i] * x
				if x > 0 {
					present[int(y[i])]++
				}
			}
		}
		if !near(sums[j], s) {
			t.Errorf("ColumnSums[%d] = %v, want %v", j, sums[j], s)
		}
		for cl := range k {
			if !near(class[cl*cols+j], c[cl]) || bin[cl*cols+j] != present[cl] {
				t.Errorf("class %d column %d: sums %v, %v; want %v, %v", cl, j, class[cl*cols+j], bin[cl*cols+j], c[cl], present[cl])
			}
		}
	}

	b := randomFloats(rng, k*cols)
	prod := m.MulTo(nil, b, k)
	r := randomFloats(rng, rows*k)
	tprod := m.TMulTo(nil, r, k)
	for i := range rows {
		for c := range k {
			var s float64
			for j := range cols {
				s += dense[i*cols+j] * b[c*cols+j]
			}
			if !near(prod[i*k+c], s) {
				t.Errorf("MulTo[%d,%d] = %v, want %v", i, c, prod[i*k+c], s)
			}
		}
	}
	for j := range cols {
		for c := range k {
			var s float64
			for i := range rows {
				s += dense[i*cols+j] * r[i*k+c]
			}
			if !near(tprod[j*k+c], s) {
				t.Errorf("TMulTo[%d,%d] = %v, want %v", j, c, tprod[j*k+c], s)
			}
		}
	}
}

func TestMapColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const rows, cols, out = 19, 13, 5
	m, dense := randomCSR(rng, rows, cols)
	to := make([]int32, cols) // columns 0..out-1 of the result, the rest dropped
	for j, p := range rng.Perm(cols) {
		to[j] = int32(p)
		if p >= out {
			to[j] = -1
		}
	}
	got := m.MapColumns(to, out)
	checkRows(t, got)
	want := make([]float64, rows*out)
	for i := range rows {
		for j := range cols {
			if to[j] >= 0 {
				want[i*out+int(to[j])] += dense[i*cols+j]
			}
		}
	}
	for i := range rows {
		row := make([]float64, out)
		idx, val := got.Row(i)
		for e, j := range idx {
			row[j] = val[e]
		}
		for j := range out {
			if row[j] != want[i*out+j] {
				t.Fatalf("row %d column %d: %v, want %v", i, j, row[j], want[i*out+j])
			}
		}
	}
}

func TestCSRPanics(t *testing.T) {
	m, _ := randomCSR(rand.New(rand.NewPCG(7, 8)), 4, 3)
	for name, f := range map[string]func(){
		"ColumnSums dst":      func() { m.ColumnSums(make([]float64, 2), nil) },
		"ColumnSums weights":  func() { m.ColumnSums(nil, make([]float64, 3)) },
		"ClassColumnSums y":   func() { m.ClassColumnSums(nil, make([]float64, 3), 2, nil) },
		"ClassColumnSums cls": func() { m.ClassColumnSums(nil, []float64{0, 1, 2, 0}, 2, nil) },
		"MulTo b":             func() { m.MulTo(nil, make([]float64, 5), 2) },
		"TMulTo r":            func() { m.TMulTo(nil, make([]float64, 5), 2) },
		"MapColumns to":       func() { m.MapColumns(make([]int32, 2), 3) },
		"MapColumns range":    func() { m.MapColumns([]int32{0, 3, 1}, 3) },
		"MapColumns twice":    func() { m.MapColumns([]int32{0, 1, 1}, 3) },
		"SelectRows range":    func() { m.SelectRows([]int{0, 4}) },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// TestSelectRows: the rows asked for, in the order asked (repeats
// allowed), with the matrix's columns.
func TestSelectRows(t *testing.T) {
	m, dense := randomCSR(rand.New(rand.NewPCG(9, 10)), 6, 5)
	rows := []int{4, 0, 4, 2}
	s := m.SelectRows(rows)
	if s.Rows != len(rows) || s.Cols != m.Cols || len(s.Indptr) != len(rows)+1 {
		t.Fatalf("%d × %d, %d row pointers", s.Rows, s.Cols, len(s.Indptr))
	}
	for r, i := range rows {
		got := make([]float64, m.Cols)
		idx, val := s.Row(r)
		for e, j := range idx {
			got[j] += val[e]
		}
		for j, v := range got {
			if v != dense[i*m.Cols+j] {
				t.Fatalf("row %d (of %d), column %d: %v, want %v", r, i, j, v, dense[i*m.Cols+j])
			}
		}
	}
}

// TestRowCountsWrap checks that the row builder forgets its stamps when
// they wrap around instead of taking an old document's column as seen.
func TestRowCountsWrap(t *testing.T) {
	var r rowCounts
	r.grow(3)
	m := newCSR(3)
	r.stamp = math.MaxUint32 - 1
	r.slots[2].stamp = 1 // left by a document long ago
	add := func(cols ...int32) {
		r.next(len(m.Indices))
		for _, j := range cols {
			r.add(m, j, 1)
		}
		m.Indptr = append(m.Indptr, len(m.Indices))
	}
	add(0, 1, 0) // stamp MaxUint32
	add(2, 2)    // wraps to 1 with the slots cleared
	add(0, 2)
	if r.stamp != 2 {
		t.Errorf("stamp %d, want 2", r.stamp)
	}
	want := &CSR{Rows: 3, Indptr: []int{0, 2, 3, 5}, Indices: []int32{0, 1, 2, 0, 2}, Data: []float64{2, 1, 2, 1, 1}}
	if d := csrDiff(m, want); d != "" {
		t.Errorf("rows %+v, want %+v", m, want)
	}
}
