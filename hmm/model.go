package hmm

import (
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/seq"
)

// Model is a fitted hidden Markov model tagger. It keeps its counts (so
// that it merges and updates, gendisc.Mergeable) and the probabilities
// derived from them. It is immutable and safe for concurrent use.
type Model struct {
	cfg Config
	// tags are the tag set, sorted; sp are the states (a tag, or a tag on
	// a capitalised word: see Config.NoCapitalization) and the words;
	// stateTag[s] is the index in tags of the state s.
	tags     []string
	sp       space
	stateTag []int
	c        counts
	T        int // the number of states
	allTags  []int32
	// warnings are how the fit that made the model ended (Warnings);
	// they are not saved in the model file.
	warnings []string
	// probs returns the probabilities derived from the counts, derived
	// on its first call: a model fitted to be saved, as by `gendisc fit`,
	// never needs them, and they are derived again from the counts when
	// the model file is read.
	probs func() *probs
	pool  sync.Pool // of *workspace
}

// probs are the probabilities of a Model, derived from its counts.
type probs struct {
	words map[string]int32
	// logTrans[c.tri(a, b, t)] is log P(t | a, b), the end being t = T;
	// for order 1 it does not depend on a. trans holds the probabilities.
	logTrans, trans []float64
	// lambdas are the interpolation weights λ1, λ2 (, λ3) of
	// Interpolated transitions, nil for AddAlpha.
	lambdas []float64
	// emitLog[j] is log P(w | t) of the word w and the state t of the
	// emission count c.emit[j], emitTag[j] its state; those of the word w
	// are at emitFrom[w] to emitFrom[w+1]. Another state t emits a
	// known word with the probability logNew[t].
	emitLog  []float64
	emitTag  []int32
	emitFrom []int32
	// candidates[w] are the tags that can emit the known word w (all
	// when EmissionAlpha > 0).
	candidates [][]int32
	// logNew is log P(w | t) of a new word under Uniform, and of a known
	// word never seen with t.
	logNew []float64
	// suffix is the model of new words under Suffixes (nil under
	// Uniform).
	suffix *suffixModel
	// The context-dependent emissions (Config.Context, order 2):
	// ctxOf[w] are the keys (b·T + c: the state c after b) of the known
	// word w with their counts, ctxLogTotal[key] is log(c(b, c) + κ).
	useCtx      bool
	ctxOf       [][]keyCount
	ctxLogTotal []float64
	logKappa    float64
}

// keyCount is a key of the Viterbi search with, for a word, its log
// P(w | b, c).
type keyCount struct {
	key  int32
	logP float64
}

// newModel returns the model of the counts c over sp, whose
// probabilities are derived on first use (Model.probs).
func newModel(cfg Config, sp space, c counts) (*Model, error) {
	T := len(sp.states)
	m := &Model{cfg: cfg, sp: sp, c: c, T: T, stateTag: make([]int, T)}
	for _, name := range sp.states {
		tag, _ := splitState(name)
		if len(m.tags) == 0 || m.tags[len(m.tags)-1] != tag {
			m.tags = append(m.tags, tag)
		}
	}
	slices.Sort(m.tags)
	m.tags = slices.Compact(m.tags)
	for s, name := range sp.states {
		tag, _ := splitState(name)
		m.stateTag[s], _ = slices.BinarySearch(m.tags, tag)
	}
	m.allTags = make([]int32, T)
	for t := range m.allTags {
		m.allTags[t] = int32(t)
	}
	m.probs = sync.OnceValue(m.derive)
	return m, nil
}

// Prepare derives the model's probabilities in the background
// (gendisc.Preparer): a model read from a file starts so.
func (m *Model) Prepare() { go m.probs() }

// derive returns the model's probabilities: the index of the words, the
// suffix model and the rest, three parts derived in parallel.
func (m *Model) derive() *probs {
	pr := &probs{}
	var wg sync.WaitGroup
	wg.Go(func() {
		pr.words = make(map[string]int32, len(m.sp.words))
		for i, w := range m.sp.words {
			pr.words[w] = int32(i)
		}
	})
	if m.cfg.Unknown == Suffixes {
		wg.Go(func() { pr.suffix = newSuffixModel(m, m.tagCounts()) })
	}
	m.deriveTransitions(pr)
	m.deriveEmissions(pr)
	m.deriveContexts(pr)
	wg.Wait()
	return pr
}

// deriveContexts sets the tables of the context-dependent emissions.
func (m *Model) deriveContexts(pr *probs) {
	if m.cfg.Order != 2 || m.cfg.Context == NoContext {
		return
	}
	T := m.T
	pr.useCtx, pr.logKappa = true, math.Log(m.cfg.Context)
	pr.ctxOf = make([][]keyCount, len(m.sp.words))
	total := make([]float64, (T+1)*T)
	for _, e := range m.c.ctx {
		total[int(e.Prev)*T+int(e.Tag)] += e.N
	}
	pr.ctxLogTotal = make([]float64, len(total))
	for k, n := range total {
		pr.ctxLogTotal[k] = math.Log(n + m.cfg.Context)
	}
	// The counts are sorted by word: each word's list is a run of one
	// slice, sorted by key.
	all := make([]keyCount, len(m.c.ctx))
	for i, e := range m.c.ctx {
		key := int(e.Prev)*T + int(e.Tag)
		p := e.N + m.cfg.Context*math.Exp(pr.logEmit(e.Word, int(e.Tag)))
		all[i] = keyCount{int32(key), math.Log(p) - pr.ctxLogTotal[key]}
	}
	for from, to := range runs(m.c.ctx, func(e contextCount) int32 { return e.Word }) {
		list := all[from:to:to]
		slices.SortFunc(list, func(a, b keyCount) int { return int(a.key - b.key) })
		pr.ctxOf[m.c.ctx[from].Word] = list
	}
}

// ctxEmit returns log P(w | b, c) of the word of index w (−1: a new
// word) in the state of key = b·T + c whose emission log P(w | c) is base
// (that of the model for a known word: see Config.Context); base when the
// model has no context emissions.
func (pr *probs) ctxEmit(w int32, key int, base float64) float64 {
	if !pr.useCtx || w < 0 {
		return base
	}
	list, k := pr.ctxOf[w], int32(key)
	lo, hi := 0, len(list) // binary search of the key in the sorted list
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if list[mid].key < k {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == len(list) || list[lo].key != k {
		return pr.logKappa + base - pr.ctxLogTotal[key]
	}
	return list[lo].logP
}

// targets reports whether the tag t (T: the end) can follow the context
// whose last tag is b (T: the start).
func (m *Model) target(b, t int) bool {
	if t < m.T {
		return true
	}
	return b < m.T && !m.cfg.NoEnd
}

// deriveTransitions sets logTrans and trans from the counts.
func (m *Model) deriveTransitions(pr *probs) {
	T, c := m.T, &m.c
	B := T + 1
	// bi[b·B + t] and uni[t] are the bigram and unigram counts, summed
	// from the trigrams.
	bi, uni := make([]float64, B*B), make([]float64, B)
	for a := range B {
		for b := range B {
			for t := range B {
				n := c.trans[c.tri(a, b, t)]
				bi[b*B+t] += n
				uni[t] += n
			}
		}
	}
	pr.logTrans, pr.trans = make([]float64, B*B*B), make([]float64, B*B*B)
	var lambda []float64
	if m.cfg.Transitions == Interpolated {
		lambda = m.deletedInterpolation(bi, uni)
		pr.lambdas = lambda
	}
	p1, p2, p3 := make([]float64, B), make([]float64, B), make([]float64, B)
	for b := range B {
		ml(p1, uni, func(t int) bool { return m.target(b, t) })
		ml(p2, bi[b*B:(b+1)*B], func(t int) bool { return m.target(b, t) }, p1)
		for a := range B {
			row := c.trans[c.tri(a, b, 0) : c.tri(a, b, 0)+B]
			p := pr.trans[c.tri(a, b, 0) : c.tri(a, b, 0)+B]
			valid := func(t int) bool { return m.target(b, t) }
			switch {
			case m.cfg.Transitions == AddAlpha && m.cfg.Order == 1:
				addAlpha(p, bi[b*B:(b+1)*B], m.cfg.Alpha, valid)
			case m.cfg.Transitions == AddAlpha:
				addAlpha(p, row, m.cfg.Alpha, valid)
			case m.cfg.Order == 1:
				for t := range B {
					p[t] = lambda[0]*p1[t] + lambda[1]*p2[t]
				}
			default:
				ml(p3, row, valid, p2)
				for t := range B {
					p[t] = lambda[0]*p1[t] + lambda[1]*p2[t] + lambda[2]*p3[t]
				}
			}
			for t := range B {
				pr.logTrans[c.tri(a, b, t)] = math.Log(p[t])
			}
		}
	}
}

// addAlpha sets p[t] = (n[t] + α)/(Σ n + α N) over the N tags t that
// valid admits (1/N when the denominator is 0), 0 for the others.
func addAlpha(p, n []float64, alpha float64, valid func(int) bool) {
	sum, N := 0.0, 0.0
	for t, x := range n {
		if valid(t) {
			sum += x
			N++
		}
	}
	for t, x := range n {
		switch {
		case !valid(t):
			p[t] = 0
		case sum+alpha*N == 0:
			p[t] = 1 / N
		default:
			p[t] = (x + alpha) / (sum + alpha*N)
		}
	}
}

// ml sets p to the maximum-likelihood estimate n[t]/Σ n over the tags
// that valid admits; when the sum is 0, to lower (the next lower order's
// estimate), or uniform when there is none.
func ml(p, n []float64, valid func(int) bool, lower ...[]float64) {
	sum, N := 0.0, 0.0
	for t, x := range n {
		if valid(t) {
			sum += x
			N++
		}
	}
	for t, x := range n {
		switch {
		case !valid(t):
			p[t] = 0
		case sum > 0:
			p[t] = x / sum
		case len(lower) > 0:
			p[t] = lower[0][t]
		default:
			p[t] = 1 / N
		}
	}
}

// deletedInterpolation returns TnT's weights λ (Brants 2000, Figure 1):
// each trigram a, b, t of count f > 0 adds f to the λ of the estimate
// that predicts it best without it,
//
//	(f(a,b,t) − 1)/(f(a,b) − 1),  (f(b,t) − 1)/(f(b) − 1),  (f(t) − 1)/(N − 1)
//
// (0 where a denominator is 0, ties going to the lower order), then the
// λ are normalised to sum to one. For order 1 the bigrams take the place
// of the trigrams.
func (m *Model) deletedInterpolation(bi, uni []float64) []float64 {
	T, c := m.T, &m.c
	B := T + 1
	N := 0.0
	for _, n := range uni {
		N += n
	}
	ratio := func(f, d float64) float64 {
		if d-1 > 0 {
			return (f - 1) / (d - 1)
		}
		return 0
	}
	ctx := make([]float64, B)
	for b := range B {
		for t := range B {
			ctx[b] += bi[b*B+t]
		}
	}
	lambda := make([]float64, m.cfg.Order+1)
	best := func(f float64, x ...float64) {
		k := 0
		for i := range x {
			if x[i] > x[k] {
				k = i
			}
		}
		lambda[k] += f
	}
	if m.cfg.Order == 1 {
		for b := range B {
			for t := range B {
				if f := bi[b*B+t]; f > 0 {
					best(f, ratio(uni[t], N), ratio(f, ctx[b]))
				}
			}
		}
	} else {
		for a := range B {
			for b := range B {
				ctx2 := 0.0
				for t := range B {
					ctx2 += c.trans[c.tri(a, b, t)]
				}
				for t := range B {
					if f := c.trans[c.tri(a, b, t)]; f > 0 {
						best(f, ratio(uni[t], N), ratio(bi[b*B+t], ctx[b]), ratio(f, ctx2))
					}
				}
			}
		}
	}
	sum := 0.0
	for _, l := range lambda {
		sum += l
	}
	for i := range lambda {
		if sum > 0 {
			lambda[i] /= sum
		} else {
			lambda[i] = 1 / float64(len(lambda))
		}
	}
	return lambda
}

// tagCounts returns the number of tokens of each state.
func (m *Model) tagCounts() []float64 {
	n := make([]float64, m.T)
	for _, e := range m.c.emit {
		n[e.Tag] += e.N
	}
	return n
}

// deriveEmissions sets the emission probabilities of the known words:
// log P(w | t) = log((c(w, t) + α)/(c(t) + αV)), and log(α/(c(t) + αV))
// for a word never seen with t, which is also logNew, the probability of
// a new word under Uniform (the suffix model gives them under Suffixes).
func (m *Model) deriveEmissions(pr *probs) {
	T, V := m.T, len(m.sp.words)
	tagCount := m.tagCounts()
	alpha := m.cfg.EmissionAlpha
	pr.logNew = make([]float64, T)
	for t := range T {
		pr.logNew[t] = math.Inf(-1) // a state that emitted nothing emits nothing
		if d := tagCount[t] + alpha*float64(V); d > 0 {
			pr.logNew[t] = math.Log(alpha / d)
		}
	}
	pr.emitLog, pr.emitTag = make([]float64, len(m.c.emit)), make([]int32, len(m.c.emit))
	pr.emitFrom = make([]int32, V+1)
	for j, e := range m.c.emit {
		pr.emitLog[j] = math.Log((e.N + alpha) / (tagCount[e.Tag] + alpha*float64(V)))
		pr.emitTag[j] = e.Tag
		pr.emitFrom[e.Word+1]++
	}
	for w := range V {
		pr.emitFrom[w+1] += pr.emitFrom[w]
	}
	// The candidates of the words are runs of one slice: the states of
	// a word's counts (sorted by state), with those that a state that
	// emitted nothing else adds when α > 0.
	pr.candidates = make([][]int32, V)
	all := make([]int32, 0, len(m.c.emit))
	row := make([]float64, T)
	for w := range V {
		from := len(all)
		pr.emitRow(row, int32(w))
		for t, x := range row {
			if !math.IsInf(x, -1) {
				all = append(all, int32(t))
			}
		}
		pr.candidates[w] = all[from:len(all):len(all)]
		if len(all)-from == T {
			pr.candidates[w], all = m.allTags, all[:from]
		}
	}
}

// emitRow writes log P(w | t) of the known word w to row, by state.
func (pr *probs) emitRow(row []float64, w int32) {
	copy(row, pr.logNew)
	for j := pr.emitFrom[w]; j < pr.emitFrom[w+1]; j++ {
		row[pr.emitTag[j]] = pr.emitLog[j]
	}
}

// logEmit returns log P(w | t) of the known word w.
func (pr *probs) logEmit(w int32, t int) float64 {
	for j := pr.emitFrom[w]; j < pr.emitFrom[w+1]; j++ {
		if int(pr.emitTag[j]) == t {
			return pr.emitLog[j]
		}
	}
	return pr.logNew[t]
}

// emissions returns the rows log P(w_i | t) of the tokens, in the memory
// of ws (nil: allocated), with each token's candidate states (those of a
// non-zero probability, or all states when there are none) and its index
// in the vocabulary (−1 for a new word). Under Suffixes,
// a new word whose lower case is known takes the emissions of its lower
// case (a capital that begins a sentence or a title).
func (m *Model) emissions(pr *probs, ws *workspace, tokens []string) ([][]float64, [][]int32, []int32) {
	T := m.T
	if ws == nil {
		ws = &workspace{}
	}
	ids := slices.Grow(ws.ids[:0], len(tokens))[:len(tokens)]
	rows := slices.Grow(ws.rows[:0], len(tokens))[:len(tokens)]
	cand := slices.Grow(ws.cand[:0], len(tokens))[:len(tokens)]
	e, buf := ws.e[:0], ws.buf[:0]
	suffix := pr.suffix
	defer func() { ws.ids, ws.rows, ws.e, ws.cand, ws.buf = ids, rows, e, cand, buf }()
	for i, w := range tokens {
		k, ok := pr.words[w]
		ids[i] = -1
		if ok {
			ids[i] = k
		}
		lowerKnown := false
		if !ok && suffix != nil {
			k, ok = pr.words[strings.ToLower(w)]
			lowerKnown = ok
		}
		from := len(e)
		e = slices.Grow(e, T)[:from+T]
		row := e[from : from+T : from+T]
		rows[i] = row
		if ok {
			pr.emitRow(row, k)
			cand[i] = pr.candidates[k]
		} else {
			if suffix != nil {
				suffix.logEmit(row, w, classOf(w, lowerKnown))
			} else {
				copy(row, pr.logNew)
			}
			at := len(buf)
			for t, x := range row {
				if !math.IsInf(x, -1) {
					buf = append(buf, int32(t))
				}
			}
			cand[i] = buf[at:len(buf):len(buf)]
		}
		if len(cand[i]) == 0 {
			cand[i] = m.allTags
		}
	}
	return rows, cand, ids
}

// Kind returns "hmm".
func (m *Model) Kind() string { return Kind }

// Warnings returns how the fit of the model ended, a line each: a
// Baum–Welch fit stopped at its iteration limit before converging
// (gendisc.Warner). A model read from a file has none.
func (m *Model) Warnings() []string { return slices.Clone(m.warnings) }

// Config returns the model's configuration, its defaults filled in.
func (m *Model) Config() Config { return m.cfg }

// Known reports whether the training data had the word (as it is
// written: a new word whose lower case is known is new).
func (m *Model) Known(word string) bool {
	pr := m.probs()
	_, ok := pr.words[word]
	return ok
}

// Tags returns the tag set, sorted.
func (m *Model) Tags() []string { return slices.Clone(m.tags) }

// SeqSchema returns the tag set and the vocabulary of the training data.
func (m *Model) SeqSchema() *seq.Schema {
	return &seq.Schema{Tags: slices.Clone(m.tags), Words: slices.Clone(m.sp.words)}
}

// tokensColumn names the one feature of Schema.
const tokensColumn = "tokens"

// Schema returns the layout of the data in the terms of tables: one text
// column, "tokens" (a sentence), and the target "tags", categorical, whose
// levels are the tag set. The vocabulary is in the model's parameters
// (SeqSchema).
func (m *Model) Schema() *data.Schema { return tableSchema(m.tags) }

func tableSchema(tags []string) *data.Schema {
	return &data.Schema{
		Features: []data.Column{{Name: tokensColumn, Kind: data.Text}},
		Target:   &data.Column{Name: "tags", Kind: data.Categorical, Levels: slices.Clone(tags)},
	}
}

// Lambdas returns the interpolation weights λ1, λ2 (, λ3) of Interpolated
// transitions, nil for AddAlpha.
func (m *Model) Lambdas() []float64 { return slices.Clone(m.probs().lambdas) }

// Accumulator returns an accumulator that holds the model's counts.
func (m *Model) Accumulator() gendisc.Accumulator { return accumulator(m.cfg, m.sp, &m.c) }
