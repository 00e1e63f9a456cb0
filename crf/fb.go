package crf

import "math"

// workspace is the scratch memory of one sequence's passes, grown to the
// longest sequence a worker meets: for item t and label y, state[t·L + y]
// is s_t(y); expState is exp(s_t(y) − shift_t); alpha and beta are the
// scaled forward and backward variables (their logs in log space); scale
// is c_t; marg is P(y_t = y | x).
type workspace struct {
	state, expState, alpha, beta, marg []float64
	scale, shift                       []float64
	back                               []int32
}

func (ws *workspace) grow(T, L int) {
	if len(ws.scale) >= T {
		return
	}
	ws.state = make([]float64, T*L)
	ws.expState = make([]float64, T*L)
	ws.alpha = make([]float64, T*L)
	ws.beta = make([]float64, T*L)
	ws.marg = make([]float64, T*L)
	ws.back = make([]int32, T*L)
	ws.scale = make([]float64, T)
	ws.shift = make([]float64, T)
}

// transitions are the transition potentials of one weight vector: logT
// holds λ(y′, y) at y′·L + y, expT holds exp(λ(y′, y) − shift), shift the
// largest λ.
type transitions struct {
	logT, expT []float64
	shift      float64
}

func (fs *features) transitions(w []float64) *transitions {
	L := len(fs.labels)
	tr := &transitions{logT: make([]float64, L*L), expT: make([]float64, L*L), shift: math.Inf(-1)}
	for i, f := range fs.trans {
		if f >= 0 {
			tr.logT[i] = w[f]
		}
		tr.shift = max(tr.shift, tr.logT[i])
	}
	for i, v := range tr.logT {
		tr.expT[i] = math.Exp(v - tr.shift)
	}
	return tr
}

// stateScores sets ws.state[(t−b)·L + y] = s_t(y) for the items b ≤ t < end
// of e under the weights w.
func (fs *features) stateScores(ws *workspace, e *encoded, b, end int, w []float64) {
	L := len(fs.labels)
	st := ws.state[:(end-b)*L]
	clear(st)
	for t := b; t < end; t++ {
		row := st[(t-b)*L : (t-b+1)*L]
		for k := e.itemStart[t]; k < e.itemStart[t+1]; k++ {
			a, v := e.attr[k], e.val[k]
			lo, hi := fs.start[a], fs.start[a+1]
			labels, weights := fs.label[lo:hi], w[lo:hi]
			weights = weights[:len(labels)]
			if v == 1 {
				for j, y := range labels {
					row[y] += weights[j]
				}
			} else {
				for j, y := range labels {
					row[y] += v * weights[j]
				}
			}
		}
	}
}

// forwardBackward computes, from ws.state for a sequence of T items, the
// marginals P(y_t = y | x) into ws.marg and returns log Z(x). Unless acc
// is nil it adds the pair marginals Σ_t P(y_{t−1} = y′, y_t = y | x) at
// y′·L + y to acc: on the scaled path without their constant factor
// E(y′, y) = tr.expT[y′·L + y] to acc.outer, on the log path whole to
// acc.pairs (pairMarginals combines them). It takes the scaled path and
// falls back to log space when a normaliser underflows; logSpace reports
// which.
func forwardBackward(ws *workspace, T, L int, tr *transitions, acc *pairAcc) (logZ float64, logSpace bool) {
	if logZ, ok := scaledForwardBackward(ws, T, L, tr, acc); ok {
		return logZ, false
	}
	if acc == nil {
		return logForwardBackward(ws, T, L, tr, nil), true
	}
	return logForwardBackward(ws, T, L, tr, acc.pairs), true
}

// pairAcc accumulates pair marginals over sequences (forwardBackward).
type pairAcc struct{ outer, pairs []float64 }

func newPairAcc(L int) *pairAcc {
	return &pairAcc{outer: make([]float64, L*L), pairs: make([]float64, L*L)}
}

// pairMarginals returns E ⊙ outer + pairs, the sums of the pair marginals.
func (acc *pairAcc) pairMarginals(tr *transitions) []float64 {
	out := make([]float64, len(acc.pairs))
	for i := range out {
		out[i] = tr.expT[i]*acc.outer[i] + acc.pairs[i]
	}
	return out
}

// scaledForwardBackward is forward–backward with scaling: α_t is
// normalised by c_t = Σ_y α̃_t(y), β_t by c_{t+1}, so that
// P(y_t = y) = α_t(y) β_t(y) and
// P(y_{t−1} = y′, y_t = y) = E(y′, y) · α_{t−1}(y′) u_t(y), u_t(y) =
// S_t(y) β_t(y) / c_t, with the shifted potentials E = exp(λ − shift) and
// S_t = exp(s_t − shift_t). ok is false, and acc untouched, when some c_t
// is not a normal positive number.
func scaledForwardBackward(ws *workspace, T, L int, tr *transitions, acc *pairAcc) (logZ float64, ok bool) {
	for t := range T {
		row, ex := ws.state[t*L:(t+1)*L], ws.expState[t*L:(t+1)*L]
		ex = ex[:len(row)]
		m := math.Inf(-1)
		for _, s := range row {
			m = max(m, s)
		}
		ws.shift[t] = m
		for y, s := range row {
			ex[y] = math.Exp(s - m)
		}
	}
	alpha := ws.alpha
	copy(alpha[:L], ws.expState[:L])
	if !normalise(ws, alpha, 0, L) {
		return 0, false
	}
	for t := 1; t < T; t++ {
		prev, cur, ex := alpha[(t-1)*L:t*L], alpha[t*L:(t+1)*L], ws.expState[t*L:(t+1)*L]
		ex = ex[:len(cur)]
		clear(cur)
		for yp, a := range prev {
			row := tr.expT[yp*L : (yp+1)*L]
			row = row[:len(cur)]
			for y := range cur {
				cur[y] += a * row[y]
			}
		}
		for y := range cur {
			cur[y] *= ex[y]
		}
		if !normalise(ws, alpha, t, L) {
			return 0, false
		}
	}
	beta := ws.beta
	last := beta[(T-1)*L : T*L]
	for y := range last {
		last[y] = 1
	}
	for t := T - 1; t >= 1; t-- {
		u := ws.marg[t*L : (t+1)*L]
		b, ex := beta[t*L:(t+1)*L], ws.expState[t*L:(t+1)*L]
		b, ex = b[:len(u)], ex[:len(u)]
		inv := 1 / ws.scale[t]
		for y := range u {
			u[y] = ex[y] * b[y] * inv
		}
		prevA, prevB := alpha[(t-1)*L:t*L], beta[(t-1)*L:t*L]
		for yp := range prevB {
			row := tr.expT[yp*L : (yp+1)*L]
			row = row[:len(u)]
			s := 0.0
			for y := range u {
				s += row[y] * u[y]
			}
			prevB[yp] = s
		}
		if acc != nil {
			for yp, a := range prevA {
				out := acc.outer[yp*L : (yp+1)*L]
				out = out[:len(u)]
				for y := range u {
					out[y] += a * u[y]
				}
			}
		}
	}
	for t := range T {
		a, b, m := alpha[t*L:(t+1)*L], beta[t*L:(t+1)*L], ws.marg[t*L:(t+1)*L]
		a, b = a[:len(m)], b[:len(m)]
		for y := range m {
			m[y] = a[y] * b[y]
		}
	}
	logZ = float64(T-1) * tr.shift
	for t := range T {
		logZ += math.Log(ws.scale[t]) + ws.shift[t]
	}
	return logZ, true
}

// normalise divides α_t by c_t = Σ_y α_t(y), keeps c_t and reports whether
// it is a normal positive number.
func normalise(ws *workspace, alpha []float64, t, L int) bool {
	row := alpha[t*L : (t+1)*L]
	c := 0.0
	for _, a := range row {
		c += a
	}
	if !(c >= 0x1p-1022) || math.IsInf(c, 0) {
		return false
	}
	ws.scale[t] = c
	inv := 1 / c
	for y := range row {
		row[y] *= inv
	}
	return true
}

// logForwardBackward is forward–backward in log space, exact at any scale
// of the weights: ws.alpha and ws.beta hold log α̃_t(y) and log β̃_t(y),
// log Z = logsumexp_y log α̃_T(y),
// P(y_t = y) = exp(log α̃_t(y) + log β̃_t(y) − log Z) and
// P(y_{t−1} = y′, y_t = y) = exp(log α̃_{t−1}(y′) + λ(y′, y) + s_t(y) +
// log β̃_t(y) − log Z).
func logForwardBackward(ws *workspace, T, L int, tr *transitions, pairs []float64) float64 {
	la, lb, st := ws.alpha, ws.beta, ws.state
	copy(la[:L], st[:L])
	terms := make([]float64, L)
	for t := 1; t < T; t++ {
		for y := range L {
			for yp := range L {
				terms[yp] = la[(t-1)*L+yp] + tr.logT[yp*L+y]
			}
			la[t*L+y] = logSumExp(terms) + st[t*L+y]
		}
	}
	logZ := logSumExp(la[(T-1)*L : T*L])
	for y := range L {
		lb[(T-1)*L+y] = 0
	}
	for t := T - 2; t >= 0; t-- {
		for yp := range L {
			for y := range L {
				terms[y] = tr.logT[yp*L+y] + st[(t+1)*L+y] + lb[(t+1)*L+y]
			}
			lb[t*L+yp] = logSumExp(terms)
		}
	}
	for i := range T * L {
		ws.marg[i] = math.Exp(la[i] + lb[i] - logZ)
	}
	if pairs != nil {
		for t := 1; t < T; t++ {
			for yp := range L {
				for y := range L {
					pairs[yp*L+y] += math.Exp(la[(t-1)*L+yp] + tr.logT[yp*L+y] + st[t*L+y] + lb[t*L+y] - logZ)
				}
			}
		}
	}
	return logZ
}

// logSumExp returns log Σ exp(x_i), computed stably.
func logSumExp(x []float64) float64 {
	m := math.Inf(-1)
	for _, v := range x {
		m = max(m, v)
	}
	if math.IsInf(m, 0) {
		return m
	}
	s := 0.0
	for _, v := range x {
		s += math.Exp(v - m)
	}
	return m + math.Log(s)
}

// viterbi returns in path (of T labels) the most probable labels of a
// sequence from ws.state, argmax_y Σ_t s_t(y_t) + Σ λ(y_{t−1}, y_t), ties
// going to the smaller label, and its score.
func viterbi(path []int32, ws *workspace, T, L int, tr *transitions) float64 {
	delta := ws.alpha
	copy(delta[:L], ws.state[:L])
	for t := 1; t < T; t++ {
		prev, cur, back := delta[(t-1)*L:t*L], delta[t*L:(t+1)*L], ws.back[t*L:(t+1)*L]
		back = back[:len(cur)]
		for y := range cur {
			cur[y], back[y] = math.Inf(-1), 0
		}
		for yp, d := range prev {
			row := tr.logT[yp*L : (yp+1)*L]
			row = row[:len(cur)]
			for y := range cur {
				if v := d + row[y]; v > cur[y] {
					cur[y], back[y] = v, int32(yp)
				}
			}
		}
		st := ws.state[t*L : (t+1)*L]
		st = st[:len(cur)]
		for y := range cur {
			cur[y] += st[y]
		}
	}
	best, arg := math.Inf(-1), int32(0)
	for y := range L {
		if v := delta[(T-1)*L+y]; v > best {
			best, arg = v, int32(y)
		}
	}
	path[T-1] = arg
	for t := T - 1; t > 0; t-- {
		path[t-1] = ws.back[t*L+int(path[t])]
	}
	return best
}
