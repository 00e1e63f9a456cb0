package gauss

import (
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distmv"
)

// randomCov returns a random p×p covariance matrix, well conditioned, and
// a random mean.
func randomCov(p int, rng *rand.Rand) ([]float64, []float64) {
	b := make([]float64, p*p)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	s := make([]float64, p*p)
	for i := range p {
		for j := range p {
			v := 0.0
			for k := range p {
				v += b[i*p+k] * b[j*p+k]
			}
			s[i*p+j] = v / float64(p)
		}
		s[i*p+i] += 0.5
	}
	mu := make([]float64, p)
	for j := range mu {
		mu[j] = rng.NormFloat64() * 3
	}
	return s, mu
}

// sub returns the rows r and columns c of the p×p matrix s.
func sub(s []float64, p int, r, c []int) *mat.Dense {
	m := mat.NewDense(max(len(r), 1), max(len(c), 1), nil)
	for a, i := range r {
		for b, j := range c {
			m.Set(a, b, s[i*p+j])
		}
	}
	return m
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if !(math.Abs(got-want) <= tol*max(1, math.Abs(want))) {
		t.Fatalf("%s = %.17g, want %.17g", what, got, want)
	}
}

// TestPattern compares the marginal log-density, the conditional mean and
// covariance of every pattern of a 5-dimensional Gaussian with the
// textbook formulas evaluated by gonum (inverse of Σ_oo, distmv.Normal),
// 1e-12 relative.
func TestPattern(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const p = 5
	s, mu := randomCov(p, rng)
	c, err := New(s, p, 1e12)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, p)
	for j := range x {
		x[j] = mu[j] + rng.NormFloat64()
	}
	full, _ := distmv.NewNormal(mu, mat.NewSymDense(p, append([]float64(nil), s...)), nil)
	near(t, "LogPdf", c.LogPdf(x, mu, nil), full.LogProb(x), 1e-12)
	for mask := range 1 << p {
		var obs, mis []int
		row := append([]float64(nil), x...)
		for j := range p {
			if mask&(1<<j) != 0 {
				obs = append(obs, j)
			} else {
				mis = append(mis, j)
				row[j] = math.NaN()
			}
		}
		pat, err := c.PatternOf(row)
		if err != nil {
			t.Fatal(err)
		}
		if pat2, _ := c.Pattern(obs); pat2 != pat {
			t.Fatalf("mask %b: Pattern and PatternOf differ", mask)
		}
		if len(obs) == 0 {
			if got := pat.LogPdf(row, mu, nil); got != 0 {
				t.Fatalf("nothing observed: LogPdf = %v", got)
			}
		} else {
			soo := sub(s, p, obs, obs)
			mo, xo := make([]float64, len(obs)), make([]float64, len(obs))
			for a, j := range obs {
				mo[a], xo[a] = mu[j], x[j]
			}
			var sym mat.SymDense
			sym.SymOuterK(0, soo) // allocate
			for a := range obs {
				for b := range obs {
					sym.SetSym(a, b, soo.At(a, b))
				}
			}
			marg, ok := distmv.NewNormal(mo, &sym, nil)
			if !ok {
				t.Fatal("marginal not positive definite")
			}
			near(t, "marginal LogPdf", pat.LogPdf(row, mu, nil), marg.LogProb(xo), 1e-12)
			near(t, "LogDetObs", pat.LogDetObs(), math.Log(mat.Det(soo)), 1e-12)
		}
		if len(mis) == 0 {
			continue
		}
		// A = Σ_mo Σ_oo⁻¹, C = Σ_mm − A Σ_om.
		var a, cc mat.Dense
		cc.CloneFrom(sub(s, p, mis, mis))
		if len(obs) > 0 {
			var inv mat.Dense
			if err := inv.Inverse(sub(s, p, obs, obs)); err != nil {
				t.Fatal(err)
			}
			a.Mul(sub(s, p, mis, obs), &inv)
			var ac mat.Dense
			ac.Mul(&a, sub(s, p, obs, mis))
			cc.Sub(&cc, &ac)
		}
		dst := make([]float64, p)
		pat.CondMean(dst, row, mu)
		for b, j := range mis {
			want := mu[j]
			for o, i := range obs {
				want += a.At(b, o) * (x[i] - mu[i])
			}
			near(t, "CondMean", dst[j], want, 1e-12)
			near(t, "CondVar", pat.CondVar()[b], cc.At(b, b), 1e-12)
			for l := range mis {
				near(t, "CondCov", pat.CondCov()[b*len(mis)+l], cc.At(b, l), 1e-12)
			}
		}
		// L_C L_Cᵀ = C.
		q := len(mis)
		for b := range q {
			for l := range q {
				v := 0.0
				for i := range q {
					v += pat.lc[b*q+i] * pat.lc[l*q+i]
				}
				near(t, "L_C L_Cᵀ", v, cc.At(b, l), 1e-12)
			}
		}
	}
}

// TestDiag checks NewDiag against New of the same diagonal matrix.
func TestDiag(t *testing.T) {
	v := []float64{0.5, 2, 3.5}
	s := []float64{0.5, 0, 0, 0, 2, 0, 0, 0, 3.5}
	d, err := NewDiag(v)
	if err != nil {
		t.Fatal(err)
	}
	f, err := New(s, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	x, mu := []float64{1, math.NaN(), -2}, []float64{0.5, 1, 0}
	pd, _ := d.PatternOf(x)
	pf, _ := f.PatternOf(x)
	near(t, "LogPdf", pd.LogPdf(x, mu, nil), pf.LogPdf(x, mu, nil), 1e-14)
	near(t, "CondVar", pd.CondVar()[0], 2, 0)
	near(t, "LogDet", d.LogDet(), f.LogDet(), 1e-14)
	a, b := make([]float64, 3), make([]float64, 3)
	pd.CondRand(a, x, mu, rand.New(rand.NewPCG(1, 1)))
	pf.CondRand(b, x, mu, rand.New(rand.NewPCG(1, 1)))
	near(t, "CondRand", a[1], b[1], 1e-14)
}

// TestRand checks the first two moments of Rand and CondRand over 200000
// draws: means within 4 standard errors, covariances within 0.02.
func TestRand(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const p, n = 3, 200000
	s, mu := randomCov(p, rng)
	c, err := New(s, p, 0)
	if err != nil {
		t.Fatal(err)
	}
	m, cov := make([]float64, p), make([]float64, p*p)
	x := make([]float64, p)
	for range n {
		c.Rand(x, mu, rng)
		for j := range p {
			m[j] += x[j] / n
			for l := range p {
				cov[j*p+l] += (x[j] - mu[j]) * (x[l] - mu[l]) / n
			}
		}
	}
	for j := range p {
		if math.Abs(m[j]-mu[j]) > 4*math.Sqrt(s[j*p+j]/n) {
			t.Fatalf("mean %d = %v, want %v", j, m[j], mu[j])
		}
		for l := range p {
			if math.Abs(cov[j*p+l]-s[j*p+l]) > 0.02*math.Sqrt(s[j*p+j]*s[l*p+l]) {
				t.Fatalf("covariance (%d, %d) = %v, want %v", j, l, cov[j*p+l], s[j*p+l])
			}
		}
	}
	row := []float64{mu[0] + 1, math.NaN(), math.NaN()}
	pat, _ := c.PatternOf(row)
	want := make([]float64, p)
	pat.CondMean(want, row, mu)
	sum, sq := [2]float64{}, [3]float64{}
	for range n {
		pat.CondRand(x, row, mu, rng)
		a, b := x[1]-want[1], x[2]-want[2]
		sum[0], sum[1] = sum[0]+a/n, sum[1]+b/n
		sq[0], sq[1], sq[2] = sq[0]+a*a/n, sq[1]+a*b/n, sq[2]+b*b/n
	}
	cc := pat.CondCov()
	for i, v := range []float64{cc[0], cc[1], cc[3]} {
		if math.Abs(sq[i]-v) > 0.02*math.Sqrt(cc[0]*cc[3]) {
			t.Fatalf("conditional covariance %d = %v, want %v", i, sq[i], v)
		}
	}
	for b := range 2 {
		if math.Abs(sum[b]) > 4*math.Sqrt(cc[b*3]/n) {
			t.Fatalf("conditional mean %d off by %v", b, sum[b])
		}
	}
}

// TestErrors checks the errors of New and NewDiag.
func TestErrors(t *testing.T) {
	var ve *VarianceError
	if _, err := New([]float64{1, 0, 0, 0}, 2, 0); !errors.As(err, &ve) || ve.Dim != 1 || !errors.Is(err, ErrNotPositiveDefinite) {
		t.Fatalf("zero variance: %v", err)
	}
	if _, err := New([]float64{1, 2, 2, 1}, 2, 0); err != ErrNotPositiveDefinite {
		t.Fatalf("indefinite: %v", err)
	}
	if _, err := New([]float64{1, 1 - 1e-14, 1 - 1e-14, 1}, 2, 1e12); err != ErrNotPositiveDefinite {
		t.Fatalf("ill-conditioned: %v", err)
	}
	if _, err := New([]float64{1, 1 - 1e-14, 1 - 1e-14, 1}, 2, 0); err != nil {
		t.Fatalf("ill-conditioned without a check: %v", err)
	}
	if _, err := NewDiag([]float64{1, math.Inf(1)}); !errors.As(err, &ve) || ve.Dim != 1 {
		t.Fatalf("infinite variance: %v", err)
	}
}

// TestConcurrent looks patterns up from many goroutines (run with -race):
// every goroutine gets the same Pattern for the same cells.
func TestConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	s, _ := randomCov(6, rng)
	c, err := New(s, 6, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := make([][]*Pattern, 8)
	var wg sync.WaitGroup
	for g := range got {
		wg.Go(func() {
			for mask := range 64 {
				var obs []int
				for j := range 6 {
					if mask&(1<<j) != 0 {
						obs = append(obs, j)
					}
				}
				pat, err := c.Pattern(obs)
				if err != nil {
					panic(err)
				}
				got[g] = append(got[g], pat)
			}
		})
	}
	wg.Wait()
	for g := range got {
		for i, pat := range got[g] {
			if pat != got[0][i] {
				t.Fatalf("goroutine %d, pattern %d: another Pattern", g, i)
			}
		}
	}
}

// TestCacheBound looks up more patterns than MaxCachedPatterns: the cache
// stops growing, and a pattern past the bound is still right.
func TestCacheBound(t *testing.T) {
	const p = 13
	s, mu := randomCov(p, rand.New(rand.NewPCG(7, 8)))
	c, err := New(s, p, 0)
	if err != nil {
		t.Fatal(err)
	}
	obs := func(mask int) []int {
		var o []int
		for j := range p {
			if mask&(1<<j) != 0 {
				o = append(o, j)
			}
		}
		return o
	}
	for mask := range MaxCachedPatterns + 10 {
		if _, err := c.Pattern(obs(mask)); err != nil {
			t.Fatal(err)
		}
	}
	if len(c.pats) != MaxCachedPatterns {
		t.Fatalf("%d patterns cached, want %d", len(c.pats), MaxCachedPatterns)
	}
	last := MaxCachedPatterns + 5
	a, _ := c.Pattern(obs(last))
	b, _ := c.Pattern(obs(last))
	if a == b {
		t.Fatal("a pattern past the bound was cached")
	}
	x := make([]float64, p)
	for j := range x {
		x[j] = mu[j] + 1
	}
	if a.LogPdf(x, mu, nil) != b.LogPdf(x, mu, nil) {
		t.Fatal("the same pattern gives two densities")
	}
}

// TestPatternTo checks that PatternTo, reusing one Pattern for every
// pattern, gives what the cached Pattern gives, draws included (same
// seed), bit for bit.
func TestPatternTo(t *testing.T) {
	const p = 6
	s, mu := randomCov(p, rand.New(rand.NewPCG(9, 9)))
	full, err := New(s, p, 0)
	if err != nil {
		t.Fatal(err)
	}
	diag, err := NewDiag([]float64{1, 2, 3, 4, 5, 6})
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, p)
	for j := range x {
		x[j] = mu[j] + float64(j) - 2.5
	}
	for _, c := range []*Cov{full, diag} {
		var own Pattern
		for mask := range 1 << p {
			var obs []int
			for j := range p {
				if mask&(1<<j) != 0 {
					obs = append(obs, j)
				}
			}
			want, err := c.Pattern(obs)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.PatternTo(&own, obs); err != nil {
				t.Fatal(err)
			}
			if own.LogPdf(x, mu, nil) != want.LogPdf(x, mu, nil) || own.LogDetObs() != want.LogDetObs() {
				t.Fatalf("mask %b: densities differ", mask)
			}
			for i, v := range want.CondCov() {
				if own.CondCov()[i] != v {
					t.Fatalf("mask %b: conditional covariances differ", mask)
				}
			}
			a, b := make([]float64, p), make([]float64, p)
			want.CondRand(a, x, mu, rand.New(rand.NewPCG(1, uint64(mask))))
			own.CondRand(b, x, mu, rand.New(rand.NewPCG(1, uint64(mask))))
			for j := range a {
				if a[j] != b[j] {
					t.Fatalf("mask %b: draws differ", mask)
				}
			}
		}
	}
}
