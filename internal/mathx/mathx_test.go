package mathx

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestLogSumExp(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		x    []float64
		want float64
	}{
		{nil, -inf},
		{[]float64{0}, 0},
		{[]float64{0, 0}, math.Ln2},
		{[]float64{math.Log(0.25), math.Log(0.75)}, 0},
		{[]float64{-1000, -1000}, -1000 + math.Ln2},
		{[]float64{1000, 1000 + math.Log(3)}, 1000 + math.Log(4)},
		{[]float64{-inf, 0}, 0},
		{[]float64{-inf, -inf}, -inf},
		{[]float64{inf, 0}, inf},
	} {
		got := LogSumExp(c.x)
		if math.Abs(got-c.want) > 1e-12*max(1, math.Abs(c.want)) && got != c.want {
			t.Errorf("LogSumExp(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	if got := LogSumExp([]float64{0, math.NaN()}); !math.IsNaN(got) {
		t.Errorf("LogSumExp with NaN = %v, want NaN", got)
	}
}

func TestNormalizeLog(t *testing.T) {
	x := []float64{-2000, -2001, -2003}
	NormalizeLog(x)
	s := 0.0
	for _, v := range x {
		s += math.Exp(v)
	}
	if math.Abs(s-1) > 1e-15 {
		t.Errorf("probabilities sum to %v", s)
	}
	if d := x[0] - x[1]; math.Abs(d-1) > 1e-12 {
		t.Errorf("difference of log-probabilities changed: %v", d)
	}
}

// TestSoftmax checks Softmax against the exponential of NormalizeLog's
// result: within rounding where the largest value is finite, exactly 0
// for −Inf and for terms math.Exp takes to 0, and the same NaN and 0
// where it is not finite.
func TestSoftmax(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, x := range [][]float64{
		nil,
		{0},
		{-3, -1, -2},
		{-2000, -2001, -2003, -2000},
		{1e5, 1e5 - 700, 1e5 - 740, 1e5 - 746},
		{-inf, -1, -2},
		{-inf, -inf},
		{-inf, inf, 0},
		{inf, inf},
		{1, nan, -inf},
	} {
		got, want := slices.Clone(x), slices.Clone(x)
		Softmax(got)
		NormalizeLog(want)
		for i := range want {
			want[i] = math.Exp(want[i])
		}
		for i := range got {
			switch {
			case math.IsNaN(want[i]):
				if !math.IsNaN(got[i]) {
					t.Errorf("Softmax(%v)[%d] = %v, want NaN", x, i, got[i])
				}
			case want[i] == 0:
				if got[i] != 0 {
					t.Errorf("Softmax(%v)[%d] = %v, want 0", x, i, got[i])
				}
			case math.Abs(got[i]-want[i]) > 1e-14*want[i]*max(1, math.Log(1/want[i])):
				t.Errorf("Softmax(%v)[%d] = %v, want %v", x, i, got[i], want[i])
			}
		}
	}
}

func TestMinExp(t *testing.T) {
	if math.Exp(minExp) == 0 || math.Exp(math.Nextafter(minExp, math.Inf(-1))) != 0 {
		t.Errorf("minExp %v is not the smallest argument of a non-zero math.Exp", minExp)
	}
	// A term far below the largest is skipped without changing the sum.
	if got, want := LogSumExp([]float64{0, -746, -745}), math.Log(1+math.Exp(-745)); got != want {
		t.Errorf("LogSumExp = %v, want %v", got, want)
	}
}

func TestHasNaN(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, c := range []struct {
		x    []float64
		want bool
	}{
		{nil, false},
		{[]float64{1, 2}, false},
		{[]float64{1, nan, 2}, true},
		{[]float64{inf, -inf}, false},
		{[]float64{math.MaxFloat64, math.MaxFloat64, -inf}, false},
		{[]float64{inf, nan}, true},
	} {
		if got := HasNaN(c.x); got != c.want {
			t.Errorf("HasNaN(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}

// TestScaled checks the scaled softmax against hand-derived posteriors:
// where c²ΔQ is beyond float64 the class of largest Q takes all; where
// the Q tie, the linear parts, then the constants decide; at a small
// scale the result is the softmax of the Values, and the log-sum-exp's
// Value that of the Values.
func TestScaled(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		name string
		s    []Scaled
		c    float64
		want []float64
	}{
		{"quadratic decides", []Scaled{{-2, 5, 0}, {-1, -5, -100}}, 1e300, []float64{0, 1}},
		{"quadratic tie, linear decides", []Scaled{{-1, 1, 50}, {-1, 2, 0}}, 1e300, []float64{0, 1}},
		{"quadratic and linear tie, constants", []Scaled{{-1, 2, math.Log(1)}, {-1, 2, math.Log(3)}}, 1e300, []float64{0.25, 0.75}},
		{"c²ΔQ finite", []Scaled{{-1e-300, 0, 0}, {-2e-300, 0, 0}}, 1e150, []float64{1 / (1 + math.Exp(-1)), 1 / (1 + math.E)}},
		{"class left out", []Scaled{{-1, 0, -inf}, {-5, 0, 0}, {math.NaN(), 0, 0}}, 1e300, []float64{0, 1, 0}},
		{"small scale", []Scaled{{-0.5, 1, 2}, {-0.25, 0, 1}}, 2, []float64{1 / (1 + math.Exp(-2)), 1 / (1 + math.Exp(2))}},
	} {
		got := make([]float64, len(c.s))
		if !SoftmaxScaled(got, c.s, c.c) {
			t.Errorf("%s: no score kept", c.name)
		}
		lg := make([]float64, len(c.s))
		NormalizeLogScaled(lg, c.s, c.c)
		for k, w := range c.want {
			if math.Abs(got[k]-w) > 1e-15 || math.Abs(math.Exp(lg[k])-w) > 1e-15 {
				t.Errorf("%s: probabilities %v, log %v, want %v", c.name, got, lg, c.want)
				break
			}
		}
	}
	// At a small scale the parts are ordinary numbers.
	s := []Scaled{{-0.5, 1, 2}, {-0.25, 0.5, 1}, {-1, 3, -1}}
	const c = 3.0
	v := make([]float64, len(s))
	for k, x := range s {
		v[k] = x.Value(c)
	}
	if got, want := LogSumExpScaled(make([]float64, 3), s, c).Value(c), LogSumExp(v); math.Abs(got-want) > 1e-14 {
		t.Errorf("LogSumExpScaled: %v, want %v", got, want)
	}
	// Far out the value is beyond float64: −Inf, not NaN.
	if got := LogSumExpScaled(make([]float64, 2), []Scaled{{-1, 0, 0}, {-2, 0, 0}}, 1e300).Value(1e300); !math.IsInf(got, -1) {
		t.Errorf("LogSumExpScaled far out: %v, want -Inf", got)
	}
	// No score kept: a row no class can produce.
	p := []float64{9, 9}
	if SoftmaxScaled(p, []Scaled{{0, 0, -inf}, {0, 0, -inf}}, 1) || p[0] != 0 || p[1] != 0 {
		t.Errorf("no score kept: %v", p)
	}
}

// TestRowScale checks the scale and the split of a row's cells.
func TestRowScale(t *testing.T) {
	s := RowScale([]float64{3, -1e300, math.NaN(), 1e200})
	if s.C != 1e300 || s.Tau != 0x1p400 {
		t.Fatalf("RowScale: %+v", s)
	}
	if u, d := s.Split(-1e300, 2); u != -1 || d != -2 {
		t.Errorf("Split(-1e300, 2) = %v, %v", u, d)
	}
	if u, d := s.Split(3, 2); u != 0 || d != 1 {
		t.Errorf("Split(3, 2) = %v, %v", u, d)
	}
	if s := RowScale([]float64{0.5, 1e10}); s.C != 1e10 || s.Tau != 1e10*0x1p-26 {
		t.Errorf("RowScale of 1e10: %+v", s)
	}
	if s := RowScale([]float64{0.5}); s.C != 1 {
		t.Errorf("RowScale of small cells: %+v", s)
	}
}

// TestExpShiftedBits: ExpShifted gives math.Exp(x_i − m) bit for bit and
// their sum in order, and MaxLogSumExp the maximum and the log of the sum
// of math.Exp(x_i − m) in order: the arithmetic of the loops they replace
// (logistic's softmax and logSumExp), so that its numbers do not change.
func TestExpShiftedBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for n := 1; n < 40; n++ {
		x := make([]float64, n)
		for i := range x {
			x[i] = 50 * rng.NormFloat64()
			if i%7 == 3 {
				x[i] = x[0] - 750 // math.Exp gives 0
			}
		}
		m := slices.Max(x)
		want, sum := make([]float64, n), 0.0
		for i, v := range x {
			want[i] = math.Exp(v - m)
			sum += want[i]
		}
		gm, gl := MaxLogSumExp(x)
		got := slices.Clone(x)
		if s := ExpShifted(got, m); s != sum || !slices.Equal(got, want) {
			t.Errorf("n = %d: ExpShifted %v (sum %v), want %v (sum %v)", n, got, s, want, sum)
		}
		if gm != m || gl != math.Log(sum) {
			t.Errorf("n = %d: MaxLogSumExp = %v, %v; want %v, %v", n, gm, gl, m, math.Log(sum))
		}
	}
}
