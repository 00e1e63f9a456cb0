package design

import (
	"fmt"
	"math"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/text"
)

// New returns the encoder of schema s with the given dense columns and,
// for the text features in order, their vocabularies: the encoder Fit
// would return for data whose statistics gave these terms, for fits that
// gather the statistics themselves (in parts, merged). It returns an
// error when a term names no feature or level of s, when its numbers are
// not finite or its scale not positive, or when the vocabularies do not
// match the text features.
func New(s *data.Schema, terms []Term, vocabularies []*text.Vocabulary) (*Encoder, error) {
	e := &Encoder{schema: s, terms: append([]Term(nil), terms...)}
	for t, term := range terms {
		if term.Feature < 0 || term.Feature >= len(s.Features) {
			return nil, fmt.Errorf("design: column %d: no feature %d", t, term.Feature)
		}
		c := &s.Features[term.Feature]
		switch {
		case c.Kind == data.Text:
			return nil, fmt.Errorf("design: column %d: text feature %q as a dense column", t, c.Name)
		case (term.Level >= 0) != (c.Kind == data.Categorical) || term.Level >= len(c.Levels):
			return nil, fmt.Errorf("design: column %d: level %d of %s feature %q", t, term.Level, c.Kind, c.Name)
		}
		for _, v := range []float64{term.Center, term.Scale, term.Fill} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("design: column %d (%s): non-finite number", t, c.Name)
			}
		}
		if !(term.Scale > 0) {
			return nil, fmt.Errorf("design: column %d (%s): scale %v is not positive", t, c.Name, term.Scale)
		}
	}
	for j, c := range s.Features {
		if c.Kind != data.Text {
			continue
		}
		if len(e.text) == len(vocabularies) || vocabularies[len(e.text)] == nil {
			return nil, fmt.Errorf("design: no vocabulary for text feature %q", c.Name)
		}
		e.text = append(e.text, textColumn{feature: j, vocab: vocabularies[len(e.text)], offset: e.V()})
	}
	if len(e.text) != len(vocabularies) {
		return nil, fmt.Errorf("design: %d vocabularies for %d text features", len(vocabularies), len(e.text))
	}
	e.setDense()
	return e, nil
}
