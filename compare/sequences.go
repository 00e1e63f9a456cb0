package compare

import (
	"context"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/seq"
)

// Learning curves on sequence data (RunSequences) follow the scheme of
// Run with sentences in place of rows:
//
//   - the training-set size m is a number of training sentences; the
//     default grid (DefaultSequenceSizes) is Geometric from
//     MinSequenceSize (50) sentences to 90% of them, the other 10% at least
//     being left for the test set (Config.MaxSize does not apply);
//   - a split draws m sentences at random without stratification (PCG
//     seeded as for tables); the test set is the held-out sentences in the
//     same random order, taken while their tokens add up to at most
//     Config.MaxTest (5000 tokens by default; always at least one
//     sentence);
//   - the error is the token error rate, 1 − token accuracy, over the
//     test set's tokens; a fit that fails scores the most frequent tag of
//     the training tokens (a fallback).

// MinSequenceSize is the smallest size of the default grid of sequence
// tasks, in sentences.
const MinSequenceSize = 50

// SequenceTask is a data set of tagged sentences.
type SequenceTask struct {
	Name      string
	Sentences []seq.Sentence
}

// SequenceLearner is a model of sentences: a sequence tagger, or a
// classifier of single tokens (TokenLearner). Its fields are Learner's
// but for Fit, which fits it on tagged training sentences.
type SequenceLearner struct {
	Name     string
	Family   Family
	Style    Style
	Settings string
	// Fit fits the learner on training sentences; it is called from
	// several goroutines at once.
	Fit func(train []seq.Sentence) (SentenceTagger, error)
}

// SentenceTagger tags sentences: TagAll returns the tags of each
// sentence's tokens, nil for a sentence it cannot tag. gendisc.Tagger is
// one.
type SentenceTagger interface {
	TagAll(sentences [][]string) [][]string
}

// DefaultSequenceSizes returns the default grid of a task of n sentences:
// Geometric(min(MinSequenceSize, hi), hi, DefaultPoints) with hi = ⌊0.9 n⌋.
func DefaultSequenceSizes(n int) []int {
	hi := n * 9 / 10
	return Geometric(min(MinSequenceSize, hi), hi, DefaultPoints)
}

// RunSequences draws the learning curves of sequence learners on tasks of
// tagged sentences, with the settings of cfg (Sizes in sentences, MaxTest
// in tokens), and returns them as Run does, so that the result's reports
// and summaries are those of tables.
func RunSequences(ctx context.Context, tasks []SequenceTask, learners []SequenceLearner, cfg Config) (*Result, error) {
	if err := checkNames(len(learners), func(i int) (string, bool) { return learners[i].Name, learners[i].Fit != nil }); err != nil {
		return nil, err
	}
	// infos describe the learners to the summaries, which do not fit.
	infos := make([]Learner, len(learners))
	for l, ln := range learners {
		infos[l] = Learner{Name: ln.Name, Family: ln.Family, Style: ln.Style, Settings: ln.Settings}
	}
	if len(tasks) == 0 {
		return nil, fmt.Errorf("compare: no tasks")
	}
	plans := make([]*taskPlan, len(tasks))
	for t, task := range tasks {
		n := len(task.Sentences)
		sizes := DefaultSequenceSizes(n)
		if cfg.Sizes != nil {
			sizes = nil
			for _, m := range cfg.Sizes {
				if m >= 1 && m < n && !slices.Contains(sizes, m) {
					sizes = append(sizes, m)
				}
			}
			slices.Sort(sizes)
		}
		if len(sizes) == 0 {
			return nil, fmt.Errorf("compare: %s: no training-set size fits %d sentences (a size leaves at least one sentence for the test set)", task.Name, n)
		}
		var tags []string
		for _, s := range task.Sentences {
			if !s.Tagged() {
				return nil, fmt.Errorf("compare: %s: line %d: a sentence without tags", task.Name, s.Line)
			}
			tags = append(tags, s.Tags...)
		}
		slices.Sort(tags)
		plans[t] = &taskPlan{name: task.Name, classes: slices.Compact(tags), rows: n, cost: 1, sizes: sizes,
			score: func(rng *rand.Rand, m int, errs []float64, fell, warned []bool, _ [][]float64) error {
				scoreSequenceSplit(rng, task.Sentences, m, learners, cfg.maxTest(), errs, fell, warned)
				return nil
			}}
	}
	res, err := runPlans(ctx, plans, infos, cfg)
	if err != nil {
		return nil, err
	}
	res.Unit = "sentences"
	return res, nil
}

// scoreSequenceSplit draws m training sentences of all at random and the
// test sentences (at most maxTest tokens, maxTest ≤ 0 for no cap, and
// one sentence at least), fits every learner and stores its token error.
func scoreSequenceSplit(rng *rand.Rand, all []seq.Sentence, m int, learners []SequenceLearner, maxTest int, errs []float64, fell, warned []bool) {
	perm := rng.Perm(len(all))
	train := make([]seq.Sentence, m)
	for i, k := range perm[:m] {
		train[i] = all[k]
	}
	var test []seq.Sentence
	tokens := 0
	for _, k := range perm[m:] {
		s := all[k]
		if len(test) > 0 && maxTest > 0 && tokens+len(s.Tokens) > maxTest {
			break
		}
		test = append(test, s)
		tokens += len(s.Tokens)
	}
	words := make([][]string, len(test))
	for i, s := range test {
		words[i] = s.Tokens
	}
	for l, ln := range learners {
		tagger, err := ln.Fit(train)
		if err != nil {
			errs[l], fell[l] = tokenErrorRate(test, nil, majorityTag(train)), true
			continue
		}
		warned[l] = warns(tagger)
		errs[l] = tokenErrorRate(test, tagger.TagAll(words), "")
	}
}

// majorityTag is the most frequent tag of the training tokens (the first
// in sorted order among ties).
func majorityTag(train []seq.Sentence) string {
	counts := map[string]int{}
	for _, s := range train {
		for _, t := range s.Tags {
			counts[t]++
		}
	}
	best := ""
	for t, c := range counts {
		if c > counts[best] || c == counts[best] && t < best {
			best = t
		}
	}
	return best
}

// tokenErrorRate is the fraction of the tokens of test whose tag is not
// the predicted one: predicted[i] for sentence i (a nil entry, a sentence
// the tagger refused, counts every token wrong), or the tag fallback for
// every token when predicted is nil.
func tokenErrorRate(test []seq.Sentence, predicted [][]string, fallback string) float64 {
	wrong, n := 0, 0
	for i, s := range test {
		for j, t := range s.Tags {
			n++
			switch {
			case predicted == nil:
				if t != fallback {
					wrong++
				}
			case predicted[i] == nil || predicted[i][j] != t:
				wrong++
			}
		}
	}
	return float64(wrong) / float64(n)
}

// TokenFeatureColumn is the name of the text column of TokenTable.
const TokenFeatureColumn = "token_features"

// TokenTable returns the table of the tokens of sentences, one row per
// token, with one text column whose terms are the token's features,
// ignoring its neighbours: the lower-cased word, its suffixes of 1, 2 and
// 3 letters, and "cap", "digit" and "hyphen" when the word begins with a
// capital, has a digit or a hyphen. The word and suffixes are written in
// hexadecimal after a letter (w, a, b, c), so that the text tokenizer
// keeps each one a single term. The target is the tag, with tags as
// levels (the tag set of sentences, sorted).
func TokenTable(sentences []seq.Sentence, tags []string) *data.Dataset {
	level := seq.Index(tags)
	var docs []string
	var y []float64
	for _, s := range sentences {
		for i, w := range s.Tokens {
			docs = append(docs, tokenFeatures(w))
			if s.Tags != nil {
				y = append(y, float64(level[s.Tags[i]]))
			}
		}
	}
	d := &data.Dataset{N: len(docs), X: make([]float64, len(docs)), Y: y, Text: [][]string{docs},
		Schema: &data.Schema{Features: []data.Column{{Name: TokenFeatureColumn, Kind: data.Text}},
			Target: &data.Column{Name: "tag", Kind: data.Categorical, Levels: tags}}}
	for i := range d.X {
		d.X[i] = math.NaN()
	}
	return d
}

// tokenFeatures returns the terms of TokenTable for the word w.
func tokenFeatures(w string) string {
	lower := strings.ToLower(w)
	r := []rune(lower)
	terms := []string{"w" + hex.EncodeToString([]byte(lower))}
	for k, p := range []string{"a", "b", "c"} {
		if len(r) > k {
			terms = append(terms, p+hex.EncodeToString([]byte(string(r[len(r)-k-1:]))))
		}
	}
	if first := []rune(w); len(first) > 0 && unicode.IsUpper(first[0]) {
		terms = append(terms, "cap")
	}
	if strings.ContainsFunc(w, unicode.IsDigit) {
		terms = append(terms, "digit")
	}
	if strings.Contains(w, "-") {
		terms = append(terms, "hyphen")
	}
	return strings.Join(terms, " ")
}

// TokenLearner returns the sequence learner that fits a classifier of
// single tokens (fit, on TokenTable of the training sentences) and tags
// each token of a sentence by itself, ignoring the sequence: the
// per-token baseline that shows what a tagger's sequence structure adds.
func TokenLearner(name string, family Family, settings string, fit func(d *data.Dataset) (gendisc.Classifier, error)) SequenceLearner {
	return SequenceLearner{Name: name, Family: family, Settings: settings,
		Fit: func(train []seq.Sentence) (SentenceTagger, error) {
			tags := seq.NewSchema(train).Tags
			c, err := fit(TokenTable(train, tags))
			if err != nil {
				return nil, err
			}
			return &tokenTagger{Classifier: c, tags: tags}, nil
		}}
}

// tokenTagger tags each token by itself with a classifier of TokenTable's
// rows: the class of largest log-probability (the first among ties).
type tokenTagger struct {
	gendisc.Classifier
	tags []string
}

// TagAll tags every token of sentences.
func (t *tokenTagger) TagAll(sentences [][]string) [][]string {
	ss := make([]seq.Sentence, len(sentences))
	for i, words := range sentences {
		ss[i].Tokens = words
	}
	classes := t.Classes()
	K := len(classes)
	lp := t.LogProba(nil, TokenTable(ss, t.tags))
	out := make([][]string, len(sentences))
	row := 0
	for i, words := range sentences {
		out[i] = make([]string, len(words))
		for j := range words {
			best := -1
			for k, v := range lp[row*K : (row+1)*K] {
				if !math.IsNaN(v) && (best < 0 || v > lp[row*K+best]) {
					best = k
				}
			}
			if best >= 0 {
				out[i][j] = classes[best]
			}
			row++
		}
	}
	return out
}
