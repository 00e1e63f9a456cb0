// Package seq holds the types of sequence data: sentences of tokens with
// one tag per token (parts of speech, chunks, named entities in BIO
// form), a corpus of them, and the schema that a sequence model keeps of
// its training data, the tag set and the vocabulary. It imports only the
// standard library; the readers of the file formats are package seqio.
package seq

import (
	"slices"
)

// Sentence is one sequence: its tokens and, in tagged data, one tag per
// token. Tags is nil for an untagged sentence.
type Sentence struct {
	// ID names the sentence: CoNLL-U's "# sent_id = ..." comment, a JSON
	// line's "id", or "" when the file gives none.
	ID string
	// Line is the line of the sentence's first token in its file, from 1
	// (0 when the sentence was not read from a file).
	Line   int
	Tokens []string
	Tags   []string
	// Attributes are the attributes of each token of a sentence given as
	// attributes rather than words (CRFsuite's data format), whose Tokens
	// are nil; nil for a sentence of words.
	Attributes [][]Attribute
}

// Tagged reports whether the sentence has its tags.
func (s Sentence) Tagged() bool { return s.Tags != nil }

// Corpus is the sentences of a data set, in the order of its file.
type Corpus struct {
	Source    string // the file's name, or the bundled set's, for errors
	Sentences []Sentence
}

// Tokens returns the number of tokens in the corpus (Sentence.Len).
func (c *Corpus) Tokens() int {
	n := 0
	for _, s := range c.Sentences {
		n += s.Len()
	}
	return n
}

// Tagged returns the tagged sentences of the corpus, and Untagged the
// others; both share the sentences' slices with c.
func (c *Corpus) Tagged() []Sentence {
	return slices.DeleteFunc(slices.Clone(c.Sentences), func(s Sentence) bool { return !s.Tagged() })
}

// Untagged returns the sentences of the corpus without tags.
func (c *Corpus) Untagged() []Sentence {
	return slices.DeleteFunc(slices.Clone(c.Sentences), Sentence.Tagged)
}

// Schema is what a sequence model keeps of its training data and stores
// in its model file: the tag set and the vocabulary, each sorted and
// without repetition, so that an index into them is a tag's or a word's
// number in the model's parameters.
type Schema struct {
	Tags  []string `json:"tags"`
	Words []string `json:"words"`
}

// NewSchema returns the schema of sentences: the tags of the tagged
// sentences and the words of all, sorted.
func NewSchema(sentences []Sentence) *Schema {
	tags, words := map[string]bool{}, map[string]bool{}
	for _, s := range sentences {
		for _, w := range s.Tokens {
			words[w] = true
		}
		for _, t := range s.Tags {
			tags[t] = true
		}
	}
	return &Schema{Tags: sortedKeys(tags), Words: sortedKeys(words)}
}

// Union returns the schema of both s and o: the union of their tags and
// of their words, sorted.
func (s *Schema) Union(o *Schema) *Schema {
	return &Schema{Tags: union(s.Tags, o.Tags), Words: union(s.Words, o.Words)}
}

// Index returns a map from each of names to its position.
func Index(names []string) map[string]int {
	m := make(map[string]int, len(names))
	for i, n := range names {
		m[n] = i
	}
	return m
}

// Sorted reports whether names are sorted and distinct, as a Schema's
// tags and words must be.
func Sorted(names []string) bool {
	for i := 1; i < len(names); i++ {
		if names[i-1] >= names[i] {
			return false
		}
	}
	return true
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func union(a, b []string) []string {
	return slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(a), b...))))
}

// Prompt is the beginning of a sentence that a generative tagger samples:
// words, which the model tags, or tags, for which it draws words; not
// both.
type Prompt struct {
	Words []string
	Tags  []string
}
