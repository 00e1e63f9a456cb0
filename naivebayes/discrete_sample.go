package naivebayes

import (
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/randx"
)

var (
	_ gendisc.ClassSampler = (*Model)(nil)
	_ gendisc.TextSampler  = (*Model)(nil)
	_ gendisc.Imputer      = (*Model)(nil)
	_ gendisc.RandImputer  = (*Model)(nil)
)

// Sample draws a class k with probability π_k and every feature
// independently from its distribution given k (see SampleClass), writes x
// to dst (allocated when nil) and returns dst and k. It panics if dst is
// not nil and has the wrong length.
func (m *Model) Sample(dst []float64, rng *rand.Rand) ([]float64, int) { return m.sample(dst, rng) }

// SampleClass draws x ~ p(x | y = k) into dst (allocated when nil) and
// returns dst: a numeric feature of a Mixed model from its Gaussian, a
// categorical one from θ_kj, a Bernoulli feature present with probability
// p_kt (written as 1, or the level index 1 of a binary category; absent
// as 0; with a binarize threshold t ≥ 1, t + 1 and t), and a multinomial
// or complement count from a Poisson law with the class's mean count of
// the feature (the multinomial model itself does not describe the total
// count of a row). Text cells are NaN: SampleText draws the documents. It
// panics if k is not a class index or dst has the wrong length.
func (m *Model) SampleClass(dst []float64, k int, rng *rand.Rand) []float64 {
	return m.sampleClass(dst, k, rng)
}

// SampleText draws a document of class c for every text feature j into
// dst[j]: for multinomial and complement naive Bayes a length from a
// Poisson law with the class's mean number of words per document, then
// the words from the class's multinomial θ_c; for Bernoulli each word of
// the vocabulary present with probability p_ct. The words are joined by
// spaces.
func (m *Model) SampleText(dst []string, c int, rng *rand.Rand) {
	for _, pt := range m.parts {
		if t, ok := pt.(*textPart); ok {
			dst[t.col] = t.sampleDoc(c, rng)
		}
	}
}

// Impute writes the features of d to dst, row-major, with every missing
// cell replaced by its conditional expectation given the observed cells of
// its row, which under the naive Bayes assumption act only through the
// class posterior P(y = k | x_o) (1 for the row's label when d.Y has one):
// Σ_k P(y = k | x_o) E[x_j | y = k] for a numeric or count feature, the
// most probable level for a categorical one, present when its probability
// is at least ½ for a Bernoulli one. Text cells stay NaN. It panics if d
// has the wrong number of features or dst the wrong length.
func (m *Model) Impute(dst []float64, d *data.Dataset) []float64 { return m.impute(dst, d) }

// ImputeRand writes the features of d to dst with every missing cell
// replaced by a draw: the class is the row's label or drawn from
// P(y = k | x_o), then the cell as SampleClass draws it. The draws come
// from rng row by row; the conventions are those of Impute.
func (m *Model) ImputeRand(dst []float64, d *data.Dataset, rng *rand.Rand) []float64 {
	return m.imputeRand(dst, d, rng)
}

// poisson draws from a Poisson law of mean λ: by multiplying uniforms
// for λ < 30, otherwise the normal approximation rounded (at least 0).
func poisson(lambda float64, rng *rand.Rand) float64 {
	if !(lambda > 0) {
		return 0
	}
	if lambda >= 30 {
		return max(0, math.Round(lambda+math.Sqrt(lambda)*rng.NormFloat64()))
	}
	limit, p, n := math.Exp(-lambda), rng.Float64(), 0.0
	for p > limit {
		p *= rng.Float64()
		n++
	}
	return n
}

// gaussianPart: the inner Gaussian family draws the gathered columns.

func (p *gaussianPart) draw(dst, x []float64, k int, rng *rand.Rand) {
	xs := p.row(x)
	out := make([]float64, len(xs))
	p.inner.(drawer).draw(out, xs, k, rng)
	p.scatter(dst, x, out)
}

func (p *gaussianPart) fill(dst, x, post []float64) {
	xs := p.row(x)
	out := make([]float64, len(xs))
	p.inner.(drawer).fill(out, xs, post)
	p.scatter(dst, x, out)
}

// row returns the part's cells of the row x.
func (p *gaussianPart) row(x []float64) []float64 {
	xs := make([]float64, len(p.cols))
	for t, j := range p.cols {
		xs[t] = x[j]
	}
	return xs
}

// scatter writes out[t] to dst[cols[t]] where x is missing.
func (p *gaussianPart) scatter(dst, x, out []float64) {
	for t, j := range p.cols {
		if x[j] != x[j] {
			dst[j] = out[t]
		}
	}
}

// countPart: Bernoulli presence, or Poisson counts.

// levels returns the values written for absent and present Bernoulli
// feature t.
func (p *countPart) levels(t int) (absent, present float64) {
	if b := p.binarize[t]; b >= 1 {
		return b, b + 1
	}
	return min(0, p.binarize[t]), 1
}

// mean returns the class-k mean of count feature t over the rows where it
// is observed (0 without any).
func (p *countPart) mean(k, t int) float64 {
	n := p.st.n[k*p.st.v+t]
	if n == 0 {
		return 0
	}
	return p.st.s[k*p.st.v+t] / n
}

func (p *countPart) draw(dst, x []float64, k int, rng *rand.Rand) {
	for t, j := range p.cols {
		if x[j] == x[j] {
			continue
		}
		if p.ck == countBernoulli {
			absent, present := p.levels(t)
			dst[j] = absent
			if rng.Float64() < math.Exp(p.w.b[k*p.w.v+t]) {
				dst[j] = present
			}
			continue
		}
		dst[j] = poisson(p.mean(k, t), rng)
	}
}

func (p *countPart) fill(dst, x, post []float64) {
	for t, j := range p.cols {
		if x[j] == x[j] {
			continue
		}
		e := 0.0
		for k, q := range post {
			if p.ck == countBernoulli {
				e += q * math.Exp(p.w.b[k*p.w.v+t])
			} else {
				e += q * p.mean(k, t)
			}
		}
		if p.ck == countBernoulli {
			absent, present := p.levels(t)
			if e >= 0.5 {
				e = present
			} else {
				e = absent
			}
		}
		dst[j] = e
	}
}

// categoricalPart: levels from θ_kj.

func (p *categoricalPart) draw(dst, x []float64, k int, rng *rand.Rand) {
	for f, j := range p.cols {
		if x[j] != x[j] {
			lt := p.logTheta[f]
			w := make([]float64, len(lt)/p.k)
			for v := range w {
				w[v] = math.Exp(lt[v*p.k+k])
			}
			dst[j] = float64(randx.Index(w, rng))
		}
	}
}

func (p *categoricalPart) fill(dst, x, post []float64) {
	for f, j := range p.cols {
		if x[j] != x[j] {
			lt := p.logTheta[f]
			best, bestP := 0, -1.0
			for v := range len(lt) / p.k {
				e := 0.0
				for k, q := range post {
					e += q * math.Exp(lt[v*p.k+k])
				}
				if e > bestP {
					best, bestP = v, e
				}
			}
			dst[j] = float64(best)
		}
	}
}

// textPart: documents come from SampleText; the cell stays NaN.

func (p *textPart) draw(dst, x []float64, k int, rng *rand.Rand) {}
func (p *textPart) fill(dst, x, post []float64)                  {}

// sampleDoc draws a document of class c (see Model.SampleText). A
// multinomial document of L words costs O(L log V): a binary search per
// word in the cumulative θ_c (made once, for every class, on the first
// draw).
func (p *textPart) sampleDoc(c int, rng *rand.Rand) string {
	V := p.vocab.Len()
	var words []string
	if p.ck == countBernoulli {
		for t := range V {
			if rng.Float64() < math.Exp(p.w.b[c*V+t]) {
				words = append(words, p.vocab.Term(t))
			}
		}
		return strings.Join(words, " ")
	}
	L := int(poisson(p.length[c], rng))
	if L == 0 {
		return ""
	}
	cdf := p.cumulative(c)
	total := cdf[V-1]
	for range L {
		words = append(words, p.vocab.Term(searchCDF(cdf, rng.Float64()*total)))
	}
	return strings.Join(words, " ")
}

// searchCDF returns the first t with cdf[t] > u, a term of positive
// probability (the last one when u reaches the total through rounding).
func searchCDF(cdf []float64, u float64) int {
	t := sort.SearchFloat64s(cdf, math.Nextafter(u, math.Inf(1)))
	if t == len(cdf) {
		t--
		for t > 0 && cdf[t] == cdf[t-1] {
			t--
		}
	}
	return t
}
