package crf

import (
	"fmt"
	"maps"
	"slices"
)

// A model trained on words keeps them, the distinct tokens of its
// training sentences, so that eval reports the accuracy on the words it
// never saw, as for an HMM (gendisc.OptionalVocabulary). The model file
// holds them sorted ("vocabulary"), as exact strings rather than hashes
// (which would be as long in JSON, and could collide): on the English Web
// Treebank's training part 19,674 words, 221 KB of a 7.7 MB model file
// (gendisc fit --model crf --data ud_english_ewt --perceptron --epochs 1).
// A model trained on items has none, and a model file written before
// models kept them loads without: its accuracy on unknown words is
// undefined.

// Known reports whether word was a token of the training sentences
// (gendisc.Vocabulary); false for every word of a model without a
// vocabulary (HasVocabulary).
func (m *Model) Known(word string) bool {
	_, ok := m.vocabulary[word]
	return ok
}

// HasVocabulary reports whether the model knows the words of its
// training sentences.
func (m *Model) HasVocabulary() bool { return m.vocabulary != nil }

// setVocabulary makes the distinct tokens of sentences the model's
// vocabulary.
func (m *Model) setVocabulary(sentences [][]string) {
	m.vocabulary = map[string]struct{}{}
	for _, s := range sentences {
		for _, w := range s {
			m.vocabulary[w] = struct{}{}
		}
	}
}

// words returns the vocabulary sorted, nil without one.
func (m *Model) words() []string {
	if m.vocabulary == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(m.vocabulary))
}

// readVocabulary sets the vocabulary of a model file's words, which must
// be sorted and distinct, and belong to a model with templates.
func (m *Model) readVocabulary(words []string) error {
	if words == nil {
		return nil
	}
	if m.templates == nil {
		return fmt.Errorf("a vocabulary without templates: a model trained on items has no words")
	}
	for i := 1; i < len(words); i++ {
		if words[i-1] >= words[i] {
			return fmt.Errorf("vocabulary: %q before %q: want sorted distinct words", words[i-1], words[i])
		}
	}
	m.vocabulary = make(map[string]struct{}, len(words))
	for _, w := range words {
		m.vocabulary[w] = struct{}{}
	}
	return nil
}
