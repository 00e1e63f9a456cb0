package compare

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
)

func TestGeometric(t *testing.T) {
	for _, c := range []struct {
		lo, hi, points int
		want           []int
	}{
		{4, 537, 15, []int{4, 6, 8, 11, 16, 23, 33, 46, 66, 93, 132, 188, 267, 378, 537}},
		{2, 4, 15, []int{2, 3, 4}},
		{5, 5, 15, []int{5}},
		{5, 4, 15, nil},
		{0, 4, 15, nil},
		{1, 100, 3, []int{1, 10, 100}},
	} {
		if got := Geometric(c.lo, c.hi, c.points); !slices.Equal(got, c.want) {
			t.Errorf("Geometric(%d, %d, %d) = %v, want %v", c.lo, c.hi, c.points, got, c.want)
		}
	}
}

func TestDefaultSizes(t *testing.T) {
	for _, c := range []struct {
		counts  []int
		maxSize int
		lo, hi  int
	}{
		{[]int{500, 268}, 0, 6, 537},         // pima: 2·768/268 = 5.7
		{[]int{50, 50, 50}, 0, 6, 105},       // iris
		{[]int{37155, 11687}, 5000, 9, 5000}, // adult, capped
		{[]int{37155, 11687}, 0, 9, 34189},   // adult, no cap
		{[]int{554, 571, 0}, 0, 5, 787},      // empty classes do not count
		{[]int{3, 1}, 0, 0, 0},               // too few rows
	} {
		got := DefaultSizes(c.counts, c.maxSize)
		if c.lo == 0 {
			if got != nil {
				t.Errorf("DefaultSizes(%v) = %v, want nil", c.counts, got)
			}
			continue
		}
		if got[0] != c.lo || got[len(got)-1] != c.hi || len(got) > DefaultPoints || !isSortedUnique(got) {
			t.Errorf("DefaultSizes(%v, %d) = %v, want %d … %d increasing", c.counts, c.maxSize, got, c.lo, c.hi)
		}
		// At the smallest size every class gets two rows.
		alloc, err := Allocate(got[0], c.counts)
		if err != nil {
			t.Fatal(err)
		}
		for k, a := range alloc {
			if c.counts[k] > 0 && a < 2 {
				t.Errorf("DefaultSizes(%v): allocation %v at m = %d", c.counts, alloc, got[0])
			}
		}
	}
}

func TestAllocateCases(t *testing.T) {
	for _, c := range []struct {
		m      int
		counts []int
		want   []int
	}{
		{4, []int{500, 268}, []int{3, 1}},     // q = 2.60, 1.40: remainder to the first
		{10, []int{90, 10}, []int{9, 1}},      // q = 9, 1
		{10, []int{98, 1, 1}, []int{8, 1, 1}}, // the minimum of one pushes over: take from the largest
		{3, []int{5, 5, 5}, []int{1, 1, 1}},
		{4, []int{5, 5, 5}, []int{2, 1, 1}}, // ties go to the lowest index
		{6, []int{2, 0, 10}, []int{1, 0, 5}},
		{12, []int{2, 0, 10}, []int{2, 0, 10}},
	} {
		got, err := Allocate(c.m, c.counts)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("Allocate(%d, %v) = %v, %v, want %v", c.m, c.counts, got, err, c.want)
		}
	}
	for _, c := range []struct {
		m      int
		counts []int
	}{{1, []int{5, 5}}, {11, []int{5, 5}}, {2, []int{5, 0, 5, 5}}} {
		if got, err := Allocate(c.m, c.counts); err == nil {
			t.Errorf("Allocate(%d, %v) = %v, want an error", c.m, c.counts, got)
		}
	}
}

// TestAllocateInvariants checks on random inputs that the allocation sums
// to m, gives every class with rows between one row and all of them, and,
// when no class needs the minimum of one row (every quota is at least 1),
// stays within one row of the proportional quota.
func TestAllocateInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		counts := make([]int, 2+rng.IntN(6))
		for k := range counts {
			counts[k] = rng.IntN(40)
		}
		counts[0]++
		counts[1]++
		nonEmpty := 0
		for _, c := range counts {
			if c > 0 {
				nonEmpty++
			}
		}
		n := sum(counts)
		m := nonEmpty + rng.IntN(n-nonEmpty+1)
		proportional := true
		for _, c := range counts {
			if c > 0 && m*c < n {
				proportional = false
			}
		}
		alloc, err := Allocate(m, counts)
		if err != nil {
			t.Fatalf("Allocate(%d, %v): %v", m, counts, err)
		}
		if sum(alloc) != m {
			t.Fatalf("Allocate(%d, %v) = %v: sum %d", m, counts, alloc, sum(alloc))
		}
		for k, a := range alloc {
			q := float64(m) * float64(counts[k]) / float64(n)
			switch {
			case counts[k] == 0 && a != 0, counts[k] > 0 && (a < 1 || a > counts[k]):
				t.Fatalf("Allocate(%d, %v) = %v: class %d", m, counts, alloc, k)
			case proportional && math.Abs(float64(a)-q) >= 1-1e-9:
				t.Fatalf("Allocate(%d, %v) = %v: class %d is %d rows from its quota %.3f", m, counts, alloc, k, a, q)
			}
		}
	}
}

// TestDrawSplit checks that splits are stratified, disjoint, within the
// rows, and that the test set is every other row or a stratified sample
// of maxTest of them.
func TestDrawSplit(t *testing.T) {
	d := bundled.Load(t, "pima_indians_diabetes", dataio.Options{})
	byClass := classRows(d)
	counts := []int{len(byClass[0]), len(byClass[1])}
	for _, c := range []struct{ m, maxTest int }{{6, 0}, {100, 0}, {537, 0}, {50, 200}, {50, 2}} {
		rng := rand.New(rand.NewPCG(7, uint64(c.m)))
		sp, err := drawSplit(rng, byClass, c.m, c.maxTest)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := Allocate(c.m, counts)
		wantTest := []int{counts[0] - want[0], counts[1] - want[1]}
		if c.maxTest > 0 {
			wantTest, _ = Allocate(c.maxTest, wantTest)
		}
		if got := classCounts(d, sp.train); !slices.Equal(got, want) {
			t.Errorf("m = %d: training classes %v, want %v", c.m, got, want)
		}
		if got := classCounts(d, sp.test); !slices.Equal(got, wantTest) {
			t.Errorf("m = %d, max test %d: test classes %v, want %v", c.m, c.maxTest, got, wantTest)
		}
		all := append(slices.Clone(sp.train), sp.test...)
		slices.Sort(all)
		if !isSortedUnique(sp.train) || !isSortedUnique(sp.test) || !isSortedUnique(all) || all[0] < 0 || all[len(all)-1] >= d.N {
			t.Errorf("m = %d: rows not disjoint, sorted and in range", c.m)
		}
	}
}

// TestDrawSplitUniform checks that every row of a class is drawn for
// training about equally often.
func TestDrawSplitUniform(t *testing.T) {
	byClass := [][]int{{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {10, 11, 12, 13, 14}}
	seen := make([]int, 15)
	rng := rand.New(rand.NewPCG(3, 4))
	const draws = 20000
	for range draws {
		sp, err := drawSplit(rng, byClass, 6, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range sp.train {
			seen[i]++
		}
	}
	// Allocate(6, [10 5]) = [4 2]: each row with probability 0.4.
	for i, c := range seen {
		p := float64(c) / draws
		if math.Abs(p-0.4) > 5*math.Sqrt(0.4*0.6/draws) {
			t.Errorf("row %d drawn with frequency %.4f, want 0.4", i, p)
		}
	}
}
