package kernel

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gendisc/gendisc/internal/mathx"
)

// TestRows checks NormalizeLogRows and ProbaRows against mathx's
// NormalizeLog and its exponentials row by row, to 1e-14 relative to max(1, |want|)
// (log-probabilities) and 1e-14 relative to |want| plus 1e−300 (probabilities: a
// term 708 to 745 below its row's largest is 0 here, a subnormal there),
// for k = 1 to 11 on rows whose terms lie up to 10⁴ apart, with −Inf
// terms, rows of −Inf only, a +Inf and a NaN.
func TestRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for k := 1; k <= 11; k++ {
		const rows = 37
		x := make([]float64, k*rows)
		for i := range x {
			x[i] = -rng.Float64()*math.Pow(10, float64(i%5)) + 3
		}
		x[3] = math.Inf(-1)
		for j := range k {
			x[5*k+j] = math.Inf(-1)
		}
		x[7*k] = math.Inf(1)
		x[9*k+k/2] = math.NaN()
		for _, f := range []struct {
			name             string
			rows             func(x []float64, k int, e []float64, other func([]float64))
			row              func(x []float64)
			rel, unit, floor float64
		}{
			{"NormalizeLogRows", NormalizeLogRows, mathx.NormalizeLog, 1e-14, 1, 0},
			{"ProbaRows", func(x []float64, k int, e []float64, _ func([]float64)) { ProbaRows(x, k, e, mathx.NormalizeLog, nil) }, expNormalizeLog, 1e-14, 0, 1e-300},
		} {
			got, want := slices.Clone(x), slices.Clone(x)
			f.rows(got, k, make([]float64, len(x)+3), f.row)
			if f.name == "ProbaRows" {
				// Bit for bit the exponentials of NormalizeLogRows's.
				lp := slices.Clone(x)
				NormalizeLogRows(lp, k, make([]float64, len(x)+3), mathx.NormalizeLog)
				for i, v := range lp {
					if w := math.Exp(v); math.Float64bits(got[i]) != math.Float64bits(w) {
						t.Fatalf("ProbaRows k=%d: row %d term %d: %v, want exp(NormalizeLogRows) %v", k, i/k, i%k, got[i], w)
					}
				}
			}
			for r := range rows {
				f.row(want[r*k : (r+1)*k])
			}
			for i, w := range want {
				g := got[i]
				if g == w || (g != g && w != w) {
					continue
				}
				if math.Abs(g-w) > f.rel*max(f.unit, math.Abs(w))+f.floor {
					t.Fatalf("%s k=%d: row %d term %d: %v, want %v", f.name, k, i/k, i%k, g, w)
				}
			}
		}
	}
}

// expNormalizeLog is mathx.NormalizeLog then math.Exp of each value.
func expNormalizeLog(x []float64) {
	mathx.NormalizeLog(x)
	for i, v := range x {
		x[i] = math.Exp(v)
	}
}

// TestRowsAsm checks NormalizeLogRows with the assembly on groups of
// four rows against the portable code, bit for bit, for k = 1 to 9 and
// numbers of rows around the groups and the blocks of normBlock rows, on
// rows whose terms lie up to 10⁴ apart, with rows that the assembly
// leaves to the portable code (a NaN, a largest term ±0, −0 beside +0,
// ±Inf, −Inf only, each at the start and at the end of a row) and terms
// 708 below their row's largest, exactly and more; and that the columns
// of NormalizeLogRowsBest are mathx.Argmax of its rows, ties included.
func TestRowsAsm(t *testing.T) {
	if !normAsm {
		t.Skip("no assembly here")
	}
	rng := rand.New(rand.NewPCG(13, 14))
	specials := [][]float64{
		{math.NaN()}, {0, math.Copysign(0, -1)}, {math.Copysign(0, -1), 0}, {math.Copysign(0, -1)},
		{math.Inf(1)}, {math.Inf(-1), math.Inf(-1), math.Inf(-1), math.Inf(-1), math.Inf(-1), math.Inf(-1), math.Inf(-1), math.Inf(-1), math.Inf(-1)},
		{2, 2}, {-1, 2, 2}, {2, 2 - 0x1p-51, 2}, {-800, 0.5}, {0.5, -707.5}, {-707.5, 0.5, -707.5000000000001}, {math.Inf(-1), 3}, {1e300, -1e300},
	}
	for k := 1; k <= 9; k++ {
		for _, rows := range []int{1, 3, 4, 5, 8, 63, 64, 65, 131, 256} {
			x := make([]float64, k*rows)
			for i := range x {
				x[i] = -rng.Float64()*math.Pow(10, float64(rng.IntN(5))) + 3
			}
			for r := 0; r < rows; r += 3 {
				// A special at the start of a row, or at its end.
				s := specials[(r/3)%len(specials)]
				s = s[:min(k, len(s))]
				if r%2 == 0 {
					copy(x[r*k:], s)
				} else {
					copy(x[(r+1)*k-len(s):], s)
				}
			}
			got, want := slices.Clone(x), slices.Clone(x)
			best := make([]int, rows)
			NormalizeLogRowsBest(got, k, make([]float64, len(x)+3), mathx.NormalizeLog, best)
			normAsm = false
			NormalizeLogRows(want, k, make([]float64, len(x)+3), mathx.NormalizeLog)
			normAsm = true
			for i, w := range want {
				if math.Float64bits(got[i]) != math.Float64bits(w) {
					t.Fatalf("k=%d, %d rows: row %d term %d: %v [%#x], portable %v [%#x]", k, rows, i/k, i%k, got[i], math.Float64bits(got[i]), w, math.Float64bits(w))
				}
			}
			for r, b := range best {
				if w := mathx.Argmax(want[r*k : (r+1)*k]); b != w {
					t.Fatalf("k=%d, %d rows: row %d %v: best %d, want %d", k, rows, r, want[r*k:(r+1)*k], b, w)
				}
			}
		}
	}
}
