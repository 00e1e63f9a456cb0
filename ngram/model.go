package ngram

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"unsafe"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/classprior"
	"github.com/gendisc/gendisc/internal/hugepage"
	"github.com/gendisc/gendisc/internal/mathx"
)

// Model is a fitted word n-gram language model, or with a target one per
// class and the class prior, a generative classifier,
//
//	log p(doc, y = k) = log π_k + Σ_i log P_k(w_i | w_{i−n+1} … w_{i−1})
//
// over the words of the document and the End symbol, the context padded
// with Start symbols, π_k the share of class k's documents. It keeps the
// raw counts (its Accumulator), and derives from them the vocabulary and
// every order's counts. It implements gendisc.Generative and
// gendisc.Mergeable, and is safe for concurrent use.
type Model struct {
	stats      *Accumulator
	col        int              // the text column in the schema
	vocab      []string         // the vocabulary: the special tokens, then the words kept
	vindex     map[string]int32 // a word's id in vocab
	rawToVocab []int32          // a raw word id's vocabulary id
	logPrior   []float64
	lms        []*lm
}

// lm is the language model of one class: for each order k (index k−1)
// the k-grams with the count the smoothing uses (raw at the highest order
// and for every order but under KneserNey, where the lower orders count
// distinct left extensions), and their contexts h, each counted c(h•),
// the sum of the counts of the k-grams it begins, with its other
// statistics.
type lm struct {
	order     int
	smoothing Smoothing
	alpha     float64
	v         float64 // |V|: the vocabulary without Start
	grams     []*gramTable
	ctx       []*gramTable // the contexts of order k, k−1 ids each, and their c(h•)
	ctxStats  [][]ctxStat  // by context entry
	coc       [][4]int64   // counts of counts n₁ … n₄ per order
	disc      [][4]float64 // KneserNey's discounts per order: 0, D₁, D₂, D₃₊
}

// ctxStat counts the words that follow a context h once, twice and three
// times or more (c(h•), their total, is the context table's count of h).
type ctxStat struct{ n1, n2, n3 int64 }

// model finishes the statistics of a into a model, which keeps a copy of
// them (keep: a itself, which the caller then no longer uses).
func (a *Accumulator) model(keep bool) (*Model, error) {
	if a.schema == nil {
		return nil, errNoData
	}
	col, err := a.cfg.textColumn(a.schema)
	if err != nil {
		return nil, err
	}
	s := a
	if !keep {
		s = a.clone()
	}
	for _, t := range s.grams {
		t.trim()
	}
	m := &Model{stats: s, col: col}
	m.vocabulary()
	K := classes(s.schema)
	s.grow(K)
	w := make([]float64, K)
	for k := range w {
		w[k] = float64(s.docs[k])
	}
	names := s.schema.Classes()
	if names == nil {
		names = []string{""}
	}
	prior, err := classprior.Estimate(0, nil, names, w)
	if err != nil {
		return nil, err
	}
	for k := range K {
		m.logPrior = append(m.logPrior, math.Log(prior[k]))
		m.lms = append(m.lms, m.build(s.grams[k]))
	}
	return m, nil
}

var errNoData = errorString("ngram: no documents were added")

type errorString string

func (e errorString) Error() string { return string(e) }

// vocabulary keeps the words seen at least MinCount times over all
// classes, in the order first seen.
func (m *Model) vocabulary() {
	s := m.stats
	total := make([]int64, len(s.words))
	for _, t := range s.grams {
		n := t.n
		for e, c := range t.counts {
			total[t.keys[e*n+n-1]] += c // each token is the last word of one n-gram
		}
	}
	m.vocab = append([]string(nil), s.words[:nSpecial]...)
	m.vindex = map[string]int32{Start: idStart, End: idEnd, Unknown: idUnk}
	m.rawToVocab = make([]int32, len(s.words))
	for id := range nSpecial {
		m.rawToVocab[id] = id
	}
	for id := int(nSpecial); id < len(s.words); id++ {
		if total[id] < int64(s.cfg.MinCount) || total[id] == 0 {
			m.rawToVocab[id] = idUnk
			continue
		}
		m.rawToVocab[id] = int32(len(m.vocab))
		m.vindex[s.words[id]] = int32(len(m.vocab))
		m.vocab = append(m.vocab, s.words[id])
	}
}

// build derives the model of one class from its raw highest-order counts.
func (m *Model) build(raw *gramTable) *lm {
	c := m.stats.cfg
	N := c.Order
	l := &lm{order: N, smoothing: c.Smoothing, alpha: c.Alpha, v: float64(len(m.vocab) - 1),
		grams: make([]*gramTable, N), ctx: make([]*gramTable, N), ctxStats: make([][]ctxStat, N),
		coc: make([][4]int64, N), disc: make([][4]float64, N)}
	top := raw // shared when the vocabulary keeps every word: read only
	if len(m.vocab) < len(m.rawToVocab) {
		top = newGramTable(N, raw.len())
		g := make([]int32, N)
		for e, n := range raw.counts {
			for i, id := range raw.gram(e) {
				g[i] = m.rawToVocab[id]
			}
			top.add(g, n)
		}
	}
	l.grams[N-1] = top
	// The contexts of each order are made beside the derivation of the
	// orders below (on other cores), as soon as its n-grams exist, in a
	// table sized before the order below, which bounds them, exists
	// (newLowerTable).
	var wg sync.WaitGroup
	V := len(m.vocab)
	for k := N; k >= 1; k-- {
		if m.stats.workers == 1 {
			l.contexts(k, V)
		} else {
			wg.Go(func() { l.contexts(k, V) })
		}
		if k >= 2 {
			up := l.grams[k-1]
			low := newLowerTable(up, 1, V)
			if c.Smoothing == KneserNey {
				low.addGrams(up, 1, nil, 1, nil)
			} else {
				low.addGrams(up, 1, up.counts, 0, nil)
			}
			l.grams[k-2] = low
		}
	}
	wg.Wait()
	for k := range N {
		if l.grams[k] != raw {
			l.grams[k].trim()
		}
	}
	return l
}

// newLowerTable returns an empty table for the (n−1)-grams at offset off
// (0: the contexts, 1: the ends) of the n-grams of u, with room for them
// made before they are known: at most u.len(), at most v (the
// vocabulary's size) when n−1 = 1, one (the empty context) when n−1 = 0.
// Otherwise, below smallLower n-grams, slots for u.len()/2 (an (n−1)-gram
// ends about 1.8 n-grams of Shakespeare, 1.2 of the 5 MB synthetic
// corpus, at n = 3) and keys and counts for as many entries as they take
// (3/4 of them); from smallLower, the bound on their number that
// u.distinct estimates. The table grows (doubles, copies) only when that
// room falls short.
func newLowerTable(u *gramTable, off, v int) *gramTable {
	switch n := u.n - 1; {
	case n == 0:
		return newGramTable(0, 1)
	case n == 1:
		return newGramTable(1, min(u.len(), v))
	case u.len() < smallLower:
		t := newGramTable(n, u.len()/2)
		t.reserve()
		return t
	default:
		return newGramTable(n, min(u.len(), u.distinct(off, n)))
	}
}

// smallLower is the number of n-grams from which newLowerTable sizes a
// table by u.distinct's estimate: on fewer, a pass over them costs more
// than the table's growth when half of them is not room enough. A
// variable so that the tests can take the estimate on small tables.
var smallLower = 1 << 18

// contexts makes the contexts of the k-grams l.grams[k−1], in a table
// made by newLowerTable (v: the vocabulary's size), with their statistics,
// the counts of counts of order k and its discounts. The contexts are
// first numbered (the context of each k-gram in turn), their counts c(h•)
// summed in the table as they are, then their other statistics summed in
// an array of their number, whose entries are prefetched ahead (both ends
// of each, in one cache line or two).
func (l *lm) contexts(k, v int) {
	t := l.grams[k-1]
	ctx := newLowerTable(t, 0, v)
	of := hugepage.Make[int32](t.len(), t.len()) // the context of each k-gram
	ctx.addGrams(t, 0, t.counts, 0, of)
	ctx.trim()
	stats := hugepage.Make[ctxStat](ctx.len(), ctx.len())
	const ahead = 16 // the statistics prefetched this many k-grams ahead
	for e, x := range of {
		if e+ahead < len(of) {
			y := of[e+ahead]
			prefetch(unsafe.Pointer(&stats[y].n1))
			prefetch(unsafe.Pointer(&stats[y].n3))
		}
		n := t.counts[e]
		st := &stats[x]
		switch {
		case n == 1:
			st.n1++
		case n == 2:
			st.n2++
		default:
			st.n3++
		}
		if n <= 4 {
			l.coc[k-1][n-1]++
		}
	}
	l.ctx[k-1], l.ctxStats[k-1] = ctx, stats
	l.disc[k-1] = discounts(l.coc[k-1])
}

// discounts returns modified Kneser–Ney's discounts 0, D₁, D₂, D₃₊ from
// the counts of counts n₁ … n₄ (see KneserNey), a ratio with a zero
// denominator taken as 0 and each D_r clamped to [0, r].
func discounts(n [4]int64) [4]float64 {
	ratio := func(a, b int64) float64 {
		if b == 0 {
			return 0
		}
		return float64(a) / float64(b)
	}
	y := ratio(n[0], n[0]+2*n[1])
	d := [4]float64{0, 1 - 2*y*ratio(n[1], n[0]), 2 - 3*y*ratio(n[2], n[1]), 3 - 4*y*ratio(n[3], n[2])}
	for r := 1; r <= 3; r++ {
		d[r] = min(max(d[r], 0), float64(r))
	}
	return d
}

// prob returns P(w | h), h the N−1 ids before w.
func (l *lm) prob(h []int32, w int32) float64 {
	N := l.order
	var buf [MaxOrder]int32
	copy(buf[:], h)
	buf[N-1] = w
	if l.smoothing == Lidstone {
		total := 0.0
		if e := l.ctx[N-1].find(buf[:N-1]); e >= 0 {
			total = float64(l.ctx[N-1].counts[e])
		}
		return (float64(l.grams[N-1].count(buf[:N])) + l.alpha) / (total + l.alpha*l.v)
	}
	return l.probGram(buf[:N])
}

// probGram returns P_n(w | h) for g = hw of n ≤ Order ids: the model of
// order n, the interpolation of orders 1 to n. Not for Lidstone, whose
// model has the highest order only.
func (l *lm) probGram(gram []int32) float64 {
	N := len(gram)
	p := 1 / l.v
	for k := 1; k <= N; k++ {
		g := gram[N-k : N]
		e := l.ctx[k-1].find(g[:k-1])
		if e < 0 {
			break // no longer context ending in this one was seen either
		}
		st := l.ctxStats[k-1][e]
		c := l.grams[k-1].count(g)
		total := float64(l.ctx[k-1].counts[e])
		switch l.smoothing {
		case KneserNey:
			d := l.disc[k-1]
			gamma := d[1]*float64(st.n1) + d[2]*float64(st.n2) + d[3]*float64(st.n3)
			p = (max(float64(c)-d[min(c, 3)], 0) + gamma*p) / total
		case WittenBell:
			u := float64(st.n1 + st.n2 + st.n3)
			p = (float64(c) + u*p) / (total + u)
		case MLE:
			p = float64(c) / total
		}
	}
	return p
}

// logProb returns log P(doc) of the vocabulary ids seq of a document (its
// words, without padding): the sum over the words and End.
func (l *lm) logProb(seq []int32) float64 {
	var h [MaxOrder]int32 // idStart is 0: the padding
	n := l.order - 1
	lp := 0.0
	for i := 0; i <= len(seq); i++ {
		w := idEnd
		if i < len(seq) {
			w = seq[i]
		}
		lp += math.Log(l.prob(h[:n], w))
		if n > 0 {
			copy(h[:n-1], h[1:n])
			h[n-1] = w
		}
	}
	return lp
}

// ids appends to dst the vocabulary ids of the tokens of doc, <unk> for a
// word outside the vocabulary.
func (m *Model) ids(dst []int32, t *tokenizer, doc string) []int32 {
	t.keepPunct = m.stats.cfg.KeepPunct
	t.scan(doc)
	for _, s := range t.toks {
		id, ok := m.vindex[string(t.buf[s.lo:s.hi])]
		if !ok || id == idStart {
			id = idUnk
		}
		dst = append(dst, id)
	}
	return dst
}

// Kind returns "ngram".
func (m *Model) Kind() string { return Kind }

// Schema returns the layout of the training data.
func (m *Model) Schema() *data.Schema { return m.stats.schema }

// Config returns the model's configuration, defaults filled in.
func (m *Model) Config() Config { return m.stats.cfg }

// Classes returns the class names; a model fitted without a target has
// one class, "".
func (m *Model) Classes() []string {
	if c := m.stats.schema.Classes(); c != nil {
		return c
	}
	return []string{""}
}

// Column returns the index of the text column the model reads in its
// schema.
func (m *Model) Column() int { return m.col }

// Accumulator returns an accumulator holding the model's statistics.
func (m *Model) Accumulator() gendisc.Accumulator { return m.stats.clone() }

// JointLogLikelihood writes log p(doc_i, y = k) for every row i of d to
// dst[i*K+k] and returns dst (gendisc.Generative). A missing document ("")
// has probability 1 in every class: the row's scores are the log priors.
func (m *Model) JointLogLikelihood(dst []float64, d *data.Dataset) []float64 {
	K := len(m.lms)
	if dst == nil {
		dst = make([]float64, d.N*K)
	}
	if len(dst) != d.N*K {
		panic("ngram: JointLogLikelihood: len(dst) is not rows × classes")
	}
	var (
		t   tokenizer
		seq []int32
	)
	for i, doc := range d.Text[m.col] {
		seq = m.ids(seq[:0], &t, doc)
		for k, l := range m.lms {
			dst[i*K+k] = m.logPrior[k]
			if doc != "" {
				dst[i*K+k] += l.logProb(seq)
			}
		}
	}
	return dst
}

// LogProba writes log P(y = k | doc_i) to dst[i*K+k] and returns dst
// (gendisc.Classifier): the joint log-likelihoods normalised by
// log-sum-exp.
func (m *Model) LogProba(dst []float64, d *data.Dataset) []float64 {
	dst = m.JointLogLikelihood(dst, d)
	K := len(m.lms)
	for i := range d.N {
		row := dst[i*K : (i+1)*K]
		z := mathx.LogSumExp(row)
		for k := range row {
			row[k] -= z
		}
	}
	return dst
}

// ScoreSamples writes log p(doc_i) = log Σ_k π_k P_k(doc_i) for every row
// of d to dst and returns it.
func (m *Model) ScoreSamples(dst []float64, d *data.Dataset) []float64 {
	K := len(m.lms)
	joint := m.JointLogLikelihood(nil, d)
	if dst == nil {
		dst = make([]float64, d.N)
	}
	for i := range d.N {
		dst[i] = mathx.LogSumExp(joint[i*K : (i+1)*K])
	}
	return dst
}

// LogProb returns log P(doc | y = k) in nats and the number of tokens it
// predicts, the document's words and End; k −1 gives the marginal
// log Σ_k π_k P_k(doc). A missing document, "", is no document: 0 and 0
// tokens, as Add skips it.
func (m *Model) LogProb(doc string, k int) (float64, int) {
	if doc == "" {
		return 0, 0
	}
	var t tokenizer
	seq := m.ids(nil, &t, doc)
	if k >= 0 {
		return m.lms[k].logProb(seq), len(seq) + 1
	}
	lp := make([]float64, len(m.lms))
	for c, l := range m.lms {
		lp[c] = m.logPrior[c] + l.logProb(seq)
	}
	return mathx.LogSumExp(lp), len(seq) + 1
}

// Vocabulary returns the vocabulary by id: Start, End, Unknown, then the
// words kept in the order first seen. The slice is the model's own.
func (m *Model) Vocabulary() []string { return m.vocab }

// context returns the N−1 vocabulary ids of the words before the next
// one: the last N−1 of words, padded with Start on the left.
func (m *Model) context(words []string) []int32 {
	n := m.stats.cfg.Order - 1
	h := make([]int32, n) // Start padding
	for i := range min(n, len(words)) {
		w := words[len(words)-1-i]
		id, ok := m.vindex[w]
		if !ok {
			id = idUnk
		}
		h[n-1-i] = id
	}
	return h
}

// Prob returns P(word | context) in class k: context holds the words
// before it (the last Order−1 count; Start pads a shorter one), word is a
// word of the vocabulary or End; other words are Unknown.
func (m *Model) Prob(k int, context []string, word string) float64 {
	id, ok := m.vindex[word]
	if !ok || id == idStart {
		id = idUnk
	}
	return m.lms[k].prob(m.context(context), id)
}

// Next writes to dst[v] the probability P(v | context) of every
// vocabulary id v in class k (0 for Start) and returns dst; a nil dst is
// allocated.
func (m *Model) Next(dst []float64, k int, context []string) []float64 {
	return m.lms[k].next(dst, m.context(context))
}

func (l *lm) next(dst []float64, h []int32) []float64 {
	n := int(l.v) + 1
	if dst == nil {
		dst = make([]float64, n)
	}
	dst[idStart] = 0
	for v := 1; v < n; v++ {
		dst[v] = l.prob(h, int32(v))
	}
	return dst
}

// Sample draws a document from class k's chain (k −1: a class drawn with
// its prior), word by word from P(w | the n−1 words before), until End
// or maxWords words, and returns its tokens, beginning with the tokens of
// prompt, which it continues. With temperature T ≠ 1 each word is drawn
// with probability proportional to P(w | h)^(1/T): below 1 the text keeps
// to likely words, above 1 it wanders. It panics when k is not a class
// index or temperature is not positive.
func (m *Model) Sample(k int, prompt string, maxWords int, temperature float64, rng *rand.Rand) []string {
	if !(temperature > 0) {
		panic("ngram: Sample: temperature must be positive")
	}
	if k < 0 {
		k = m.drawClass(rng)
	}
	l := m.lms[k]
	words := m.stats.cfg.Tokenize(prompt)
	h := m.context(words)
	p := make([]float64, len(m.vocab))
	for len(words) < maxWords {
		l.next(p, h)
		total := 0.0
		for v, q := range p {
			if temperature != 1 && q > 0 {
				q = math.Exp(math.Log(q) / temperature)
			}
			total += q
			p[v] = total
		}
		u := rng.Float64() * total
		v := int32(min(searchCum(p, u), len(p)-1))
		if v == idEnd {
			break
		}
		words = append(words, m.vocab[v])
		if len(h) > 0 {
			copy(h, h[1:])
			h[len(h)-1] = v
		}
	}
	return words
}

// searchCum returns the first index whose cumulative weight exceeds u.
func searchCum(cum []float64, u float64) int {
	i, _ := slices.BinarySearchFunc(cum, u, func(c, u float64) int {
		if c <= u {
			return -1
		}
		return 1
	})
	return i
}

// drawClass draws a class with the prior.
func (m *Model) drawClass(rng *rand.Rand) int {
	u := rng.Float64()
	for k, lp := range m.logPrior {
		if u -= math.Exp(lp); u < 0 {
			return k
		}
	}
	return slices.IndexFunc(m.logPrior, func(lp float64) bool { return !math.IsInf(lp, -1) })
}

// OrderStats describes one order k of a class's model.
type OrderStats struct {
	Order    int        `json:"order"`    // k
	NGrams   int        `json:"ngrams"`   // distinct k-grams
	Contexts int        `json:"contexts"` // distinct contexts (k−1 words)
	Counts   [4]int64   `json:"counts"`   // n₁ … n₄: k-grams of count 1 to 4 (continuation counts below the highest order under KneserNey)
	Discount [3]float64 `json:"discount"` // KneserNey's D₁, D₂, D₃₊ (zero for the other smoothings)
}

// Stats returns the statistics of class k's orders, 1 to Order.
func (m *Model) Stats(k int) []OrderStats {
	l := m.lms[k]
	out := make([]OrderStats, l.order)
	for i := range out {
		o := OrderStats{Order: i + 1, NGrams: l.grams[i].len(), Contexts: l.ctx[i].len(), Counts: l.coc[i]}
		if l.smoothing == KneserNey {
			copy(o.Discount[:], l.disc[i][1:])
		}
		out[i] = o
	}
	return out
}

// Docs returns the number of training documents of class k.
func (m *Model) Docs(k int) int64 { return m.stats.docs[k] }

// FrequentContexts returns up to n contexts of the highest order of class
// k, the most frequent first (ties in the order first seen), as words.
func (m *Model) FrequentContexts(k, n int) [][]string {
	l := m.lms[k]
	N := l.order
	idx := make([]int, l.ctx[N-1].len())
	for i := range idx {
		idx[i] = i
	}
	total := l.ctx[N-1].counts
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(total[b], total[a]) })
	var out [][]string
	for _, e := range idx[:min(n, len(idx))] {
		var ws []string
		for _, id := range l.ctx[N-1].gram(e) {
			ws = append(ws, m.vocab[id])
		}
		out = append(out, ws)
	}
	return out
}

// Bytes returns the memory the model's n-gram tables hold, in bytes: the
// raw counts and the derived orders of every class.
func (m *Model) Bytes() int {
	n := 0
	for c, t := range m.stats.grams {
		n += t.bytes()
		for k, g := range m.lms[c].grams {
			if g != t { // not shared with the raw counts
				n += g.bytes()
			}
			n += m.lms[c].ctx[k].bytes() + int(unsafe.Sizeof(ctxStat{}))*cap(m.lms[c].ctxStats[k])
		}
	}
	return n
}
