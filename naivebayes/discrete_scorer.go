package naivebayes

import (
	"math"
	"slices"
)

// countScorer adds the terms of a bag of V counts (the columns of a
// term-count matrix) to the joint log-likelihood of a row x:
//
//	multinomial, complement:  Σ_t x_t b_tk
//	Bernoulli:                c_k + Σ_{t: x_t > 0} (log p_kt − log(1 − p_kt)),
//	                          c_k = Σ_t log(1 − p_kt),
//
// the Bernoulli form being Σ_t log p_kt or log(1 − p_kt) as t is present
// or absent, rewritten so that only the present terms are visited. Terms
// with p_kt = 1 (possible only with α = 0) are kept out of c_k and counted
// instead: a row lacking one of them gets −Inf for class k.
//
// The weights are stored by term, w[t·G + l], in G lanes, G the number of
// lanes rounded up to a multiple of 4: lane k < K holds the weight of
// class k, and with terms of p_kt = 1 lane K + k holds [p_kt = 1]; the
// rest are 0. A row's product then reads one cache line per stored entry
// and keeps four lanes in registers.
type countScorer struct {
	k, g     int
	presence bool      // Bernoulli: an entry x > 0 counts as 1
	w        []float64 // at t·g + lane
	base     []float64 // c_k (Bernoulli), nil otherwise
	nOnes    []float64 // Bernoulli: the number of terms with p_kt = 1; nil when there are none
}

// newCountScorer returns the scorer of the weights w of a bag of counts of
// kind ck (fitCounts).
func newCountScorer(ck countKind, w countWeights) countScorer {
	K, V := w.k, w.v
	s := countScorer{k: K, presence: ck == countBernoulli}
	lanes := K
	if s.presence {
		s.base = make([]float64, K)
		if slices.Contains(w.b0, math.Inf(-1)) {
			s.nOnes = make([]float64, K)
			lanes = 2 * K
		}
	}
	s.g = (lanes + 3) / 4 * 4
	s.w = make([]float64, V*s.g)
	for i, b := range w.b {
		c, t := i/V, i%V
		if s.presence {
			if l1 := w.b0[i]; math.IsInf(l1, -1) { // p = 1
				s.w[t*s.g+K+c] = 1
				s.nOnes[c]++
			} else {
				b -= l1
				s.base[c] += l1
			}
		}
		s.w[t*s.g+c] = b
	}
	return s
}

// addRow adds to out (K values) the scores of the row with the stored
// entries val in the columns idx; acc is scratch space of G values. Each
// lane's sum is taken over the entries in order.
func (s *countScorer) addRow(out, acc []float64, idx []int32, val []float64) {
	g, presence := s.g, s.presence
	for l := 0; l < g; l += 4 {
		var s0, s1, s2, s3 float64
		for e, j := range idx {
			x := val[e]
			if presence {
				x = present(x)
			}
			if x == 0 { // a stored zero adds nothing, even to a weight of −Inf (α = 0)
				continue
			}
			w := s.w[int(j)*g+l:][:4:4]
			s0 += x * w[0]
			s1 += x * w[1]
			s2 += x * w[2]
			s3 += x * w[3]
		}
		acc[l], acc[l+1], acc[l+2], acc[l+3] = s0, s1, s2, s3
	}
	for c := range out {
		v := acc[c]
		if s.base != nil {
			v += s.base[c]
		}
		out[c] += v
		if s.nOnes != nil && acc[s.k+c] < s.nOnes[c] {
			out[c] = math.Inf(-1)
		}
	}
}

// present is 1 when the count x is positive and 0 otherwise.
func present(x float64) float64 {
	if x > 0 {
		return 1
	}
	return 0
}
