package naivebayes

import (
	"errors"
	"math"
	"slices"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/mathx"
)

// countKind is the distribution of a bag of counts (numeric count
// columns, or the terms of a text column) given the class.
type countKind int

const (
	countBernoulli countKind = iota
	countMultinomial
	countComplement
)

var countKindNames = [...]string{countBernoulli: "bernoulli", countMultinomial: "multinomial", countComplement: "complement"}

// textFamily is the count kind of the text columns of a family.
func textFamily(f Family, t TextModel) countKind {
	switch f {
	case Bernoulli:
		return countBernoulli
	case Complement:
		return countComplement
	case Mixed:
		if t == TextBernoulli {
			return countBernoulli
		}
	}
	return countMultinomial
}

// countStats are the sufficient statistics of a bag of V count features
// for K classes, at k·V + t:
//
//	S_kt = Σ_{i: y_i = k, x_it observed} w_i · x_it   (multinomial, complement)
//	S_kt = Σ_{i: y_i = k, x_it observed} w_i · [x_it present]   (Bernoulli)
//	N_kt = Σ_{i: y_i = k, x_it observed} w_i
type countStats struct {
	v    int
	s, n []float64
}

// grow makes room for k classes.
func (c *countStats) grow(k int) {
	if want := k * c.v; len(c.s) < want {
		c.s = append(c.s, make([]float64, want-len(c.s))...)
		c.n = append(c.n, make([]float64, want-len(c.n))...)
	}
}

func (c countStats) clone() countStats {
	return countStats{v: c.v, s: slices.Clone(c.s), n: slices.Clone(c.n)}
}

// countWeights are the fitted parameters of a bag of V counts, one row per
// class (at k·V + t, scikit-learn's feature_log_prob_), so that a
// document's contribution is a sparse product (text.CSR.MulTo): for
// multinomial and complement the weights b_tk of
//
//	score_k(x) = Σ_t x_t b_tk,
//
// for Bernoulli log p_kt in b and log(1 − p_kt) in b0.
type countWeights struct {
	k, v  int
	b, b0 []float64
}

// logRatio is log(a/b), or 0 when b is 0: a class and feature without
// any observation (possible only with α = 0) is left uninformative.
func logRatio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	if r := a / b; r > 0 || a == 0 {
		return math.Log(r)
	}
	// a/b underflowed (a tiny α over large counts): the difference of
	// the logarithms is finite where the logarithm of 0 is not.
	return math.Log(a) - math.Log(b)
}

// fitCounts derives the weights of a bag of counts of kind ck from its
// statistics for K classes, with pseudo-count α:
//
//	Bernoulli:    p_kt = (S_kt + α) / (N_kt + 2α)
//	multinomial:  b_tk = log θ_kt, θ_kt = (S_kt + α) / (Σ_u S_ku + α·V)
//	complement:   c_kt = Σ_l S_lt − S_kt + α,
//	              l_kt = log(c_kt / Σ_u c_ku),
//	              b_tk = −l_kt, or l_kt / Σ_u l_ku with norm
//
// the last being Rennie et al.'s complement naive Bayes as scikit-learn's
// ComplementNB computes it (a document is scored against the complement
// of each class: the smaller its complement likelihood, the larger the
// score). A multinomial class without counts, or a Bernoulli class
// without observed values, is left uninformative when α = 0.
func fitCounts(ck countKind, st *countStats, k int, alpha float64, norm bool) countWeights {
	V := st.v
	w := countWeights{k: k, v: V, b: make([]float64, V*k)}
	switch ck {
	case countBernoulli:
		w.b0 = make([]float64, V*k)
		for c := range k {
			for t := range V {
				s, n := st.s[c*V+t], st.n[c*V+t]
				w.b[c*V+t] = logRatio(s+alpha, n+2*alpha)
				w.b0[c*V+t] = logRatio(n-s+alpha, n+2*alpha)
			}
		}
	case countMultinomial:
		for c := range k {
			row := st.s[c*V : (c+1)*V]
			total := sum(row) + alpha*float64(V)
			for t, s := range row {
				w.b[c*V+t] = logRatio(s+alpha, total)
			}
		}
	case countComplement:
		all := make([]float64, V)
		for c := range k {
			for t, s := range st.s[c*V : (c+1)*V] {
				all[t] += s
			}
		}
		comp := make([]float64, V)
		for c := range k {
			for t, s := range st.s[c*V : (c+1)*V] {
				comp[t] = all[t] - s + alpha
			}
			total := sum(comp)
			for t, v := range comp {
				comp[t] = logRatio(v, total)
			}
			scale := -1.0
			if norm {
				scale = 1 / sum(comp)
			}
			for t, v := range comp {
				w.b[c*V+t] = v * scale
			}
		}
	}
	return w
}

func sum(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

// countPart covers numeric count columns (and, for Bernoulli, binary
// categorical columns) with one bag of counts.
type countPart struct {
	cols     []int // the model's feature index of each count feature
	ck       countKind
	binarize []float64 // per count feature: present when x > binarize (Bernoulli)
	st       countStats
	w        countWeights
}

// newCountPart returns the empty count part of the features cols of s.
// A numeric Bernoulli feature is present above threshold, a binary
// categorical one at its second level.
func newCountPart(cols []int, f Family, s *data.Schema, threshold float64) *countPart {
	p := &countPart{cols: cols, ck: countMultinomial, st: countStats{v: len(cols)}, binarize: make([]float64, len(cols))}
	switch f {
	case Bernoulli:
		p.ck = countBernoulli
	case Complement:
		p.ck = countComplement
	}
	for t, j := range cols {
		if s.Features[j].Kind == data.Numeric {
			p.binarize[t] = threshold
		}
	}
	return p
}

func (p *countPart) clone() part {
	c := *p
	c.st = p.st.clone()
	c.w = countWeights{}
	return &c
}

// value returns the count of cell x of count feature t for the
// statistics: x itself, or for Bernoulli 1 when present and 0 when absent.
func (p *countPart) value(t int, x float64) float64 {
	if p.ck != countBernoulli {
		return x
	}
	if x > p.binarize[t] {
		return 1
	}
	return 0
}

func (p *countPart) add(d *data.Dataset, k int) error {
	p.st.grow(k)
	D, V := d.D(), p.st.v
	for i, y := range d.Y {
		if y != y {
			continue
		}
		w := rowWeight(d.Weight, i)
		s, n := p.st.s[int(y)*V:(int(y)+1)*V], p.st.n[int(y)*V:(int(y)+1)*V]
		for t, j := range p.cols {
			x := d.X[i*D+j]
			if x != x {
				continue
			}
			s[t] += w * p.value(t, x)
			n[t] += w
		}
	}
	return nil
}

// merge adds o's counts, its classes renumbered by r. A binary
// categorical column of a Bernoulli part counts the cells at level 1 as
// present: where r renumbers its levels, the cells present in the union
// schema are those of o's levels that r maps to 1 (presentWeight).
func (p *countPart) merge(o part, r *data.Remap, s *data.Schema) error {
	q := o.(*countPart)
	V := p.st.v
	p.st.grow(len(s.Classes()))
	for c := range len(q.st.s) / V {
		k := remapped(r.Target, c)
		for t, j := range p.cols {
			sv, n := q.st.s[c*V+t], q.st.n[c*V+t]
			if m := r.Features[j]; m != nil && p.ck == countBernoulli {
				sv = presentWeight(m, sv, n)
			}
			p.st.s[k*V+t] += sv
			p.st.n[k*V+t] += n
		}
	}
	return nil
}

// presentWeight returns the weight of the cells of a binary categorical
// column at level 1 of the union schema, where m maps the column's levels
// in o, s being the weight of o's cells at its level 1 and n that of its
// observed cells (so n − s at its level 0).
func presentWeight(m []int, s, n float64) float64 {
	w := 0.0
	if m[0] == 1 {
		w += n - s
	}
	if len(m) > 1 && m[1] == 1 {
		w += s
	}
	return w
}

// ErrNegativeCount: a multinomial or complement feature has a negative
// value.
var ErrNegativeCount = errors.New("negative count")

// badCell returns the error for cell (i, j) of d, a count feature, or
// nil: an infinite value, or for multinomial and complement naive Bayes a
// negative count.
func (p *countPart) badCell(d *data.Dataset, i, j int) error {
	switch x := d.X[i*d.D()+j]; {
	case math.IsInf(x, 0):
		return cellError(d, i, j, data.ErrInfinite)
	case x < 0 && p.ck != countBernoulli:
		return cellError(d, i, j, &NegativeCountError{Column: d.Schema.Features[j].Name, Row: i, Value: x, Model: countKindNames[p.ck]})
	}
	return nil
}

func (p *countPart) checkAdd(d *data.Dataset) error {
	for i, y := range d.Y {
		if y != y {
			continue
		}
		for _, j := range p.cols {
			if err := p.badCell(d, i, j); err != nil {
				return err
			}
		}
	}
	return nil
}

// check returns the error of the first bad cell of the part's features in
// d (badCell), row by row.
func (p *countPart) check(d *data.Dataset) error {
	for i := range d.N {
		for _, j := range p.cols {
			if err := p.badCell(d, i, j); err != nil {
				return err
			}
		}
	}
	return nil
}

// cellError is a data error about the cell of row i and feature j.
func cellError(d *data.Dataset, i, j int, err error) error {
	return d.CellError(i, j, err)
}

func (p *countPart) fit(pr *params, s *data.Schema, _ string) error {
	p.w = fitCounts(p.ck, &p.st, len(s.Classes()), pr.alpha, pr.cfg.Norm)
	return nil
}

// addLogLikelihood adds, for each row and class, the terms of the
// observed count features: Σ_t x_t b_tk (multinomial, complement; zero
// counts skipped, so that a zero probability never meets a zero count) or
// Σ_t log p_kt or log(1 − p_kt) as x_t is present or absent (Bernoulli).
func (p *countPart) addLogLikelihood(dst []float64, d *data.Dataset, lo, hi int) {
	K, V, D := p.w.k, p.w.v, d.D()
	for i := lo; i < hi; i++ {
		out := dst[(i-lo)*K : (i-lo+1)*K]
		for t, j := range p.cols {
			x := d.X[i*D+j]
			if x != x {
				continue
			}
			b := p.w.b
			if p.ck == countBernoulli {
				if p.value(t, x) == 0 {
					b = p.w.b0
				}
				x = 1
			} else if x == 0 {
				continue
			}
			for c := range out {
				out[c] += x * b[c*V+t]
			}
		}
	}
}

// addScaled adds the terms of row i as scaled numbers: the counts' x_t b_tk
// split as c·(x̃_t b_tk) + d_t b_tk (mathx.Scale.Split about 0), so that
// counts too large for their products compare the classes by Σ_t x̃_t b_tk;
// Bernoulli's terms, bounded, whole.
func (p *countPart) addScaled(s []mathx.Scaled, d *data.Dataset, i int, scale mathx.Scale) {
	K, V, D := p.w.k, p.w.v, d.D()
	whole := make([]float64, K)
	if p.ck == countBernoulli {
		p.addLogLikelihood(whole, d, i, i+1)
	} else {
		for t, j := range p.cols {
			x := d.X[i*D+j]
			if x != x || x == 0 {
				continue
			}
			u, w := scale.Split(x, 0)
			for c := range s {
				if b := p.w.b[c*V+t]; u != 0 {
					s[c].Lin += u * b
				} else {
					whole[c] += w * b
				}
			}
		}
	}
	for c, v := range whole {
		s[c].Const += v
	}
}
