package synth

import (
	"errors"
	"math"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/internal/bundled"
)

// truncatedNormal returns the mean and variance of N(μ, σ²) truncated to
// [a, b]: with α = (a − μ)/σ, β = (b − μ)/σ, Z = Φ(β) − Φ(α),
//
//	mean = μ + σ (φ(α) − φ(β)) / Z
//	var  = σ² [1 + (α φ(α) − β φ(β)) / Z − ((φ(α) − φ(β)) / Z)²].
func truncatedNormal(mu, sigma, a, b float64) (mean, variance float64) {
	phi := func(z float64) float64 { return math.Exp(-z*z/2) / math.Sqrt(2*math.Pi) }
	cdf := func(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }
	al, be := (a-mu)/sigma, (b-mu)/sigma
	z := cdf(be) - cdf(al)
	r := (phi(al) - phi(be)) / z
	return mu + sigma*r, sigma * sigma * (1 + (al*phi(al)-be*phi(be))/z - r*r)
}

// irisColumns returns iris with the features cols only.
func irisColumns(t *testing.T, cols ...int) *data.Dataset {
	iris := bundled.Load(t, "iris", dataio.Options{})
	var names []string
	for _, j := range cols {
		names = append(names, iris.Schema.Features[j].Name)
	}
	x := make([]float64, 0, iris.N*len(cols))
	y := make([]int, iris.N)
	for i := range iris.N {
		for _, j := range cols {
			x = append(x, iris.Row(i)[j])
		}
		y[i] = int(iris.Y[i])
	}
	return data.FromMatrix(names, x, iris.Schema.Classes(), y)
}

// TestClipTruncatedNormal draws 40,000 rows of class 2 of the classifiers
// fitted on one feature of iris, truncated to [μ − σ/2, μ + σ] (an
// acceptance of about 0.53), and checks that every value lies in the
// interval and that the mean and variance of the draws are within 4
// standard errors of those of the truncated normal.
func TestClipTruncatedNormal(t *testing.T) {
	d := irisColumns(t, 0)
	const n = 40000
	for _, kc := range kindCases[:3] {
		t.Run(kc.name, func(t *testing.T) {
			m, err := kc.fit(d)
			if err != nil {
				t.Fatal(err)
			}
			_, mean, variance := kc.moments(m)
			mu, sigma := mean[2][0], math.Sqrt(variance[2][0])
			a, b := mu-sigma/2, mu+sigma
			clip := &Clip{Lo: []float64{a}, Hi: []float64{b}}
			got := drawClipped(t, m, n, 2, clip, seeded(5))
			s1, s2 := 0.0, 0.0
			for _, v := range got.X {
				if v < a || v > b {
					t.Fatalf("draw %g outside [%g, %g]", v, a, b)
				}
				s1 += v
			}
			m1 := s1 / n
			for _, v := range got.X {
				s2 += (v - m1) * (v - m1)
			}
			wantMean, wantVar := truncatedNormal(mu, sigma, a, b)
			if !within(m1, wantMean, math.Sqrt(wantVar/n)) {
				t.Errorf("mean %g, truncated normal's %g ± %g", m1, wantMean, math.Sqrt(wantVar/n))
			}
			// The variance's standard error, with the fourth moment of a
			// distribution on an interval of length 1.5σ bounded by
			// ((b − a)/2)⁴: a loose bound, but the pile-up at the bounds of
			// clamping would move the variance far more.
			v := s2 / n
			if se := math.Sqrt(math.Pow((b-a)/2, 4) / n); !within(v, wantVar, se) {
				t.Errorf("variance %g, truncated normal's %g ± %g", v, wantVar, se)
			}
			if clip.Rows != n || clip.Clamped != 0 || clip.Note() != "" {
				t.Errorf("%d rows, %d clamped, note %q", clip.Rows, clip.Clamped, clip.Note())
			}
			if acc := clip.Acceptance(); math.Abs(acc-0.533) > 0.02 {
				t.Errorf("acceptance %g, want P(−1/2 ≤ z ≤ 1) = 0.533", acc)
			}
		})
	}
}

// TestClipWholeVector truncates only the first of two correlated features
// of a QDA class (sepal and petal length of iris-virginica): rejecting the
// whole vector, the first follows the truncated normal and the second's
// mean moves with it by the regression slope,
//
//	E[x₂] = μ₂ + Σ₂₁/Σ₁₁ (E[x₁] − μ₁),
//
// which a draw of the second feature on its own would not do.
func TestClipWholeVector(t *testing.T) {
	d := irisColumns(t, 0, 2)
	m, err := gda.QDAConfig{}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	mu, cov := m.Means()[2], m.Covariances()[2]
	s11, s21, s22 := cov[0], cov[2], cov[3]
	sigma := math.Sqrt(s11)
	a, b := mu[0]+0.2*sigma, mu[0]+3*sigma
	const n = 40000
	got := drawClipped(t, m, n, 2, &Clip{Lo: []float64{a, math.Inf(-1)}, Hi: []float64{b, math.Inf(1)}}, seeded(6))
	var m1, m2 float64
	for i := range got.N {
		x := got.Row(i)
		if x[0] < a || x[0] > b {
			t.Fatalf("row %d: %g outside [%g, %g]", i, x[0], a, b)
		}
		m1 += x[0] / n
		m2 += x[1] / n
	}
	e1, v1 := truncatedNormal(mu[0], sigma, a, b)
	if !within(m1, e1, math.Sqrt(v1/n)) {
		t.Errorf("mean of the truncated feature %g, want %g", m1, e1)
	}
	slope := s21 / s11
	e2 := mu[1] + slope*(e1-mu[0])
	v2 := s22 - slope*s21 + slope*slope*v1
	if !within(m2, e2, math.Sqrt(v2/n)) {
		t.Errorf("mean of the free feature %g, want %g ± %g (untruncated %g)", m2, e2, math.Sqrt(v2/n), mu[1])
	}
}

// TestClipFallback: a box the model almost never reaches (8 to 9 standard
// deviations above the mean) ends every row after Tries draws with the
// row clamped into the box, and Note says so.
func TestClipFallback(t *testing.T) {
	d := irisColumns(t, 0)
	m, err := kindCases[0].fit(d)
	if err != nil {
		t.Fatal(err)
	}
	_, mean, variance := kindCases[0].moments(m)
	mu, sigma := mean[0][0], math.Sqrt(variance[0][0])
	clip := &Clip{Lo: []float64{mu + 8*sigma}, Hi: []float64{mu + 9*sigma}, Tries: 50}
	got := drawClipped(t, m, 20, 0, clip, seeded(1))
	for _, v := range got.X {
		if v != mu+8*sigma {
			t.Fatalf("clamped draw %g, want the lower bound %g", v, mu+8*sigma)
		}
	}
	if clip.Draws != 20*50 || clip.Rows != 20 || clip.Clamped != 20 || clip.Acceptance() != 0 {
		t.Errorf("%d draws, %d rows, %d clamped, acceptance %g", clip.Draws, clip.Rows, clip.Clamped, clip.Acceptance())
	}
	if want := "20 of 20 rows had no draw in the training range in 50 tries (acceptance 0): their values outside it were set to the nearest bound"; clip.Note() != want {
		t.Errorf("note %q, want %q", clip.Note(), want)
	}
}

// TestTrainingClip reads the box off the schema's ranges, leaves
// categorical and text features free, and refuses a numeric feature
// without a range.
func TestTrainingClip(t *testing.T) {
	s := &data.Schema{Features: []data.Column{
		{Name: "x", Kind: data.Numeric, Range: &data.Range{Min: -1, Max: 2}},
		{Name: "c", Kind: data.Categorical, Levels: []string{"a", "b"}},
		{Name: "t", Kind: data.Text},
		{Name: "none", Kind: data.Numeric, Range: &data.Range{Min: math.Inf(1), Max: math.Inf(-1)}},
	}}
	c, err := TrainingClip(s)
	if err != nil {
		t.Fatal(err)
	}
	inf := math.Inf(1)
	if c.Lo[0] != -1 || c.Hi[0] != 2 || c.Lo[1] != -inf || c.Hi[1] != inf || c.Lo[2] != -inf || c.Hi[2] != inf || c.Lo[3] != -inf || c.Hi[3] != inf {
		t.Errorf("box %v %v", c.Lo, c.Hi)
	}
	if !c.inside([]float64{2, 1, math.NaN(), 5}) || c.inside([]float64{2.5, 0, math.NaN(), 5}) {
		t.Error("inside")
	}
	s.Features[0].Range = nil
	if _, err := TrainingClip(s); !errors.Is(err, ErrNoRange) || err.Error() != `synth: feature "x": no training range` {
		t.Errorf("error %v, want ErrNoRange naming x", err)
	}
}

// TestClipBalance: the rows Balance appends with a Clip lie in the
// training range of pima, whose Gaussian fits put mass below 0 (insulin,
// skin thickness), and the same seed gives the same rows.
func TestClipBalance(t *testing.T) {
	pima := bundled.Load(t, "pima_indians_diabetes", dataio.Options{})
	for _, kc := range kindCases[:3] {
		m, err := kc.fit(pima)
		if err != nil {
			t.Fatal(err)
		}
		var prev []float64
		for range 2 {
			clip, err := TrainingClip(pima.Schema)
			if err != nil {
				t.Fatal(err)
			}
			b, err := Balance(pima, m.(gendisc.ClassSampler), 1, clip, seeded(3))
			if err != nil {
				t.Fatal(err)
			}
			for i := pima.N; i < b.N; i++ {
				if x := b.Row(i); !clip.inside(x) {
					t.Fatalf("%s: row %d %v outside the training range", kc.name, i, x)
				}
			}
			if clip.Rows != b.N-pima.N || clip.Draws <= clip.Rows {
				t.Errorf("%s: %d rows, %d draws for %d new rows: no rejection on pima?", kc.name, clip.Rows, clip.Draws, b.N-pima.N)
			}
			if prev != nil && !same(prev, b.X) {
				t.Errorf("%s: the same seed gave other rows", kc.name)
			}
			prev = b.X
		}
	}
}

// same reports whether a and b hold the same values, NaN equal to NaN.
func same(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i, v := range a {
		if v != b[i] && (v == v || b[i] == b[i]) {
			return false
		}
	}
	return true
}

// TestClipImpute imputes, by one draw each, 30,000 rows of one feature of
// iris whose cell and label are all missing, truncated to [6, 7]: each
// row's label is drawn again with its cell, so the labels follow
// P(y | x ∈ B) ∝ π_k Z_k (Z_k the mass of class k's normal in B), and the
// values of each class its truncated normal. Observed cells outside the
// box are left alone.
func TestClipImpute(t *testing.T) {
	fit := irisColumns(t, 0)
	m, err := kindCases[0].fit(fit)
	if err != nil {
		t.Fatal(err)
	}
	prior, mean, variance := kindCases[0].moments(m)
	const n = 30000
	nan := math.NaN()
	d := &data.Dataset{Schema: fit.Schema, N: n, X: make([]float64, n), Y: make([]float64, n)}
	for i := range n {
		d.X[i], d.Y[i] = nan, nan
	}
	d.X[0] = 9 // observed, outside the box
	const a, b = 6.0, 7.0
	clip := &Clip{Lo: []float64{a}, Hi: []float64{b}}
	outs, err := Impute(d, m.(gendisc.Imputer), 1, clip, seeded(4))
	if err != nil {
		t.Fatal(err)
	}
	out := outs[0]
	if out.X[0] != 9 || clip.Rows != n-1 || clip.Clamped != 0 {
		t.Fatalf("observed cell %g, %d rows, %d clamped", out.X[0], clip.Rows, clip.Clamped)
	}
	cdf := func(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }
	K := len(prior)
	z, count, sum := make([]float64, K), make([]float64, K), make([]float64, K)
	total := 0.0
	for k := range K {
		s := math.Sqrt(variance[k][0])
		z[k] = prior[k] * (cdf((b-mean[k][0])/s) - cdf((a-mean[k][0])/s))
		total += z[k]
	}
	for i := 1; i < n; i++ {
		v, k := out.X[i], int(out.Y[i])
		if v < a || v > b {
			t.Fatalf("row %d: %g outside [%g, %g]", i, v, a, b)
		}
		count[k]++
		sum[k] += v
	}
	for k := range K {
		p := z[k] / total
		if f := count[k] / (n - 1); !within(f, p, math.Sqrt(p*(1-p)/(n-1))) {
			t.Errorf("class %d: frequency %g, want π_k Z_k / Σ = %g", k, f, p)
		}
		if count[k] < 100 {
			continue
		}
		e, v := truncatedNormal(mean[k][0], math.Sqrt(variance[k][0]), a, b)
		if got := sum[k] / count[k]; !within(got, e, math.Sqrt(v/count[k])) {
			t.Errorf("class %d: mean %g, truncated normal's %g", k, got, e)
		}
	}
}
