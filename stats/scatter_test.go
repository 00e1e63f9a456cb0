package stats

import (
	"math"
	"math/rand/v2"
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
			inc := c.Add(x, y, w)
			if !slices.Equal(inc, []int{0, 12, 4000}) {
				t.Errorf("d %d: incomplete rows %v, want [0 12 4000]", d, inc)
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
