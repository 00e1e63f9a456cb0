package compare

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// DefaultPoints is the number of sizes of the default grid before
// duplicates are removed.
const DefaultPoints = 15

// MaxTrainFraction is the largest training-set size of the default grid as
// a fraction of the rows.
const MaxTrainFraction = 0.7

// DefaultMaxSize caps the largest training-set size of the default grid
// (Config.MaxSize). Among the bundled data sets it shortens the grids of
// adult (70% would be 34,189 rows) and mushroom (5,686): the curves are
// flat well before, and adult's largest fits would take most of the
// default run's time.
const DefaultMaxSize = 5000

// DefaultSizes returns the default grid of training-set sizes for a data
// set whose classes have counts rows: DefaultPoints sizes spaced
// geometrically from lo to hi,
//
//	lo = max(2K, ⌈2n / n_min⌉),   hi = min(⌊0.7 n⌋, maxSize),
//	m_i = round(lo · (hi/lo)^(i/(P−1))),  i = 0 … P−1,
//
// with repeated sizes removed, where n is the number of rows, K the number
// of classes with rows and n_min the size of the smallest: lo is the
// smallest m at which proportional allocation (Allocate) gives every class
// two training rows. maxSize ≤ 0 means no cap. It returns nil when
// lo > hi (too few rows).
func DefaultSizes(counts []int, maxSize int) []int {
	n, k, smallest := 0, 0, 0
	for _, c := range counts {
		if c == 0 {
			continue
		}
		n += c
		k++
		if smallest == 0 || c < smallest {
			smallest = c
		}
	}
	if k == 0 {
		return nil
	}
	lo := max(2*k, (2*n+smallest-1)/smallest)
	hi := int(MaxTrainFraction * float64(n))
	if maxSize > 0 {
		hi = min(hi, maxSize)
	}
	return Geometric(lo, hi, DefaultPoints)
}

// Geometric returns points integers spaced geometrically from lo to hi
// (both included), rounded to the nearest integer and without repeats, in
// increasing order. It returns nil when lo < 1 or lo > hi, and [lo] when
// lo == hi or points < 2.
func Geometric(lo, hi, points int) []int {
	if lo < 1 || lo > hi {
		return nil
	}
	if lo == hi || points < 2 {
		return []int{lo}
	}
	r := math.Log(float64(hi) / float64(lo))
	out := make([]int, 0, points)
	for i := range points {
		m := int(math.Round(float64(lo) * math.Exp(r*float64(i)/float64(points-1))))
		m = min(max(m, lo), hi)
		if len(out) == 0 || m > out[len(out)-1] {
			out = append(out, m)
		}
	}
	return out
}

// Allocate splits a sample of m rows among classes of sizes counts:
// proportional allocation with at least one row per class,
//
//	q_k = m · n_k / n,   m_k = max(1, ⌊q_k⌋),
//
// then, while Σ m_k < m, one more row to the class with the largest
// remainder q_k − m_k that has rows left (the lowest index among ties),
// and while Σ m_k > m (the minimum of one row pushed it over), one row
// fewer for the class with the largest excess m_k − q_k among those with
// more than one row. Classes with no rows get none. It returns an error
// when m is smaller than the number of non-empty classes or larger than
// their total.
func Allocate(m int, counts []int) ([]int, error) {
	n, classes := 0, 0
	for _, c := range counts {
		n += c
		if c > 0 {
			classes++
		}
	}
	if m < classes || m > n {
		return nil, fmt.Errorf("compare: cannot draw %d rows with at least one of each of %d classes from %d rows", m, classes, n)
	}
	q := make([]float64, len(counts))
	alloc := make([]int, len(counts))
	total := 0
	for k, c := range counts {
		if c == 0 {
			continue
		}
		q[k] = float64(m) * float64(c) / float64(n)
		alloc[k] = min(max(1, int(q[k])), c)
		total += alloc[k]
	}
	// pick returns the class with the largest score among those ok admits.
	pick := func(score func(k int) float64, ok func(k int) bool) int {
		best := -1
		for k := range counts {
			if ok(k) && (best < 0 || score(k) > score(best)) {
				best = k
			}
		}
		return best
	}
	for ; total < m; total++ {
		k := pick(func(k int) float64 { return q[k] - float64(alloc[k]) },
			func(k int) bool { return alloc[k] < counts[k] })
		alloc[k]++
	}
	for ; total > m; total-- {
		k := pick(func(k int) float64 { return float64(alloc[k]) - q[k] },
			func(k int) bool { return alloc[k] > 1 })
		alloc[k]--
	}
	return alloc, nil
}

// split is the training and test rows of one split, each in increasing
// row order.
type split struct {
	train, test []int
}

// drawSplit draws a split from the rows of each class (byClass, as
// classRows returns them): a stratified sample of m training rows
// (Allocate over the class sizes), and as test rows the others, or a
// stratified sample of maxTest of them (Allocate over the remaining class
// sizes) when there are more than maxTest and maxTest > 0. Within a class
// the rows are drawn uniformly without replacement (a partial
// Fisher–Yates shuffle with rng).
func drawSplit(rng *rand.Rand, byClass [][]int, m, maxTest int) (split, error) {
	counts := make([]int, len(byClass))
	for k, rows := range byClass {
		counts[k] = len(rows)
	}
	train, err := Allocate(m, counts)
	if err != nil {
		return split{}, err
	}
	rest := make([]int, len(byClass))
	nTest := 0
	for k := range counts {
		rest[k] = counts[k] - train[k]
		nTest += rest[k]
	}
	test := rest
	if maxTest > 0 && nTest > maxTest {
		if test, err = Allocate(maxTest, rest); err != nil {
			return split{}, err
		}
		nTest = maxTest
	}
	s := split{train: make([]int, 0, m), test: make([]int, 0, nTest)}
	for k, rows := range byClass {
		p := slices.Clone(rows)
		for i := range train[k] + test[k] {
			j := i + rng.IntN(len(p)-i)
			p[i], p[j] = p[j], p[i]
		}
		s.train = append(s.train, p[:train[k]]...)
		s.test = append(s.test, p[train[k]:train[k]+test[k]]...)
	}
	slices.Sort(s.train)
	slices.Sort(s.test)
	return s, nil
}
