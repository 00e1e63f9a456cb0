package cli

import (
	"fmt"
	"reflect"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/registry"
	"github.com/gendisc/gendisc/seq"
)

// Sentences come as words (CoNLL-U, columns, JSON lines) or given as the
// attributes of their tokens (CRFsuite's data format, --seq-format
// crfsuite or a .crfsuite file). A model trained on words tags words; a
// model trained on given attributes (gendisc.AttributeTagger whose
// OnAttributes is true) tags such attributes; predict, eval and score
// refuse the other input with one line, and fit, update and compare
// refuse attributes for a kind whose models do not read them (hmm).

// attributeTaggerType is the capability of reading given attributes.
var attributeTaggerType = reflect.TypeFor[gendisc.AttributeTagger]()

// checkKindReads returns the error of fitting the kind k to the sentences
// of c: sentences given as attributes for a kind of words.
func checkKindReads(k *registry.Kind, c *seq.Corpus) error {
	if c.GivenAttributes() && !k.Type.Implements(attributeTaggerType) {
		return fmt.Errorf("%s: sentences given as attributes (CRFsuite's data format), but --model %s reads words", c.Source, k.Name)
	}
	return nil
}

// sentenceTagger tags sentences as its model reads them: by their words
// (Tagger), or by their attributes (attrs, not nil, for a model trained
// on given attributes).
type sentenceTagger struct {
	gendisc.Tagger
	attrs gendisc.AttributeTagger
}

// newSentenceTagger returns the sentenceTagger of t for the sentences of
// c, or the error of sentences given as the model does not read them
// (model names the model file).
func newSentenceTagger(model string, t gendisc.Tagger, c *seq.Corpus) (sentenceTagger, error) {
	at, ok := t.(gendisc.AttributeTagger)
	onAttributes := ok && at.OnAttributes()
	switch {
	case c.GivenAttributes() && !onAttributes:
		return sentenceTagger{}, fmt.Errorf("%s: sentences given as attributes (CRFsuite's data format), but %s was trained on words: give it words", c.Source, model)
	case !c.GivenAttributes() && onAttributes:
		return sentenceTagger{}, fmt.Errorf("%s: sentences of words, but %s was trained on given attributes: give it sentences in CRFsuite's data format (--seq-format crfsuite)", c.Source, model)
	case onAttributes:
		return sentenceTagger{Tagger: t, attrs: at}, nil
	}
	return sentenceTagger{Tagger: t}, nil
}

// marginals returns the posterior marginals of the tags of s, or nil
// when the model has none (hasMarginals is false).
func (st sentenceTagger) marginals(s seq.Sentence) ([][]float64, error) {
	if st.attrs != nil {
		return st.attrs.AttributeMarginals(s.Attributes)
	}
	return st.Tagger.(gendisc.MarginalTagger).TokenMarginals(s.Tokens)
}

// hasMarginals reports whether the model has posterior marginals.
func (st sentenceTagger) hasMarginals() bool {
	_, ok := st.Tagger.(gendisc.MarginalTagger)
	return ok || st.attrs != nil
}

// conditional returns log p(tags | sentence) of the tagged sentence s for
// a discriminative tagger, and whether the model is one.
func (st sentenceTagger) conditional() (func(s seq.Sentence) (float64, error), bool) {
	if st.attrs != nil {
		return func(s seq.Sentence) (float64, error) { return st.attrs.LogProbAttributeTags(s.Attributes, s.Tags) }, true
	}
	cond, ok := st.Tagger.(gendisc.ConditionalTagScorer)
	if !ok {
		return nil, false
	}
	return func(s seq.Sentence) (float64, error) { return cond.LogProbTags(s.Tokens, s.Tags) }, true
}
