package naivebayes

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/text"
)

// textPart covers one text column as a bag of words (package text turns
// documents into term counts). Its statistics are kept per term id of a
// text.Counter, which holds every term seen in training with its
// frequencies, so that counts of later data add to them exactly; the
// vocabulary (min_df, max_features and the rest) is chosen from the
// Counter at each fit, and the weights are those of fitCounts over the
// vocabulary's terms: for multinomial and complement naive Bayes with the
// term counts of the documents of class k,
//
//	S_kt = Σ_{i: y_i = k} w_i · count of t in document i,
//
// for Bernoulli with the documents of class k that contain t,
// S_kt = Σ_{i: y_i = k, t ∈ doc i} w_i, over N_kt = Σ_{i: y_i = k} w_i.
// A missing (empty) document is left out of the statistics and of the
// prediction; a word the vocabulary does not have is ignored.
type textPart struct {
	col int
	ck  countKind
	cfg text.VectorizerConfig

	counter *text.Counter
	s       [][]float64 // S_kt at [k][term id]
	docs    []float64   // Σ w_i over the documents of class k

	vocab *text.Vocabulary
	w     countWeights // over the vocabulary's columns
	sc    countScorer  // the weights w as the scores of a document
	// For SampleText (not for Bernoulli): the mean number of words per
	// document of each class; for complement naive Bayes the multinomial
	// weights log θ_ct (multinomial's are w); and the cumulative θ_ct of
	// each class (at c·V + t), made on the first draw, so that a model that
	// only classifies does not hold it.
	length []float64
	multi  *countWeights
	// total is N_k = Σ_t S_kt over the vocabulary's terms (multinomial
	// and complement), for the unseen-word slot of ScoreSamples.
	total   []float64
	cdfOnce sync.Once
	cdf     []float64
}

// cumulative returns the cumulative multinomial θ_ct of class c over the
// vocabulary's columns, made for every class on the first call.
func (p *textPart) cumulative(c int) []float64 {
	p.cdfOnce.Do(func() {
		multi := &p.w
		if p.multi != nil {
			multi = p.multi
		}
		V := multi.v
		p.cdf = make([]float64, len(multi.b))
		for k := range multi.k {
			total := 0.0
			for t, l := range multi.b[k*V : (k+1)*V] {
				total += math.Exp(l)
				p.cdf[k*V+t] = total
			}
		}
	})
	V := p.w.v
	return p.cdf[c*V : (c+1)*V]
}

func newTextPart(col int, ck countKind, cfg text.VectorizerConfig) *textPart {
	return &textPart{col: col, ck: ck, cfg: cfg}
}

func (p *textPart) clone() part {
	c := &textPart{col: p.col, ck: p.ck, cfg: p.cfg, docs: slices.Clone(p.docs)}
	for _, v := range p.s {
		c.s = append(c.s, slices.Clone(v))
	}
	if p.counter != nil {
		c.counter = p.counter.Clone()
	}
	return c
}

func (p *textPart) checkAdd(*data.Dataset) error { return nil }

func (p *textPart) add(d *data.Dataset, k int) error {
	var (
		idx  []int
		docs []string
	)
	for i, y := range d.Y {
		if doc := d.Text[p.col][i]; y == y && doc != "" {
			idx = append(idx, i)
			docs = append(docs, doc)
		}
	}
	cnt, m, err := p.cfg.Count(docs)
	if err != nil {
		return columnError(d.Source.Name, d.Schema, p.col, err)
	}
	if p.counter == nil {
		p.counter = cnt
	} else {
		ids, err := p.counter.Merge(cnt)
		if err != nil {
			return columnError(d.Source.Name, d.Schema, p.col, err)
		}
		m = m.MapColumns(ids, p.counter.Len())
	}
	p.grow(k)
	for r, i := range idx {
		y, w := int(d.Y[i]), rowWeight(d.Weight, i)
		s := p.s[y]
		terms, counts := m.Row(r)
		for e, t := range terms {
			if p.ck == countBernoulli {
				s[t] += w
			} else {
				s[t] += w * counts[e]
			}
		}
		p.docs[y] += w
	}
	return nil
}

// merge adds o's term counts: o's terms get their ids in p's Counter
// (text.Counter.Merge), o's classes those of r.
func (p *textPart) merge(o part, r *data.Remap, s *data.Schema) error {
	q := o.(*textPart)
	if q.counter == nil {
		return nil
	}
	if p.counter == nil {
		p.counter, _ = text.NewCounter(p.cfg) // the settings were valid for q
	}
	ids, err := p.counter.Merge(q.counter)
	if err != nil {
		return err
	}
	p.grow(len(s.Classes()))
	for c, row := range q.s {
		k := remapped(r.Target, c)
		dst := p.s[k]
		for t, x := range row {
			dst[ids[t]] += x
		}
		p.docs[k] += q.docs[c]
	}
	return nil
}

// grow makes room for k classes and the Counter's terms.
func (p *textPart) grow(k int) {
	for len(p.s) < k {
		p.s = append(p.s, nil)
		p.docs = append(p.docs, 0)
	}
	n := 0
	if p.counter != nil {
		n = p.counter.Len()
	}
	for c, v := range p.s {
		if len(v) < n {
			p.s[c] = append(v, make([]float64, n-len(v))...)
		}
	}
}

func (p *textPart) fit(pr *params, s *data.Schema, source string) error {
	k := len(s.Classes())
	p.grow(k)
	if p.counter == nil || p.counter.Len() == 0 {
		return columnError(source, s, p.col, fmt.Errorf("%w: no words in the labelled documents", ErrNotObserved))
	}
	vocab, colOf, err := p.counter.Vocabulary()
	if err != nil {
		return columnError(source, s, p.col, err)
	}
	V := vocab.Len()
	// N_kt, read by Bernoulli only, is the class's documents for every t.
	st := countStats{v: V, s: make([]float64, k*V)}
	if p.ck == countBernoulli {
		st.n = make([]float64, k*V)
	}
	for c := range k {
		for id, col := range colOf {
			if col >= 0 {
				st.s[c*V+int(col)] = p.s[c][id]
				if st.n != nil {
					st.n[c*V+int(col)] = p.docs[c]
				}
			}
		}
	}
	p.vocab, p.w = vocab, fitCounts(p.ck, &st, k, pr.alpha, pr.cfg.Norm)
	p.sc = newCountScorer(p.ck, p.w)
	if p.ck == countBernoulli {
		return nil
	}
	if p.ck == countComplement {
		multi := fitCounts(countMultinomial, &st, k, pr.alpha, false)
		p.multi = &multi
	}
	p.length, p.total = make([]float64, k), make([]float64, k)
	for c := range k {
		p.total[c] = sum(st.s[c*V : (c+1)*V])
		if p.docs[c] > 0 {
			p.length[c] = p.total[c] / p.docs[c]
		}
	}
	return nil
}

// addUnseen adds to the joint log-likelihoods jll (K per row) of the rows
// of d what the words outside the vocabulary weigh once the vocabulary
// has one more slot, "unseen", that no training document filled: a
// proper density for documents with such words, which the weights of
// prediction leave out (see Model.ScoreSamples). With V terms, α the
// pseudo-count and, for multinomial naive Bayes, N_k = Σ_t S_kt, the
// distribution of class k over the V + 1 slots is
//
//	θ'_kt = (S_kt + α) / (N_k + α(V+1)),  θ'_k,unseen = α / (N_k + α(V+1)),
//
// so a document with n_in words in the vocabulary and n_out outside gains
//
//	n_in log((N_k + αV)/(N_k + α(V+1))) + n_out log(α/(N_k + α(V+1)));
//
// for Bernoulli naive Bayes, the slot is one more binary feature,
// "has a word outside the vocabulary", present in none of the N_k
// training documents of class k: p_k = α/(N_k + 2α), and a document gains
// log p_k when it has such a word, log(1 − p_k) otherwise. An empty or
// missing document gains nothing: it is no observation. Complement naive
// Bayes' scores are not a density and are left as they are. With α = 0 a
// word outside the vocabulary has probability 0 (−Inf).
func (p *textPart) addUnseen(jll []float64, d *data.Dataset, alpha float64) {
	if p.ck == countComplement || len(d.Text) <= p.col || d.Text[p.col] == nil {
		return
	}
	docs := d.Text[p.col]
	m, unseen := p.vocab.TransformUnseen(docs)
	K, V := len(p.docs), float64(p.vocab.Len())
	in, out := make([]float64, K), make([]float64, K)
	for c := range K {
		if p.ck == countBernoulli {
			n := p.docs[c]
			in[c], out[c] = logRatio(n+alpha, n+2*alpha), logRatio(alpha, n+2*alpha)
			continue
		}
		n := p.total[c]
		in[c], out[c] = logRatio(n+alpha*V, n+alpha*(V+1)), logRatio(alpha, n+alpha*(V+1))
		if alpha == 0 {
			out[c] = math.Inf(-1)
		}
	}
	for i, doc := range docs {
		if doc == "" {
			continue
		}
		row := jll[i*K : (i+1)*K]
		if p.ck == countBernoulli {
			w := in
			if unseen[i] > 0 {
				w = out
			}
			for c := range row {
				row[c] += w[c]
			}
			continue
		}
		_, val := m.Row(i)
		nIn, nOut := sum(val), float64(unseen[i])
		for c := range row {
			if nOut > 0 {
				row[c] += nOut * out[c]
			}
			row[c] += nIn * in[c]
		}
	}
}

// prepare turns the documents of d into counts in the vocabulary's
// columns; their scores are taken chunk by chunk (textRows). A data set
// without the column's documents (d.Text nil) has every document missing.
func (p *textPart) prepare(d *data.Dataset) family {
	if len(d.Text) <= p.col || d.Text[p.col] == nil {
		return &textRows{sc: &p.sc} // every document missing
	}
	docs := d.Text[p.col]
	if len(docs) != d.N {
		panic(fmt.Sprintf("naivebayes: %d documents of text feature %d for %d rows", len(docs), p.col, d.N))
	}
	m, _ := p.vocab.Transform(docs)
	return &textRows{sc: &p.sc, m: m, docs: docs}
}

func (p *textPart) addLogLikelihood(dst []float64, d *data.Dataset, lo, hi int) {
	p.prepare(d.Subset(rowRange(lo, hi))).addLogLikelihood(dst, nil, 0, hi-lo)
}

// rowRange returns lo, lo+1, …, hi−1.
func rowRange(lo, hi int) []int {
	idx := make([]int, hi-lo)
	for i := range idx {
		idx[i] = lo + i
	}
	return idx
}

// textRows are the documents of a text column as counts, m (nil when
// every document is missing), scored by sc; an empty document is missing
// and adds nothing.
type textRows struct {
	sc   *countScorer
	m    *text.CSR
	docs []string
}

func (t *textRows) addLogLikelihood(dst []float64, _ *data.Dataset, lo, hi int) {
	if t.m == nil {
		return
	}
	k, acc := t.sc.k, make([]float64, t.sc.g)
	for i := lo; i < hi; i++ {
		if t.docs[i] == "" {
			continue
		}
		idx, val := t.m.Row(i)
		t.sc.addRow(dst[(i-lo)*k:(i-lo+1)*k], acc, idx, val)
	}
}

// unseen is the number of term occurrences in d's documents that are not
// in the vocabulary.
func (p *textPart) unseen(d *data.Dataset) int {
	_, n := p.vocab.Transform(d.Text[p.col])
	return n
}
