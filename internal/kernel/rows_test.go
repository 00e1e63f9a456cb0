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
			{"ProbaRows", func(x []float64, k int, e []float64, _ func([]float64)) { ProbaRows(x, k, e, mathx.NormalizeLog) }, expNormalizeLog, 1e-14, 0, 1e-300},
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
