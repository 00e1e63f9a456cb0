package mixture

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/datasets"
)

var allCovariances = []Covariance{Full, Diag, Spherical, Tied, Identity}

// checkMonotone asserts ℓ_t+1 ≥ ℓ_t − tol·|ℓ_t| over the trace of g and
// that every value is finite.
func checkMonotone(t *testing.T, g *GMM, tol float64) {
	t.Helper()
	tr := g.LogLikelihoodTrace()
	if len(tr) != g.Iterations()+1 {
		t.Fatalf("trace of %d values for %d iterations", len(tr), g.Iterations())
	}
	for i, v := range tr {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("log-likelihood %d is %v", i, v)
		}
		if i > 0 && v < tr[i-1]-tol*math.Abs(tr[i-1]) {
			t.Errorf("log-likelihood decreased at iteration %d: %.17g → %.17g (%.3g relative)", i, tr[i-1], v, (tr[i-1]-v)/math.Abs(tr[i-1]))
		}
	}
}

// monotoneTol is the relative decrease of the log-likelihood between
// iterations that checkMonotone allows: rounding only. Once EM has
// converged on sonar's 60-dimensional components (full covariances of
// about 70 rows each) ℓ moves by rounding of up to 1.1e-10 relative from
// one iteration to the next, with gonum's, OpenBLAS's or kernel.Syrk's
// scatter alike.
const monotoneTol = 2e-10

// checkFinite asserts that the parameters of g are finite and that no
// component was re-seeded.
func checkFinite(t *testing.T, g *GMM) {
	t.Helper()
	if !finite(g.Weights()) || !finite(g.Means()) || !finite(g.Covariances()) {
		t.Fatal("parameters not finite")
	}
	for _, w := range g.Warnings() {
		if strings.Contains(w, "re-seeded") {
			t.Errorf("warning: %s", w)
		}
	}
}

// numericRows returns the numeric features of d, without the target, and
// at most maxRows of its rows, evenly spaced; ok is false when d has no
// numeric feature.
func numericRows(d *data.Dataset, maxRows int) (out *data.Dataset, ok bool) {
	var cols []int
	s := &data.Schema{}
	for j, c := range d.Schema.Features {
		if c.Kind == data.Numeric {
			cols = append(cols, j)
			s.Features = append(s.Features, c)
		}
	}
	if len(cols) == 0 {
		return nil, false
	}
	step := (d.N + maxRows - 1) / maxRows
	out = &data.Dataset{Schema: s, Source: d.Source}
	for i := 0; i < d.N; i += step {
		for _, j := range cols {
			out.X = append(out.X, d.X[i*d.D()+j])
		}
		out.N++
	}
	return out, true
}

// TestMonotone checks EM's guarantee, ℓ never decreasing beyond rounding
// (1e-10 relative), with the default settings (RegCovar 1e-6 as a Floor,
// Tol 1e-3, at most 100 iterations) and again without the tolerance (all
// 100 iterations), K = 3, on the raw numeric features of every bundled
// data set (at most 1,000 rows of each, evenly spaced; adult's six
// integer columns have variances from 1e10 to 0 within a component,
// breast_cancer_wisconsin has missing cells, ionosphere a constant column
// and optdigits columns almost always 0) and every covariance type. The
// data sets without a numeric column (house_votes84, mushroom, sms_spam)
// are skipped. With Ridge instead of the Floor, sonar (tied) fails. With
// -short, the types are full and spherical only, with the defaults.
func TestMonotone(t *testing.T) {
	covs := allCovariances
	runs := map[string]Config{"default": {}, "100 iterations": {Tol: -1}}
	if testing.Short() {
		covs = []Covariance{Full, Spherical}
		delete(runs, "100 iterations")
	}
	for _, name := range datasets.Names() {
		d, ok := numericRows(loadDataset(t, name), 1000)
		for _, cov := range covs {
			for what, cfg := range runs {
				t.Run(name+"/"+cov.String()+"/"+what, func(t *testing.T) {
					if !ok {
						t.Skip("no numeric column")
					}
					cfg.Components, cfg.Covariance = 3, cov
					g, err := cfg.Fit(d, rand.New(rand.NewPCG(3, 4)))
					if err != nil {
						t.Fatal(err)
					}
					checkMonotone(t, g, monotoneTol)
					checkFinite(t, g)
				})
			}
		}
	}
}

// smallSets are five bundled data sets of numeric features only.
var smallSets = []string{"iris", "wine", "breast_cancer_wdbc", "pima_indians_diabetes", "sonar"}

// TestMonotoneRidge checks the guarantee with scikit-learn's
// regularisation, RegCovar added to the diagonal (Ridge), on the
// standardised features, where RegCovar is small next to the variances.
// The ridge makes the M-step inexact: on the raw features of
// breast_cancer_wdbc (full) or sonar (tied), whose variances within a
// component fall near or under 1e-6, ℓ decreases by up to 5e-6 relative;
// TestRidgeInexact shows it.
func TestMonotoneRidge(t *testing.T) {
	for _, name := range smallSets {
		d := standardized(loadDataset(t, name))
		for _, cov := range allCovariances {
			t.Run(name+"/"+cov.String(), func(t *testing.T) {
				g, err := Config{Components: 3, Covariance: cov, Tol: -1, MaxIter: 60, Regularization: Ridge}.Fit(d, rand.New(rand.NewPCG(3, 4)))
				if err != nil {
					t.Fatal(err)
				}
				checkMonotone(t, g, monotoneTol)
				checkFinite(t, g)
			})
		}
	}
}

// TestRidgeInexact documents why Floor is the default: with the additive
// Ridge the raw features of sonar give a decreasing log-likelihood
// (tied), and with the Floor they do not.
func TestRidgeInexact(t *testing.T) {
	d := loadDataset(t, "sonar")
	for _, how := range []Regularization{Floor, Ridge} {
		g, err := Config{Components: 3, Covariance: Tied, Tol: -1, MaxIter: 40, Regularization: how}.Fit(d, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			t.Fatal(err)
		}
		tr := g.LogLikelihoodTrace()
		decreased := false
		for i := 1; i < len(tr); i++ {
			decreased = decreased || tr[i] < tr[i-1]-1e-9*math.Abs(tr[i-1])
		}
		if decreased != (how == Ridge) {
			t.Errorf("%s: decreased %v", how, decreased)
		}
	}
}

// withMissing returns a copy of d with a fraction of its cells, drawn
// with rng, replaced by NaN.
func withMissing(d *data.Dataset, frac float64, rng *rand.Rand) *data.Dataset {
	m := *d
	m.X = append([]float64(nil), d.X...)
	for i := range m.X {
		if rng.Float64() < frac {
			m.X[i] = math.NaN()
		}
	}
	return &m
}

// TestMissingMonotone checks that the observed-data log-likelihood never
// decreases (1e-10 relative) when 10% of the cells of the raw features are
// missing, with the default Floor and 15 iterations without tolerance.
func TestMissingMonotone(t *testing.T) {
	for _, name := range smallSets {
		d := withMissing(loadDataset(t, name), 0.1, rand.New(rand.NewPCG(5, 6)))
		for _, cov := range allCovariances {
			t.Run(name+"/"+cov.String(), func(t *testing.T) {
				g, err := Config{Components: 2, Covariance: cov, Tol: -1, MaxIter: 15}.Fit(d, rand.New(rand.NewPCG(3, 4)))
				if err != nil {
					t.Fatal(err)
				}
				checkMonotone(t, g, monotoneTol)
				checkFinite(t, g)
				ll := g.ScoreSamples(nil, d)
				sum := 0.0
				for i, v := range ll {
					if lp := g.LogProb(d.Row(i)); !close(lp, v, 1e-12) {
						t.Fatalf("row %d: LogProb %v, ScoreSamples %v", i, lp, v)
					}
					sum += v
				}
				if !close(sum, g.LogLikelihood(), 1e-12) {
					t.Errorf("Σ ScoreSamples = %v, LogLikelihood %v", sum, g.LogLikelihood())
				}
			})
		}
	}
}

// TestMissingSensible fits the standardised wine data with 10% of the
// cells removed from the starting point of the complete data's fit and
// checks that the parameters stay near the complete data's.
func TestMissingSensible(t *testing.T) {
	d := standardized(loadDataset(t, "wine"))
	miss := withMissing(d, 0.1, rand.New(rand.NewPCG(7, 8)))
	for _, cov := range allCovariances {
		t.Run(cov.String(), func(t *testing.T) {
			full, err := Config{Components: 3, Covariance: cov, Restarts: 3}.Fit(d, rand.New(rand.NewPCG(1, 1)))
			if err != nil {
				t.Fatal(err)
			}
			start := full.Params()
			g, err := Config{Components: 3, Covariance: cov, Start: &start}.Fit(miss, rand.New(rand.NewPCG(1, 1)))
			if err != nil {
				t.Fatal(err)
			}
			checkMonotone(t, g, monotoneTol)
			for k, w := range g.Weights() {
				if math.Abs(w-start.Weights[k]) > 0.05 {
					t.Errorf("weight %d: %.3f, complete data %.3f", k, w, start.Weights[k])
				}
			}
			// Standardised features: means within 0.25 standard deviations.
			for i, m := range g.Means() {
				if math.Abs(m-start.Means[i]) > 0.25 {
					t.Errorf("mean %d/%d: %.3f, complete data %.3f", i/d.D(), i%d.D(), m, start.Means[i])
				}
			}
			p := g.Params()
			for i, c := range p.Covariances {
				if math.Abs(c-start.Covariances[i]) > 0.25*max(1, math.Abs(start.Covariances[i])) {
					t.Errorf("covariance value %d: %.3f, complete data %.3f", i, c, start.Covariances[i])
				}
			}
		})
	}
}

// TestMissingOneStep compares one EM iteration on rows with missing cells
// with a direct computation, row by row, of the E-step on the observed
// coordinates and the M-step on the expected sufficient statistics, for
// both regularisations: Ridge adds RegCovar to the diagonal, and the
// Floor leaves these covariances alone (their eigenvalues are above it).
func TestMissingOneStep(t *testing.T) {
	d := withMissing(standardized(loadDataset(t, "iris")), 0.2, rand.New(rand.NewPCG(9, 9)))
	for how, ridge := range map[Regularization]float64{Floor: 0, Ridge: DefaultRegCovar} {
		for _, cov := range allCovariances {
			t.Run(how.String()+"/"+cov.String(), func(t *testing.T) {
				start := startParams(t, d, cov)
				g, err := Config{Components: 3, Covariance: cov, Tol: -1, MaxIter: 1, Regularization: how, Start: &start}.Fit(d, rand.New(rand.NewPCG(1, 1)))
				if err != nil {
					t.Fatal(err)
				}
				m0, err := fromParams(cov, 3, d.D(), &start)
				if err != nil {
					t.Fatal(err)
				}
				want, ll := naiveEMStep(m0, d, ridge)
				if tr := g.LogLikelihoodTrace(); !close(tr[0], ll, 1e-12) {
					t.Errorf("log-likelihood %.17g, direct %.17g", tr[0], ll)
				}
				checkSlice(t, "weights", g.Weights(), want.weights, 1e-12)
				checkSlice(t, "means", g.Means(), want.means, 1e-12)
				checkSlice(t, "covariances", g.Covariances(), want.sigma, 1e-11)
			})
		}
	}
}

// startParams returns starting parameters of 3 components: rows 0, 60
// and 120 of d (missing cells 0), covariances 1, 0.5 and 2 times I (in
// the layout of cov), weights 0.2, 0.3, 0.5.
func startParams(t *testing.T, d *data.Dataset, cov Covariance) Params {
	t.Helper()
	D := d.D()
	m := newModel(cov, 3, D)
	copy(m.weights, []float64{0.2, 0.3, 0.5})
	for k, r := range []int{0, 60, 120} {
		for j, v := range d.Row(r) {
			if !math.IsNaN(v) {
				m.means[k*D+j] = v
			}
		}
		f := []float64{1, 0.5, 2}[k]
		if cov == Tied || cov == Identity {
			f = 1
		}
		addDiag(m.cov1(k), D, f)
	}
	return m.params()
}

// naiveEMStep computes one EM iteration from m on d directly from the
// formulas, one row at a time, with ridge added to the diagonal of the
// covariances but Identity's, and the log-likelihood of m.
func naiveEMStep(m *model, d *data.Dataset, ridge float64) (*model, float64) {
	K, D := m.k, m.d
	nk := make([]float64, K)
	sx := make([]float64, K*D)    // Σ_i r_ik x̂_ik
	sxx := make([]float64, K*D*D) // Σ_i r_ik (x̂ x̂ᵀ + C)
	ll := 0.0
	for i := range d.N {
		x := d.Row(i)
		var obs, mis []int
		for j, v := range x {
			if math.IsNaN(v) {
				mis = append(mis, j)
			} else {
				obs = append(obs, j)
			}
		}
		lp := make([]float64, K)
		xh := make([][]float64, K)
		cc := make([][]float64, K)
		for k := range K {
			mu, s := m.mean(k), m.cov1(k)
			sub := func(a, b []int) [][]float64 {
				out := make([][]float64, len(a))
				for r, ar := range a {
					out[r] = make([]float64, len(b))
					for c, bc := range b {
						out[r][c] = s[ar*D+bc]
					}
				}
				return out
			}
			soo, smo, smm := sub(obs, obs), sub(mis, obs), sub(mis, mis)
			inv, logDet := invert(soo)
			dev := make([]float64, len(obs))
			for a, j := range obs {
				dev[a] = x[j] - mu[j]
			}
			q := 0.0
			for a := range obs {
				for b := range obs {
					q += dev[a] * inv[a][b] * dev[b]
				}
			}
			lp[k] = math.Log(m.weights[k]) - 0.5*logDet - 0.5*float64(len(obs))*math.Log(2*math.Pi) - 0.5*q
			xh[k] = append([]float64(nil), x...)
			cc[k] = make([]float64, D*D)
			for a, ma := range mis {
				// A = Σ_MO Σ_OO⁻¹
				v := mu[ma]
				for b := range obs {
					for c := range obs {
						v += smo[a][b] * inv[b][c] * dev[c]
					}
				}
				xh[k][ma] = v
				for a2, mb := range mis {
					cv := smm[a][a2]
					for b := range obs {
						for c := range obs {
							cv -= smo[a][b] * inv[b][c] * smo[a2][c]
						}
					}
					cc[k][ma*D+mb] = cv
				}
			}
		}
		mx := math.Inf(-1)
		for _, v := range lp {
			mx = max(mx, v)
		}
		s := 0.0
		for _, v := range lp {
			s += math.Exp(v - mx)
		}
		lse := mx + math.Log(s)
		ll += lse
		for k := range K {
			r := math.Exp(lp[k] - lse)
			nk[k] += r
			for a := range D {
				sx[k*D+a] += r * xh[k][a]
				for b := range D {
					sxx[(k*D+a)*D+b] += r * (xh[k][a]*xh[k][b] + cc[k][a*D+b])
				}
			}
		}
	}
	out := newModel(m.cov, K, D)
	total := 0.0
	for _, v := range nk {
		total += v
	}
	tied := make([]float64, D*D)
	for k := range K {
		out.weights[k] = nk[k] / total
		for a := range D {
			out.means[k*D+a] = sx[k*D+a] / nk[k]
		}
		for a := range D {
			for b := range D {
				c := sxx[(k*D+a)*D+b]/nk[k] - out.means[k*D+a]*out.means[k*D+b]
				out.sigma[(k*D+a)*D+b] = c
				tied[a*D+b] += c * nk[k] / total
			}
		}
	}
	for k := range K {
		s := out.cov1(k)
		switch m.cov {
		case Tied:
			copy(s, tied)
		case Diag, Spherical, Identity:
			tr := 0.0
			for a := range D {
				for b := range D {
					if a != b {
						s[a*D+b] = 0
					}
				}
				tr += s[a*D+a]
			}
			if m.cov == Spherical {
				for a := range D {
					s[a*D+a] = tr / float64(D)
				}
			}
		}
		if m.cov == Identity {
			clear(s)
			addDiag(s, D, 1)
		} else {
			addDiag(s, D, ridge)
		}
	}
	return out, ll
}

// invert returns the inverse and the log-determinant of the symmetric
// positive definite matrix a by Gauss–Jordan elimination.
func invert(a [][]float64) ([][]float64, float64) {
	n := len(a)
	m := make([][]float64, n)
	inv := make([][]float64, n)
	for i := range n {
		m[i] = append([]float64(nil), a[i]...)
		inv[i] = make([]float64, n)
		inv[i][i] = 1
	}
	logDet := 0.0
	for c := range n {
		p := m[c][c]
		logDet += math.Log(p)
		for j := range n {
			m[c][j] /= p
			inv[c][j] /= p
		}
		for r := range n {
			if r == c {
				continue
			}
			f := m[r][c]
			for j := range n {
				m[r][j] -= f * m[c][j]
				inv[r][j] -= f * inv[c][j]
			}
		}
	}
	return inv, logDet
}

// TestIdentityByHand checks one EM iteration of the unit-covariance
// mixture on four points of the line against the formulas worked by hand:
// with μ = (0, 4), π = (½, ½) and x = (0, 1, 3, 4),
//
//	r_i1 = 1 / (1 + exp(−½(x−4)² + ½x²)) = 1 / (1 + exp(4x − 8))
//	μ_1' = Σ r_i1 x_i / Σ r_i1,  π_1' = Σ r_i1 / 4
//
// and by symmetry r_i2 = r_(5−i)1: μ_2' = 4 − μ_1', π_2' = π_1' = ½.
func TestIdentityByHand(t *testing.T) {
	d := &data.Dataset{Schema: &data.Schema{Features: []data.Column{{Name: "x"}}}, N: 4, X: []float64{0, 1, 3, 4}}
	g, err := Config{Components: 2, Covariance: Identity, Tol: -1, MaxIter: 1,
		Start: &Params{Weights: []float64{0.5, 0.5}, Means: []float64{0, 4}}}.Fit(d, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	r := func(x float64) float64 { return 1 / (1 + math.Exp(4*x-8)) }
	sr, srx := 0.0, 0.0
	for _, x := range d.X {
		sr += r(x)
		srx += r(x) * x
	}
	mu1 := srx / sr
	checkSlice(t, "means", g.Means(), []float64{mu1, 4 - mu1}, 1e-15)
	checkSlice(t, "weights", g.Weights(), []float64{sr / 4, sr / 4}, 1e-15)
	checkSlice(t, "covariances", g.Covariances(), []float64{1, 1}, 0)
	// ℓ(θ_0) = Σ_i log(½ φ(x_i) + ½ φ(x_i − 4)).
	ll0 := 0.0
	for _, x := range d.X {
		ll0 += math.Log(0.5*math.Exp(-x*x/2)/math.Sqrt(2*math.Pi) + 0.5*math.Exp(-(x-4)*(x-4)/2)/math.Sqrt(2*math.Pi))
	}
	if tr := g.LogLikelihoodTrace(); !close(tr[0], ll0, 1e-14) {
		t.Errorf("initial log-likelihood %.17g, by hand %.17g", tr[0], ll0)
	}
	// Identity: K·D means + K − 1 weights.
	if p := g.NumParams(); p != 3 {
		t.Errorf("%d parameters, want 3", p)
	}
	if bic := -2*g.LogLikelihood() + 3*math.Log(4); g.BIC() != bic {
		t.Errorf("BIC %v, want %v", g.BIC(), bic)
	}
}

// TestNumParams checks the parameter counts of scikit-learn's
// _n_parameters for K = 3, D = 4.
func TestNumParams(t *testing.T) {
	d := loadDataset(t, "iris")
	want := map[Covariance]int{Full: 3*10 + 12 + 2, Diag: 12 + 12 + 2, Spherical: 3 + 12 + 2, Tied: 10 + 12 + 2, Identity: 12 + 2}
	for _, cov := range allCovariances {
		g, err := Config{Components: 3, Covariance: cov}.Fit(d, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if g.NumParams() != want[cov] {
			t.Errorf("%s: %d parameters, want %d", cov, g.NumParams(), want[cov])
		}
		if aic := -2*g.LogLikelihood() + 2*float64(want[cov]); g.AIC() != aic {
			t.Errorf("%s: AIC %v, want %v", cov, g.AIC(), aic)
		}
	}
}

// TestWeightsAsCopies checks that a row of weight 2 counts as two copies
// of the row.
func TestWeightsAsCopies(t *testing.T) {
	d := standardized(loadDataset(t, "iris"))
	var idx []int
	w := make([]float64, d.N)
	for i := range d.N {
		w[i] = float64(1 + i%3)
		for range 1 + i%3 {
			idx = append(idx, i)
		}
	}
	dw := *d
	dw.Weight = w
	for _, cov := range allCovariances {
		start := startParams(t, d, cov)
		cfg := Config{Components: 3, Covariance: cov, Tol: -1, MaxIter: 5, Start: &start}
		a, err := cfg.Fit(&dw, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		b, err := cfg.Fit(d.Subset(idx), rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		checkSlice(t, fmt.Sprint(cov, " means"), a.Means(), b.Means(), 1e-10)
		checkSlice(t, fmt.Sprint(cov, " covariances"), a.Covariances(), b.Covariances(), 1e-10)
		checkSlice(t, fmt.Sprint(cov, " trace"), a.LogLikelihoodTrace(), b.LogLikelihoodTrace(), 1e-12)
		if a.NumRows() != float64(len(idx)) {
			t.Errorf("%v rows, want %d", a.NumRows(), len(idx))
		}
	}
}

// TestAllMissingRow checks that a row without any observed cell is kept:
// its density is 1 (log 0) under every component, and it leaves the fit
// finite.
func TestAllMissingRow(t *testing.T) {
	d := standardized(loadDataset(t, "iris"))
	for j := range 4 {
		d.X[10*4+j] = math.NaN()
	}
	for _, cov := range allCovariances {
		g, err := Config{Components: 3, Covariance: cov}.Fit(d, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		checkFinite(t, g)
		checkMonotone(t, g, monotoneTol)
		if ll := g.ScoreSamples(nil, d); math.Abs(ll[10]) > 1e-12 {
			t.Errorf("%s: log density of the empty row %v, want 0", cov, ll[10])
		}
		if r := g.Predict(nil, d); !close(r[30], g.Weights()[0], 1e-12) {
			t.Errorf("%s: responsibility %v of the empty row, want the weight %v", cov, r[30], g.Weights()[0])
		}
	}
}
