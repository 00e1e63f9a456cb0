package naivebayes

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/mathx"
	"github.com/gendisc/gendisc/internal/randx"
)

// drawer is a family that draws its features given the class and fills
// their missing cells. Under the naive Bayes assumption the features are
// independent given the class, so a missing cell depends on the observed
// cells of its row only through the class posterior:
//
//	p(x_m | x_o, y = k) = p(x_m | y = k).
//
// Text families draw their documents through gendisc.TextSampler instead;
// their cells in X stay NaN.
type drawer interface {
	// draw writes to dst[j], for every feature j of the family whose
	// cell x[j] is missing (NaN), a draw from p(x_j | y = k). dst and x
	// may be the same slice.
	draw(dst, x []float64, k int, rng *rand.Rand)
	// fill writes to dst[j], for every feature j of the family whose
	// cell x[j] is missing, its expectation under the class posterior
	// post (probabilities): Σ_k post_k E[x_j | y = k] for a numeric
	// feature, the level v of largest Σ_k post_k p(x_j = v | y = k) for
	// a categorical one.
	fill(dst, x, post []float64)
}

// asDrawer returns family f as a drawer. It panics for a family that
// cannot draw: every family of the package must.
func asDrawer(f family) drawer {
	d, ok := f.(drawer)
	if !ok {
		panic(fmt.Sprintf("naivebayes: family %T cannot draw", f))
	}
	return d
}

// sampleClass draws x ~ p(x | y = k) = Π_j p(x_j | y = k) into dst
// (allocated when nil) and returns it; text cells are NaN.
func (c *classifier) sampleClass(dst []float64, k int, rng *rand.Rand) []float64 {
	D := len(c.schema.Features)
	if k < 0 || k >= len(c.prior) {
		panic(fmt.Sprintf("naivebayes: SampleClass of class %d, the model has %d", k, len(c.prior)))
	}
	if dst == nil {
		dst = make([]float64, D)
	}
	if len(dst) != D {
		panic(fmt.Sprintf("naivebayes: dst has length %d, want %d features", len(dst), D))
	}
	for j := range dst {
		dst[j] = math.NaN()
	}
	for _, f := range c.families {
		asDrawer(f).draw(dst, dst, k, rng)
	}
	return dst
}

// sample draws a class k with probability π_k, then x ~ p(x | y = k).
func (c *classifier) sample(dst []float64, rng *rand.Rand) ([]float64, int) {
	k := randx.Index(c.prior, rng)
	return c.sampleClass(dst, k, rng), k
}

// incomplete copies the features of d to dst (allocated when nil) and
// returns it with the indices of d's rows that have a missing cell and
// the class posterior of each of them (row-major, probabilities): 1 for
// the label when the row has one, P(y = k | x_o) otherwise.
func (c *classifier) incomplete(dst []float64, d *data.Dataset) ([]float64, []int, []float64) {
	D, K := len(c.schema.Features), len(c.prior)
	c.checkFeatures(d)
	if dst == nil {
		dst = make([]float64, len(d.X))
	}
	if len(dst) != len(d.X) {
		panic(fmt.Sprintf("naivebayes: dst has length %d, want %d rows × %d features", len(dst), d.N, D))
	}
	copy(dst, d.X)
	var idx []int
	for i := range d.N {
		if mathx.HasNaN(d.Row(i)) {
			idx = append(idx, i)
		}
	}
	post := c.joint(nil, d.Subset(idx), true)
	for a, i := range idx {
		p := post[a*K : (a+1)*K]
		if d.Y != nil && d.Y[i] == d.Y[i] {
			clear(p)
			p[int(d.Y[i])] = 1
			continue
		}
		for k, v := range p {
			p[k] = math.Exp(v)
		}
	}
	return dst, idx, post
}

// impute fills the missing cells of d's rows by their expectations under
// the class posterior (see Gaussian.Impute).
func (c *classifier) impute(dst []float64, d *data.Dataset) []float64 {
	dst, idx, post := c.incomplete(dst, d)
	D, K := d.D(), len(c.prior)
	for a, i := range idx {
		for _, f := range c.families {
			asDrawer(f).fill(dst[i*D:(i+1)*D], d.Row(i), post[a*K:(a+1)*K])
		}
	}
	return dst
}

// imputeRand fills the missing cells of d's rows by draws given a class
// drawn from the posterior (see Gaussian.ImputeRand).
func (c *classifier) imputeRand(dst []float64, d *data.Dataset, rng *rand.Rand) []float64 {
	dst, idx, post := c.incomplete(dst, d)
	D, K := d.D(), len(c.prior)
	for a, i := range idx {
		k := randx.Index(post[a*K:(a+1)*K], rng)
		for _, f := range c.families {
			asDrawer(f).draw(dst[i*D:(i+1)*D], d.Row(i), k, rng)
		}
	}
	return dst
}
