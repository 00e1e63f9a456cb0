package mathx

import (
	"math"
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
