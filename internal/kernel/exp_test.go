package kernel

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// expEdges are arguments at the edges of math.Exp's paths: zero, the
// smallest magnitudes, halfway points of the rounding of x·log2 e, the
// start of the denormal results (−708.39…) and of 0 (−745.13…), the
// limit of the assembly (709) and beyond, infinities and NaN.
var expEdges = []float64{
	0, math.Copysign(0, -1), 5e-324, -5e-324, 1e-300, -1e-17, 1, -1, 0.5 * math.Ln2, -0.5 * math.Ln2,
	-1.5 * math.Ln2, -700.5 * math.Ln2, -708.39641853226408, -708.3964185322641, -708.4, -709, -720,
	-744.44007192138126, -745.1332191019411, -745.13321910194122, -745.1332191019412, -745.2, -746, -800,
	-1075 * math.Ln2, -1074.5 * math.Ln2, -1e10, -3e9, -1e300, -math.MaxFloat64, math.Inf(-1),
	708, 709, math.Nextafter(709, 710), 709.5, 709.78, 710, 1e300, math.Inf(1), math.NaN(),
}

// checkExp checks Exp on x against math.Exp bit for bit, with the
// assembly (where there is one) and the portable code.
func checkExp(t *testing.T, x []float64) {
	t.Helper()
	for _, asm := range []bool{true, false} {
		if asm && !expExactAsm {
			continue
		}
		old := expExactAsm
		expExactAsm = asm
		got := append([]float64(nil), x...)
		Exp(got)
		expExactAsm = old
		for j, v := range x {
			if want := math.Exp(v); math.Float64bits(got[j]) != math.Float64bits(want) && !(want != want && got[j] != got[j]) {
				t.Fatalf("asm %v: Exp(%v) [%#x] = %v [%#x], math.Exp gives %v [%#x]", asm, v, math.Float64bits(v), got[j], math.Float64bits(got[j]), want, math.Float64bits(want))
			}
		}
	}
}

// TestExp checks Exp against math.Exp bit for bit on the edges, each in
// every lane of a group of four (among ordinary values, so that a group
// the assembly leaves to math.Exp is seen too), on 2,000,000 arguments
// spread over the log-probabilities' range [−800, 0] and beyond, and on
// every length up to 9 (the tail after the groups of four).
func TestExp(t *testing.T) {
	for lane := range 4 {
		var x []float64
		for _, v := range expEdges {
			g := []float64{-0.1, -2.5, -30, -0.7}
			g[lane] = v
			x = append(x, g...)
		}
		checkExp(t, x)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	x := make([]float64, 2_000_000)
	for j := range x {
		switch j % 4 {
		case 0:
			x[j] = -800 * rng.Float64()
		case 1:
			x[j] = -rng.ExpFloat64()
		case 2:
			x[j] = 1418*rng.Float64() - 709
		default:
			x[j] = math.Float64frombits(rng.Uint64()) // any bits: huge, tiny, NaN
		}
	}
	checkExp(t, x)
	for n := range 10 {
		checkExp(t, x[:n])
	}
}

// FuzzExp checks Exp against math.Exp bit for bit on four arguments
// from the fuzzer's bytes. Longer: go test -fuzz FuzzExp -fuzztime 60s ./internal/kernel
func FuzzExp(f *testing.F) { fuzzFloats(f, expEdges, checkExp) }

// BenchmarkExp times Exp and math.Exp on 1,000,000 log-probabilities.
func BenchmarkExp(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, 1_000_000)
	for j := range x {
		x[j] = -5 * rng.ExpFloat64()
	}
	y := make([]float64, len(x))
	b.Run("Exp", func(b *testing.B) {
		for b.Loop() {
			copy(y, x)
			Exp(y)
		}
	})
	b.Run("math.Exp", func(b *testing.B) {
		for b.Loop() {
			copy(y, x)
			ExpGo(y)
		}
	})
}

// fuzzFloats runs check on the float64 values the fuzzer's bytes spell,
// eight bytes each, seeded with each of edges as the second of four.
func fuzzFloats(f *testing.F, edges []float64, check func(t *testing.T, x []float64)) {
	for _, v := range edges {
		b := make([]byte, 32)
		binary.LittleEndian.PutUint64(b[8:], math.Float64bits(v))
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		x := make([]float64, len(b)/8)
		for j := range x {
			x[j] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*j:]))
		}
		check(t, x)
	})
}
