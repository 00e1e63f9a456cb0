package hmm

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/gendisc/gendisc/internal/parallel"
)

// The states of the search are keys k = a·T + b: the last two tags a, b
// (a = T, the start, before the second tag). An order-1 model keys its
// states by the last tag alone, k = T·T + b, its transitions not
// depending on a.

// next returns the key of the state after the state k on the tag t.
func (m *Model) next(k, t int) int {
	if m.cfg.Order == 1 {
		return m.T*m.T + t
	}
	return k%m.T*m.T + t
}

// transFrom returns the offset in logTrans and trans of the row of the
// state k: the tags after its two last tags.
func (m *Model) transFrom(k int) int { return m.c.tri(k/m.T, k%m.T, 0) }

// startRow is the offset of the row of the start, before the first tag.
func (m *Model) startRow() int { return m.c.tri(m.T, m.T, 0) }

// firstKey returns the key of the state of the first tag t.
func (m *Model) firstKey(t int) int { return m.T*m.T + t }

// node is a state of the Viterbi search at a position: its key, its
// score and the index of its best predecessor among the previous
// position's nodes.
type node struct {
	key   int32
	back  int32
	score float64
}

// Tag returns the most likely tags of the tokens (Viterbi, in log
// space): the tag sequence that maximises
//
//	log P(t_1 … t_n, w_1 … w_n) = Σ_i log P(t_i | t_{i−2}, t_{i−1}) + log P(w_i | t_i) + log P(end | t_{n−1}, t_n)
//
// (order 1: P(t_i | t_{i−1})), pruned by Config.Beam for order 2. It
// returns nil for no tokens.
func (m *Model) Tag(tokens []string) []string {
	ws := m.workspace()
	defer m.pool.Put(ws)
	ws.dst = m.viterbi(ws, ws.dst, tokens)
	tags := make([]string, len(ws.dst))
	for i, s := range ws.dst {
		tags[i] = m.tags[m.stateTag[s]]
	}
	return tags
}

// TagTokens returns Tag's tags of the tokens (gendisc.Tagger), or
// ErrNoTokens for none.
func (m *Model) TagTokens(tokens []string) ([]string, error) {
	if len(tokens) == 0 {
		return nil, ErrNoTokens
	}
	return m.Tag(tokens), nil
}

// TagIndices writes the indices in Tags of the most likely tags of the
// tokens (see Tag) to dst (grown as needed) and returns it.
func (m *Model) TagIndices(dst []int, tokens []string) []int {
	ws := m.workspace()
	defer m.pool.Put(ws)
	dst = m.viterbi(ws, dst, tokens)
	for i, s := range dst {
		dst[i] = m.stateTag[s]
	}
	return dst
}

// viterbi writes the most likely states of the tokens to dst (grown as
// needed) and returns it, searching in the memory of ws.
func (m *Model) viterbi(ws *workspace, dst []int, tokens []string) []int {
	pr := m.probs()
	n := len(tokens)
	dst = dst[:0]
	if n == 0 {
		return dst
	}
	T := m.T
	e, cand, ids := m.emissions(pr, ws, tokens)
	// stamp[k] is the generation at which the key k was reached, at[k]
	// its index in the position's nodes; the nodes of position i are
	// nodes[start[i]:start[i+1]].
	stamp, at := ws.stamp, ws.at
	nodes := ws.nodes[:0]
	start := slices.Grow(ws.start[:0], n+1)[:n+1]
	row := m.startRow()
	for _, t := range cand[0] {
		k := m.firstKey(int(t))
		nodes = append(nodes, node{key: int32(k), back: -1, score: pr.logTrans[row+int(t)] + pr.ctxEmit(ids[0], k, e[0][t])})
	}
	beam := m.cfg.Order == 2 && m.cfg.Beam != NoBeam
	for i := 1; i <= n; i++ {
		nodes = prune(nodes, start[i-1], beam, m.cfg.Beam)
		start[i] = len(nodes)
		if i == n {
			break
		}
		gen := ws.nextGeneration()
		for j := start[i-1]; j < start[i]; j++ {
			p := nodes[j]
			trans := pr.logTrans[m.transFrom(int(p.key)):]
			next := m.next(int(p.key), 0) // the key after p on the tag t is next + t
			for _, t := range cand[i] {
				v := p.score + trans[t]
				k := next + int(t)
				if stamp[k] != gen {
					stamp[k], at[k] = gen, int32(len(nodes))
					nodes = append(nodes, node{key: int32(k), back: int32(j), score: v})
				} else if q := &nodes[at[k]]; v > q.score {
					q.back, q.score = int32(j), v
				}
			}
		}
		for j := start[i]; j < len(nodes); j++ {
			nodes[j].score += pr.ctxEmit(ids[i], int(nodes[j].key), e[i][int(nodes[j].key)%T])
		}
	}
	best, bestScore := -1, math.Inf(-1)
	for j := start[n-1]; j < start[n]; j++ {
		v := nodes[j].score
		if !m.cfg.NoEnd {
			v += pr.logTrans[m.transFrom(int(nodes[j].key))+T]
		}
		if best < 0 || v > bestScore {
			best, bestScore = j, v
		}
	}
	dst = slices.Grow(dst, n)[:n]
	for i, j := n-1, best; i >= 0; i-- {
		dst[i] = int(nodes[j].key) % T
		j = int(nodes[j].back)
	}
	ws.nodes, ws.start = nodes, start
	return dst
}

// workspace is the memory of a Viterbi search, reused through Model.pool.
type workspace struct {
	ids   []int32     // the tokens' indices in the vocabulary
	rows  [][]float64 // the emissions of each token
	e     []float64   // those of the new words
	cand  [][]int32   // the candidate states of each token
	buf   []int32     // the candidates of new words
	dst   []int       // the states of Tag
	stamp []int32
	at    []int32
	gen   int32
	nodes []node
	start []int
}

// workspace returns a workspace for m from its pool.
func (m *Model) workspace() *workspace {
	if ws, ok := m.pool.Get().(*workspace); ok {
		return ws
	}
	keys := (m.T + 1) * m.T
	return &workspace{stamp: make([]int32, keys), at: make([]int32, keys)}
}

// nextGeneration returns a generation that no stamp holds.
func (ws *workspace) nextGeneration() int32 {
	if ws.gen == math.MaxInt32 {
		clear(ws.stamp)
		ws.gen = 0
	}
	ws.gen++
	return ws.gen
}

// prune removes from nodes[from:] those whose score is more than beam
// below the best (when on), keeping the order, and returns nodes. The
// back indices of later nodes are not yet set, so removal is safe.
func prune(nodes []node, from int, on bool, beam float64) []node {
	if !on {
		return nodes
	}
	best := math.Inf(-1)
	for _, p := range nodes[from:] {
		best = max(best, p.score)
	}
	kept := nodes[:from]
	for _, p := range nodes[from:] {
		if p.score >= best-beam {
			kept = append(kept, p)
		}
	}
	return kept
}

// JointLogProb returns log P(t_1 … t_n, w_1 … w_n) of the tokens with
// the tags, the quantity that Tag maximises; −Inf for a tag that the
// model does not have (on a word of that capitalisation).
func (m *Model) JointLogProb(tokens, tags []string) float64 {
	states := make([]int, len(tags))
	for i, tag := range tags {
		s, ok := slices.BinarySearch(m.sp.states, m.cfg.stateName(tag, tokens[i]))
		if !ok {
			return math.Inf(-1)
		}
		states[i] = s
	}
	return m.jointLogProb(tokens, states)
}

// jointLogProb is JointLogProb of states.
func (m *Model) jointLogProb(tokens []string, tags []int) float64 {
	pr := m.probs()
	e, _, ids := m.emissions(pr, nil, tokens)
	lp, a, b := 0.0, m.T, m.T
	for i, t := range tags {
		lp += pr.logTrans[m.c.tri(a, b, t)] + pr.ctxEmit(ids[i], b*m.T+t, e[i][t])
		a, b = b, t
	}
	if !m.cfg.NoEnd && len(tags) > 0 {
		lp += pr.logTrans[m.c.tri(a, b, m.T)]
	}
	return lp
}

// TagAll returns the most likely tags (Tag) of each sentence, tagging
// the sentences in parallel on the available cores: each takes the next
// block of tagAllBlock sentences until none is left, so that long
// sentences and a busy core do not hold the others back.
func (m *Model) TagAll(sentences [][]string) [][]string {
	out := make([][]string, len(sentences))
	var next atomic.Int64
	workers := min(parallel.Workers(), (len(sentences)+tagAllBlock-1)/tagAllBlock)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				lo := int(next.Add(tagAllBlock)) - tagAllBlock
				if lo >= len(sentences) {
					return
				}
				for i := lo; i < min(lo+tagAllBlock, len(sentences)); i++ {
					out[i] = m.Tag(sentences[i])
				}
			}
		})
	}
	wg.Wait()
	return out
}

// tagAllBlock is the number of sentences that a goroutine of TagAll
// takes at a time.
const tagAllBlock = 16
