// Package mathx holds small numerical helpers shared by the model packages.
package mathx

import "math"

// LogSumExp returns log Σ_i exp(x_i), computed stably by factoring out the
// largest term m:
//
//	log Σ_i exp(x_i) = m + log Σ_i exp(x_i − m)
//
// so that no term overflows and the largest one is exp(0) = 1. It returns
// −Inf when x is empty or every x_i is −Inf, +Inf when some x_i is +Inf, and
// NaN when some x_i is NaN.
func LogSumExp(x []float64) float64 {
	m, logS := MaxLogSumExp(x)
	return m + logS
}

// NormalizeLog turns unnormalised log-probabilities into log-probabilities
// whose exponentials sum to 1, in place:
//
//	x_i ← (x_i − m) − log Σ_l exp(x_l − m),  m = max_l x_l
//
// Subtracting m first keeps the precision of the largest terms when the x_i
// are large (a joint log-likelihood of −10⁵ is normal for many features).
// The result is NaN where the sum is not finite.
func NormalizeLog(x []float64) {
	m, logS := MaxLogSumExp(x)
	for i := range x {
		x[i] = (x[i] - m) - logS
	}
}

// Softmax turns unnormalised log-probabilities into probabilities, in
// place:
//
//	x_i ← exp(x_i − m) / Σ_l exp(x_l − m),  m = max_l x_l
//
// the exponential of NormalizeLog's result up to rounding, the
// exponentials of the sum serving again for the numerators. A term more
// than 745 below the largest (math.Exp would give 0) is 0, and so is one
// of −Inf. Where m is not finite every x_i becomes exp(x_i − m), as the
// exponential of NormalizeLog's result: NaN everywhere when some x_i is
// NaN or every x_i is −Inf; NaN where x_i = +Inf and 0 elsewhere when some
// x_i is +Inf.
func Softmax(x []float64) {
	m := maxNaN(x)
	if math.IsInf(m, 0) || m != m {
		for i, v := range x {
			x[i] = math.Exp(v - m)
		}
		return
	}
	s := ExpShifted(x, m)
	for i := range x {
		x[i] /= s
	}
}

// ExpShifted replaces x_i by exp(x_i − m) and returns their sum
// Σ_i exp(x_i − m): the numerators and the denominator of the softmax
// for the shift m = max_i x_i, under which no term overflows and the sum
// is at least 1. A term equal to m gives 1, and one more than 745 below
// m (or −Inf) gives 0, without calling math.Exp: the values it would
// give.
func ExpShifted(x []float64, m float64) float64 {
	s := 0.0
	for i, v := range x {
		e := 0.0
		if v -= m; v == 0 {
			e = 1
		} else if v >= minExp {
			e = math.Exp(v)
		}
		x[i] = e
		s += e
	}
	return s
}

// maxNaN returns max_i x_i, NaN when some x_i is NaN (the max builtin
// propagates it) and −Inf when x is empty.
func maxNaN(x []float64) float64 {
	m := math.Inf(-1)
	for _, v := range x {
		m = max(m, v)
	}
	return m
}

// MaxLogSumExp returns m = max_i x_i and logS = log Σ_i exp(x_i − m),
// the two parts of log Σ_i exp(x_i) = m + logS (LogSumExp), for callers
// that subtract them in their own order; a NaN or an infinite m is
// returned with logS 0. The largest term, exp(0) = 1, is added without
// calling math.Exp.
func MaxLogSumExp(x []float64) (m, logS float64) {
	m = maxNaN(x)
	if math.IsInf(m, 0) || m != m {
		return m, 0
	}
	s := 0.0
	for _, v := range x {
		if v -= m; v == 0 {
			s++
		} else if v >= minExp {
			s += math.Exp(v)
		}
	}
	return m, math.Log(s)
}

// minExp is the smallest x for which math.Exp(x) is not 0: terms further
// below the largest one add nothing and are skipped.
const minExp = -7.45133219101941108420e+02

// Argmax returns the index of the largest x_i: the lowest on ties, NaN
// values left out, and 0 when every x_i is NaN (or x is empty). It is
// the rule of gendisc.ArgmaxRows, the class a classifier predicts.
func Argmax(x []float64) int {
	if len(x) == 0 {
		return 0
	}
	best, top := 0, x[0]
	for j, v := range x[1:] {
		// A NaN at best is replaced by any number; a NaN never replaces
		// anything.
		if v > top || top != top && v == v {
			best, top = j+1, v
		}
	}
	return best
}

// HasNaN reports whether some x_i is NaN (a missing cell). It sums x
// first, which is NaN only when some x_i is NaN or the sum meets +Inf and
// −Inf, and looks for the NaN only then.
func HasNaN(x []float64) bool {
	s := 0.0
	for _, v := range x {
		s += v
	}
	if s == s {
		return false
	}
	for _, v := range x {
		if v != v {
			return true
		}
	}
	return false // an overflow or ±Inf, not a missing cell
}

// Scale is the common scale of a row whose scores overflow: the models
// score such a row again as a Scaled number of c = C, splitting each cell
// x_j into a part that grows with c and a part that does not (Split).
// Cells with |x_j| ≥ Tau are the large ones; the others are kept whole,
// so that their terms stay exact. Scores of the ordinary rows never come
// here: they are computed directly, and only the rare rows whose scores
// are not finite are scored again (see Scaled).
type Scale struct {
	C   float64 // max(1, max_j |x_j|) over the observed cells
	Tau float64 // min(2⁻²⁶·C, 2⁴⁰⁰): cells at least this large are scaled
}

// RowScale returns the Scale of the row x, its NaN cells (missing) left
// out. Tau keeps whole the cells more than 2²⁶ below the largest, whose
// terms are below the rounding of the largest ones, and scales every
// cell of 2⁴⁰⁰ or more, so that the squares of the cells kept whole
// stay finite.
func RowScale(x []float64) Scale {
	c := 1.0
	for _, v := range x {
		if v == v {
			c = max(c, math.Abs(v))
		}
	}
	return Scale{C: c, Tau: min(c*0x1p-26, 0x1p400)}
}

// Split writes the cell v less the location mu as s.C·scaled + offset:
// (v/C, −mu) for a large cell (|v| ≥ Tau), (0, v − mu) for the others.
func (s Scale) Split(v, mu float64) (scaled, offset float64) {
	if math.Abs(v) >= s.Tau {
		return v / s.C, -mu
	}
	return 0, v - mu
}

// Scaled is the number c²·Quad + c·Lin + Const for a scale c ≥ 1 kept
// apart (Scale.C): a score such as a Gaussian log-density at a point far
// out, −½‖L⁻¹(x − μ)‖², whose value float64 cannot hold (below −1.8e308)
// although the differences between the classes' scores, which decide the
// probabilities, are exact in this form. With x = c·x̃ + d (Scale.Split),
// u = L⁻¹x̃ and v = L⁻¹d, the quadratic form is
//
//	‖L⁻¹(x − μ)‖² = c²‖u‖² + 2c uᵀv + ‖v‖²
//
// and a linear score wᵀx + b = c·wᵀx̃ + (wᵀd + b). Each part is computed
// from cells of moderate size, so that none overflows.
type Scaled struct{ Quad, Lin, Const float64 }

// Value returns c²·Quad + c·Lin + Const as c·(c·Quad + Lin) + Const: −Inf
// (or +Inf) where it is beyond float64, never NaN for finite parts.
func (s Scaled) Value(c float64) float64 { return c*(c*s.Quad+s.Lin) + s.Const }

// reduceScaled writes to h, for the scores s_k = c²Q_k + cL_k + A_k,
// h_k = s_k − (c²·Q* + c·G*) with Q* = max_k Q_k and G* = max_k G_k,
// G_k = c(Q_k − Q*) + L_k, computed as
//
//	h_k = c·(G_k − G*) + A_k
//
// which is exact algebra: the parts are compared order by order, so that
// the differences c²(Q_k − Q*) that float64 cannot hold give −Inf (and
// probability 0) only to the classes that lose, and the classes tied on
// the quadratic part are told apart by the linear one, then by the
// constants. Scores with a part infinite or NaN are left out (h_k = −Inf).
// It returns Q*, G* and whether some score was kept; h_k is finite for
// at least one k when so (the class of largest G_k has h_k = A_k).
//
// As c grows the scores of a row x = c·x̃ + d order the classes by Q_k
// first, then by L_k, then by A_k: the class that wins far out along
// the direction x̃ is the one of least quadratic growth (the widest
// variance along x̃), then of the largest linear growth; the posterior
// computed from h is that limit when c²ΔQ or cΔL exceeds float64, and
// the exact posterior otherwise.
func reduceScaled(h []float64, s []Scaled, c float64) (qs, gs float64, ok bool) {
	qs, gs = math.Inf(-1), math.Inf(-1)
	keep := func(t Scaled) bool {
		return !math.IsInf(t.Quad, 0) && !math.IsInf(t.Lin, 0) && !math.IsInf(t.Const, 0) && t.Quad == t.Quad && t.Lin == t.Lin && t.Const == t.Const
	}
	for _, t := range s {
		if keep(t) {
			qs, ok = max(qs, t.Quad), true
		}
	}
	if !ok {
		for k := range h {
			h[k] = math.Inf(-1)
		}
		return qs, gs, false
	}
	for k, t := range s {
		h[k] = math.Inf(-1)
		if keep(t) {
			h[k] = c*(t.Quad-qs) + t.Lin // G_k, for now
			gs = max(gs, h[k])
		}
	}
	for k, t := range s {
		if keep(t) {
			h[k] = c*(h[k]-gs) + t.Const
		}
	}
	return qs, gs, true
}

// SoftmaxScaled writes to dst the probabilities exp(s_k) / Σ_l exp(s_l)
// of the scaled scores s (Scaled, scale c), by reduceScaled and Softmax:
// finite, in [0, 1] and summing to 1 for any finite parts, a score with a
// part infinite or NaN getting 0. It reports whether some score had
// finite parts; when none had (a row that no class can produce), dst is
// all 0, the exponentials of NormalizeLogScaled's. dst and s have the
// same length.
func SoftmaxScaled(dst []float64, s []Scaled, c float64) bool {
	if _, _, ok := reduceScaled(dst, s, c); !ok {
		clear(dst)
		return false
	}
	Softmax(dst)
	return true
}

// NormalizeLogScaled writes to dst the log-probabilities of the scaled
// scores s, the logarithms of SoftmaxScaled's: finite, or −Inf for the
// classes whose probability is below float64's range, and −Inf for every
// class when no score has finite parts, which it reports as
// SoftmaxScaled does.
func NormalizeLogScaled(dst []float64, s []Scaled, c float64) bool {
	if _, _, ok := reduceScaled(dst, s, c); !ok {
		return false
	}
	NormalizeLog(dst)
	return true
}

// LogSumExpScaled returns log Σ_k exp(s_k) of the scaled scores s as a
// Scaled of the same scale c,
//
//	log Σ_k exp(s_k) = c²Q* + cG* + log Σ_k exp(h_k)
//
// with Q*, G* and h_k of reduceScaled: the log-density of a mixture, whose
// components are scaled scores, is one too. h holds len(s) values of
// scratch. With no score kept it returns Const −Inf.
func LogSumExpScaled(h []float64, s []Scaled, c float64) Scaled {
	qs, gs, ok := reduceScaled(h, s, c)
	if !ok {
		return Scaled{Const: math.Inf(-1)}
	}
	return Scaled{Quad: qs, Lin: gs, Const: LogSumExp(h)}
}
