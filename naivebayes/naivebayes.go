package naivebayes

import (
	"fmt"
	"math"
	"slices"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/hugepage"
	"github.com/gendisc/gendisc/internal/kernel"
	"github.com/gendisc/gendisc/internal/mathx"
	"github.com/gendisc/gendisc/internal/parallel"
)

// family is the part of a naive Bayes model that covers the features of
// one family of distributions (Gaussian, Bernoulli, multinomial,
// categorical). Under the naive Bayes assumption the features are
// independent given the class, so each family only adds its own terms to
// the joint log-likelihood; the class prior and the normalisation are
// shared (classifier).
type family interface {
	// addLogLikelihood adds, for every row lo ≤ i < hi of d and class k,
	// Σ_j log p(x_ij | y = k) over the family's observed features to
	// dst[(i−lo)·K + k]. It must not allocate per row.
	addLogLikelihood(dst []float64, d *data.Dataset, lo, hi int)
}

// preparer is a family that works on the whole data set before its rows
// are taken in chunks (text columns turned into sparse counts once):
// prepare returns the family to use for the rows of d.
type preparer interface {
	prepare(d *data.Dataset) family
}

// classifier is what every naive Bayes variant shares: the schema, the
// class log-priors and the families of its features. Its joint
// log-likelihood is
//
//	log p(x, y = k) = log π_k + Σ_f Σ_{j ∈ f, x_j observed} log p(x_j | y = k)
//
// and its class posterior the joint normalised over the classes by a
// stable log-sum-exp.
type classifier struct {
	schema   *data.Schema
	prior    []float64 // π_k
	logPrior []float64 // log π_k
	families []family
}

func newClassifier(schema *data.Schema, prior []float64, families ...family) classifier {
	c := classifier{schema: schema, prior: prior, logPrior: make([]float64, len(prior)), families: families}
	for k, p := range prior {
		c.logPrior[k] = math.Log(p)
	}
	return c
}

// chunkRows is the number of rows whose K joint log-likelihoods are
// computed and normalised together while they are in cache.
const chunkRows = 256

// checkFeatures panics unless d's features are the model's by name, kind
// and order (data.Schema.SameFeatures); once per call, not per row.
func (c *classifier) checkFeatures(d *data.Dataset) {
	if err := c.schema.SameFeatures(d.Schema); err != nil {
		panic("naivebayes: " + err.Error())
	}
}

// joint writes log p(x_i, y = k) (normalised to log P(y = k | x_i) when
// normalise is set) to dst[i·K + k], allocating dst when nil. It panics if
// d's features differ from the model's schema by name, kind or order, or
// dst has the wrong length.
func (c *classifier) joint(dst []float64, d *data.Dataset, normalise bool) []float64 {
	if normalise {
		return c.scores(dst, nil, nil, d, kernel.NormalizeLogRowsBest, mathx.NormalizeLogScaled)
	}
	return c.scores(dst, nil, nil, d, nil, nil)
}

// proba writes P(y = k | x_i) to dst[i·K + k] as joint does, a chunk's
// joint log-likelihoods normalised and exponentiated by kernel.ProbaRows
// while they are in cache: bit for bit the exponentials of what joint
// writes with normalise set.
func (c *classifier) proba(dst []float64, d *data.Dataset) []float64 {
	return c.scores(dst, nil, nil, d, kernel.ProbaRows, mathx.NormalizeLogScaled)
}

// probaClasses writes P(y = k | x_i) to proba[i·K + k] as proba does and
// the class of row i to best[i], gendisc.ArgmaxRows of its
// log-posteriors (joint's with normalise set), taken from each chunk
// while it is in cache, before the exponentials. proba has length d.N·K
// and best d.N.
func (c *classifier) probaClasses(proba []float64, best []int, d *data.Dataset) {
	if len(best) != d.N {
		panic(fmt.Sprintf("naivebayes: best has length %d, want %d rows", len(best), d.N))
	}
	c.scores(proba, nil, best, d, kernel.ProbaRows, mathx.NormalizeLogScaled)
}

// probaJoint writes P(y = k | x_i) to proba[i·K + k] as proba does and
// log p(x_i, y = k) to joint[i·K + k] as joint does without normalise,
// from one computation of the joint: each chunk's is copied to joint
// before it is normalised. Both must have length d.N·K.
func (c *classifier) probaJoint(proba, joint []float64, d *data.Dataset) {
	if len(joint) != len(proba) {
		panic(fmt.Sprintf("naivebayes: joint has length %d, want %d", len(joint), len(proba)))
	}
	c.scores(proba, joint, nil, d, kernel.ProbaRows, mathx.NormalizeLogScaled)
}

// scores writes log p(x_i, y = k) to dst[i·K + k], allocating dst when
// nil, and calls finish (unless nil) on each chunk of rows (K values
// each) once they are complete, with scratch e of 3 values more, with
// the panics of joint; a chunk's joint is copied to jointDst first when
// jointDst is not nil (of dst's length). finish gets the chunk's part of
// best (nil when best is nil; else d.N values), for the classes of its
// rows (kernel.NormalizeLogRowsBest, kernel.ProbaRows). finish hands the
// rows whose joint is not finite
// for any class, or holds a NaN, to its last argument, which scores them
// again (farRow) and finishes them with farFinish.
func (c *classifier) scores(dst, jointDst []float64, best []int, d *data.Dataset, finish func(out []float64, k int, e []float64, other func(row []float64), best []int),
	farFinish func(dst []float64, s []mathx.Scaled, c float64) bool) []float64 {
	k := len(c.logPrior)
	c.checkFeatures(d)
	if dst == nil {
		dst = hugepage.Make[float64](d.N*k, d.N*k)
	}
	if len(dst) != d.N*k {
		panic(fmt.Sprintf("naivebayes: dst has length %d, want %d rows × %d classes", len(dst), d.N, k))
	}
	families := slices.Clone(c.families)
	for i, f := range families {
		if p, ok := f.(preparer); ok {
			families[i] = p.prepare(d)
		}
	}
	stream := len(dst) >= streamValues
	parallel.For(d.N, 4*chunkRows, func(_, lo, hi int) {
		var e, buf, out []float64
		var a int
		// far scores again the row of out handed over by finish: row
		// a + r of d.
		far := func(row []float64) {
			c.farRow(row, families, d, a+(cap(out)-cap(row))/k, farFinish)
		}
		if finish != nil {
			e = make([]float64, min(chunkRows, hi-lo)*k+3) // len(out)+3, as finish asks
		}
		if stream {
			buf = make([]float64, chunkRows*k)
		}
		for a = lo; a < hi; a += chunkRows {
			b := min(hi, a+chunkRows)
			out = dst[a*k : b*k]
			if stream {
				out = buf[:len(out)]
			}
			// The priors in every row, in copies that double in length.
			copy(out, c.logPrior)
			for n := k; n < len(out); n *= 2 {
				copy(out[n:], out[:n])
			}
			for _, f := range families {
				f.addLogLikelihood(out, d, a, b)
			}
			if jointDst != nil {
				copy(jointDst[a*k:b*k], out)
			}
			if finish != nil {
				var bb []int
				if best != nil {
					bb = best[a:b]
				}
				finish(out, k, e, far, bb)
			}
			if stream {
				kernel.StreamCopy(dst[a*k:b*k], out)
			}
		}
	})
	return dst
}

// farFamily is a family whose terms overflow for cells far out (the
// Gaussian's quadratic forms, the counts' products): addScaled adds them
// for row i of d and class k to s[k] as scaled numbers (mathx.Scaled) of
// the row's scale.
type farFamily interface {
	addScaled(s []mathx.Scaled, d *data.Dataset, i int, scale mathx.Scale)
}

// farRow writes to out finish's result (mathx.NormalizeLogScaled) for
// row i of d, whose joint log-likelihoods are not finite for any class:
// every term overflowed. It scores the row again
// as scaled numbers of its scale (mathx.RowScale), the farFamily terms
// split by the size of their cells and the other families' added whole,
// so that the classes are compared order by order (see
// mathx.SoftmaxScaled): far out along a direction the class of least
// Σ_j x̃_j²/σ²_kj wins, the widest where it matters. It allocates: such
// rows are rare.
func (c *classifier) farRow(out []float64, families []family, d *data.Dataset, i int, finish func(dst []float64, s []mathx.Scaled, c float64) bool) {
	k := len(c.logPrior)
	s, whole := make([]mathx.Scaled, k), make([]float64, k)
	scale := mathx.RowScale(d.Row(i))
	for _, f := range families {
		if ff, ok := f.(farFamily); ok {
			ff.addScaled(s, d, i, scale)
			continue
		}
		f.addLogLikelihood(whole, d, i, i+1)
	}
	for j, lp := range c.logPrior {
		s[j].Const += lp + whole[j]
	}
	finish(out, s, scale.C)
}

// streamValues is the size of the outputs, 16 MB, that scores computes
// chunk by chunk in a buffer and copies to dst with kernel.StreamCopy:
// beyond the caches, where a plain store would first read each line of
// dst from memory. A variable so that the tests can stream small outputs.
var streamValues = 2 << 20
