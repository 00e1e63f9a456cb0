package cv

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
)

// counts returns counts[fold][class] of the assignment f of classes y.
func counts(f Folds, y []float64, classes int) [][]int {
	c := make([][]int, f.K())
	for i := range c {
		c[i] = make([]int, classes)
	}
	for i, v := range y {
		c[f[i]][int(v)]++
	}
	return c
}

// TestStratifiedAllotment checks the per-class fold sizes against the
// allotment derived by hand from scikit-learn's algorithm: class 1 comes
// first, so it is coded 0 and class 0 (5 rows) is coded 1; the sorted
// codes 0 0 0 1 1 1 1 1 give fold 0 positions 0, 3, 6 (one row of class
// 1, two of class 0), fold 1 positions 1, 4, 7 (the same) and fold 2
// positions 2, 5 (one of each).
func TestStratifiedAllotment(t *testing.T) {
	y := []float64{1, 0, 0, 1, 0, 0, 1, 0}
	want := [][]int{{2, 1}, {2, 1}, {1, 1}}
	for seed := range uint64(20) {
		f, err := Stratified(y, 3, seed)
		if err != nil {
			t.Fatal(err)
		}
		if got := counts(f, y, 2); !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("seed %d: per-fold class counts %v, want %v", seed, got, want)
		}
	}
}

func TestStratifiedBalancedAndSeeded(t *testing.T) {
	y := make([]float64, 103)
	for i := range y {
		y[i] = float64(i % 3) // classes of 35, 34, 34 rows
	}
	a, err := Stratified(y, 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Stratified(y, 10, 1)
	c, _ := Stratified(y, 10, 2)
	if !slices.Equal(a, b) {
		t.Error("the same seed gave two assignments")
	}
	if slices.Equal(a, c) {
		t.Error("seeds 1 and 2 gave the same assignment")
	}
	sizes := a.Sizes()
	if slices.Max(sizes)-slices.Min(sizes) > 1 {
		t.Errorf("fold sizes %v differ by more than one", sizes)
	}
	for fold, row := range counts(a, y, 3) {
		for class, m := range row {
			if m < 3 || m > 4 {
				t.Errorf("fold %d has %d rows of class %d, want 3 or 4", fold, m, class)
			}
		}
	}
}

func TestKFold(t *testing.T) {
	f, err := KFold(11, 3, 5)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Sizes(); !slices.Equal(got, []int{4, 4, 3}) {
		t.Errorf("sizes %v, want [4 4 3]", got)
	}
	if _, err := KFold(3, 4, 0); !errors.Is(err, ErrFolds) || !strings.Contains(err.Error(), "4 folds for 3 rows") {
		t.Errorf("4 folds of 3 rows: %v", err)
	}
	if _, err := KFold(3, 1, 0); !errors.Is(err, ErrFolds) {
		t.Errorf("1 fold: %v", err)
	}
}

func TestLeaveOneOut(t *testing.T) {
	f := LeaveOneOut(4)
	if !slices.Equal(f, Folds{0, 1, 2, 3}) {
		t.Errorf("%v", f)
	}
	train, test := f.Split(2)
	if !slices.Equal(train, []int{0, 1, 3}) || !slices.Equal(test, []int{2}) {
		t.Errorf("split: %v %v", train, test)
	}
}

// TestGroupKFold checks that groups stay whole and that the greedy
// balancing gives the sizes derived by hand: groups of 5, 4, 3, 2, 1 rows
// into 2 folds go 5→0, 4→1, 3→1, 2→0, 1→0 (or 1→1 on a tie: 7 and 7).
func TestGroupKFold(t *testing.T) {
	var groups []string
	for g, n := range []int{3, 5, 1, 4, 2} {
		for range n {
			groups = append(groups, string(rune('a'+g)))
		}
	}
	for seed := range uint64(10) {
		f, err := GroupKFold(groups, 2, seed)
		if err != nil {
			t.Fatal(err)
		}
		foldOf := map[string]int{}
		for i, g := range groups {
			if k, ok := foldOf[g]; ok && k != f[i] {
				t.Fatalf("group %s split over folds %d and %d", g, k, f[i])
			}
			foldOf[g] = f[i]
		}
		if s := f.Sizes(); !slices.Equal(s, []int{8, 7}) {
			t.Errorf("seed %d: sizes %v, want [8 7]", seed, s)
		}
	}
	if _, err := GroupKFold([]string{"a", "a", "b"}, 3, 0); !errors.Is(err, ErrFolds) || !strings.Contains(err.Error(), "3 folds for 2 groups") {
		t.Errorf("3 folds of 2 groups: %v", err)
	}
}

func TestRepeat(t *testing.T) {
	fs, err := Repeat(3, 10, func(seed uint64) (Folds, error) { return KFold(20, 4, seed) })
	if err != nil {
		t.Fatal(err)
	}
	want, _ := KFold(20, 4, 12)
	if len(fs) != 3 || !slices.Equal(fs[2], want) {
		t.Errorf("the third repeat is not the assignment of seed 12")
	}
}

func TestCheck(t *testing.T) {
	classes := []string{"a", "b", "c"}
	for _, tc := range []struct {
		name    string
		f       Folds
		y       []float64
		err     string
		warning string
	}{
		{"fine", Folds{0, 1, 0, 1, 0, 1}, []float64{0, 0, 1, 1, 2, 2}, "", ""},
		{"class in one fold", Folds{0, 1, 0, 1, 1, 1}, []float64{0, 0, 1, 1, 2, 2}, `fold 1 holds every row of class "c"`, ""},
		{"empty fold", Folds{0, 2, 0, 2, 0, 2}, []float64{0, 0, 1, 1, 2, 2}, "fold 1 has no rows", ""},
		{"small fold", Folds{0, 1, 0, 1, 0, 1, 2, 2, 0}, []float64{0, 0, 1, 1, 2, 2, 0, 1, 2}, "", "fold 2 has 2 rows for 3 classes"},
		{"length", Folds{0, 1}, []float64{0, 0, 1}, "2 fold numbers for 3 rows", ""},
		{"leave-one-out", LeaveOneOut(6), []float64{0, 0, 1, 1, 2, 2}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := Check(tc.f, len(tc.y), classes, tc.y)
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, ErrFolds)) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
			if tc.warning == "" && w != nil || tc.warning != "" && (len(w) != 1 || !strings.Contains(w[0], tc.warning)) {
				t.Errorf("warnings %q, want %q", w, tc.warning)
			}
		})
	}
}

func TestFoldFileRoundTrip(t *testing.T) {
	f := Folds{2, 0, 1, 1, 0}
	var b bytes.Buffer
	if err := WriteFolds(&b, f); err != nil {
		t.Fatal(err)
	}
	if b.String() != "fold\n2\n0\n1\n1\n0\n" {
		t.Errorf("file %q", b.String())
	}
	got, err := ReadFolds(&b, "f.csv", 5)
	if err != nil || !slices.Equal(got, f) {
		t.Errorf("read back %v, %v", got, err)
	}
	got, err = ReadFolds(strings.NewReader("\ufefffold\r\n1\r\n0"), "f.csv", 2)
	if err != nil || !slices.Equal(got, Folds{1, 0}) {
		t.Errorf("CRLF file without final newline: %v, %v", got, err)
	}
}

func TestReadFoldsErrors(t *testing.T) {
	for _, tc := range []struct {
		file string
		rows int
		line int
		want string
	}{
		{"", 1, 1, "empty"},
		{"folds\n0\n", 1, 1, `header "folds"`},
		{"fold\n0\nx\n", 2, 3, `fold "x" is not an integer`},
		{"fold\n0\n1.5\n", 2, 3, `fold "1.5" is not an integer`},
		{"fold\n0\n\n1\n", 3, 3, `fold "" is not an integer`},
		{"fold\n0\n-1\n", 2, 3, "fold -1 is negative"},
		{"fold\n0\n99999999999\n", 2, 3, "larger than"},
		{"fold\n0\n1\n0\n", 2, 4, "more fold numbers than the 2 rows"},
		{"fold\n0\n1\n", 3, 4, "2 fold numbers for the 3 rows"},
	} {
		_, err := ReadFolds(strings.NewReader(tc.file), "f.csv", tc.rows)
		var pe *data.ParseError
		if !errors.As(err, &pe) || pe.File != "f.csv" || pe.Line != tc.line || !errors.Is(err, ErrFoldFile) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want line %d %q", tc.file, err, tc.line, tc.want)
		}
	}
}

// FuzzReadFolds checks that any file reads without panicking and that
// what reads writes back to the same folds. Longer:
//
//	go test -fuzz FuzzReadFolds -fuzztime 60s ./cv
func FuzzReadFolds(f *testing.F) {
	for _, s := range []string{"fold\n0\n1\n", "fold\r\n3\r\n0", "fold\n-1\n", "fold\nx\n", "", "\ufefffold\n0\n0\n"} {
		f.Add(s, 2)
	}
	f.Fuzz(func(t *testing.T, s string, rows int) {
		if rows < 0 || rows > 1000 {
			return
		}
		folds, err := ReadFolds(strings.NewReader(s), "f", rows)
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := WriteFolds(&b, folds); err != nil {
			t.Fatal(err)
		}
		again, err := ReadFolds(&b, "f", rows)
		if err != nil || !slices.Equal(again, folds) {
			t.Fatalf("round trip: %v, %v", again, err)
		}
	})
}

func TestAssign(t *testing.T) {
	s := &data.Schema{Features: []data.Column{{Name: "x"}}, Target: &data.Column{Name: "y", Kind: data.Categorical, Levels: []string{"a", "b"}}}
	d := &data.Dataset{Schema: s, N: 6, X: make([]float64, 6), Y: []float64{0, 0, 0, 1, 1, 1}, Source: data.Provenance{Name: "d.csv", Lines: []int{2, 3, 4, 5, 6, 7}}}
	f, err := Assign(d, 3, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := Stratified(d.Y, 3, 1); !slices.Equal(f, want) {
		t.Errorf("classes: %v, want the stratified %v", f, want)
	}
	g, err := Assign(d, 2, []string{"p", "p", "q", "q", "r", "r"}, 1)
	if err != nil || g[0] != g[1] || g[2] != g[3] || g[4] != g[5] {
		t.Errorf("groups: %v, %v", g, err)
	}
	d.Y[4] = math.NaN()
	if _, err := Assign(d, 3, nil, 1); err == nil || !strings.Contains(err.Error(), "d.csv:6") {
		t.Errorf("a row without its class: %v", err)
	}
	d.Schema = &data.Schema{Features: s.Features, Target: &data.Column{Name: "y"}}
	d.Y = []float64{1.5, 2, 3, 4, 5, 6}
	if f, err := Assign(d, 3, nil, 1); err != nil || !slices.Equal(f.Sizes(), []int{2, 2, 2}) {
		t.Errorf("numeric target: %v, %v", f, err)
	}
}

// TestStratifiedAllotmentBySorting checks the per-fold class counts of
// Stratified against their definition, computed the slow way: the class
// numbers (by first appearance) sorted, position p going to fold p mod k.
func TestStratifiedAllotmentBySorting(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := range 50 {
		n, K, k := 20+rng.IntN(300), 2+rng.IntN(5), 2+rng.IntN(9)
		y := make([]float64, n)
		for i := range y {
			y[i] = float64(rng.IntN(K))
		}
		code := map[float64]int{}
		sorted := make([]int, n)
		for i, v := range y {
			if _, ok := code[v]; !ok {
				code[v] = len(code)
			}
			sorted[i] = code[v]
		}
		slices.Sort(sorted)
		want := make([][]int, k)
		for f := range want {
			want[f] = make([]int, K)
		}
		for p, c := range sorted {
			for v, cv := range code {
				if cv == c {
					want[p%k][int(v)]++
				}
			}
		}
		f, err := Stratified(y, k, uint64(trial))
		if err != nil {
			t.Fatal(err)
		}
		if got := counts(f, y, K); !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("trial %d: per-fold class counts %v, want %v", trial, got, want)
		}
	}
}

// TestStratifiedClassValues: the assignment depends on the classes' order
// of first appearance alone, whatever their values: class indices below
// 256 (numbered through a table), other numbers (through a map) and a mix
// of both give the same folds.
func TestStratifiedClassValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	indices := make([]float64, 500)
	for i := range indices {
		indices[i] = float64(rng.IntN(4))
	}
	want, err := Stratified(indices, 5, 8)
	if err != nil {
		t.Fatal(err)
	}
	others := map[string][]float64{}
	for name, value := range map[string][]float64{
		"not indices": {-1, 0.5, 1e6, 300},
		"mixed":       {300, 2, -7.25, 255},
		"renumbered":  {3, 255, 0, 1},
	} {
		y := make([]float64, len(indices))
		for i, c := range indices {
			y[i] = value[int(c)]
		}
		others[name] = y
	}
	for name, y := range others {
		if got, err := Stratified(y, 5, 8); err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: %v, the folds differ from those of the class indices", name, err)
		}
	}
}
