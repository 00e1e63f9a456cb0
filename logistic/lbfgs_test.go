package logistic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/text"
)

// warmData returns warmRows rows of d features (unequal means and scales,
// so that the fit standardises them) with labels of K classes drawn from
// a softmax, and random row weights in [0.5, 1.5).
func warmData(K, d int) *data.Dataset {
	rng := rand.New(rand.NewPCG(11, uint64(K)))
	n := warmRows
	x, y := make([]float64, n*d), make([]int, n)
	w := make([]float64, n*K)
	for i := range w {
		w[i] = rng.NormFloat64()
	}
	s := make([]float64, K)
	for i := range n {
		row := x[i*d : (i+1)*d]
		for j := range row {
			row[j] = rng.NormFloat64()
		}
		for c := range K {
			s[c] = 0
			for j, v := range row {
				s[c] += w[c*d+j] * v
			}
		}
		y[i] = drawClass(rng, s)
		for j := range row {
			row[j] = float64(j) + float64(j+1)*row[j]
		}
	}
	names, classes := make([]string, d), make([]string, K)
	for j := range names {
		names[j] = fmt.Sprintf("x%d", j)
	}
	for c := range classes {
		classes[c] = fmt.Sprint(c)
	}
	ds := data.FromMatrix(names, x, classes, y)
	ds.Weight = make([]float64, n)
	for i := range ds.Weight {
		ds.Weight[i] = 0.5 + rng.Float64()
	}
	return ds
}

// TestWarmStart: on warmRows rows, lbfgs warms up on a subsample (with
// the subsample's Hessian as H₀ at this size) and reaches Newton's
// optimum, binary and multinomial, with weights and standardisation.
func TestWarmStart(t *testing.T) {
	for _, K := range []int{2, 4} {
		d := warmData(K, 8)
		want := fit(t, Config{Solver: Newton, Tol: 1e-12, L2: 3}, d)
		got := fit(t, Config{Solver: LBFGS, Tol: 1e-9, L2: 3}, d)
		diag := got.Diagnostics()
		t.Logf("K=%d: %+v", K, diag)
		if !diag.Converged {
			t.Errorf("K=%d: not converged: %s", K, diag.Warning)
		}
		compareCoefficients(t, got, want, 1e-7)
	}
}

// TestWarmStartProblem: the warm start's pairs and H₀ are set (H₀ from
// the whole subsample or from a part of it), and from them L-BFGS reaches
// the optimum of a cold start, on dense and sparse columns (the subsample
// copies both).
func TestWarmStartProblem(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n, pd, vocab := warmRows, 3, 40
	z := make([]float64, n*pd)
	for i := range z {
		z[i] = rng.NormFloat64()
	}
	var b sparseBuilder
	y, v := make([]int32, n), make([]float64, n)
	for i := range n {
		score := z[i*pd] - 0.5*z[i*pd+1]
		for range 3 {
			t := rng.IntN(vocab)
			b.add(int32(t), float64(1+rng.IntN(2)))
			score += float64(t%5) - 2
		}
		b.endRow()
		if rng.Float64() < sigmoid(score/3) {
			y[i] = 1
		}
		v[i] = 1
	}
	sp := b.csr(vocab)
	budget := hessBudget
	defer func() { hessBudget = budget }()
	for _, tc := range []struct {
		sparse bool
		budget int // hessBudget: the default, or one that forms the Hessian on 1,000 rows
	}{{false, budget}, {false, 1000 * 16}, {true, budget}} {
		sparse := tc.sparse
		hessBudget = tc.budget
		pr := newProblem(z, n, pd, 1, y, v, 2)
		if sparse {
			pr.setSparse(sp)
		}
		theta, mem := warmStart(pr, initialTheta(pr), 1000)
		if len(mem.s) == 0 || (mem.h0 != nil) == sparse {
			t.Fatalf("sparse %v: %d pairs, H₀ %v", sparse, len(mem.s), mem.h0 != nil)
		}
		warm := newState(pr, theta, 1e-8, 1000)
		warm.lbfgs(mem)
		cold := newState(pr, initialTheta(pr), 1e-8, 1000)
		cold.lbfgs(&lbfgsMemory{})
		t.Logf("sparse %v, budget %d: warm %d passes, cold %d", sparse, tc.budget, warm.evals, cold.evals)
		if !warm.converged || !cold.converged {
			t.Fatalf("sparse %v: converged %v and %v: %s %s", sparse, warm.converged, cold.converged, warm.warning, cold.warning)
		}
		for j := range theta {
			if math.Abs(warm.theta[j]-cold.theta[j]) > 1e-6*max(1, math.Abs(cold.theta[j])) {
				t.Errorf("sparse %v: θ[%d] = %v warm, %v cold", sparse, j, warm.theta[j], cold.theta[j])
			}
		}
	}
}

// TestWarmStartRareClass: a class with too few rows in the subsample
// means a cold start, and the fit still reaches Newton's optimum.
func TestWarmStartRareClass(t *testing.T) {
	d := warmData(3, 4)
	rare := 0
	for i, y := range d.Y {
		if y == 2 {
			if rare < 40 {
				rare++
				continue
			}
			d.Y[i] = float64(i % 2)
		}
	}
	pr := newProblem(d.X, d.N, 4, 3, classIndices(d.Y), d.Weight, 1)
	if _, mem := warmStart(pr, initialTheta(pr), 1000); len(mem.s) != 0 || mem.h0 != nil {
		t.Fatalf("warm start with %d rows of a class in %d", rare, d.N)
	}
	want := fit(t, Config{Solver: Newton, Tol: 1e-12}, d)
	got := fit(t, Config{Solver: LBFGS, Tol: 1e-9}, d)
	compareCoefficients(t, got, want, 1e-6)
}

// classIndices converts float class labels to int32.
func classIndices(y []float64) []int32 {
	out := make([]int32, len(y))
	for i, v := range y {
		out[i] = int32(v)
	}
	return out
}

// sparseBuilder assembles a text.CSR row by row.
type sparseBuilder struct {
	indptr  []int
	indices []int32
	data    []float64
}

func (b *sparseBuilder) add(j int32, x float64) {
	b.indices, b.data = append(b.indices, j), append(b.data, x)
}

func (b *sparseBuilder) endRow() {
	if b.indptr == nil {
		b.indptr = []int{0}
	}
	b.indptr = append(b.indptr, len(b.indices))
}

func (b *sparseBuilder) csr(cols int) *text.CSR {
	return &text.CSR{Rows: len(b.indptr) - 1, Cols: cols, Indptr: b.indptr, Indices: b.indices, Data: b.data}
}

// TestSubsample: n distinct rows in order, copied with their labels,
// weights and sparse entries, the same for the same seed, and the penalty
// scaled by the subsample's share of the weight.
func TestSubsample(t *testing.T) {
	n, pd := 1000, 2
	z := make([]float64, n*pd)
	y, v := make([]int32, n), make([]float64, n)
	var b sparseBuilder
	for i := range n {
		z[i*pd], z[i*pd+1] = float64(i), -float64(i)
		y[i], v[i] = int32(i%3), float64(1+i%2)
		b.add(int32(i%7), float64(i))
		b.endRow()
	}
	pr := newProblem(z, n, pd, 3, y, v, 4)
	pr.setSparse(b.csr(7))
	sub := pr.subsample(100, rand.New(rand.NewPCG(1, 2)))
	again := pr.subsample(100, rand.New(rand.NewPCG(1, 2)))
	if sub.n != 100 || sub.p != pr.p {
		t.Fatalf("%d rows, %d columns", sub.n, sub.p)
	}
	prev, ws := -1, 0.0
	for r := range sub.n {
		i := int(sub.z[r*pd])
		idx, val := sub.sp.Row(r)
		if i <= prev || sub.z[r*pd+1] != -float64(i) || sub.y[r] != y[i] || sub.v[r] != v[i] ||
			len(idx) != 1 || idx[0] != int32(i%7) || val[0] != float64(i) || again.z[r*pd] != float64(i) {
			t.Fatalf("subsample row %d: row %d (after %d), y %d, v %v, sparse %v %v", r, i, prev, sub.y[r], sub.v[r], idx, val)
		}
		prev = i
		ws += v[i]
	}
	if sub.wsum != ws || math.Abs(sub.lambda-4*ws/pr.wsum) > 1e-15 {
		t.Errorf("W_S = %v (want %v), λ_S = %v (want %v)", sub.wsum, ws, sub.lambda, 4*ws/pr.wsum)
	}
}

// TestLBFGSMemory: the direction of the two-loop recursion satisfies the
// secant condition of the newest pair, H y = s (so d = −s for g = y), with
// γI and with an H₀; a pair without positive curvature is left out; with
// neither pairs nor H₀ the direction is −g/‖g‖.
func TestLBFGSMemory(t *testing.T) {
	m := &lbfgsMemory{}
	d := make([]float64, 2)
	m.direction([]float64{3, 4}, d)
	if math.Abs(d[0]+0.6) > 1e-15 || math.Abs(d[1]+0.8) > 1e-15 {
		t.Errorf("no pairs: direction %v, want (−0.6, −0.8)", d)
	}
	m.add([]float64{1, 0}, []float64{-1, 0}) // sᵀy < 0: left out
	m.add([]float64{1, 2}, []float64{2, 1})
	m.add([]float64{0.5, -1}, []float64{1, -3})
	if len(m.s) != 2 {
		t.Fatalf("%d pairs, want 2", len(m.s))
	}
	check := func(what string) {
		m.direction([]float64{1, -3}, d)
		if math.Abs(d[0]+0.5) > 1e-12 || math.Abs(d[1]-1) > 1e-12 {
			t.Errorf("%s: H y = %v, want s = (0.5, −1)", what, []float64{-d[0], -d[1]})
		}
	}
	check("γI")
	var chol mat.Cholesky
	if !chol.Factorize(mat.NewSymDense(2, []float64{4, 1, 1, 3})) {
		t.Fatal("factorize")
	}
	m.h0, m.h0Scale = &chol, 0.5
	check("H₀")
}

// TestLog1pSum: one logarithm per chunk gives Σ log1p(u_i) to 1e-14
// relative, for tiny terms (where log(1 + u) would lose them) and for
// products that would overflow without the flush.
func TestLog1pSum(t *testing.T) {
	for _, u := range []float64{1e-12, 0.3, 1, 1e30} {
		var l log1pSum
		want := 0.0
		for range 64 {
			l.add(u)
			want += math.Log1p(u)
		}
		if got := l.value(); math.Abs(got-want) > 1e-14*want {
			t.Errorf("u = %v: %v, want %v", u, got, want)
		}
	}
}
