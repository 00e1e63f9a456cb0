package naivebayes

import (
	"math"

	"github.com/gendisc/gendisc/data"
)

// gaussianFamily is the diagonal Gaussian part of a naive Bayes model,
// over all D features:
//
//	log p(x_j | y = k) = −½ log(2π σ²_kj) − (x_j − μ_kj)² / (2σ²_kj)
//
// precomputed as c_kj = −½ log(2π σ²_kj), h_kj = 1 / (2σ²_kj) and
// c_k = Σ_j c_kj, so that a row without missing cells costs
// c_k − Σ_j h_kj (x_j − μ_kj)² per class. A missing cell makes that sum
// NaN; then the row and class are summed again over the observed cells.
type gaussianFamily struct {
	k, d     int
	mu, h, c []float64 // μ_kj, h_kj, c_kj at k·D + j
	ck       []float64 // c_k
}

func newGaussianFamily(k, d int, mean, variance []float64) *gaussianFamily {
	g := &gaussianFamily{k: k, d: d, mu: mean,
		h: make([]float64, k*d), c: make([]float64, k*d), ck: make([]float64, k)}
	for i, v := range variance {
		g.h[i] = 0.5 / v
		g.c[i] = -0.5 * math.Log(2*math.Pi*v)
		g.ck[i/d] += g.c[i]
	}
	return g
}

func (g *gaussianFamily) addLogLikelihood(dst []float64, ds *data.Dataset, lo, hi int) {
	K, D := g.k, g.d
	for i := lo; i < hi; i++ {
		x := ds.X[i*D : (i+1)*D]
		out := dst[(i-lo)*K : (i-lo+1)*K]
		for k := range out {
			mu, h := g.mu[k*D:(k+1)*D], g.h[k*D:(k+1)*D]
			v := g.ck[k] - quadratic(x, mu, h)
			if v != v {
				v = observedLogLikelihood(x, mu, h, g.c[k*D:(k+1)*D])
			}
			out[k] += v
		}
	}
}

// quadratic returns Σ_j h_j (x_j − μ_j)², in four interleaved partial sums.
func quadratic(x, mu, h []float64) float64 {
	mu, h = mu[:len(x)], h[:len(x)]
	var s0, s1, s2, s3 float64
	j := 0
	for ; j+4 <= len(x); j += 4 {
		xs, ms, hs := x[j:j+4:j+4], mu[j:j+4:j+4], h[j:j+4:j+4]
		e0, e1, e2, e3 := xs[0]-ms[0], xs[1]-ms[1], xs[2]-ms[2], xs[3]-ms[3]
		s0 += hs[0] * e0 * e0
		s1 += hs[1] * e1 * e1
		s2 += hs[2] * e2 * e2
		s3 += hs[3] * e3 * e3
	}
	for ; j < len(x); j++ {
		e := x[j] - mu[j]
		s0 += h[j] * e * e
	}
	return (s0 + s1) + (s2 + s3)
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
