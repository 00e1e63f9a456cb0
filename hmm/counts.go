package hmm

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/seq"
)

// counts are the sufficient statistics of a model over its tag set (T
// tags) and vocabulary: numbers of tag trigrams and of words with their
// tags, whole numbers when counted, expected numbers after Baum–Welch.
type counts struct {
	// T is the number of tags; the index T stands for the sentence's
	// boundary: the start in the first two places of a trigram, the end
	// in the third.
	T int
	// trans[(a·(T+1) + b)·(T+1) + c] is the number of tags c after the
	// tags a, b (a = b = T at the start of a sentence, a = T before its
	// second tag, c = T at its end).
	trans []float64
	// emit are the numbers of the words with each tag, sorted by word
	// and tag, each positive.
	emit []emission
	// ctx are the numbers of the words with each tag after each tag
	// (Prev = T at the start), sorted by word, tag and previous tag, each
	// positive: the counts of Config.Context.
	ctx []contextCount
}

// contextCount is the number N of the word Word with the state Tag after
// the state Prev.
type contextCount struct {
	Word, Prev, Tag int32
	N               float64
}

// emission is the number N of the word of index Word with the tag of
// index Tag.
type emission struct {
	Word, Tag int32
	N         float64
}

// newCounts returns the zero counts of T tags.
func newCounts(T int) counts {
	return counts{T: T, trans: make([]float64, (T+1)*(T+1)*(T+1))}
}

// tri returns the index in trans of the trigram a, b, c.
func (c *counts) tri(a, b, t int) int { return (a*(c.T+1)+b)*(c.T+1) + t }

// boundary is the state of the boundary of a sentence in an
// Accumulator's keys: no tag is empty (AddSentences refuses it).
const boundary = ""

// capMark ends the name of the state of a tag on a capitalised word
// (TnT's capitalisation flag); no tag holds a NUL byte (AddSentences
// refuses it).
const capMark = "\x00^"

// stateName returns the name of the state of the tag on the word: the
// tag, or the tag and capMark when the word is capitalised and the
// configuration keeps capitalisation.
func (c Config) stateName(tag, word string) string {
	if !c.NoCapitalization && capitalised(word) {
		return tag + capMark
	}
	return tag
}

// splitState returns the tag of a state's name and whether it is that
// of a capitalised word.
func splitState(name string) (tag string, cap bool) {
	tag, cap = strings.CutSuffix(name, capMark)
	return tag, cap
}

// capitalised reports whether the word's first letter is upper case.
func capitalised(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

// trigram is three states, boundary at a sentence's ends.
type trigram [3]string

// wordTag is a word with its state.
type wordTag struct{ word, tag string }

// wordContext is a word with its state and the state before.
type wordContext struct{ word, prev, tag string }

// Accumulator is the partial fit of a model: the counts of the tagged
// sentences added and merged so far, kept by tag and word so that
// accumulators of shards with other tags and words merge. Fitting
// disjoint shards, merging and finishing gives the model of all the
// sentences bit for bit (the counts are whole numbers). It implements
// gendisc.Accumulator, whose Add of table rows it refuses: sentences are
// added with AddSentences.
type Accumulator struct {
	cfg   Config
	trans map[trigram]float64
	emit  map[wordTag]float64
	ctx   map[wordContext]float64
}

// ErrNotSequences is the error of Accumulator.Add: an HMM is fitted on
// sentences (AddSentences), not on the rows of a table.
var ErrNotSequences = errors.New("an HMM tagger takes sentences of tagged tokens, not the rows of a table: read them with package seqio and use AddSentences")

// Errors of the sentences given to a fit.
var (
	ErrNoTokens = errors.New("sentence without tokens")
	ErrUntagged = errors.New("sentence without tags: a fit by counting takes tagged sentences (Baum–Welch takes untagged ones)")
	ErrTags     = errors.New("number of tags differs from the number of tokens")
	ErrEmptyTag = errors.New("empty tag, or a tag with a NUL byte")
	ErrNoData   = errors.New("no tagged sentence")
)

// NewAccumulator returns an empty accumulator of the configuration c.
func (c Config) NewAccumulator() (*Accumulator, error) {
	cfg, err := c.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Accumulator{cfg: cfg, trans: map[trigram]float64{}, emit: map[wordTag]float64{}, ctx: map[wordContext]float64{}}, nil
}

// Fit returns the model of the tagged sentences, counted (see
// Accumulator.AddSentences): the model of an Accumulator of the sentences,
// counted without its maps by name.
func (c Config) Fit(sentences []seq.Sentence) (*Model, error) {
	cfg, err := c.withDefaults()
	if err != nil {
		return nil, err
	}
	sp, counts, err := countSentences(cfg, sentences)
	if err != nil {
		return nil, err
	}
	if len(counts.emit) == 0 {
		return nil, ErrNoData
	}
	return newModel(cfg, sp, counts)
}

// checkSentence returns the error of a sentence that a fit cannot take,
// i being its index among the sentences given.
func checkSentence(s seq.Sentence, i int, tagged bool) error {
	var err error
	switch {
	case len(s.Tokens) == 0:
		err = ErrNoTokens
	case !tagged:
	case s.Tags == nil:
		err = ErrUntagged
	case len(s.Tags) != len(s.Tokens):
		err = fmt.Errorf("%w: %d tags, %d tokens", ErrTags, len(s.Tags), len(s.Tokens))
	case slices.ContainsFunc(s.Tags, func(t string) bool { return t == boundary || strings.IndexByte(t, 0) >= 0 }):
		err = ErrEmptyTag
	}
	if err == nil {
		return nil
	}
	if s.Line > 0 {
		return fmt.Errorf("sentence %d (line %d): %w", i+1, s.Line, err)
	}
	return fmt.Errorf("sentence %d: %w", i+1, err)
}

// AddSentences adds the counts of tagged sentences: of each trigram of
// tags (the start and the end of the sentence being the boundary) and of
// each word with its tag. Nothing is added when a sentence is refused
// (no tokens, no tags, a tag count that differs, an empty tag).
func (a *Accumulator) AddSentences(sentences []seq.Sentence) error {
	sp, c, err := countSentences(a.cfg, sentences)
	if err != nil {
		return err
	}
	// Whole numbers: the sums are those of counting token by token, bit
	// for bit.
	a.add(sp, &c)
	return nil
}

// localCounts are the states and words of sentences by their indices in
// the order met (state 0: the boundary), cheap to hash.
type localCounts struct {
	states, words   []string
	stateOf, wordOf map[string]uint32
	capStateOf      map[string]uint32 // of the tags on capitalised words
}

// countSentences counts tagged sentences over their states and words,
// sorted, or returns the error of the first sentence that a fit cannot
// take, or of more than MaxTags states. It finds the index of each
// token's state and word, counts the trigrams in the dense table of
// counts, and the emissions and context emissions word by word, the
// tokens sorted by word (a counting sort): the counts come out sorted,
// and no map of counts grows.
func countSentences(cfg Config, sentences []seq.Sentence) (space, counts, error) {
	n := 0
	for i, s := range sentences {
		if err := checkSentence(s, i, true); err != nil {
			return space{}, counts{}, err
		}
		n += len(s.Tokens)
	}
	// state[k], word[k] are the indices in l of the k-th token's.
	state, word := make([]uint8, n), make([]uint32, n)
	parts := 1
	if n >= splitTokens {
		parts = 2
	}
	l, err := indexTokens(cfg, sentences, state, word, parts)
	if err != nil {
		return space{}, counts{}, err
	}
	sp, stateRank, wordRank := l.sorted()
	T, V := len(sp.states), len(sp.words)
	c := newCounts(T)
	// first[r] is the first place of the word of rank r in byWord,
	// which holds each token's state and previous state, t<<8 | q.
	first := make([]int, V+1)
	for _, w := range word {
		first[wordRank[w]+1]++
	}
	for r := range V {
		first[r+1] += first[r]
	}
	byWord, next := make([]uint16, n), slices.Clone(first[:V])
	k := 0
	for _, s := range sentences {
		p, q := T, T // the boundary
		for range s.Tags {
			t, r := stateRank[state[k]], wordRank[word[k]]
			c.trans[c.tri(p, q, t)]++
			byWord[next[r]] = uint16(t<<8 | q)
			next[r]++
			p, q = q, t
			k++
		}
		c.trans[c.tri(p, q, T)]++
	}
	// The counts of one word at a time, in dense rows whose entries
	// touched are listed.
	emitRow, ctxRow := make([]float64, T), make([]float64, 1<<16)
	var tags []int32
	var keys []uint16
	for r := range V {
		tags, keys = tags[:0], keys[:0]
		for _, key := range byWord[first[r]:first[r+1]] {
			t := key >> 8
			if emitRow[t] == 0 {
				tags = append(tags, int32(t))
			}
			emitRow[t]++
			if ctxRow[key] == 0 {
				keys = append(keys, key)
			}
			ctxRow[key]++
		}
		slices.Sort(tags)
		for _, t := range tags {
			c.emit = append(c.emit, emission{Word: int32(r), Tag: t, N: emitRow[t]})
			emitRow[t] = 0
		}
		slices.Sort(keys) // by state, then previous state
		for _, key := range keys {
			c.ctx = append(c.ctx, contextCount{Word: int32(r), Prev: int32(key & 0xff), Tag: int32(key >> 8), N: ctxRow[key]})
			ctxRow[key] = 0
		}
	}
	return sp, c, nil
}

// splitTokens is the number of tokens from which countSentences indexes
// them in two parts at once.
const splitTokens = 1 << 15

// errTooManyStates is the error of more than MaxTags states.
var errTooManyStates = fmt.Errorf("hmm: more than %d states (tags, by capitalisation)", MaxTags)

// indexTokens sets state[k] and word[k] to the indices of the state and
// the word of the k-th token of the tagged sentences, in the order met,
// and returns the states and words so indexed. With parts 2, the two
// halves of the tokens (whole sentences) are indexed at once, each apart,
// and the second's indices then mapped to the first's: the indices
// differ, their states and words, which countSentences sorts, do not.
func indexTokens(cfg Config, sentences []seq.Sentence, state []uint8, word []uint32, parts int) (*localCounts, error) {
	newLocal := func() *localCounts {
		return &localCounts{states: []string{boundary}, stateOf: map[string]uint32{}, wordOf: map[string]uint32{}, capStateOf: map[string]uint32{}}
	}
	index := func(l *localCounts, sentences []seq.Sentence, state []uint8, word []uint32) error {
		k := 0
		for _, s := range sentences {
			for j, tag := range s.Tags {
				state[k], word[k] = l.state(cfg, tag, s.Tokens[j]), l.word(s.Tokens[j])
				k++
			}
			if len(l.states) > MaxTags+1 {
				return errTooManyStates
			}
		}
		return nil
	}
	l := newLocal()
	if parts == 1 {
		return l, index(l, sentences, state, word)
	}
	// The second half starts at the sentence that passes half the
	// tokens.
	half, at := 0, 0
	for at < len(state)/2 {
		at += len(sentences[half].Tags)
		half++
	}
	l2 := newLocal()
	done := make(chan error, 1)
	go func() { done <- index(l2, sentences[half:], state[at:], word[at:]) }()
	err := index(l, sentences[:half], state[:at], word[:at])
	if err2 := <-done; err == nil {
		err = err2
	}
	if err != nil {
		return nil, err
	}
	stateOf, wordOf := make([]uint8, len(l2.states)), make([]uint32, len(l2.words))
	for i, name := range l2.states[1:] {
		stateOf[i+1] = l.stateNamed(name)
	}
	if len(l.states) > MaxTags+1 {
		return nil, errTooManyStates
	}
	for i, w := range l2.words {
		wordOf[i] = l.word(w)
	}
	for k := at; k < len(state); k++ {
		state[k], word[k] = stateOf[state[k]], wordOf[word[k]]
	}
	return l, nil
}

// stateNamed returns the index of the state of the name (stateName's).
func (l *localCounts) stateNamed(name string) uint8 {
	return l.stateIndex(splitState(name))
}

// state returns the index of the state of the tag on the word (see
// Config.stateName).
func (l *localCounts) state(cfg Config, tag, word string) uint8 {
	return l.stateIndex(tag, !cfg.NoCapitalization && capitalised(word))
}

// stateIndex returns the index of the state of the tag on a capitalised
// word or not, made when new.
func (l *localCounts) stateIndex(tag string, capital bool) uint8 {
	of := l.stateOf
	if capital {
		of = l.capStateOf
	}
	i, ok := of[tag]
	if !ok {
		i = uint32(len(l.states))
		of[tag] = i
		name := tag
		if capital {
			name += capMark
		}
		l.states = append(l.states, name)
	}
	return uint8(i) // below 256: indexTokens stops at MaxTags+1 states
}

// word returns the index of the word.
func (l *localCounts) word(w string) uint32 {
	i, ok := l.wordOf[w]
	if !ok {
		i = uint32(len(l.words))
		l.wordOf[w] = i
		l.words = append(l.words, w)
	}
	return i
}

// sorted returns the states and words of l, sorted, and the rank in
// them of each of l's states (the boundary's being the number of
// states) and words.
func (l *localCounts) sorted() (sp space, state []int, word []int32) {
	sp.states = slices.Sorted(slices.Values(l.states[1:]))
	state = make([]int, len(l.states))
	state[0] = len(sp.states)
	for i, name := range l.states[1:] {
		state[i+1], _ = slices.BinarySearch(sp.states, name)
	}
	// The words' indices sorted by word give the words and their ranks
	// in one sort.
	order := make([]int32, len(l.words))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(l.words[a], l.words[b]) })
	sp.words, word = make([]string, len(l.words)), make([]int32, len(l.words))
	for r, i := range order {
		sp.words[r], word[i] = l.words[i], int32(r)
	}
	return sp, state, word
}

// Add refuses table rows with ErrNotSequences.
func (a *Accumulator) Add(*data.Dataset) error { return ErrNotSequences }

// Merge adds the counts of o, an *Accumulator of the same configuration.
func (a *Accumulator) Merge(o gendisc.Accumulator) error {
	b, ok := o.(*Accumulator)
	if !ok {
		return fmt.Errorf("hmm: cannot merge a %T into an HMM accumulator", o)
	}
	if a.cfg != b.cfg {
		return fmt.Errorf("hmm: cannot merge the counts of configuration %+v into those of %+v", b.cfg, a.cfg)
	}
	if err := mergeInto(a.trans, b.trans, false); err != nil {
		return err
	}
	if err := mergeInto(a.emit, b.emit, false); err != nil {
		return err
	}
	if err := mergeInto(a.ctx, b.ctx, false); err != nil {
		return err
	}
	mergeInto(a.trans, b.trans, true)
	mergeInto(a.emit, b.emit, true)
	mergeInto(a.ctx, b.ctx, true)
	return nil
}

// mergeInto adds the counts of b to a when add, or else returns an error
// if a sum would exceed the largest count of a model file.
func mergeInto[K comparable](a, b map[K]float64, add bool) error {
	for k, n := range b {
		if add {
			a[k] += n
		} else if a[k]+n > maxCount {
			return fmt.Errorf("hmm: merged counts above %g", float64(maxCount))
		}
	}
	return nil
}

// Model returns the model of the counts so far.
func (a *Accumulator) Model() (gendisc.Model, error) { return a.model() }

func (a *Accumulator) model() (*Model, error) {
	if len(a.emit) == 0 {
		return nil, ErrNoData
	}
	sp, c := a.counts()
	if len(sp.states) > MaxTags {
		return nil, fmt.Errorf("hmm: %d states (tags, by capitalisation), more than %d", len(sp.states), MaxTags)
	}
	return newModel(a.cfg, sp, c)
}

// space is the states and the words of a model, each sorted.
type space struct{ states, words []string }

// counts returns the accumulator's states and words, and its counts over
// them.
func (a *Accumulator) counts() (space, counts) {
	tagSet, wordSet := map[string]bool{}, map[string]bool{}
	for k := range a.emit {
		tagSet[k.tag], wordSet[k.word] = true, true
	}
	for k := range a.trans {
		for _, t := range k {
			if t != boundary {
				tagSet[t] = true
			}
		}
	}
	sp := space{states: slices.Sorted(maps.Keys(tagSet)), words: slices.Sorted(maps.Keys(wordSet))}
	tags, words := seq.Index(sp.states), seq.Index(sp.words)
	T := len(sp.states)
	index := func(t string) int {
		if t == boundary {
			return T
		}
		return tags[t]
	}
	c := newCounts(T)
	for k, n := range a.trans {
		c.trans[c.tri(index(k[0]), index(k[1]), index(k[2]))] = n
	}
	c.emit = make([]emission, 0, len(a.emit))
	for k, n := range a.emit {
		c.emit = append(c.emit, emission{Word: int32(words[k.word]), Tag: int32(tags[k.tag]), N: n})
	}
	sortEmissions(c.emit)
	c.ctx = make([]contextCount, 0, len(a.ctx))
	for k, n := range a.ctx {
		c.ctx = append(c.ctx, contextCount{Word: int32(words[k.word]), Prev: int32(index(k.prev)), Tag: int32(tags[k.tag]), N: n})
	}
	sortContexts(c.ctx)
	return sp, c
}

// sortContexts sorts context counts by word, tag and previous tag.
func sortContexts(ctx []contextCount) {
	slices.SortFunc(ctx, func(x, y contextCount) int {
		return cmp.Or(cmp.Compare(x.Word, y.Word), cmp.Compare(x.Tag, y.Tag), cmp.Compare(x.Prev, y.Prev))
	})
}

// sortEmissions sorts emissions by word and tag.
func sortEmissions(emit []emission) {
	slices.SortFunc(emit, func(x, y emission) int { return cmp.Or(cmp.Compare(x.Word, y.Word), cmp.Compare(x.Tag, y.Tag)) })
}

// accumulator returns the accumulator of the counts c over sp.
func accumulator(cfg Config, sp space, c *counts) *Accumulator {
	a := &Accumulator{cfg: cfg, trans: map[trigram]float64{}, emit: make(map[wordTag]float64, len(c.emit)), ctx: make(map[wordContext]float64, len(c.ctx))}
	a.add(sp, c)
	return a
}

// add adds the counts c over sp to a's.
func (a *Accumulator) add(sp space, c *counts) {
	name := func(t int) string {
		if t == c.T {
			return boundary
		}
		return sp.states[t]
	}
	for i, n := range c.trans {
		if n != 0 {
			t := i % (c.T + 1)
			b := i / (c.T + 1) % (c.T + 1)
			a.trans[trigram{name(i / (c.T + 1) / (c.T + 1)), name(b), name(t)}] += n
		}
	}
	for _, e := range c.emit {
		a.emit[wordTag{sp.words[e.Word], sp.states[e.Tag]}] += e.N
	}
	for _, e := range c.ctx {
		a.ctx[wordContext{sp.words[e.Word], name(int(e.Prev)), sp.states[e.Tag]}] += e.N
	}
}
