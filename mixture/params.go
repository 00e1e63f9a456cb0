package mixture

import (
	"fmt"
	"math"

	"github.com/gendisc/gendisc/modelfile"
)

// fromParams expands p, in the compact layout of cov, into a model of k
// components in d dimensions, checking lengths, finiteness, the weights
// (non-negative, summing to 1 within 1e-9) and that every covariance is
// positive definite.
func fromParams(cov Covariance, k, d int, p *Params) (*model, error) {
	if n := cov.covLen(k, d); len(p.Weights) != k || len(p.Means) != k*d || len(p.Covariances) != n {
		return nil, fmt.Errorf("%s mixture of %d components in %d dimensions needs %d weights, %d means and %d covariance values, have %d, %d and %d",
			cov, k, d, k, k*d, n, len(p.Weights), len(p.Means), len(p.Covariances))
	}
	for _, err := range []error{modelfile.NonNegative.Check("weights", p.Weights), meanDomain.Check("means", p.Means),
		modelfile.Finite.Check("covariances", p.Covariances)} {
		if err != nil {
			return nil, err
		}
	}
	sum := 0.0
	for _, w := range p.Weights {
		sum += w
	}
	if math.Abs(sum-1) > 1e-9 {
		return nil, fmt.Errorf("weights sum to %v, not 1", sum)
	}
	m := newModel(cov, k, d)
	copy(m.weights, p.Weights)
	copy(m.means, p.Means)
	for c := range k {
		s := m.cov1(c)
		switch cov {
		case Full:
			copy(s, p.Covariances[c*d*d:(c+1)*d*d])
		case Tied:
			copy(s, p.Covariances)
		case Diag:
			for j := range d {
				s[j*d+j] = p.Covariances[c*d+j]
			}
		case Spherical:
			addDiag(s, d, p.Covariances[c])
		case Identity:
			addDiag(s, d, 1)
		}
		for j := range d {
			for l := range j {
				if s[j*d+l] != s[l*d+j] {
					return nil, fmt.Errorf("covariance of component %d not symmetric", c)
				}
			}
		}
		if _, err := m.gaussCov(c, nil); err != nil {
			return nil, fmt.Errorf("covariance of component %d: %w", c, err)
		}
	}
	return m, nil
}

// meanDomain is the interval of the means of a mixture's components: the
// squared differences of larger means overflow float64.
var meanDomain = modelfile.Interval{Lo: -1e153, Hi: 1e153, Why: "the squared differences of larger means overflow float64"}

// params returns m's parameters in the compact layout of its type.
func (m *model) params() Params {
	k, d := m.k, m.d
	p := Params{Weights: append([]float64(nil), m.weights...), Means: append([]float64(nil), m.means...),
		Covariances: make([]float64, m.cov.covLen(k, d))}
	for c := range k {
		s := m.cov1(c)
		switch m.cov {
		case Full:
			copy(p.Covariances[c*d*d:], s)
		case Tied:
			copy(p.Covariances, s)
		case Diag:
			for j := range d {
				p.Covariances[c*d+j] = s[j*d+j]
			}
		case Spherical:
			p.Covariances[c] = s[0]
		}
	}
	return p
}
