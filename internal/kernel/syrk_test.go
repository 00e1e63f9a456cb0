package kernel

import (
	"maps"
	"math"
	"math/rand/v2"
	"testing"
)

// syrkAsm holds (syrk_amd64_test.go) the assembly micro-kernels the
// processor runs.
var syrkAsm = map[string]tileFunc{}

// syrkKernels returns the micro-kernels that TestSyrk checks: the
// portable one, the one in use and every assembly one.
func syrkKernels() map[string]tileFunc {
	m := map[string]tileFunc{"portable": tileGo, "in use": syrkTile}
	maps.Copy(m, syrkAsm)
	return m
}

// TestSyrk checks Syrk with every micro-kernel against sums taken one
// product at a time, for every d up to two packed groups and 3 (every
// tail of the tiles and masks) and every n up to two panels and 3, with
// odd strides: each element of the upper triangle within the rounding
// bound (n+4)·2⁻⁵²·(|C| + Σ_k |A_ik·A_jk|) of the exact sum, every other
// element of C (the lower triangle and the stride's padding) untouched.
func TestSyrk(t *testing.T) {
	defer func(v int) { panelValues = v }(panelValues)
	panelValues = 1 // panels of minKC columns
	rng := rand.New(rand.NewPCG(5, 6))
	for name, tile := range syrkKernels() {
		t.Run(name, func(t *testing.T) {
			for d := 1; d <= 2*groupRows+3; d++ {
				for n := 1; n <= 2*minKC+3; n++ {
					testSyrk(t, rng, tile, d, n)
				}
			}
		})
	}
}

// TestSyrkLarge checks the default panels (two of maxKC columns and a
// part) and a product large enough to be shared out between the cores.
func TestSyrkLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for name, tile := range syrkKernels() {
		t.Run(name, func(t *testing.T) {
			testSyrk(t, rng, tile, 37, 2*maxKC+3)
			testSyrk(t, rng, tile, 203, 901)
		})
	}
}

func testSyrk(t *testing.T, rng *rand.Rand, tile tileFunc, d, n int) {
	t.Helper()
	lda, ldc := n+2*(d%3)+1, d+d%2+1
	a := make([]float64, (d-1)*lda+n)
	for i := range a {
		a[i] = rng.NormFloat64()
	}
	c := make([]float64, (d-1)*ldc+d)
	for i := range c {
		c[i] = rng.NormFloat64()
	}
	c0 := append([]float64(nil), c...)
	syrk(tile, d, n, a, lda, c, ldc)
	for i := range d {
		for j := range ldc {
			x := i*ldc + j
			if x >= len(c) {
				break
			}
			if j < i || j >= d {
				if c[x] != c0[x] {
					t.Fatalf("d %d n %d: C[%d,%d] changed from %v to %v", d, n, i, j, c0[x], c[x])
				}
				continue
			}
			want, mag := c0[x], math.Abs(c0[x])
			for k := range n {
				p := a[i*lda+k] * a[j*lda+k]
				want += p
				mag += math.Abs(p)
			}
			if diff := math.Abs(c[x] - want); diff > float64(n+4)*0x1p-52*mag {
				t.Fatalf("d %d n %d: C[%d,%d] = %v, want %v (error %.3g of %.3g)", d, n, i, j, c[x], want, diff, mag)
			}
		}
	}
}

// TestSyrkEmpty checks that an empty product changes nothing and that a
// short matrix panics.
func TestSyrkEmpty(t *testing.T) {
	c := []float64{1, 2, 3, 4}
	Syrk(2, 0, nil, 0, c, 2)
	Syrk(0, 5, nil, 5, nil, 0)
	if c[0] != 1 || c[1] != 2 || c[3] != 4 {
		t.Fatalf("empty Syrk changed C to %v", c)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("Syrk of a short A did not panic")
		}
	}()
	Syrk(2, 3, make([]float64, 5), 3, c, 2)
}

// TestSyrkAllocs checks that Syrk does not allocate once its packing
// buffer is in the pool.
func TestSyrkAllocs(t *testing.T) {
	a, c := make([]float64, 100*256), make([]float64, 100*100)
	Syrk(100, 256, a, 256, c, 100)
	if n := testing.AllocsPerRun(10, func() { Syrk(100, 256, a, 256, c, 100) }); n != 0 {
		t.Fatalf("Syrk allocates %v times a call", n)
	}
}

// TestSyrkPacked checks SyrkPacked, for every d up to two packed groups
// and 3 and every n up to two minimal panels and 3, on groups an odd
// number of values apart: C equal, bit for bit, to Syrk's blocked kernel
// on the same A (one panel, the same micro-kernel).
func TestSyrkPacked(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for d := 1; d <= 2*groupRows+3; d++ {
		for n := 1; n <= 2*minKC+3; n++ {
			groups := (d + groupRows - 1) / groupRows
			gs := groupRows*n + 5
			a := make([]float64, d*n)
			p := make([]float64, (groups-1)*gs+groupRows*n)
			for i := range d {
				for k := range n {
					v := rng.NormFloat64()
					a[i*n+k] = v
					p[i/groupRows*gs+k*groupRows+i%groupRows] = v
				}
			}
			ldc := d + 1
			c := make([]float64, (d-1)*ldc+d)
			for i := range c {
				c[i] = rng.NormFloat64()
			}
			want := append([]float64(nil), c...)
			syrk(syrkTile, d, n, a, n, want, ldc)
			SyrkPacked(d, n, p, gs, c, ldc)
			for i := range c {
				if c[i] != want[i] {
					t.Fatalf("d %d n %d: C[%d] = %v, want %v", d, n, i, c[i], want[i])
				}
			}
		}
	}
}
