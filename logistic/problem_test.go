package logistic

import (
	"math"
	"slices"
	"testing"

	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/internal/design"
	"github.com/gendisc/gendisc/internal/parallel"
)

// TestEvalAllocations: an evaluation allocates nothing per row; the only
// allocations are parallel.For's goroutines, a constant per call.
func TestEvalAllocations(t *testing.T) {
	d := bundled.Load(t, "optdigits", dataio.Options{}) // 5620 rows, 10 classes
	enc, err := design.Fit(d, design.Options{})
	if err != nil {
		t.Fatal(err)
	}
	z := enc.Encode(d)
	y, tot, err := classes(d)
	if err != nil {
		t.Fatal(err)
	}
	pr := newProblem(z.Dense, z.N, z.P, len(tot), y, rowWeights(d, y, tot, Unweighted), 1)
	theta := initialTheta(pr)
	g := make([]float64, len(theta))
	allocs := testing.AllocsPerRun(5, func() { pr.eval(theta, g) })
	if max := 3 * parallel.Workers(); allocs > float64(max) {
		t.Errorf("%v allocations per evaluation, want at most %d", allocs, max)
	}
}

// TestAffine: the kernels on raw rows with the standardisation folded into
// the parameters give the objective, gradient and Hessian of the
// materialised design matrix.
func TestAffine(t *testing.T) {
	for _, name := range []string{"wine", "pima_indians_diabetes"} {
		d := bundled.Load(t, name, dataio.Options{})
		enc, err := design.Fit(d, design.Options{})
		if err != nil {
			t.Fatal(err)
		}
		x, center, scale, ok := enc.Raw(d)
		if !ok {
			t.Fatal("no raw view")
		}
		z := enc.Encode(d)
		y, tot, err := classes(d)
		if err != nil {
			t.Fatal(err)
		}
		k := len(tot)
		if k == 2 {
			k = 1
		}
		v := rowWeights(d, y, tot, Unweighted)
		std := newProblem(z.Dense, z.N, z.P, k, y, v, 0.7)
		raw := newProblem(x, d.N, z.P, k, y, v, 0.7)
		raw.setAffine(center, scale)
		theta := initialTheta(std)
		for i := range theta {
			theta[i] += 0.1 * float64(i%7-3)
		}
		g1, g2 := make([]float64, len(theta)), make([]float64, len(theta))
		e1, e2 := std.eval(theta, g1), raw.eval(theta, g2)
		if math.Abs(e1.j-e2.j) > 1e-12*math.Abs(e1.j) || e1.wrong != e2.wrong {
			t.Errorf("%s: J %v and %v, wrong %d and %d", name, e1.j, e2.j, e1.wrong, e2.wrong)
		}
		dim := len(theta)
		h1, h2 := make([]float64, dim*dim), make([]float64, dim*dim)
		std.hessian(theta, h1)
		raw.hessian(theta, h2)
		for _, pair := range [][2][]float64{{g1, g2}, {h1, h2}} {
			scale := maxAbs(pair[0])
			for i := range pair[0] {
				if math.Abs(pair[0][i]-pair[1][i]) > 1e-10*scale {
					t.Fatalf("%s: entry %d: %v materialised, %v folded", name, i, pair[0][i], pair[1][i])
				}
			}
		}
	}
}

// TestHessianFromEvaluation: the Hessian of two classes at the θ of the
// last evaluation, whose row weights come from that evaluation's
// exponentials (negExp), is the Hessian computed afresh; at another θ
// the exponentials are not reused.
func TestHessianFromEvaluation(t *testing.T) {
	pr, _ := benchProblem(t, bundled.Load(t, "pima_indians_diabetes", dataio.Options{}), design.Options{})
	fresh := func(theta []float64) []float64 {
		h := make([]float64, len(theta)*len(theta))
		newProblem(pr.z, pr.n, pr.p, pr.k, pr.y, pr.v, pr.lambda).hessian(theta, h)
		return h
	}
	th1, th2 := initialTheta(pr), initialTheta(pr)
	for i := range th1 {
		th1[i] += 0.1 * float64(i%7-3)
		th2[i] -= 0.2 * float64(i%5-2)
	}
	g := make([]float64, len(th1))
	h := make([]float64, len(th1)*len(th1))
	for _, c := range []struct {
		name         string
		eval, hessAt []float64
	}{{"at the evaluation's θ", th1, th1}, {"at another θ", th2, th1}} {
		pr.eval(c.eval, g)
		if got := slices.Equal(c.eval, c.hessAt); pr.k != 1 || got != slices.Equal(pr.expTheta, c.hessAt) {
			t.Fatalf("%s: the evaluation's θ is not recorded", c.name)
		}
		pr.hessian(c.hessAt, h)
		want := fresh(c.hessAt)
		scale := maxAbs(want)
		for i := range want {
			if math.Abs(h[i]-want[i]) > 1e-13*scale {
				t.Fatalf("%s: entry %d: %v, afresh %v", c.name, i, h[i], want[i])
			}
		}
	}
}
