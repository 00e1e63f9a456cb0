package cv

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gendisc/gendisc/data"
)

// Folds assigns every row of a data set to a fold: Folds[i] is the 0-based
// fold of row i. The folds are 0 … K()−1; fold k's model is trained on the
// rows of the other folds and evaluated on fold k's rows.
type Folds []int

// ErrFolds is wrapped by the errors about a fold assignment that cannot
// be used: more folds than rows, a fold without rows, a class missing
// from a fold's training part.
var ErrFolds = errors.New("bad fold assignment")

// K returns the number of folds, one more than the largest fold number
// (0 for no rows).
func (f Folds) K() int {
	k := -1
	for _, v := range f {
		k = max(k, v)
	}
	return k + 1
}

// Sizes returns the number of rows of each fold.
func (f Folds) Sizes() []int {
	n := make([]int, f.K())
	for _, v := range f {
		n[v]++
	}
	return n
}

// Split returns the rows of the training part (every fold but k) and of
// the test part (fold k), each in row order.
func (f Folds) Split(k int) (train, test []int) {
	for i, v := range f {
		if v == k {
			test = append(test, i)
		} else {
			train = append(train, i)
		}
	}
	return train, test
}

// Rows returns the rows of fold k, in row order.
func (f Folds) Rows(k int) []int {
	var rows []int
	for i, v := range f {
		if v == k {
			rows = append(rows, i)
		}
	}
	return rows
}

// newRand returns the generator of the assignments drawn with seed: PCG
// seeded with (seed, 0x9e3779b97f4a7c15).
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
}

// checkK returns an error unless 2 ≤ k ≤ n.
func checkK(k, n int) error {
	switch {
	case k < 2:
		return fmt.Errorf("cv: %w: %d folds; at least 2 are needed", ErrFolds, k)
	case k > n:
		return fmt.Errorf("cv: %w: %d folds for %d rows; at most one fold per row", ErrFolds, k, n)
	}
	return nil
}

// KFold assigns n rows to k folds of sizes ⌊n/k⌋ or ⌊n/k⌋+1 (the first
// n mod k folds are the larger), as scikit-learn's KFold(shuffle=True):
// the rows are permuted at random (Fisher–Yates with the PCG generator of
// seed) and the permutation is cut into k consecutive runs. It is the
// assignment for a numeric target. It returns an error wrapping ErrFolds
// unless 2 ≤ k ≤ n.
func KFold(n, k int, seed uint64) (Folds, error) {
	if err := checkK(k, n); err != nil {
		return nil, err
	}
	perm := newRand(seed).Perm(n)
	f := make(Folds, n)
	start := 0
	for fold := range k {
		size := n / k
		if fold < n%k {
			size++
		}
		for _, i := range perm[start : start+size] {
			f[i] = fold
		}
		start += size
	}
	return f, nil
}

// Stratified assigns the rows of the classes y (class indices; NaN, a
// missing class, is an error) to k folds so that each fold holds about a
// k-th of every class, as scikit-learn's StratifiedKFold(shuffle=True)
// does since version 0.22:
//
//  1. the classes are numbered in the order of their first row;
//  2. the class numbers of the rows are sorted, and fold f receives, of
//     each class, as many rows as it has entries among the sorted
//     positions f, f+k, f+2k, … (so the fold sizes differ by at most one
//     and each class is spread as evenly as it can be);
//  3. within each class, the list of fold numbers so allotted (fold 0's
//     first, then fold 1's, …) is shuffled (Fisher–Yates with the PCG
//     generator of seed) and handed to the class's rows in row order.
//
// The result has scikit-learn's fold sizes per class, but not its draws:
// the generators differ. To use one split in both, pass it as a file
// (WriteFolds, ReadFolds). A class with fewer rows than folds leaves some
// folds without it, which Check reports. It returns an error wrapping
// ErrFolds unless 2 ≤ k ≤ len(y).
func Stratified(y []float64, k int, seed uint64) (Folds, error) {
	n := len(y)
	if err := checkK(k, n); err != nil {
		return nil, err
	}
	// Step 1: classes by first appearance, the class indices 0 … 255 of a
	// categorical target numbered through a table (a map lookup per row
	// took a third of the time), other values through a map.
	var table [256]int // the code + 1 of the value v at v
	code := map[float64]int{}
	classes := 0
	enc := make([]int, n)
	for i, v := range y {
		if math.IsNaN(v) {
			return nil, fmt.Errorf("cv: row %d has no class: every row needs its class to be stratified", i+1)
		}
		var c int
		if v >= 0 && v < float64(len(table)) && v == math.Trunc(v) {
			if table[int(v)] == 0 {
				classes++
				table[int(v)] = classes
			}
			c = table[int(v)] - 1
		} else {
			var ok bool
			if c, ok = code[v]; !ok {
				c = classes
				code[v] = c
				classes++
			}
		}
		enc[i] = c
	}
	// Step 2: the allotment alloc[f][c] of the sorted class numbers: in
	// their sorted order, class c holds the positions [start_c, end_c),
	// and fold f gets the positions p ≡ f (mod k), below(x) of them
	// under x.
	counts := make([]int, classes)
	for _, c := range enc {
		counts[c]++
	}
	alloc := make([][]int, k)
	for f := range alloc {
		below := func(x int) int { return (x - f + k - 1) / k }
		alloc[f] = make([]int, classes)
		start := 0
		for c, nc := range counts {
			alloc[f][c] = below(start+nc) - below(start)
			start += nc
		}
	}
	// Step 3: each class's fold numbers, shuffled, in row order.
	rng := newRand(seed)
	folds := make([][]int, classes)
	for c := range folds {
		folds[c] = make([]int, 0, counts[c])
		for f := range k {
			for range alloc[f][c] {
				folds[c] = append(folds[c], f)
			}
		}
		rng.Shuffle(len(folds[c]), func(i, j int) { folds[c][i], folds[c][j] = folds[c][j], folds[c][i] })
	}
	out := make(Folds, n)
	next := make([]int, classes)
	for i, c := range enc {
		out[i] = folds[c][next[c]]
		next[c]++
	}
	return out, nil
}

// LeaveOneOut assigns each of n rows a fold of its own: row i is fold i.
func LeaveOneOut(n int) Folds {
	f := make(Folds, n)
	for i := range f {
		f[i] = i
	}
	return f
}

// GroupKFold assigns the rows to k folds keeping the rows of a group
// (equal values of groups, one per row) in one fold, balancing the fold
// sizes greedily as scikit-learn's GroupKFold does: the groups, in an
// order drawn at random with seed, are sorted by size, largest first
// (a stable sort, so the draw only orders groups of equal size), and each
// goes to the fold that has the fewest rows so far (the lowest-numbered
// such fold). It returns an error wrapping ErrFolds when there are fewer
// groups than folds or k < 2.
func GroupKFold(groups []string, k int, seed uint64) (Folds, error) {
	index := map[string]int{}
	var size []int
	gi := make([]int, len(groups))
	for i, g := range groups {
		j, ok := index[g]
		if !ok {
			j = len(size)
			index[g] = j
			size = append(size, 0)
		}
		size[j]++
		gi[i] = j
	}
	if k < 2 {
		return nil, fmt.Errorf("cv: %w: %d folds; at least 2 are needed", ErrFolds, k)
	}
	if k > len(size) {
		return nil, fmt.Errorf("cv: %w: %d folds for %d groups; at most one fold per group", ErrFolds, k, len(size))
	}
	order := newRand(seed).Perm(len(size))
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(size[b], size[a]) })
	foldOf := make([]int, len(size))
	rows := make([]int, k)
	for _, g := range order {
		f := 0
		for j := range rows {
			if rows[j] < rows[f] {
				f = j
			}
		}
		foldOf[g] = f
		rows[f] += size[g]
	}
	out := make(Folds, len(groups))
	for i, g := range gi {
		out[i] = foldOf[g]
	}
	return out, nil
}

// Assign returns the k-fold assignment for d that suits its target: with
// groups (one label per row, nil for none) GroupKFold; for classes (a
// categorical target) Stratified, a row without its class being an error
// positioned at its line; otherwise (a numeric target, or none, as a
// language model's text) KFold.
func Assign(d *data.Dataset, k int, groups []string, seed uint64) (Folds, error) {
	switch {
	case groups != nil:
		if len(groups) != d.N {
			return nil, fmt.Errorf("cv: %d group labels for %d rows", len(groups), d.N)
		}
		return GroupKFold(groups, k, seed)
	case d.Schema.Classes() != nil && d.Y != nil:
		for i, y := range d.Y {
			if math.IsNaN(y) {
				return nil, d.RowError(i, "%w: every row needs its class to be assigned a stratified fold", data.ErrMissingTarget)
			}
		}
		return Stratified(d.Y, k, seed)
	}
	return KFold(d.N, k, seed)
}

// Repeat returns r assignments drawn by assign with the seeds seed,
// seed+1, …, seed+r−1: repeated cross-validation, whose r·k fold results
// are summarised together.
func Repeat(r int, seed uint64, assign func(seed uint64) (Folds, error)) ([]Folds, error) {
	out := make([]Folds, r)
	for i := range out {
		f, err := assign(seed + uint64(i))
		if err != nil {
			return nil, err
		}
		out[i] = f
	}
	return out, nil
}
