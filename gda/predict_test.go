package gda

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/internal/kernel"
	"github.com/gendisc/gendisc/internal/mathx"
)

// TestLaneSolver compares the lane solver's distances with a Trsm solve,
// with the kernel in use and the portable one forced, for full groups of
// rows and a partial last group, an even and an odd number of features,
// the offsets of LDA's classes and QDA's zero.
func TestLaneSolver(t *testing.T) {
	inUse := kernel.SolveLanes
	defer func() { kernel.SolveLanes = inUse }()
	for _, k := range []func(*kernel.Tri, []float64, []float64, []float64, int, []float64, int){inUse, kernel.SolveLanesGo} {
		kernel.SolveLanes = k
		for _, name := range []string{"sonar", "wine"} {
			checkSolver(t, bundled.Load(t, name, dataio.Options{}))
		}
	}
}

// checkSolver checks the distances of the lane solvers of the components
// of an LDA and a QDA fitted to d against a Trsm solve, on 77 rows of d
// with a little noise.
func checkSolver(t *testing.T, d *data.Dataset) {
	t.Helper()
	lda, err := LDAConfig{}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	qda, err := QDAConfig{}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	p, rows := d.D(), 77 // sonar 208 rows, wine 178
	rng := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, rows*p)
	for i := range x {
		x[i] = d.X[i] + 0.01*rng.NormFloat64()
	}
	for _, c := range []component{lda.m.comps[0], qda.m.comps[1]} {
		q := make([]float64, rows*len(c.nu))
		xt := make([]float64, chunkRows*p)
		transposeRows(xt, x, p)
		newLaneSolver(c.f, c.nu).distances(q, make([]float64, lanes*p), xt, p, rows, c.centre)
		z := make([]float64, rows*p)
		for i := range z {
			z[i] = x[i] - c.centre[i%p]
		}
		trsmRows(c.f, z, rows)
		for a, nu := range c.nu {
			for r := range rows {
				want := 0.0
				for j, v := range z[r*p : (r+1)*p] {
					want += (v - nu[j]) * (v - nu[j])
				}
				if got := q[a*rows+r]; math.Abs(got-want) > 1e-12*want {
					t.Fatalf("%d classes, offset %d, row %d: %v, Trsm %v", len(c.nu), a, r, got, want)
				}
			}
		}
	}
}

// trsmRows replaces each row x of the rows×p matrix z (stride p) by
// U⁻ᵀx with BLAS Trsm (Z ← Z·U⁻¹).
func trsmRows(f *factor, z []float64, rows int) {
	p := f.u.N
	blas64.Trsm(blas.Right, blas.NoTrans, 1, f.u, blas64.General{Rows: rows, Cols: p, Stride: p, Data: z})
}

// TestPredictRowByRow checks LogProba and JointLogLikelihood of an LDA and
// a QDA, with the kernel in use and the portable one forced, against the
// densities of each row computed on its own (gauss.Cov.LogPdf, or the
// marginal over the observed cells for a row with missing cells) and
// normalised by mathx.NormalizeLog, to 1e-12 relative: 1,000 rows of 13
// correlated features, three classes, some missing cells, rows far out
// (whose posteriors are nearly 0 or 1).
func TestPredictRowByRow(t *testing.T) {
	const n, p, K = 1000, 13, 3
	rng := rand.New(rand.NewPCG(7, 8))
	d := &data.Dataset{Schema: &data.Schema{Target: &data.Column{Name: "y", Kind: data.Categorical, Levels: []string{"a", "b", "c"}}},
		N: n, X: make([]float64, n*p), Y: make([]float64, n), Source: data.Named("test")}
	for j := range p {
		d.Schema.Features = append(d.Schema.Features, data.Column{Name: "x" + string(rune('a'+j)), Kind: data.Numeric})
	}
	for i := range n {
		k := i % K
		d.Y[i] = float64(k)
		prev := 0.0
		for j := range p {
			v := rng.NormFloat64()
			d.X[i*p+j] = v + 0.6*prev + float64(k)*0.3*float64(j%3) + float64(k*j%5)*0.1
			prev = v
		}
	}
	test := &data.Dataset{Schema: d.Schema, N: 300, X: slices.Clone(d.X[:300*p]), Source: data.Named("test")}
	for i := range test.N {
		switch {
		case i%17 == 3:
			test.X[i*p+i%p] = math.NaN()
		case i%29 == 5:
			for j := range p {
				test.X[i*p+j] *= 30
			}
		}
	}
	lda, err := LDAConfig{}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	qda, err := QDAConfig{}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	inUse := kernel.SolveLanes
	defer func() { kernel.SolveLanes = inUse }()
	for _, k := range []func(*kernel.Tri, []float64, []float64, []float64, int, []float64, int){inUse, kernel.SolveLanesGo} {
		kernel.SolveLanes = k
		for _, m := range []*model{lda.m, qda.m} {
			joint, post, proba := m.joint(nil, nil, nil, test, jointOut), m.joint(nil, nil, nil, test, logProbaOut), m.joint(nil, nil, nil, test, probaOut)
			checkStreamed(t, m, test)
			work := make([]float64, p)
			for i := range test.N {
				x := test.X[i*p : (i+1)*p]
				want := make([]float64, K)
				for c := range K {
					g := m.comps[m.comp[c]].f.g
					if mathx.HasNaN(x) {
						pat, err := g.PatternOf(x)
						if err != nil {
							t.Fatal(err)
						}
						want[c] = m.logPrior[c] + pat.LogPdf(x, m.means[c], work)
					} else {
						want[c] = m.logPrior[c] + g.LogPdf(x, m.means[c], work)
					}
				}
				for c, w := range want {
					if g := joint[i*K+c]; math.Abs(g-w) > 1e-12*max(1, math.Abs(w)) {
						t.Fatalf("%d classes in %d components: row %d class %d: joint %v, want %v", K, len(m.comps), i, c, g, w)
					}
				}
				mathx.NormalizeLog(want)
				for c, w := range want {
					if g := post[i*K+c]; math.Abs(g-w) > 1e-12*max(1, math.Abs(w)) {
						t.Fatalf("%d components: row %d class %d: log-posterior %v, want %v", len(m.comps), i, c, g, w)
					}
					// The log-posterior's tolerance, carried to its exponential.
					if g, e := proba[i*K+c], math.Exp(w); math.Abs(g-e) > 1e-12*max(1, math.Abs(w))*e+1e-300 {
						t.Fatalf("%d components: row %d class %d: posterior %v, want %v", len(m.comps), i, c, g, e)
					}
				}
			}
		}
	}
}

// TestNormaliseChunk checks kernel.NormalizeLogRows with normalise for
// the rows it leaves against normalise row by row, to 1e-14 relative to
// max(1, |value|), and kernel.ProbaRows against the exponentials of
// normalise to 1e-14 relative plus 1e−300, on rows with terms far
// apart, −Inf terms, a row of −Inf only and a row with a NaN (both of
// which get the prior). (The predictions score the last two again:
// TestFarRows.)
func TestNormaliseChunk(t *testing.T) {
	m := &model{prior: []float64{0.2, 0.3, 0.5}, logPrior: []float64{math.Log(0.2), math.Log(0.3), math.Log(0.5)}}
	rng := rand.New(rand.NewPCG(9, 10))
	const K, rows = 3, 41
	out := make([]float64, K*rows)
	for i := range out {
		out[i] = -rng.Float64() * math.Pow(10, float64(i%5))
	}
	out[4], out[10], out[11] = math.Inf(-1), math.Inf(-1), math.Inf(-1)
	out[3*7], out[3*7+1], out[3*7+2] = math.Inf(-1), math.Inf(-1), math.Inf(-1)
	out[3*9+1] = math.NaN()
	p, want, pwant := slices.Clone(out), slices.Clone(out), slices.Clone(out)
	for r := range rows {
		m.normalise(want[r*K : (r+1)*K])
		m.normalise(pwant[r*K : (r+1)*K])
	}
	for i, v := range pwant {
		pwant[i] = math.Exp(v)
	}
	kernel.NormalizeLogRows(out, K, make([]float64, len(out)+3), m.normalise)
	kernel.ProbaRows(p, K, make([]float64, len(out)+3), m.normalise, nil)
	for i, w := range want {
		g := out[i]
		if g != w && !(math.Abs(g-w) <= 1e-14*max(1, math.Abs(w))) {
			t.Fatalf("row %d class %d: %v, want %v", i/K, i%K, g, w)
		}
		if g, w := p[i], pwant[i]; g != w && !(math.Abs(g-w) <= 1e-14*w+1e-300) {
			t.Fatalf("row %d class %d: probability %v, want %v", i/K, i%K, g, w)
		}
	}
	if !slicesNear(p[3*7:3*8], m.prior) || !slicesNear(p[3*9:3*10], m.prior) {
		t.Fatalf("rows without a finite joint: %v and %v, want the prior %v", p[3*7:3*8], p[3*9:3*10], m.prior)
	}
}

// slicesNear reports whether a and b agree to 1e-15 relative.
func slicesNear(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Abs(x-y) <= 1e-15*math.Abs(y) })
}

// checkStreamed checks that joint writes the same bits whether it streams
// its chunks through a buffer (streamValues) or not, for every output, on
// the rows of d and a copy of them with a row far out (its quadratic forms
// overflow), and that the classes it gives with the posteriors are
// gendisc.ArgmaxRows of the log-posteriors.
func checkStreamed(t *testing.T, m *model, d *data.Dataset) {
	t.Helper()
	far := &data.Dataset{Schema: d.Schema, N: d.N, X: slices.Clone(d.X), Source: d.Source}
	for j := range d.D() {
		far.X[7*d.D()+j] = 1e300 * float64(j%3-1)
	}
	K := len(m.logPrior)
	for _, d := range []*data.Dataset{d, far} {
		var want [3][]float64
		for o := range want {
			want[o] = m.joint(nil, nil, nil, d, output(o))
		}
		in := streamValues
		streamValues = 1
		for o := range want {
			if got := m.joint(nil, nil, nil, d, output(o)); !sameBits(got, want[o]) {
				t.Fatalf("output %d: streamed, the values differ", o)
			}
		}
		best := make([]int, d.N)
		proba := m.joint(nil, nil, best, d, probaOut)
		streamValues = in
		if !sameBits(proba, want[probaOut]) {
			t.Fatal("posteriors with the classes differ from those without")
		}
		if lp := gendisc.ArgmaxRows(nil, want[logProbaOut], K); !slices.Equal(best, lp) {
			t.Fatalf("classes %v, want those of the log-posteriors, %v", best, lp)
		}
	}
}

// sameBits reports whether a and b hold the same float64 bits.
func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}
