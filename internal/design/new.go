package design

import (
	"fmt"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/text"
)

// New returns the encoder of schema s with the given dense columns and,
// for the text features in order, their vocabularies: the encoder Fit
// would return for data whose statistics gave these terms, for fits that
// gather the statistics themselves (in parts, merged). It returns an
// error when a term names no feature or level of s, when its centre or
// fill lies beyond ±Bound or its scale outside [1/Bound, Bound], or when
// the vocabularies do not match the text features.
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
		if err := term.check(); err != nil {
			return nil, fmt.Errorf("design: column %d (%s): %w", t, c.Name, err)
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

// Bound bounds the parameters of a design column and the coefficients of
// the models on the design (logistic, linear): centres, fills and
// coefficients at most Bound in magnitude, scales in [1/Bound, Bound].
// Then every row whose numbers are at most Bound in magnitude has
// standardised values below 2·Bound² = 2e200 and, with coefficients of
// the bound, a score Σ_t w_t z_t + b below 2e300 per term: finite for
// designs of up to 1e7 columns. No fit of data of sensible units comes
// near the bound; Fit refuses a column whose mean or standard deviation
// lies beyond it, and a model file that holds such values is refused.
const Bound = 1e100

// The domains of the parameters of a design column and of a coefficient.
var (
	CoefficientDomain = modelfile.Interval{Lo: -Bound, Hi: Bound,
		Why: "beyond, finite rows could get infinite or NaN scores (design.Bound)"}
	scaleDomain = modelfile.Interval{Lo: 1 / Bound, Hi: Bound,
		Why: "beyond, finite rows could get infinite or NaN scores (design.Bound)"}
)

// check checks the numbers of a term against their domains, the error
// naming the field of the model file.
func (t *Term) check() error {
	for _, err := range []error{CoefficientDomain.CheckValue("center", t.Center), scaleDomain.CheckValue("scale", t.Scale),
		CoefficientDomain.CheckValue("fill", t.Fill)} {
		if err != nil {
			return err
		}
	}
	return nil
}
