package hmm

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/seq"
)

// MaxTags bounds the tag set: an order-2 model holds (T+1)³ transition
// probabilities (8 million for 200 tags).
const MaxTags = 200

// maxCount bounds each count in a model file, so that sums stay exact
// whole numbers for counted models and finite for all.
const maxCount = 1 << 53

// modelJSON is the parameters of a model file: the configuration, the
// vocabulary and the counts (the tag set is the schema's target), from
// which the probabilities are derived on loading.
type modelJSON struct {
	Order         int             `json:"order"`
	Transitions   string          `json:"transitions"`
	Alpha         modelfile.Float `json:"alpha"`
	EmissionAlpha modelfile.Float `json:"emission_alpha"`
	Unknown       string          `json:"unknown"`
	MaxSuffix     int             `json:"max_suffix"`
	Rare          int             `json:"rare"`
	ThetaFactor   modelfile.Float `json:"theta_factor"`
	Context       modelfile.Float `json:"context"`
	NoCap         bool            `json:"no_capitalization"`
	NoEnd         bool            `json:"no_end"`
	Beam          modelfile.Float `json:"beam"`
	Words         []string        `json:"words"`
	// The states are those of the tag StateTag[s] (in the schema's
	// target), on capitalised words where StateCap[s].
	StateTag   []int            `json:"state_tag"`
	StateCap   []bool           `json:"state_cap"`
	TransIndex []int            `json:"trans_index"` // (a·(T+1) + b)·(T+1) + c, increasing
	TransCount modelfile.Floats `json:"trans_count"`
	EmitWord   []int32          `json:"emit_word"` // by word, then tag, increasing
	EmitTag    []int32          `json:"emit_tag"`
	EmitCount  modelfile.Floats `json:"emit_count"`
	// The words with their state after the state ContextPrev (the
	// number of states: the start), by word, state and previous state.
	ContextWord  []int32          `json:"context_word"`
	ContextPrev  []int32          `json:"context_prev"`
	ContextTag   []int32          `json:"context_tag"`
	ContextCount modelfile.Floats `json:"context_count"`
}

// tagsOf returns the tags of states, sorted.
func tagsOf(states []string) []string {
	tags := make([]string, len(states))
	for i, s := range states {
		tags[i], _ = splitState(s)
	}
	slices.Sort(tags)
	return slices.Compact(tags)
}

func encode(cfg Config, sp space, c *counts) (*data.Schema, modelJSON) {
	j := modelJSON{Order: cfg.Order, Transitions: cfg.Transitions.String(), Alpha: modelfile.Float(cfg.Alpha),
		EmissionAlpha: modelfile.Float(cfg.EmissionAlpha), Unknown: cfg.Unknown.String(), MaxSuffix: cfg.MaxSuffix,
		Rare: cfg.Rare, ThetaFactor: modelfile.Float(cfg.ThetaFactor), Context: modelfile.Float(cfg.Context),
		NoCap: cfg.NoCapitalization, NoEnd: cfg.NoEnd,
		Beam: modelfile.Float(cfg.Beam), Words: sp.words}
	tags := tagsOf(sp.states)
	for _, name := range sp.states {
		tag, cap := splitState(name)
		t, _ := slices.BinarySearch(tags, tag)
		j.StateTag = append(j.StateTag, t)
		j.StateCap = append(j.StateCap, cap)
	}
	for i, n := range c.trans {
		if n != 0 {
			j.TransIndex = append(j.TransIndex, i)
			j.TransCount = append(j.TransCount, n)
		}
	}
	j.EmitWord, j.EmitTag, j.EmitCount = make([]int32, 0, len(c.emit)), make([]int32, 0, len(c.emit)), make(modelfile.Floats, 0, len(c.emit))
	for _, e := range c.emit {
		j.EmitWord = append(j.EmitWord, e.Word)
		j.EmitTag = append(j.EmitTag, e.Tag)
		j.EmitCount = append(j.EmitCount, e.N)
	}
	if len(c.ctx) > 0 {
		n := len(c.ctx)
		j.ContextWord, j.ContextPrev, j.ContextTag, j.ContextCount = make([]int32, 0, n), make([]int32, 0, n), make([]int32, 0, n), make(modelfile.Floats, 0, n)
	}
	for _, e := range c.ctx {
		j.ContextWord = append(j.ContextWord, e.Word)
		j.ContextPrev = append(j.ContextPrev, e.Prev)
		j.ContextTag = append(j.ContextTag, e.Tag)
		j.ContextCount = append(j.ContextCount, e.N)
	}
	return tableSchema(tags), j
}

// MarshalJSON writes the model's parameters for a model file.
func (m *Model) MarshalJSON() ([]byte, error) {
	_, j := encode(m.cfg, m.sp, &m.c)
	return j.appendJSON(make([]byte, 0, j.sizeHint())), nil
}

// MarshalCompactJSON is MarshalJSON, whose bytes are json.Marshal's
// (TestModelJSONBytes, FuzzModelJSON): modelfile.CompactMarshaler.
func (m *Model) MarshalCompactJSON() ([]byte, error) { return m.MarshalJSON() }

// UnmarshalModel reads the model of a model file: the schema s (the tag
// set as its target's levels) and the parameters of MarshalJSON, every
// field checked. A model is read to be used: its probabilities are
// derived in the background from here on, while its caller reads the
// data to tag.
func UnmarshalModel(s *data.Schema, params []byte) (*Model, error) {
	cfg, sp, c, err := decode(s, params)
	if err != nil {
		return nil, err
	}
	if len(c.emit) == 0 {
		return nil, fmt.Errorf("hmm: %w", ErrNoData)
	}
	m, err := newModel(cfg, sp, c)
	if err == nil {
		m.Prepare()
	}
	return m, err
}

// decode reads and checks a schema and parameters.
func decode(s *data.Schema, params []byte) (Config, space, counts, error) {
	cfg, sp, c, err := decodeUnchecked(s, params)
	if err != nil {
		err = fmt.Errorf("hmm: %w", err)
	}
	return cfg, sp, c, err
}

func decodeUnchecked(s *data.Schema, params []byte) (Config, space, counts, error) {
	var sp space
	var c counts
	if s == nil || len(s.Features) != 1 || s.Features[0].Kind != data.Text || s.Target == nil || s.Target.Kind != data.Categorical {
		return Config{}, sp, c, errors.New("the schema is not that of sentences: one text column and a categorical target, the tags")
	}
	tags := s.Target.Levels
	if len(tags) > MaxTags {
		return Config{}, sp, c, fmt.Errorf("%d tags, more than %d", len(tags), MaxTags)
	}
	if !seq.Sorted(tags) || slices.Contains(tags, boundary) {
		return Config{}, sp, c, errors.New("the tags are not sorted, distinct and non-empty")
	}
	var j modelJSON
	if err := j.unmarshalJSON(params); err != nil {
		return Config{}, sp, c, err
	}
	transitions, err := ParseSmoothing(j.Transitions)
	if err != nil {
		return Config{}, sp, c, err
	}
	unknown, err := ParseUnknown(j.Unknown)
	if err != nil {
		return Config{}, sp, c, err
	}
	cfg := Config{Order: j.Order, Transitions: transitions, Alpha: float64(j.Alpha), EmissionAlpha: float64(j.EmissionAlpha),
		Unknown: unknown, MaxSuffix: j.MaxSuffix, Rare: j.Rare, ThetaFactor: float64(j.ThetaFactor), Context: float64(j.Context),
		NoCapitalization: j.NoCap, NoEnd: j.NoEnd, Beam: float64(j.Beam)}
	if filled, err := cfg.withDefaults(); err != nil || filled != cfg {
		return Config{}, sp, c, fmt.Errorf("configuration %+v: not a fitted model's (%v)", cfg, err)
	}
	if !seq.Sorted(j.Words) {
		return Config{}, sp, c, errors.New("the words are not sorted and distinct")
	}
	if len(j.StateTag) != len(j.StateCap) || len(j.StateTag) > MaxTags {
		return Config{}, sp, c, fmt.Errorf("%d state tags, %d capitalisation flags (at most %d)", len(j.StateTag), len(j.StateCap), MaxTags)
	}
	states := make([]string, len(j.StateTag))
	for i, t := range j.StateTag {
		if t < 0 || t >= len(tags) || (j.StateCap[i] && cfg.NoCapitalization) {
			return Config{}, sp, c, fmt.Errorf("state %d: tag %d out of range, or capitalised without capitalisation", i, t)
		}
		states[i] = tags[t]
		if j.StateCap[i] {
			states[i] += capMark
		}
	}
	if !seq.Sorted(states) || !slices.Equal(tagsOf(states), tags) {
		return Config{}, sp, c, errors.New("the states are not sorted and distinct, or leave out a tag")
	}
	T, V := len(states), len(j.Words)
	c = newCounts(T)
	if len(j.TransIndex) != len(j.TransCount) {
		return Config{}, sp, c, fmt.Errorf("%d transition indices, %d counts", len(j.TransIndex), len(j.TransCount))
	}
	for i, k := range j.TransIndex {
		n := j.TransCount[i]
		if k < 0 || k >= len(c.trans) || (i > 0 && k <= j.TransIndex[i-1]) {
			return Config{}, sp, c, fmt.Errorf("transition index %d: out of range or order", k)
		}
		t, b, a := k%(T+1), k/(T+1)%(T+1), k/(T+1)/(T+1)
		if (b == T && a != T) || (b == T && t == T) {
			return Config{}, sp, c, fmt.Errorf("transition index %d: not a trigram of a sentence", k)
		}
		if err := checkCount(n); err != nil {
			return Config{}, sp, c, fmt.Errorf("transition count %v: %w", n, err)
		}
		c.trans[k] = n
	}
	if len(j.EmitWord) != len(j.EmitTag) || len(j.EmitWord) != len(j.EmitCount) {
		return Config{}, sp, c, errors.New("the emission words, tags and counts differ in length")
	}
	c.emit = make([]emission, len(j.EmitWord))
	for i := range j.EmitWord {
		e := emission{Word: j.EmitWord[i], Tag: j.EmitTag[i], N: j.EmitCount[i]}
		if e.Word < 0 || int(e.Word) >= V || e.Tag < 0 || int(e.Tag) >= T {
			return Config{}, sp, c, fmt.Errorf("emission of word %d with tag %d: out of range", e.Word, e.Tag)
		}
		if i > 0 && (e.Word < c.emit[i-1].Word || (e.Word == c.emit[i-1].Word && e.Tag <= c.emit[i-1].Tag)) {
			return Config{}, sp, c, errors.New("the emissions are not in order of word and tag")
		}
		if i > 0 && e.Word > c.emit[i-1].Word+1 || i == 0 && e.Word != 0 {
			return Config{}, sp, c, fmt.Errorf("word %d of the vocabulary has no count", c.emit[max(i-1, 0)].Word+1)
		}
		if err := checkCount(e.N); err != nil {
			return Config{}, sp, c, fmt.Errorf("emission count %v: %w", e.N, err)
		}
		c.emit[i] = e
	}
	if len(c.emit) > 0 && int(c.emit[len(c.emit)-1].Word) != V-1 || len(c.emit) == 0 && V > 0 {
		return Config{}, sp, c, errors.New("the last words of the vocabulary have no count")
	}
	n := len(j.ContextWord)
	if len(j.ContextPrev) != n || len(j.ContextTag) != n || len(j.ContextCount) != n {
		return Config{}, sp, c, errors.New("the context words, previous states, states and counts differ in length")
	}
	c.ctx = make([]contextCount, n)
	for i := range n {
		e := contextCount{Word: j.ContextWord[i], Prev: j.ContextPrev[i], Tag: j.ContextTag[i], N: j.ContextCount[i]}
		if e.Word < 0 || int(e.Word) >= V || e.Prev < 0 || int(e.Prev) > T || e.Tag < 0 || int(e.Tag) >= T {
			return Config{}, sp, c, fmt.Errorf("context count of word %d, state %d after %d: out of range", e.Word, e.Tag, e.Prev)
		}
		if i > 0 {
			p := c.ctx[i-1]
			if e.Word < p.Word || e.Word == p.Word && (e.Tag < p.Tag || e.Tag == p.Tag && e.Prev <= p.Prev) {
				return Config{}, sp, c, errors.New("the context counts are not in order of word, state and previous state")
			}
		}
		if err := checkCount(e.N); err != nil {
			return Config{}, sp, c, fmt.Errorf("context count %v: %w", e.N, err)
		}
		c.ctx[i] = e
	}
	return cfg, space{states: states, words: j.Words}, c, nil
}

// checkCount returns the error of a count that is not a positive finite
// number of at most maxCount.
func checkCount(n float64) error {
	if !(n > 0 && n <= maxCount) || math.IsInf(n, 0) {
		return fmt.Errorf("not in (0, %g]", float64(maxCount))
	}
	return nil
}

// accumulatorJSON is the encoding of an Accumulator.
type accumulatorJSON struct {
	Schema *data.Schema    `json:"schema"`
	Params json.RawMessage `json:"params"`
}

// MarshalBinary encodes the accumulator: its configuration and counts.
func (a *Accumulator) MarshalBinary() ([]byte, error) {
	sp, c := a.counts()
	schema, j := encode(a.cfg, sp, &c)
	return json.Marshal(accumulatorJSON{Schema: schema, Params: j.appendJSON(nil)})
}

// UnmarshalBinary decodes an encoding of MarshalBinary into a, checking
// every field as UnmarshalModel does.
func (a *Accumulator) UnmarshalBinary(b []byte) error {
	var j accumulatorJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return fmt.Errorf("hmm: accumulator: %w", err)
	}
	cfg, sp, c, err := decode(j.Schema, j.Params)
	if err != nil {
		return err
	}
	*a = *accumulator(cfg, sp, &c)
	return nil
}
