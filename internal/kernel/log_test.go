package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// logEdges are arguments at the edges of math.Log's paths: √2/2 (where
// the assembly halves the exponent; its comparison is ≤, not Go's <) and
// its neighbours at several exponents, 1 and its neighbours, the
// smallest and largest normal numbers, denormals, zeros, negatives,
// infinities and NaN.
var logEdges = []float64{
	math.Sqrt2 / 2, math.Nextafter(math.Sqrt2/2, 0), math.Nextafter(math.Sqrt2/2, 1), math.Sqrt2, 2 * math.Sqrt2,
	math.Sqrt2 / 2 * 0x1p-900, math.Sqrt2 / 2 * 0x1p900, 1, math.Nextafter(1, 0), math.Nextafter(1, 2), 2, 0.5, 3, 5,
	math.SmallestNonzeroFloat64, 0x1p-1022, math.Nextafter(0x1p-1022, 0), math.Nextafter(0x1p-1022, 1), 1e-310,
	math.MaxFloat64, 0, math.Copysign(0, -1), -1, -1e-310, math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN(),
}

// checkLog checks Log on x against math.Log bit for bit, with the
// assembly (where there is one) and the portable code.
func checkLog(t *testing.T, x []float64) {
	t.Helper()
	for _, asm := range []bool{true, false} {
		if asm && !logExactAsm {
			continue
		}
		old := logExactAsm
		logExactAsm = asm
		got := append([]float64(nil), x...)
		Log(got)
		logExactAsm = old
		for j, v := range x {
			if want := math.Log(v); math.Float64bits(got[j]) != math.Float64bits(want) && !(want != want && got[j] != got[j]) {
				t.Fatalf("asm %v: Log(%v) [%#x] = %v [%#x], math.Log gives %v [%#x]", asm, v, math.Float64bits(v), got[j], math.Float64bits(got[j]), want, math.Float64bits(want))
			}
		}
	}
}

// TestLog checks Log against math.Log bit for bit on the edges, each in
// every lane of a group of four (among ordinary values, so that a group
// the assembly leaves to math.Log is seen too), on 2,000,000 arguments
// (the sums of a log-sum-exp, [1, 10], the mantissas just around √2/2 at
// random exponents, and any bits), and on every length up to 9.
func TestLog(t *testing.T) {
	for lane := range 4 {
		var x []float64
		for _, v := range logEdges {
			g := []float64{1.5, 2.5, 1.01, 7}
			g[lane] = v
			x = append(x, g...)
		}
		checkLog(t, x)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	x := make([]float64, 2_000_000)
	h := math.Float64bits(math.Sqrt2 / 2)
	for j := range x {
		switch j % 4 {
		case 0:
			x[j] = 1 + 9*rng.Float64()
		case 1:
			x[j] = math.Ldexp(math.Float64frombits(h+uint64(rng.IntN(64))-32), rng.IntN(2000)-1000)
		case 2:
			x[j] = math.Exp(1400*rng.Float64() - 700)
		default:
			x[j] = math.Float64frombits(rng.Uint64()) // any bits: negative, tiny, NaN
		}
	}
	checkLog(t, x)
	for n := range 10 {
		checkLog(t, x[:n])
	}
}

// FuzzLog checks Log against math.Log bit for bit on four arguments from
// the fuzzer's bytes. Longer: go test -fuzz FuzzLog -fuzztime 60s ./internal/kernel
func FuzzLog(f *testing.F) { fuzzFloats(f, logEdges, checkLog) }

// BenchmarkLog times Log and math.Log on 1,000,000 sums of a
// log-sum-exp.
func BenchmarkLog(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, 1_000_000)
	for j := range x {
		x[j] = 1 + 4*rng.Float64()
	}
	y := make([]float64, len(x))
	b.Run("Log", func(b *testing.B) {
		for b.Loop() {
			copy(y, x)
			Log(y)
		}
	})
	b.Run("math.Log", func(b *testing.B) {
		for b.Loop() {
			copy(y, x)
			LogGo(y)
		}
	})
}
