package crf

import (
	"errors"

	"github.com/gendisc/gendisc/seq"
)

// A model trained on sentences given as attributes (CRFsuite's data
// format, read by package seqio into seq.Sentence's Attributes) has no
// templates: it tags sentences given as attributes, and a model trained
// on words (FitTokens) tags words. Each refuses the other, since the
// attributes of one are not those of the other (gendisc.AttributeTagger).

// OnAttributes reports whether the model was trained on sentences given
// as attributes rather than words: whether it has no templates.
func (m *Model) OnAttributes() bool { return m.templates == nil }

// TagAttributes returns the most probable tags of a sentence given as the
// attributes of its tokens (Tag): an error for a model trained on words
// or a sentence without tokens.
func (m *Model) TagAttributes(attrs [][]seq.Attribute) ([]string, error) {
	if err := m.checkAttributes(attrs); err != nil {
		return nil, err
	}
	return m.Tag(itemsOf(attrs)), nil
}

// AttributeMarginals returns the marginals P(y_t = y | x) of a sentence
// given as the attributes of its tokens, rows as TokenMarginals's: an
// error for a model trained on words or a sentence without tokens.
func (m *Model) AttributeMarginals(attrs [][]seq.Attribute) ([][]float64, error) {
	if err := m.checkAttributes(attrs); err != nil {
		return nil, err
	}
	return m.sortedMarginals(itemsOf(attrs)), nil
}

// LogProbAttributeTags returns log p(tags | x) of a tagged sentence given
// as the attributes of its tokens (LogProb): an error for a model trained
// on words, and LogProb's.
func (m *Model) LogProbAttributeTags(attrs [][]seq.Attribute, tags []string) (float64, error) {
	if m.templates != nil {
		return 0, errOnWords
	}
	return m.LogProb(Sequence{Items: itemsOf(attrs), Labels: tags})
}

// checkAttributes returns the error of tagging attrs: a model trained on
// words, or no tokens.
func (m *Model) checkAttributes(attrs [][]seq.Attribute) error {
	if m.templates != nil {
		return errOnWords
	}
	if len(attrs) == 0 {
		return errors.New("a sentence without tokens")
	}
	return nil
}

// errOnWords is the error of tagging attributes with a model trained on
// words, whose templates make its attributes.
var errOnWords = errors.New("the model was trained on words, its attributes made by its feature templates: tag words, not given attributes")

// Attributes returns the attributes that tp makes of the tokens of a
// sentence (Items), as a sentence given as attributes holds them, which
// package seqio writes in CRFsuite's data format: a model trained on
// them is the model trained on the tokens with tp.
func (tp *Templates) Attributes(tokens []string) [][]seq.Attribute {
	items := tp.Items(tokens)
	attrs := make([][]seq.Attribute, len(items))
	for t, item := range items {
		attrs[t] = item
	}
	return attrs
}
