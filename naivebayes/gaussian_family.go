package naivebayes

import (
	"math"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/mathx"
)

// gaussianFamily is the diagonal Gaussian part of a naive Bayes model,
// over all D features:
//
//	log p(x_j | y = k) = −½ log(2π σ²_kj) − (x_j − μ_kj)² / (2σ²_kj)
//
// precomputed as c_kj = −½ log(2π σ²_kj), h_kj = 1 / (2σ²_kj) and
// c_k = Σ_j c_kj, so that a row without missing cells costs
// c_k − Σ_j h_kj (x_j − μ_kj)² per class, the quadratic forms coming from
// quadRows (gaussian_kernel.go). A missing cell makes the form NaN; then
// the row and class are summed again over the observed cells. A feature
// of variance NaN (no observed value in training) has h_kj = c_kj = 0 and
// μ_kj = 0: it adds 0 whatever its cell.
type gaussianFamily struct {
	k, d     int
	mu, h, c []float64 // μ_kj, h_kj, c_kj at k·D + j
	ck       []float64 // c_k

	// The layouts of the assembly kernels (pack): the row stride of
	// their output; for the AVX2 kernel the number of groups of four
	// classes, the offset of the last group in a row and μ and h packed;
	// for the AVX-512 kernel its groups of four, whether a pair of
	// classes follows them, and μ and h packed.
	stride, groups, lastBase int
	groups512, half512       int
	packed, packed512        []float64
}

func newGaussianFamily(k, d int, mean, variance []float64) *gaussianFamily {
	g := &gaussianFamily{k: k, d: d, mu: mean,
		h: make([]float64, k*d), c: make([]float64, k*d), ck: make([]float64, k)}
	for i, v := range variance {
		if math.IsNaN(v) { // a feature left out: its terms are 0
			continue
		}
		g.h[i] = 0.5 / v
		g.c[i] = -0.5 * math.Log(2*math.Pi*v)
		g.ck[i/d] += g.c[i]
	}
	g.pack()
	return g
}

func (g *gaussianFamily) addLogLikelihood(dst []float64, ds *data.Dataset, lo, hi int) {
	K, D := g.k, g.d
	var buf [quadBlock]float64
	q := buf[:]
	if g.stride > len(q) {
		q = make([]float64, g.stride)
	}
	step := len(q) / g.stride
	ck := g.ck[:K]
	for a := lo; a < hi; a += step {
		b := min(hi, a+step)
		quadRows(q, ds.X[a*D:b*D], g)
		for i := a; i < b; i++ {
			qi := q[(i-a)*g.stride:][:K]
			out := dst[(i-lo)*K:][:K]
			// A missing cell makes every class's form NaN (NaN·0 is
			// NaN), and nothing else does (the cells are finite): one
			// test a row, and a loop without branches for the others.
			if qi[0] == qi[0] {
				for k, c := range ck {
					out[k] += c - qi[k]
				}
				continue
			}
			for k := range out {
				out[k] += observedLogLikelihood(ds.X[i*D:(i+1)*D], g.mu[k*D:(k+1)*D], g.h[k*D:(k+1)*D], g.c[k*D:(k+1)*D])
			}
		}
	}
}

// observedLogLikelihood returns Σ_{j: x_j not NaN} c_j − h_j (x_j − μ_j)².
func observedLogLikelihood(x, mu, h, c []float64) float64 {
	mu, h, c = mu[:len(x)], h[:len(x)], c[:len(x)]
	s := 0.0
	for j, v := range x {
		if v == v {
			e := v - mu[j]
			s += c[j] - h[j]*e*e
		}
	}
	return s
}

// addScaled adds the terms of the observed cells of row i as scaled
// numbers: with x_j − μ_kj = c·x̃_j + d_j (mathx.Scale.Split),
//
//	c_kj − h_kj (x_j − μ_kj)² = −c²·h_kj x̃_j² − c·2h_kj x̃_j d_j + (c_kj − h_kj d_j²)
func (g *gaussianFamily) addScaled(s []mathx.Scaled, ds *data.Dataset, i int, scale mathx.Scale) {
	D := g.d
	x := ds.X[i*D : (i+1)*D]
	for k := range s {
		mu, h, c := g.mu[k*D:(k+1)*D], g.h[k*D:(k+1)*D], g.c[k*D:(k+1)*D]
		for j, v := range x {
			if v != v {
				continue
			}
			u, d := scale.Split(v, mu[j])
			s[k].Quad -= h[j] * u * u
			s[k].Lin -= 2 * h[j] * u * d
			s[k].Const += c[j] - h[j]*d*d
		}
	}
}
