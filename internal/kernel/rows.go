package kernel

import (
	"math"
	"math/bits"

	"github.com/gendisc/gendisc/internal/mathx"
)

// NormalizeLogRows is mathx.NormalizeLog on each row of k values of x,
//
//	x_i ← (x_i − m) − log Σ_l exp(x_l − m),  m = max_l x_l
//
// with the exponentials of a block of rows taken at once by ExpFloored in
// e (at least len(x) + 3 values: the assembly takes four at a time, and
// the padding goes through it too, so that a row's result does not
// depend on its place in x), which rows still in cache make several
// times faster than a math.Exp per term, and the logarithms of the rows'
// sums at once by Log (math.Log bit for bit, four at a time). A term more
// than 708 below its row's largest adds 0 to the sum (math.Exp would give
// less than 3e−308). Rows whose largest term is not finite, or that hold
// a NaN, go to other (mathx.NormalizeLog, or a caller's own rule for
// them).
func NormalizeLogRows(x []float64, k int, e []float64, other func(row []float64)) {
	NormalizeLogRowsBest(x, k, e, other, nil)
}

// NormalizeLogRowsBest is NormalizeLogRows that also writes to best[r]
// (unless best is nil; one value a row) the column of the largest
// log-probability of row r, by mathx.Argmax's rule (the lowest on ties,
// NaN left out: gendisc.ArgmaxRows's), taken while the row is at hand.
func NormalizeLogRowsBest(x []float64, k int, e []float64, other func(row []float64), best []int) {
	if k <= 0 || len(x) < k {
		return
	}
	x = x[:len(x)/k*k]
	if best != nil {
		best = best[:len(x)/k]
	}
	var m [normBlock]float64
	var b [normBlock]int
	for lo := 0; lo < len(x); lo += normBlock * k {
		xb := x[lo:min(len(x), lo+normBlock*k)]
		done, bad := normalizeGroups(xb, k, e, &m, &b)
		if best != nil {
			copy(best[lo/k:], b[:done])
		}
		for ; bad != 0; bad &= bad - 1 {
			g := bits.TrailingZeros64(bad)
			normalizeRows(xb[4*g*k:4*(g+1)*k], k, e, other, &m)
			argmaxRows(best, xb, k, lo/k, 4*g, 4*g+4)
		}
		normalizeRows(xb[done*k:], k, e, other, &m)
		argmaxRows(best, xb, k, lo/k, done, len(xb)/k)
	}
}

// argmaxRows sets best[lo + r] = mathx.Argmax(row r of x) for a ≤ r < b
// (x of k columns), unless best is nil.
func argmaxRows(best []int, x []float64, k, lo, a, b int) {
	if best == nil {
		return
	}
	for r := a; r < b; r++ {
		best[lo+r] = mathx.Argmax(x[r*k : (r+1)*k])
	}
}

// normBlock is the number of rows that NormalizeLogRows takes at a time,
// their largest terms kept in an array.
const normBlock = 64

// normalizeRows is NormalizeLogRows on at most normBlock rows, with m
// as scratch for their largest terms: the portable code, and where the
// assembly takes groups of four rows (normalizeGroups), the groups it
// leaves and the rows after the last group. Row r's sum goes to e[r], whose
// own exponential (r ≤ r·k) has been read by then; NaN marks the rows
// handed to other (a sum is at least 1, the largest term's exp(0)).
func normalizeRows(x []float64, k int, e []float64, other func(row []float64), m *[normBlock]float64) {
	rows := len(x) / k
	e = e[:(len(x)+3)&^3]
	for r := range rows {
		row, er := x[r*k:(r+1)*k], e[r*k:(r+1)*k]
		mx := rowMax(row)
		m[r] = mx
		for i, v := range row {
			er[i] = v - mx
		}
	}
	clear(e[len(x):])
	ExpFloored(e)
	for r := range rows {
		row, mx := x[r*k:(r+1)*k], m[r]
		if math.IsInf(mx, 0) || mx != mx {
			other(row)
			e[r] = math.NaN()
			continue
		}
		e[r] = rowSum(row, e[r*k:(r+1)*k], mx)
	}
	ls := e[:rows]
	Log(ls)
	for r, l := range ls {
		if l != l {
			continue
		}
		row, mx := x[r*k:(r+1)*k], m[r]
		for i, v := range row {
			row[i] = (v - mx) - l
		}
	}
}

// ProbaRows turns each row of k joint log-likelihoods of x into
// probabilities that are, bit for bit, the exponentials of what
// NormalizeLogRows writes,
//
//	x_i ← exp((x_i − m) − log Σ_l exp(x_l − m)),  m = max_l x_l
//
// NormalizeLogRowsBest then Exp on x while it is in cache: the
// posteriors of a classifier's Proba, exactly exp of its LogProba, and
// when best is not nil the class of each row (NormalizeLogRowsBest).
// other, as for NormalizeLogRows, writes log-probabilities (the
// exponentials are taken after it).
func ProbaRows(x []float64, k int, e []float64, other func(row []float64), best []int) {
	NormalizeLogRowsBest(x, k, e, other, best)
	Exp(x[:len(x)/max(k, 1)*k])
}

// rowSum returns Σ_i e_i over the terms of the row x (largest m) no more
// than −ExpFloor below m, setting the others' e_i to 0.
func rowSum(x, e []float64, m float64) float64 {
	e = e[:len(x)]
	s := 0.0
	for i, v := range x {
		if v-m < ExpFloor {
			e[i] = 0
		}
		s += e[i]
	}
	return s
}

// rowMax returns the largest x_i, NaN when some x_i is NaN.
func rowMax(x []float64) float64 {
	mx := x[0]
	for _, v := range x[1:] {
		mx = max(mx, v)
	}
	return mx
}
