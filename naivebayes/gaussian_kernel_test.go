package naivebayes

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
)

// TestQuadRows checks the kernel in use (the assembly on amd64 with AVX2
// and FMA) and the portable one against sums taken one product at a
// time, for every feature count 1..40 (every tail of the 4-wide steps)
// and class count 1..12 (fewer than four classes, whole groups and an
// overlapping last group), on a few rows, with means far from zero
// against unit variances as well as near it.
func TestQuadRows(t *testing.T) {
	t.Run("in use", func(t *testing.T) { testQuadRows(t, quadRows) })
	t.Run("portable", func(t *testing.T) { testQuadRows(t, quadRowsGo) })
}

func testQuadRows(t *testing.T, kernel func(q, x []float64, g *gaussianFamily)) {
	rng := rand.New(rand.NewPCG(5, 6))
	const rows = 5
	for d := 1; d <= 40; d++ {
		for k := 1; k <= 12; k++ {
			shift := 0.0
			if k%2 == 0 {
				shift = 1e4
			}
			mean, variance := make([]float64, k*d), make([]float64, k*d)
			for i := range mean {
				mean[i] = shift + rng.NormFloat64()
				variance[i] = 0.1 + rng.Float64()
			}
			g := newGaussianFamily(k, d, mean, variance)
			x := make([]float64, rows*d)
			for i := range x {
				x[i] = shift + 2*rng.NormFloat64()
			}
			q := make([]float64, rows*g.stride+1)
			q[len(q)-1] = 42 // sentinel
			kernel(q[:rows*g.stride], x, g)
			if q[len(q)-1] != 42 {
				t.Fatalf("d=%d k=%d: wrote past the rows", d, k)
			}
			for r := range rows {
				for c := range k {
					want := 0.0
					for j := range d {
						e := x[r*d+j] - mean[c*d+j]
						want += g.h[c*d+j] * e * e
					}
					if got := q[r*g.stride+c]; math.Abs(got-want) > 1e-14*want {
						t.Fatalf("d=%d k=%d row %d class %d: %v, want %v (relative error %.3g)", d, k, r, c, got, want, (got-want)/want)
					}
				}
			}
			// A missing cell makes the row's forms NaN, the rows around it
			// unchanged.
			x[2*d+d/2] = math.NaN()
			kernel(q[:rows*g.stride], x, g)
			for r := range rows {
				for c := range k {
					if got := q[r*g.stride+c]; math.IsNaN(got) != (r == 2) {
						t.Fatalf("d=%d k=%d row %d class %d: %v with a missing cell in row 2", d, k, r, c, got)
					}
				}
			}
		}
	}
}

// TestPortableQuadRows: the class log-probabilities with the portable
// kernel equal those of the kernel in use to rounding, on complete data,
// with missing cells and with ten classes.
func TestPortableQuadRows(t *testing.T) {
	for _, c := range []struct {
		name string
		d    *data.Dataset
	}{
		{"iris", bundled.Load(t, "iris", dataio.Options{})},
		{"wine", bundled.Load(t, "wine", dataio.Options{})},
		{"breast_cancer_wdbc missing", withMissing(bundled.Load(t, "breast_cancer_wdbc", dataio.Options{}), 4)},
		{"ten classes", tenClasses(3000, 23)},
	} {
		m := fit(t, GaussianConfig{}, c.d)
		want := m.LogProba(nil, c.d)
		asm := quadAsm
		quadAsm = false
		got := m.LogProba(nil, c.d)
		quadAsm = asm
		checkNear(t, c.name, got, want, 1e-12)
	}
}

// tenClasses returns n rows of d features in ten classes with shifted
// Gaussian features, as the benchmark data.
func tenClasses(n, d int) *data.Dataset {
	r := rand.New(rand.NewPCG(uint64(n), uint64(d)))
	x, y := make([][]float64, n), make([]int, n)
	for i := range x {
		y[i] = r.IntN(10)
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = float64((y[i]*7+j)%10)*0.3 + r.NormFloat64()
		}
	}
	return matrix([]string{"c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"}, x, y)
}

// BenchmarkQuadRows times the kernel in use on 100 rows of 50 features
// against 10 classes, in cache.
func BenchmarkQuadRows(b *testing.B) {
	const rows, d, k = 100, 50, 10
	rng := rand.New(rand.NewPCG(7, 8))
	mean, variance, x := make([]float64, k*d), make([]float64, k*d), make([]float64, rows*d)
	for i := range mean {
		mean[i], variance[i] = rng.NormFloat64(), 0.5+rng.Float64()
	}
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	g := newGaussianFamily(k, d, mean, variance)
	q := make([]float64, rows*g.stride)
	b.SetBytes(int64(len(x) * 8))
	for b.Loop() {
		quadRows(q, x, g)
	}
}

// TestStreamedScores checks that the scores computed in a buffer and
// streamed to dst (outputs of streamValues or more) are those written in
// place, bit for bit, for the probabilities, the log-probabilities and
// the joint log-likelihoods, with missing cells, on chunks that do not
// divide the rows; and that ProbaClasses, streamed, gives Proba's
// posteriors and gendisc.Predict's classes.
func TestStreamedScores(t *testing.T) {
	d := withMissing(tenClasses(3*chunkRows+17, 23), 5)
	m := fit(t, GaussianConfig{}, d)
	for _, score := range []struct {
		name string
		fn   func(dst []float64, d *data.Dataset) []float64
	}{{"Proba", m.Proba}, {"LogProba", m.LogProba}, {"JointLogLikelihood", m.JointLogLikelihood}} {
		want := score.fn(nil, d)
		in := streamValues
		streamValues = 1
		got := score.fn(nil, d)
		streamValues = in
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%s: value %d streamed is %v, in place %v", score.name, i, got[i], want[i])
			}
		}
	}
	in := streamValues
	streamValues = 1
	proba, best := make([]float64, d.N*len(m.Classes())), make([]int, d.N)
	m.ProbaClasses(proba, best, d)
	streamValues = in
	for i, w := range m.Proba(nil, d) {
		if math.Float64bits(proba[i]) != math.Float64bits(w) {
			t.Fatalf("ProbaClasses: value %d streamed is %v, Proba's %v", i, proba[i], w)
		}
	}
	if want := gendisc.Predict(m, d); !slices.Equal(best, want) {
		t.Fatal("ProbaClasses: the classes differ from gendisc.Predict's")
	}
}
