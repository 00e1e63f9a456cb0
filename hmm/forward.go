package hmm

import (
	"errors"
	"math"
	"slices"
)

// lattice is the forward–backward computation over a sentence's states
// (see next): scaled forward probabilities α̂_i(k), whose sum is 1 at
// every position, their scales s_i, and the scaled backward
// probabilities β̂_i(k), so that γ_i(k) = α̂_i(k) β̂_i(k) is the
// posterior probability of the state k at position i.
type lattice struct {
	m     *Model
	pr    *probs
	n, K  int
	eps   []float64 // ε_i(t) = P(w_i | t) / max_t P(w_i | t)
	base  [][]float64
	ids   []int32
	alpha []float64 // n × K
	beta  []float64 // n × K, when computed
	scale []float64 // s_i
	// logP is log p(w_1 … w_n): Σ log s_i + Σ log max_t P(w_i | t) + log Σ_k α̂_{n−1}(k) P(end | k).
	logP float64
	zEnd float64
}

// rho returns P(w_i | b, c)/P(w_i | c) at position i in the state of
// key = b·T + c: 1 without context emissions.
func (l *lattice) rho(i, key int) float64 {
	if !l.pr.useCtx || l.ids[i] < 0 {
		return 1
	}
	base := l.base[i][key%l.m.T]
	return math.Exp(l.pr.ctxEmit(l.ids[i], key, base) - base)
}

// keys returns the range of the keys of the states at position i.
func (m *Model) keys(i int) (lo, hi int) {
	if m.cfg.Order == 1 || i == 0 {
		return m.T * m.T, (m.T + 1) * m.T
	}
	return 0, m.T * m.T
}

// end returns P(end | k), 1 under NoEnd.
func (l *lattice) end(k int) float64 {
	if l.m.cfg.NoEnd {
		return 1
	}
	return l.pr.trans[l.m.transFrom(k)+l.m.T]
}

// forward computes the forward probabilities of the tokens (all
// positions when keep, else only the last) and log p(words).
func (m *Model) forward(tokens []string, keep bool) *lattice {
	pr := m.probs()
	T, n := m.T, len(tokens)
	K := (T + 1) * T
	l := &lattice{m: m, pr: pr, n: n, K: K, scale: make([]float64, n)}
	emit, _, ids := m.emissions(pr, nil, tokens)
	l.ids = ids
	e := make([]float64, n*T)
	for i, row := range emit {
		copy(e[i*T:], row)
	}
	l.eps, l.base = e, emit
	rows := 2
	if keep {
		rows = n
	}
	l.alpha = make([]float64, rows*K)
	for i := range n {
		row := e[i*T : (i+1)*T]
		top := slices.Max(row)
		if math.IsInf(top, -1) || math.IsNaN(top) {
			l.logP = math.Inf(-1)
			return l
		}
		l.logP += top
		for t := range row {
			row[t] = math.Exp(row[t] - top)
		}
	}
	at := func(i int) []float64 {
		r := i
		if !keep {
			r = i % 2
		}
		return l.alpha[r*K : (r+1)*K]
	}
	for i := range n {
		a := at(i)
		clear(a)
		if i == 0 {
			row := m.startRow()
			for t := range T {
				a[m.firstKey(t)] = pr.trans[row+t] * e[t]
			}
		} else {
			prev := at(i - 1)
			lo, hi := m.keys(i - 1)
			eps := e[i*T : (i+1)*T]
			for k := lo; k < hi; k++ {
				if prev[k] == 0 {
					continue
				}
				from := m.transFrom(k)
				for t, et := range eps {
					a[m.next(k, t)] += prev[k] * pr.trans[from+t] * et
				}
			}
		}
		if pr.useCtx {
			lo, hi := m.keys(i)
			for k := lo; k < hi; k++ {
				if a[k] != 0 {
					a[k] *= l.rho(i, k)
				}
			}
		}
		s := 0.0
		for _, x := range a {
			s += x
		}
		if !(s > 0) {
			l.logP = math.Inf(-1)
			return l
		}
		for k := range a {
			a[k] /= s
		}
		l.scale[i] = s
		l.logP += math.Log(s)
	}
	last := at(n - 1)
	lo, hi := m.keys(n - 1)
	for k := lo; k < hi; k++ {
		l.zEnd += last[k] * l.end(k)
	}
	l.logP += math.Log(l.zEnd)
	return l
}

// backward computes the scaled backward probabilities of a lattice
// whose forward pass kept every position and whose logP is finite.
func (l *lattice) backward() {
	m, T, K, n := l.m, l.m.T, l.K, l.n
	l.beta = make([]float64, n*K)
	lo, hi := m.keys(n - 1)
	last := l.beta[(n-1)*K : n*K]
	for k := lo; k < hi; k++ {
		last[k] = l.end(k) / l.zEnd
	}
	for i := n - 1; i > 0; i-- {
		b, prev := l.beta[i*K:(i+1)*K], l.beta[(i-1)*K:i*K]
		eps := l.eps[i*T : (i+1)*T]
		lo, hi := m.keys(i - 1)
		for k := lo; k < hi; k++ {
			from, sum := m.transFrom(k), 0.0
			for t, et := range eps {
				if et == 0 { // a state that cannot emit the word, whose ρ is NaN
					continue
				}
				k2 := m.next(k, t)
				sum += l.pr.trans[from+t] * et * l.rho(i, k2) * b[k2]
			}
			prev[k] = sum / l.scale[i]
		}
	}
}

// LogProb returns log p(w_1 … w_n), the probability of the tokens summed
// over every tag sequence (the forward algorithm, scaled at every
// position so that it does not underflow): an anomaly score of a
// sentence. It is −Inf when no tag sequence can give the tokens, and 0
// for no tokens.
func (m *Model) LogProb(tokens []string) float64 {
	if len(tokens) == 0 {
		return 0
	}
	return m.forward(tokens, false).logP
}

// Marginals returns the posterior probabilities P(t_i = t | w_1 … w_n)
// of the tags at each position (forward–backward): row i holds those of
// token i in the order of Tags. It returns nil when the tokens have
// probability 0 under the model.
func (m *Model) Marginals(tokens []string) [][]float64 {
	if len(tokens) == 0 {
		return nil
	}
	l := m.forward(tokens, true)
	if math.IsInf(l.logP, -1) {
		return nil
	}
	l.backward()
	out := make([][]float64, l.n)
	for i := range out {
		out[i] = make([]float64, len(m.tags))
		lo, hi := m.keys(i)
		for k := lo; k < hi; k++ {
			out[i][m.stateTag[k%m.T]] += l.alpha[i*l.K+k] * l.beta[i*l.K+k]
		}
	}
	return out
}

// TokenMarginals returns Marginals of the tokens (gendisc.MarginalTagger),
// whose columns are in the order of Tags, the levels of the schema's
// target: ErrNoTokens for none, and an error when the tokens have
// probability 0 under the model.
func (m *Model) TokenMarginals(tokens []string) ([][]float64, error) {
	if len(tokens) == 0 {
		return nil, ErrNoTokens
	}
	marg := m.Marginals(tokens)
	if marg == nil {
		return nil, errors.New("the tokens have probability 0 under the model: no tag sequence gives them")
	}
	return marg, nil
}
