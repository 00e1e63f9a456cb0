package kernel

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSoftmaxAsm checks both assembly kernels of SoftmaxRows (AVX-512
// where the processor has it, and AVX2 forced) against the portable code, to 1e-15 relative to the row's largest probability (1) plus
// 1e−300 (the sums differ in order), for every row length k = 1 to
// 2·4 + 3 and 19 (every tail of the four lanes) and 1 to 9 rows: terms up
// to 10³ apart (some more than 708 below the largest, which give 0), −Inf
// terms, and rows with a NaN, a +Inf or −Inf only, which both leave to
// other, marked here, the rows around them done. Nothing past the rows
// is written.
func TestSoftmaxAsm(t *testing.T) {
	if !softmaxAsm {
		t.Skip("no AVX2 and FMA")
	}
	t.Run("in use", testSoftmaxAsm)
	in := softmax512
	softmax512 = false
	defer func() { softmax512 = in }()
	t.Run("AVX2", testSoftmaxAsm)
}

func testSoftmaxAsm(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	mark := func(row []float64) {
		for i := range row {
			row[i] = -1
		}
	}
	for _, k := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 40} {
		for rows := 1; rows <= 9; rows++ {
			x := make([]float64, rows*k+1)
			for i := range x {
				x[i] = -rng.Float64()*math.Pow(10, float64(rng.IntN(4))) + 50
			}
			x[rows*k] = 12345
			if rows > 2 {
				x[k+rng.IntN(k)] = math.Inf(-1)
				x[2*k+rng.IntN(k)] = []float64{math.NaN(), math.Inf(1)}[rows%2]
			}
			if rows > 4 {
				for j := range k {
					x[4*k+j] = math.Inf(-1)
				}
			}
			got, want := slices.Clone(x), slices.Clone(x)
			softmaxRowsAsm(got[:rows*k], k, make([]float64, 1+rows%4), mark)
			softmaxRowsGo(want[:rows*k], k, make([]float64, rows*k+3), mark)
			for i, w := range want {
				if g := got[i]; g != w && math.Abs(g-w) > 1e-15+1e-300 {
					t.Fatalf("k=%d rows=%d: row %d term %d: %v, portable %v", k, rows, i/k, i%k, g, w)
				}
			}
		}
	}
}

// TestRowsPortable is TestRows with the portable SoftmaxRows forced.
func TestRowsPortable(t *testing.T) {
	in := softmaxAsm
	softmaxAsm = false
	defer func() { softmaxAsm = in }()
	TestRows(t)
}

// BenchmarkSoftmaxRowsPortable is BenchmarkSoftmaxRows with the portable
// code forced.
func BenchmarkSoftmaxRowsPortable(b *testing.B) {
	in := softmaxAsm
	softmaxAsm = false
	defer func() { softmaxAsm = in }()
	BenchmarkSoftmaxRows(b)
}

// BenchmarkSoftmaxRowsAVX2 is BenchmarkSoftmaxRows with the AVX2 kernel
// forced.
func BenchmarkSoftmaxRowsAVX2(b *testing.B) {
	in := softmax512
	softmax512 = false
	defer func() { softmax512 = in }()
	BenchmarkSoftmaxRows(b)
}
