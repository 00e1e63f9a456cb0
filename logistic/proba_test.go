package logistic

import (
	"math"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
)

// softplusApart is log(1 + eᵗ) as LogProba took it before
// binaryLogProba, once for each class: the reference of
// TestBinaryLogProbaBitForBit.
func softplusApart(t float64) float64 {
	if t > 0 {
		return t + math.Log1p(math.Exp(-t))
	}
	return math.Log1p(math.Exp(t))
}

// TestBinaryLogProbaBitForBit checks that the two log-probabilities from
// one exponential and one logarithm are, bit for bit, −softplus(t) and
// −softplus(−t) taken apart, over scores of every size and sign.
func TestBinaryLogProbaBitForBit(t *testing.T) {
	scores := []float64{0, math.Copysign(0, -1), 1e-300, -1e-300, 1e-17, -1e-17, 0.5, -0.5, 1, -1, 36.7, -36.7, 700, -700, 800, -800}
	for v := -40.0; v <= 40; v += 0.37 {
		scores = append(scores, v, v*1e-6)
	}
	for _, s := range scores {
		lp0, lp1 := binaryLogProba(s, math.Exp(-math.Abs(s)))
		if w0, w1 := -softplusApart(s), -softplusApart(-s); math.Float64bits(lp0) != math.Float64bits(w0) || math.Float64bits(lp1) != math.Float64bits(w1) {
			t.Errorf("t = %v: got (%v, %v), want (%v, %v)", s, lp0, lp1, w0, w1)
		}
	}
}

// TestProbaBitForBit checks Proba (gendisc.BatchProba) against the
// exponential of LogProba, bit for bit, for two classes and for three.
func TestProbaBitForBit(t *testing.T) {
	for _, name := range []string{"pima_indians_diabetes", "iris"} {
		d := bundled.Load(t, name, dataio.Options{})
		m := fit(t, Config{}, d)
		var _ gendisc.BatchProba = m
		lp := m.LogProba(nil, d)
		p := m.Proba(nil, d)
		for i, v := range lp {
			if want := math.Exp(v); math.Float64bits(p[i]) != math.Float64bits(want) {
				t.Fatalf("%s: value %d: Proba %v, exp(LogProba) %v", name, i, p[i], want)
			}
		}
	}
}
