package crf

import (
	"math"
	"math/rand/v2"
	"testing"
)

// tinySeqs is a small labelled data set with repeated attributes,
// non-unit values and a label bigram that never occurs.
func tinySeqs() []Sequence {
	return []Sequence{
		{Items: []Item{{{Name: "w=the", Value: 1}, {Name: "bias", Value: 1}}, {{Name: "w=dog", Value: 1}, {Name: "suf=og", Value: 0.5}, {Name: "bias", Value: 1}}, {{Name: "w=runs", Value: 1}, {Name: "bias", Value: 1}}},
			Labels: []string{"D", "N", "V"}},
		{Items: []Item{{{Name: "w=a", Value: 1}, {Name: "bias", Value: 1}}, {{Name: "w=cat", Value: 1}, {Name: "bias", Value: 1}, {Name: "cap", Value: 2}}},
			Labels: []string{"D", "N"}},
		{Items: []Item{{{Name: "w=dogs", Value: 1}, {Name: "suf=gs", Value: 1.5}, {Name: "bias", Value: 1}}, {{Name: "w=run", Value: 1}, {Name: "bias", Value: 1}}, {{Name: "w=the", Value: 1}, {Name: "bias", Value: 1}}, {{Name: "w=dog", Value: 1}, {Name: "bias", Value: 1}}},
			Labels: []string{"N", "V", "D", "N"}},
		{Items: []Item{{{Name: "w=runs", Value: 1}, {Name: "bias", Value: 1}}},
			Labels: []string{"V"}},
	}
}

// bruteForce enumerates the L^T label sequences of ws.state: log Z, the
// marginals and the pair marginals, and the best path with its score.
func bruteForce(ws *workspace, T, L int, tr *transitions) (logZ float64, marg, pairs []float64, best []int32, bestScore float64) {
	path := make([]int32, T)
	var scores []float64
	var paths [][]int32
	var rec func(t int)
	rec = func(t int) {
		if t == T {
			s := 0.0
			for u, y := range path {
				s += ws.state[u*L+int(y)]
				if u > 0 {
					s += tr.logT[int(path[u-1])*L+int(y)]
				}
			}
			scores = append(scores, s)
			paths = append(paths, append([]int32(nil), path...))
			return
		}
		for y := range int32(L) {
			path[t] = y
			rec(t + 1)
		}
	}
	rec(0)
	logZ = logSumExp(scores)
	marg, pairs = make([]float64, T*L), make([]float64, L*L)
	bestScore = math.Inf(-1)
	for k, p := range paths {
		prob := math.Exp(scores[k] - logZ)
		for t, y := range p {
			marg[t*L+int(y)] += prob
			if t > 0 {
				pairs[int(p[t-1])*L+int(y)] += prob
			}
		}
		if scores[k] > bestScore {
			bestScore, best = scores[k], p
		}
	}
	return
}

func randomPotentials(rng *rand.Rand, T, L int, scale float64) (*workspace, *transitions) {
	ws := &workspace{}
	ws.grow(T, L)
	for i := range T * L {
		ws.state[i] = scale * rng.NormFloat64()
	}
	tr := &transitions{logT: make([]float64, L*L), expT: make([]float64, L*L), shift: math.Inf(-1)}
	for i := range tr.logT {
		tr.logT[i] = scale * rng.NormFloat64()
		tr.shift = max(tr.shift, tr.logT[i])
	}
	for i, v := range tr.logT {
		tr.expT[i] = math.Exp(v - tr.shift)
	}
	return ws, tr
}

func closeRel(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*max(1, math.Abs(a), math.Abs(b))
}

// TestForwardBackwardBruteForce checks log Z, the marginals, the pair
// marginals and Viterbi against enumeration of every label sequence, on
// the scaled path (moderate weights) and on the log-space path (weights
// of hundreds, where the scaled normalisers underflow).
func TestForwardBackwardBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		scale    float64
		logSpace bool
	}{{1, false}, {5, false}, {900, true}} {
		for T := 1; T <= 5; T++ {
			L := 3
			ws, tr := randomPotentials(rng, T, L, c.scale)
			wantZ, wantMarg, wantPairs, wantPath, wantScore := bruteForce(ws, T, L, tr)
			acc := newPairAcc(L)
			logZ, logSpace := forwardBackward(ws, T, L, tr, acc)
			pairs := acc.pairMarginals(tr)
			if T > 1 && logSpace != c.logSpace {
				t.Errorf("scale %v, T %d: log space %v, want %v", c.scale, T, logSpace, c.logSpace)
			}
			if !closeRel(logZ, wantZ, 1e-12) {
				t.Errorf("scale %v, T %d: log Z %v, want %v", c.scale, T, logZ, wantZ)
			}
			for i := range wantMarg {
				if math.Abs(ws.marg[i]-wantMarg[i]) > 1e-12 {
					t.Errorf("scale %v, T %d: marginal %d = %v, want %v", c.scale, T, i, ws.marg[i], wantMarg[i])
				}
			}
			for i := range wantPairs {
				if math.Abs(pairs[i]-wantPairs[i]) > 1e-12 {
					t.Errorf("scale %v, T %d: pair marginal %d = %v, want %v", c.scale, T, i, pairs[i], wantPairs[i])
				}
			}
			path := make([]int32, T)
			score := viterbi(path, ws, T, L, tr)
			if !closeRel(score, wantScore, 1e-12) {
				t.Errorf("scale %v, T %d: Viterbi score %v, want %v", c.scale, T, score, wantScore)
			}
			for i := range path {
				if path[i] != wantPath[i] {
					t.Errorf("scale %v, T %d: Viterbi path %v, want %v", c.scale, T, path, wantPath)
					break
				}
			}
		}
	}
}

// TestScaledEqualsLogSpace checks that the two paths agree on a long
// sequence where both work, to 1e-10: log space loses digits to the size
// of log α̃ + log β̃ − log Z (about 10³ here).
func TestScaledEqualsLogSpace(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	T, L := 400, 7
	ws, tr := randomPotentials(rng, T, L, 3)
	acc := newPairAcc(L)
	z1, ok := scaledForwardBackward(ws, T, L, tr, acc)
	pairs := acc.pairMarginals(tr)
	if ok {
		m1 := append([]float64(nil), ws.marg[:T*L]...)
		pairs2 := make([]float64, L*L)
		z2 := logForwardBackward(ws, T, L, tr, pairs2)
		if !closeRel(z1, z2, 1e-12) {
			t.Errorf("log Z %v (scaled) and %v (log space)", z1, z2)
		}
		for i := range m1 {
			if math.Abs(m1[i]-ws.marg[i]) > 1e-10 {
				t.Fatalf("marginal %d: %v and %v", i, m1[i], ws.marg[i])
			}
		}
		for i := range pairs {
			if !closeRel(pairs[i], pairs2[i], 1e-10) {
				t.Fatalf("pair marginal %d: %v and %v", i, pairs[i], pairs2[i])
			}
		}
	} else {
		t.Fatal("the scaled path failed on moderate weights")
	}
}

// TestLongSequenceNoUnderflow checks a sequence of 10,000 items, where
// unscaled α would underflow many times over: the scaled path runs, its
// marginals sum to 1 and log Z agrees with log space to 1e-9.
func TestLongSequenceNoUnderflow(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	T, L := 10000, 5
	ws, tr := randomPotentials(rng, T, L, 2)
	z, ok := scaledForwardBackward(ws, T, L, tr, nil)
	if !ok {
		t.Fatal("the scaled path failed")
	}
	for tt := range T {
		sum := 0.0
		for _, p := range ws.marg[tt*L : (tt+1)*L] {
			sum += p
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Fatalf("item %d: marginals sum to %v", tt, sum)
		}
	}
	if zl := logForwardBackward(ws, T, L, tr, nil); !closeRel(z, zl, 1e-9) {
		t.Errorf("log Z %v (scaled) and %v (log space)", z, zl)
	}
}
