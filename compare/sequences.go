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
//   - a task with test sentences of its own (SequenceTask.Test, such as a
//     treebank's development part) trains on up to all of its Sentences
//     (the default grid then ends at all of them) and tests split s of
//     every size on part s of a random partition of Test into Splits
//     parts of about equal numbers of tokens (testParts), whatever
//     MaxTest: the splits' test sets are disjoint and together make up
//     Test. At m = all the training sets of the splits hold the same
//     sentences, so there the splits differ in their test parts alone,
//     which are independent: the paired test compares the two models
//     fitted on all the sentences over independent samples of test
//     sentences, instead of repeating one figure Splits times (which
//     would make any difference "significant");
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
	// Test, when not nil, holds the test sentences: the training sets
	// are drawn from Sentences (up to all of them) and split s tests on
	// part s of Test (see above); TestName names them in the reports.
	Test     []seq.Sentence
	TestName string
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
// Geometric(min(MinSequenceSize, hi), hi, DefaultPoints) with hi = ⌊0.9 n⌋,
// or hi = n when the task has test sentences of its own (heldOut false).
func DefaultSequenceSizes(n int, heldOut bool) []int {
	hi := n
	if heldOut {
		hi = n * 9 / 10
	}
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
		heldOut := task.Test == nil
		largest := n // the largest size: all sentences, or all but one
		if heldOut {
			largest = n - 1
		}
		sizes := DefaultSequenceSizes(n, heldOut)
		if cfg.Sizes != nil {
			sizes = nil
			for _, m := range cfg.Sizes {
				if m >= 1 && m <= largest && !slices.Contains(sizes, m) {
					sizes = append(sizes, m)
				}
			}
			slices.Sort(sizes)
		}
		if len(sizes) == 0 {
			if heldOut {
				return nil, fmt.Errorf("compare: %s: no training-set size fits %d sentences (a size leaves at least one sentence for the test set)", task.Name, n)
			}
			return nil, fmt.Errorf("compare: %s: no training-set size fits %d sentences", task.Name, n)
		}
		tags, err := sequenceTags(task)
		if err != nil {
			return nil, err
		}
		var parts [][]seq.Sentence
		if !heldOut {
			if len(task.Test) < cfg.splits() {
				return nil, fmt.Errorf("compare: %s: %d tagged test sentences for %d splits: each split tests on sentences of its own", task.Name, len(task.Test), cfg.splits())
			}
			parts = testParts(newSplitRand(cfg.Seed, t, 0, 0), task.Test, cfg.splits())
		}
		plans[t] = &taskPlan{name: task.Name, classes: tags, rows: n, tests: len(task.Test), cost: 1, sizes: sizes,
			score: func(rng *rand.Rand, m, split int, errs []float64, fell, warned []bool, _ [][]float64) error {
				train, test := heldOutSplit(rng, task.Sentences, m, cfg.maxTest())
				if parts != nil {
					test = parts[split]
				}
				scoreSequenceSplit(train, test, learners, errs, fell, warned)
				return nil
			}}
	}
	res, err := runPlans(ctx, plans, infos, cfg)
	if err != nil {
		return nil, err
	}
	res.Unit = "sentences"
	for t, task := range tasks {
		res.Tasks[t].TestName, res.Tasks[t].TestRows = task.TestName, len(task.Test)
	}
	return res, nil
}

// sequenceTags returns the sorted tags of the sentences of task, its test
// sentences included, or an error naming the line of an untagged one.
func sequenceTags(task SequenceTask) ([]string, error) {
	var tags []string
	for k, ss := range [][]seq.Sentence{task.Sentences, task.Test} {
		for _, s := range ss {
			if !s.Tagged() {
				name := task.Name
				if k == 1 && task.TestName != "" {
					name = task.TestName
				}
				return nil, fmt.Errorf("compare: %s: line %d: a sentence without tags", name, s.Line)
			}
			tags = append(tags, s.Tags...)
		}
	}
	slices.Sort(tags)
	return slices.Compact(tags), nil
}

// testParts cuts test, in the random order of rng, into k parts of about
// equal numbers of tokens: sentence i goes to part ⌊k (c_i + t_i/2) / T⌋,
// where t_i is its tokens, c_i those of the sentences before it and T the
// total, so that a part holds the sentences whose middle falls in its
// k-th of the tokens. The caller makes sure that len(test) ≥ k; a part
// that got no sentence (possible only with sentences much longer than
// the others) takes one from the largest part.
func testParts(rng *rand.Rand, test []seq.Sentence, k int) [][]seq.Sentence {
	perm := rng.Perm(len(test))
	total := 0
	for _, s := range test {
		total += len(s.Tokens)
	}
	parts := make([][]seq.Sentence, k)
	c := 0
	for _, i := range perm {
		t := len(test[i].Tokens)
		p := min(int(float64(k)*(float64(c)+float64(t)/2)/float64(max(total, 1))), k-1)
		parts[p] = append(parts[p], test[i])
		c += t
	}
	for p := range parts {
		if len(parts[p]) > 0 {
			continue
		}
		big := 0
		for q := range parts {
			if len(parts[q]) > len(parts[big]) {
				big = q
			}
		}
		last := len(parts[big]) - 1
		parts[p], parts[big] = append(parts[p], parts[big][last]), parts[big][:last]
	}
	return parts
}

// heldOutSplit draws m training sentences of all at random and the test
// sentences, the held-out ones in the same random order while their
// tokens add up to at most maxTest (maxTest ≤ 0 for no cap; one sentence
// at least, when one is left).
func heldOutSplit(rng *rand.Rand, all []seq.Sentence, m, maxTest int) (train, test []seq.Sentence) {
	perm := rng.Perm(len(all))
	train = make([]seq.Sentence, m)
	for i, k := range perm[:m] {
		train[i] = all[k]
	}
	tokens := 0
	for _, k := range perm[m:] {
		s := all[k]
		if len(test) > 0 && maxTest > 0 && tokens+len(s.Tokens) > maxTest {
			break
		}
		test = append(test, s)
		tokens += len(s.Tokens)
	}
	return train, test
}

// scoreSequenceSplit fits every learner on the training sentences and
// stores its token error on the test sentences.
func scoreSequenceSplit(train, test []seq.Sentence, learners []SequenceLearner, errs []float64, fell, warned []bool) {
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
// the predicted one: predicted[i] for sentence i (a missing entry or one
// of another length than the sentence, such as nil for a sentence the
// tagger refused, counts every token wrong), or the tag fallback for
// every token when predicted is nil.
func tokenErrorRate(test []seq.Sentence, predicted [][]string, fallback string) float64 {
	wrong, n := 0, 0
	for i, s := range test {
		refused := predicted != nil && (i >= len(predicted) || len(predicted[i]) != len(s.Tags))
		for j, t := range s.Tags {
			n++
			switch {
			case predicted == nil:
				if t != fallback {
					wrong++
				}
			case refused || predicted[i][j] != t:
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
