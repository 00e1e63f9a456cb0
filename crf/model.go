package crf

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/gendisc/gendisc/internal/parallel"
)

// Model is a fitted linear-chain CRF.
type Model struct {
	fs       *features
	w        []float64 // state weights in fs's order, then transitions
	tr       *transitions
	iters    int
	warnings []string
	// templates make the items of a sentence of tokens; nil for a model
	// trained on items (CRFsuite's data).
	templates *Templates
	// vocabulary holds the words of the training sentences of a model
	// trained on words; nil for a model trained on items, or read from a
	// file written before models kept their words.
	vocabulary map[string]struct{}
	pool       sync.Pool // *workspace
}

func newModel(fs *features, w []float64) *Model {
	return &Model{fs: fs, w: w, tr: fs.transitions(w)}
}

// Labels returns the labels in the model's order (that of Marginals).
func (m *Model) Labels() []string { return slices.Clone(m.fs.labels) }

// Iterations returns the number of iterations of the fit.
func (m *Model) Iterations() int { return m.iters }

// Warnings returns how a fit that did not converge ended, one line each
// (gendisc.Warner), or nil.
func (m *Model) Warnings() []string { return slices.Clone(m.warnings) }

// NumFeatures returns the number of features (weights) of the model.
func (m *Model) NumFeatures() int { return m.fs.nFeatures }

// prepare encodes one sequence and computes its state scores into a
// workspace (which the caller returns to m.pool). Attributes the model does
// not know are left out.
func (m *Model) prepare(s Sequence) (*encoded, *workspace) {
	e := m.fs.encode([]Sequence{s})
	ws := m.workspace(len(s.Items))
	m.fs.stateScores(ws, e, 0, len(s.Items), m.w)
	return e, ws
}

// workspace returns a workspace for T items from m.pool.
func (m *Model) workspace(T int) *workspace {
	ws, _ := m.pool.Get().(*workspace)
	if ws == nil {
		ws = &workspace{}
	}
	ws.grow(T, len(m.fs.labels))
	return ws
}

// Tag returns the most probable labels of items (Viterbi), nil for no
// items. It is safe for concurrent use.
func (m *Model) Tag(items []Item) []string {
	if len(items) == 0 {
		return nil
	}
	T, L := len(items), len(m.fs.labels)
	ws := m.workspace(T)
	defer m.pool.Put(ws)
	for t, item := range items {
		row := ws.state[t*L : (t+1)*L]
		clear(row)
		for _, a := range item {
			id, ok := m.fs.attrID[a.Name]
			if !ok {
				continue
			}
			lo, hi := m.fs.start[id], m.fs.start[id+1]
			weights := m.w[lo:hi]
			for j, y := range m.fs.label[lo:hi] {
				row[y] += a.Value * weights[j]
			}
		}
	}
	path := make([]int32, T)
	viterbi(path, ws, T, L, m.tr)
	out := make([]string, len(items))
	for t, y := range path {
		out[t] = m.fs.labels[y]
	}
	return out
}

// Marginals returns P(y_t = y | x) at [t·L + y] for the L = len(Labels())
// labels, by forward–backward.
func (m *Model) Marginals(items []Item) []float64 {
	if len(items) == 0 {
		return nil
	}
	_, ws := m.prepare(Sequence{Items: items})
	defer m.pool.Put(ws)
	L := len(m.fs.labels)
	forwardBackward(ws, len(items), L, m.tr, nil)
	return slices.Clone(ws.marg[:len(items)*L])
}

// LogProb returns log p(y | x) of the labelled sequence s (natural log):
// an error for a sequence without items, labels that do not match the
// items, or a label the model does not know.
func (m *Model) LogProb(s Sequence) (float64, error) {
	if len(s.Items) == 0 {
		return 0, fmt.Errorf("a sequence without items")
	}
	if len(s.Labels) != len(s.Items) {
		return 0, fmt.Errorf("%d labels for %d items", len(s.Labels), len(s.Items))
	}
	e, ws := m.prepare(s)
	defer m.pool.Put(ws)
	L := len(m.fs.labels)
	score := 0.0
	for t, y := range e.labels {
		if y < 0 {
			return 0, fmt.Errorf("item %d: label %q not seen in training", t+1, s.Labels[t])
		}
		score += ws.state[t*L+int(y)]
		if t > 0 {
			score += m.tr.logT[int(e.labels[t-1])*L+int(y)]
		}
	}
	logZ, _ := forwardBackward(ws, len(s.Items), L, m.tr, nil)
	return score - logZ, nil
}

// LogProbTags returns log p(tags | tokens) of a tagged sentence of
// tokens, whose items the model's templates make (see LogProb;
// gendisc.ConditionalTagScorer): an error for a model without templates.
func (m *Model) LogProbTags(tokens, tags []string) (float64, error) {
	if m.templates == nil {
		return 0, errNoTemplates
	}
	return m.LogProb(Sequence{Items: m.templates.Items(tokens), Labels: tags})
}

// Templates returns the templates that make the items of a sentence of
// tokens, or nil for a model trained on items given as such.
func (m *Model) Templates() *Templates { return m.templates }

// TagTokens returns the most probable tags of a sentence of tokens, whose
// items the model's templates make: an error for a model without
// templates.
func (m *Model) TagTokens(tokens []string) ([]string, error) {
	if m.templates == nil {
		return nil, errNoTemplates
	}
	return m.Tag(m.templates.Items(tokens)), nil
}

// Tags returns the tag set, sorted: the levels of the schema's target.
func (m *Model) Tags() []string { return slices.Clone(m.Schema().Target.Levels) }

// TagAll returns the tags of each sentence of tokens (TagTokens), the
// sentences split among the cores in blocks; nil for a sentence that
// TagTokens refuses.
func (m *Model) TagAll(sentences [][]string) [][]string {
	out := make([][]string, len(sentences))
	parallel.For(len(sentences), tagAllBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i], _ = m.TagTokens(sentences[i])
		}
	})
	return out
}

// tagAllBlock is the fewest sentences TagAll gives a core at a time.
const tagAllBlock = 16

// TokenMarginals returns the marginals P(y_t = y | x) of a sentence of
// tokens, whose items the model's templates make (see Marginals): row t
// holds those of token t for the labels sorted (the levels of the
// schema's target), an error for a model without templates.
func (m *Model) TokenMarginals(tokens []string) ([][]float64, error) {
	if m.templates == nil {
		return nil, errNoTemplates
	}
	return m.sortedMarginals(m.templates.Items(tokens)), nil
}

// sortedMarginals returns the marginals of items (Marginals), row t
// holding those of item t for the labels sorted.
func (m *Model) sortedMarginals(items []Item) [][]float64 {
	flat := m.Marginals(items)
	labels := m.fs.labels
	order := make([]int, len(labels)) // the model's index of each sorted label
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(labels[a], labels[b]) })
	L := len(labels)
	out := make([][]float64, len(items))
	for t := range out {
		row := make([]float64, L)
		for k, y := range order {
			row[k] = flat[t*L+y]
		}
		out[t] = row
	}
	return out
}

// errNoTemplates is the error of tagging tokens with a model trained on
// items (CRFsuite's data), which has no templates to make them.
var errNoTemplates = errors.New("the model was trained on given attributes (CRFsuite's data format), not on words: tag sentences given as attributes")
