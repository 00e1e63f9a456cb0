// Package seqeval evaluates sequence taggers: token accuracy, accuracy on
// the words that the tagger did not see in training, sentence accuracy,
// per-tag precision, recall and F1 with the confusion matrix, and, for
// tags of spans in BIO/IOB form (named entities, chunks), span-level
// precision, recall and F1 exactly as the CoNLL shared tasks' conlleval
// script computes them.
package seqeval

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Report is the token-level evaluation of predicted tags against the
// true ones.
type Report struct {
	Tokens, Correct int
	Accuracy        float64
	// Unknown counts the tokens that the tagger did not see in training
	// (when Evaluate was given known), UnknownCorrect those tagged
	// right; UnknownAccuracy is NaN when there are none.
	Unknown, UnknownCorrect int
	UnknownAccuracy         float64
	// Sentences counts the sentences, SentencesCorrect those whose every
	// tag is right.
	Sentences, SentencesCorrect int
	SentenceAccuracy            float64
	// Tags are the tags of the truth and the predictions, sorted; PerTag
	// and Confusion follow their order.
	Tags   []string
	PerTag []TagMetrics
	// Confusion[i][j] counts the tokens of true tag Tags[i] predicted
	// as Tags[j].
	Confusion [][]int
}

// TagMetrics are the precision, recall and F1 of one tag over tokens.
type TagMetrics struct {
	Tag                   string
	Precision, Recall, F1 float64 // NaN for 0/0
	Support               int     // true tokens of the tag
}

// ErrLength is wrapped by the errors of truth and predictions that do
// not line up.
var ErrLength = errors.New("the predictions do not line up with the truth")

// Evaluate compares the predicted tags of sentences with the true ones
// (pred[i][j] and truth[i][j], for token j of sentence i). When known is
// not nil, tokens[i][j] is the token and known tells whether the tagger
// saw it in training, for the accuracy on unknown words; tokens may be nil
// otherwise.
func Evaluate(truth, pred, tokens [][]string, known func(string) bool) (*Report, error) {
	if err := lineUp(truth, pred); err != nil {
		return nil, err
	}
	if known != nil {
		if err := lineUp(truth, tokens); err != nil {
			return nil, fmt.Errorf("tokens: %w", err)
		}
	}
	r := &Report{Sentences: len(truth)}
	set := map[string]bool{}
	for i := range truth {
		for j := range truth[i] {
			set[truth[i][j]], set[pred[i][j]] = true, true
		}
	}
	for t := range set {
		r.Tags = append(r.Tags, t)
	}
	slices.Sort(r.Tags)
	index := make(map[string]int, len(r.Tags))
	for i, t := range r.Tags {
		index[t] = i
	}
	r.Confusion = make([][]int, len(r.Tags))
	for i := range r.Confusion {
		r.Confusion[i] = make([]int, len(r.Tags))
	}
	for i := range truth {
		all := true
		for j, t := range truth[i] {
			p := pred[i][j]
			r.Tokens++
			r.Confusion[index[t]][index[p]]++
			right := t == p
			if right {
				r.Correct++
			} else {
				all = false
			}
			if known != nil && !known(tokens[i][j]) {
				r.Unknown++
				if right {
					r.UnknownCorrect++
				}
			}
		}
		if all {
			r.SentencesCorrect++
		}
	}
	r.Accuracy = ratio(r.Correct, r.Tokens)
	r.UnknownAccuracy = ratio(r.UnknownCorrect, r.Unknown)
	r.SentenceAccuracy = ratio(r.SentencesCorrect, r.Sentences)
	for i, t := range r.Tags {
		tp, predicted, support := r.Confusion[i][i], 0, 0
		for j := range r.Tags {
			predicted += r.Confusion[j][i]
			support += r.Confusion[i][j]
		}
		p, rc := ratio(tp, predicted), ratio(tp, support)
		r.PerTag = append(r.PerTag, TagMetrics{Tag: t, Precision: p, Recall: rc, F1: f1(p, rc), Support: support})
	}
	return r, nil
}

// lineUp returns an error unless a and b have the same number of
// sentences, each of the same length.
func lineUp(a, b [][]string) error {
	if len(a) != len(b) {
		return fmt.Errorf("%w: %d sentences, %d true", ErrLength, len(b), len(a))
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return fmt.Errorf("%w: sentence %d has %d tags, %d true", ErrLength, i+1, len(b[i]), len(a[i]))
		}
	}
	return nil
}

// ratio returns a/b, NaN for 0/0.
func ratio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

// f1 returns the harmonic mean of p and r, 0 when both are 0, NaN when
// either is NaN.
func f1(p, r float64) float64 {
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}
