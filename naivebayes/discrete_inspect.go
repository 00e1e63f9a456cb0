package naivebayes

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/text"
)

// TermWeight is a term of a text column with its log-ratio for a class.
type TermWeight struct {
	Term     string
	LogRatio float64
}

// textPart returns the part of the text feature named name.
func (m *Model) textPart(name string) (*textPart, error) {
	for _, pt := range m.parts {
		if t, ok := pt.(*textPart); ok && m.schema.Features[t.col].Name == name {
			return t, nil
		}
	}
	return nil, fmt.Errorf("naivebayes: the model has no text feature %q", name)
}

// TextFeatures returns the names of the model's text features.
func (m *Model) TextFeatures() []string {
	var names []string
	for _, pt := range m.parts {
		if t, ok := pt.(*textPart); ok {
			names = append(names, m.schema.Features[t.col].Name)
		}
	}
	return names
}

// Vocabulary returns the fitted vocabulary of the text feature name.
func (m *Model) Vocabulary(name string) (*text.Vocabulary, error) {
	t, err := m.textPart(name)
	if err != nil {
		return nil, err
	}
	return t.vocab, nil
}

// TopTerms returns, for each class k, the n terms of the text feature name
// with the largest log-ratio
//
//	r_kt = b_tk − mean_{l ≠ k} b_tl
//
// where b_tk is the term's weight for class k: log θ_kt (multinomial),
// log p_kt (Bernoulli), the complement weight (complement); for two
// classes, the log of the ratio of the term's probabilities in the two.
// Ties keep the vocabulary's (alphabetical) order.
func (m *Model) TopTerms(name string, n int) ([][]TermWeight, error) {
	t, err := m.textPart(name)
	if err != nil {
		return nil, err
	}
	K, V := t.w.k, t.vocab.Len()
	out := make([][]TermWeight, K)
	for c := range K {
		all := make([]TermWeight, V)
		for j := range V {
			others := 0.0
			for l := range K {
				if l != c {
					others += t.w.b[l*V+j]
				}
			}
			all[j] = TermWeight{Term: t.vocab.Term(j), LogRatio: t.w.b[c*V+j] - others/float64(K-1)}
		}
		slices.SortStableFunc(all, func(a, b TermWeight) int { return cmp.Compare(b.LogRatio, a.LogRatio) })
		out[c] = all[:min(n, V)]
	}
	return out, nil
}

// CategoricalFeatures returns the names of the features modelled as
// categorical.
func (m *Model) CategoricalFeatures() []string {
	var names []string
	for _, pt := range m.parts {
		if c, ok := pt.(*categoricalPart); ok {
			for _, j := range c.cols {
				names = append(names, m.schema.Features[j].Name)
			}
		}
	}
	return names
}

// LevelProbabilities returns θ_kjv, the probability of each level v of the
// categorical feature name given class k, as [k][v] in the order of the
// feature's levels in the schema.
func (m *Model) LevelProbabilities(name string) ([][]float64, error) {
	for _, pt := range m.parts {
		if c, ok := pt.(*categoricalPart); ok {
			for f, j := range c.cols {
				if m.schema.Features[j].Name == name {
					return c.probabilities(f), nil
				}
			}
		}
	}
	return nil, fmt.Errorf("naivebayes: the model has no categorical feature %q", name)
}

// GaussianFeatures returns the names of the numeric features of a Mixed
// model, with their means and variances as [k][t] (nil when there are
// none).
func (m *Model) GaussianFeatures() (names []string, mean, variance [][]float64) {
	for _, pt := range m.parts {
		if g, ok := pt.(*gaussianPart); ok {
			for _, j := range g.cols {
				names = append(names, m.schema.Features[j].Name)
			}
			return names, g.g.Means(), g.g.Variances()
		}
	}
	return nil, nil, nil
}

// CountWeights returns, for the numeric (and binary) count features of a
// Bernoulli, multinomial or complement model, their names and the
// weights b_kt of fitCounts as [k][t]: log θ_kt (multinomial), log p_kt
// (Bernoulli) or the complement weights.
func (m *Model) CountWeights() (names []string, w [][]float64) {
	for _, pt := range m.parts {
		if c, ok := pt.(*countPart); ok {
			for _, j := range c.cols {
				names = append(names, m.schema.Features[j].Name)
			}
			w = make([][]float64, c.w.k)
			for k := range w {
				w[k] = slices.Clone(c.w.b[k*c.w.v : (k+1)*c.w.v])
			}
			return names, w
		}
	}
	return nil, nil
}

// UnseenWords returns the number of word occurrences in the text columns
// of d that the model's vocabularies do not have (ignored at prediction),
// by feature name.
func (m *Model) UnseenWords(d *data.Dataset) map[string]int {
	out := map[string]int{}
	for _, pt := range m.parts {
		if t, ok := pt.(*textPart); ok {
			out[m.schema.Features[t.col].Name] = t.unseen(d)
		}
	}
	return out
}

// Warnings returns notes on the fit that deserve attention: α = 0, under
// which a value or word never seen with a class gives the class
// probability 0 (−Inf in log space), so that a row may have no possible
// class (see Impossible); a numeric feature without an observed value in
// the labelled rows, which the model leaves out (see Gaussian.Warnings).
func (m *Model) Warnings() []string {
	var w []string
	if m.params.alpha == 0 && m.hasCounts() {
		w = append(w, "alpha 0 (no smoothing): a value or word never seen with a class gives that class probability 0; a row that no class can produce has no prediction")
	}
	for _, pt := range m.parts {
		if g, ok := pt.(*gaussianPart); ok && g.g != nil {
			w = append(w, g.g.Warnings()...)
		}
	}
	return w
}

// hasCounts reports whether the model has a part other than Gaussian, to
// which α applies.
func (m *Model) hasCounts() bool {
	for _, pt := range m.parts {
		if _, ok := pt.(*gaussianPart); !ok {
			return true
		}
	}
	return false
}
