package stats

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/gendisc/gendisc/internal/mathx"
)

// direct computes the statistics of the rows of class k by the textbook
// two-pass formulas.
func direct(x, y, w []float64, d, k int) *Scatter {
	s := NewScatter(d, true)
	for i := range y {
		if y[i] != float64(k) || w[i] == 0 || mathx.HasNaN(x[i*d:(i+1)*d]) {
			continue
		}
		s.N++
		s.W += w[i]
		for j := range d {
			s.Mean[j] += w[i] * x[i*d+j]
		}
	}
	for j := range d {
		s.Mean[j] /= s.W
	}
	for i := range y {
		if y[i] != float64(k) || w[i] == 0 || mathx.HasNaN(x[i*d:(i+1)*d]) {
			continue
		}
		for j := range d {
			ej := x[i*d+j] - s.Mean[j]
			for l := range d {
				el := x[i*d+l] - s.Mean[l]
				s.S[j*d+l] += w[i] * ej * el
				s.M3[j*d+l] += w[i] * ej * ej * el
				s.M4[j*d+l] += w[i] * ej * ej * el * el
			}
		}
	}
	return s
}

func correlatedRows(rng *rand.Rand, n, d, k int) (x, y, w []float64) {
	x, y, w = make([]float64, n*d), make([]float64, n), make([]float64, n)
	for i := range n {
		y[i] = float64(rng.IntN(k))
		w[i] = 0.5 + rng.Float64()
		for j := range d {
			// Features of different scales and offsets, correlated.
			x[i*d+j] = 1000*float64(j) + float64(j+1)*rng.NormFloat64() + y[i]
			if j > 0 {
				x[i*d+j] += x[i*d+j-1] / 2000
			}
		}
	}
	return x, y, w
}

func close(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: length %d, want %d", what, len(got), len(want))
	}
	scale := 0.0
	for _, v := range want {
		scale = max(scale, math.Abs(v))
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > tol*scale {
			t.Fatalf("%s[%d] = %v, want %v (tolerance %g of %g)", what, i, got[i], want[i], tol, scale)
		}
	}
}

func checkScatter(t *testing.T, what string, got, want *Scatter) {
	t.Helper()
	if got.N != want.N || math.Abs(got.W-want.W) > 1e-12*want.W {
		t.Fatalf("%s: N, W = %d, %v, want %d, %v", what, got.N, got.W, want.N, want.W)
	}
	close(t, what+" mean", got.Mean, want.Mean, 1e-13)
	close(t, what+" S", got.S, want.S, 1e-11)
	if want.Fourth() && got.Fourth() {
		close(t, what+" M3", got.M3, want.M3, 1e-9)
		close(t, what+" M4", got.M4, want.M4, 1e-9)
	}
}

// TestAddMatchesDirect checks Add against the two-pass formulas for
// dimensions below, at and above the packed groups of kernel.SyrkPacked
// (7, 16, 33), with unlabelled rows, rows of weight 0, and missing cells
// in the first row and in later ones.
func TestAddMatchesDirect(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, k = 5000, 3
	for _, d := range []int{7, 16, 33} {
		x, y, w := correlatedRows(rng, n, d, k)
		y[10] = math.NaN() // unlabelled: skipped
		w[11] = 0          // weight 0: skipped
		x[d-1] = math.NaN()
		x[12*d+3] = math.NaN()
		x[4000*d] = math.NaN()
		for _, fourth := range []bool{false, true} {
			c := NewClasses(k, d, fourth)
			inc, inf := c.Add(x, y, w)
			if !slices.Equal(inc, []int{0, 12, 4000}) || inf != -1 {
				t.Errorf("d %d: incomplete rows %v and infinite cell %d, want [0 12 4000] and -1", d, inc, inf)
			}
			for cl := range k {
				want := direct(x, y, w, d, cl)
				checkScatter(t, "class", c.Class[cl], want)
				if !fourth && c.Class[cl].Fourth() {
					t.Fatal("fourth moments kept without asking")
				}
			}
		}
	}
}

// TestAddInfinite checks that Add refuses rows with an infinite cell: it
// returns the index of the first one in row-major order, whichever
// segment, row (unlabelled, of weight 0, a class's first, with a missing
// cell before it) or sign it is, leaves the statistics unchanged, and
// leaves nothing behind for the next Add.
func TestAddInfinite(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n, d, k = 40000, 7, 3 // 16 segments of 2,500 rows
	x, y, w := correlatedRows(rng, n, d, k)
	inf := math.Inf(1)
	for _, fourth := range []bool{false, true} {
		want := NewClasses(k, d, fourth)
		if _, i := want.Add(x, y, w); i != -1 {
			t.Fatalf("infinite cell %d of finite rows", i)
		}
		for _, tc := range []struct {
			name  string
			cells map[int]float64 // index in x: value
			first int
		}{
			{"last segment", map[int]float64{(n-1)*d + 6: inf}, (n-1)*d + 6},
			{"two segments", map[int]float64{39000*d + 2: inf, 2600*d + 5: -inf}, 2600*d + 5},
			{"unlabelled row", map[int]float64{30000*d + 1: inf, 20000*d + 3: inf, 20000 * d: math.NaN()}, 20000*d + 3},
			{"weight 0", map[int]float64{7000*d + 4: -inf, 7000*d + 6: inf}, 7000*d + 4},
			{"first row", map[int]float64{0: math.NaN(), 2: -inf, 5*d + 1: inf}, 2},
			{"after a missing cell", map[int]float64{12345*d + 1: math.NaN(), 12345*d + 6: inf}, 12345*d + 6},
		} {
			xx, yy, ww := slices.Clone(x), slices.Clone(y), slices.Clone(w)
			for i, v := range tc.cells {
				xx[i] = v
			}
			yy[20000] = math.NaN()
			ww[7000] = 0
			c := NewClasses(k, d, fourth)
			c.Add(x[:100*d], y[:100], w[:100])
			before := c.Clone()
			inc, i := c.Add(xx, yy, ww)
			if i != tc.first || inc != nil {
				t.Errorf("fourth %v, %s: infinite cell %d and incomplete rows %v, want %d and none", fourth, tc.name, i, inc, tc.first)
			}
			if !reflect.DeepEqual(c, before) {
				t.Errorf("fourth %v, %s: the statistics changed", fourth, tc.name)
			}
			again := NewClasses(k, d, fourth)
			if _, i := again.Add(x, y, w); i != -1 || !reflect.DeepEqual(again, want) {
				t.Errorf("fourth %v, %s: the next Add differs", fourth, tc.name)
			}
		}
	}
}

func TestMergeEqualsAll(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n, d, k = 3000, 5, 2
	x, y, w := correlatedRows(rng, n, d, k)
	all := NewClasses(k, d, true)
	all.Add(x, y, w)
	parts := NewClasses(k, d, true)
	for _, cut := range [][2]int{{0, 17}, {17, 1500}, {1500, n}} {
		p := NewClasses(k, d, true)
		p.Add(x[cut[0]*d:cut[1]*d], y[cut[0]:cut[1]], w[cut[0]:cut[1]])
		parts.Merge(p)
	}
	for cl := range k {
		checkScatter(t, "merged", parts.Class[cl], all.Class[cl])
	}
	total := all.Total()
	yy := make([]float64, n)
	checkScatter(t, "total", total, direct(x, yy, w, d, 0))
}

func TestUnitWeightsEqualNil(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, d, k = 2000, 4, 3
	x, y, _ := correlatedRows(rng, n, d, k)
	a, b := NewClasses(k, d, false), NewClasses(k, d, false)
	a.Add(x, y, nil)
	ones := make([]float64, n)
	for i := range ones {
		ones[i] = 1
	}
	b.Add(x, y, ones)
	for cl := range k {
		if !slices.Equal(a.Class[cl].S, b.Class[cl].S) || a.Class[cl].W != float64(a.Class[cl].N) {
			t.Fatal("nil weights differ from unit weights")
		}
	}
}

func TestAddConditional(t *testing.T) {
	c := NewClasses(1, 3, false)
	c.AddConditional(0, []int{2, 0}, []float64{1, 2, 2, 5}, 0.5)
	want := []float64{2.5, 0, 1, 0, 0, 0, 1, 0, 0.5}
	if !slices.Equal(c.Class[0].S, want) {
		t.Fatalf("S = %v, want %v", c.Class[0].S, want)
	}
}

func TestGrowAndClone(t *testing.T) {
	c := NewClasses(2, 3, true)
	c.Add([]float64{1, 2, 3, 4, 5, 7}, []float64{1, 1}, nil)
	o := c.Clone()
	o.Grow(4)
	if o.K() != 4 || c.K() != 2 || !o.Class[3].Fourth() || o.Class[1].W != 2 {
		t.Fatal("Grow or Clone wrong")
	}
	o.Class[1].S[0] = 99
	if c.Class[1].S[0] == 99 {
		t.Fatal("Clone shares storage")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("Grow to fewer classes did not panic")
		}
	}()
	o.Grow(1)
}

// TestLedoitWolf checks the shrinkage against scikit-learn 1.2.1:
// ledoit_wolf_shrinkage(StandardScaler().fit_transform(X)) for
// X = [[1,2,0],[2,1,1],[4,4,0],[0,1,2],[3,5,1]] is 0.5815393733250872.
func TestLedoitWolf(t *testing.T) {
	x := []float64{1, 2, 0, 2, 1, 1, 4, 4, 0, 0, 1, 2, 3, 5, 1}
	c := NewClasses(1, 3, true)
	c.Add(x, make([]float64, 5), nil)
	got := c.Class[0].LedoitWolf()
	if want := 0.5815393733250872; math.Abs(got-want) > 1e-14 {
		t.Fatalf("LedoitWolf = %.16g, want %.16g", got, want)
	}
}

// TestCovariance: Covariance is S/W entry by entry, into dst or a new
// slice, and NaN for a class without rows.
func TestCovariance(t *testing.T) {
	s := &Scatter{D: 2, W: 3, Mean: []float64{0, 0}, S: []float64{1, 0.5, 0.5, 7}}
	want := []float64{1.0 / 3, 0.5 / 3, 0.5 / 3, 7.0 / 3}
	if got := s.Covariance(nil); !slices.Equal(got, want) {
		t.Errorf("Covariance = %v, want %v", got, want)
	}
	dst := make([]float64, 4)
	if got := s.Covariance(dst); &got[0] != &dst[0] || !slices.Equal(dst, want) {
		t.Errorf("Covariance(dst) = %v, want %v in dst", got, want)
	}
	for _, v := range NewScatter(2, false).Covariance(nil) {
		if !math.IsNaN(v) {
			t.Errorf("Covariance of no rows: %v, want NaN", v)
		}
	}
}
