package kernel

import (
	"maps"
	"math"
	"math/rand/v2"
	"testing"
)

// rowAsmKernels holds (syrk_amd64_test.go) the assembly kernels of
// SyrkRow the processor runs.
var rowAsmKernels = map[string]rowFunc{}

// rowKernels returns the kernels of SyrkRow that the tests check: the
// portable one, the one in use and every assembly one.
func rowKernels() map[string]rowFunc {
	m := map[string]rowFunc{"portable": rowGo, "in use": syrkRow}
	maps.Copy(m, rowAsmKernels)
	return m
}

// withRow runs f with SyrkRow running the kernel k.
func withRow(k rowFunc, f func()) {
	defer func(old rowFunc) { syrkRow = old }(syrkRow)
	syrkRow = k
	f()
}

// TestSyrkRow checks SyrkRow with every kernel, for every length up to
// two packed groups and 3 (every tail), columns 0, 1 and 6 of groups an
// odd number of values apart, scales 1 and 0.7: the values written equal
// s·(x − o) computed in Go bit for bit, every other value of p is
// untouched, and finite rows are reported finite.
func TestSyrkRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for name, k := range rowKernels() {
		t.Run(name, func(t *testing.T) {
			withRow(k, func() {
				for n := 1; n <= 2*groupRows+3; n++ {
					for _, r := range []int{0, 1, 6} {
						for _, s := range []float64{1, 0.7} {
							testSyrkRow(t, rng, n, r, s)
						}
					}
				}
			})
		})
	}
}

func testSyrkRow(t *testing.T, rng *rand.Rand, n, r int, s float64) {
	t.Helper()
	gs := groupRows*(r+2) + 3
	groups := (n + groupRows - 1) / groupRows
	p := make([]float64, (groups-1)*gs+groupRows*(r+1))
	for i := range p {
		p[i] = rng.NormFloat64()
	}
	p0 := append([]float64(nil), p...)
	x, o := make([]float64, n), make([]float64, n+2)
	for j := range x {
		x[j] = 1e3 * rng.NormFloat64()
		o[j] = rng.NormFloat64()
	}
	if !SyrkRow(p, gs, r, x, o, s) {
		t.Fatalf("n %d r %d: finite row reported not finite", n, r)
	}
	for i := range p {
		g, k, c := i/gs, i%gs/groupRows, i%gs%groupRows
		j := g*groupRows + c
		if k != r || i%gs >= groupRows*(r+1) || j >= n {
			if p[i] != p0[i] {
				t.Fatalf("n %d r %d: p[%d] changed from %v to %v", n, r, i, p0[i], p[i])
			}
			continue
		}
		if want := (x[j] - o[j]) * s; p[i] != want {
			t.Fatalf("n %d r %d s %v: value %d = %v, want %v", n, r, s, j, p[i], want)
		}
	}
}

// TestSyrkRowNotFinite checks that every kernel reports a NaN, +Inf or
// −Inf at every position of rows of every length up to two groups and 3,
// and reports the largest and the subnormal numbers finite.
func TestSyrkRowNotFinite(t *testing.T) {
	for name, k := range rowKernels() {
		t.Run(name, func(t *testing.T) {
			withRow(k, func() {
				for n := 1; n <= 2*groupRows+3; n++ {
					p, x, o := make([]float64, 3*groupRows*n), make([]float64, n), make([]float64, n)
					for j := range n {
						for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
							x[j] = v
							if SyrkRow(p, groupRows*n, n-1, x, o, 1) {
								t.Fatalf("n %d: %v at %d reported finite", n, v, j)
							}
						}
						for _, v := range []float64{math.MaxFloat64, -math.MaxFloat64, 0x1p-1074} {
							x[j] = v
							if !SyrkRow(p, groupRows*n, n-1, x, o, 1) {
								t.Fatalf("n %d: %v at %d reported not finite", n, v, j)
							}
						}
						x[j] = 0
					}
				}
			})
		})
	}
}

// TestSyrkRowShort checks that SyrkRow panics on a p too short for the
// last value, and that an empty row writes nothing.
func TestSyrkRowShort(t *testing.T) {
	if !SyrkRow(nil, 16, 0, nil, nil, 1) {
		t.Fatal("empty row reported not finite")
	}
	x := make([]float64, 20)
	p := make([]float64, 40+16+3) // group 1 of column 1 ends at 40+16+4
	defer func() {
		if recover() == nil {
			t.Fatal("SyrkRow into a short p did not panic")
		}
	}()
	SyrkRow(p, 40, 1, x, x, 1)
}

// TestSyrkRowAllocs checks that SyrkRow does not allocate.
func TestSyrkRowAllocs(t *testing.T) {
	p, x := make([]float64, 7*16*8), make([]float64, 101)
	if n := testing.AllocsPerRun(10, func() { SyrkRow(p, 16*8, 3, x, x, 0.5) }); n != 0 {
		t.Fatalf("SyrkRow allocates %v times a call", n)
	}
}
