package synth

import (
	"math"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/naivebayes"
)

// discreteCase is a naive Bayes model of another family than Gaussian,
// fitted on a bundled data set.
type discreteCase struct {
	name, data string
	opt        dataio.Options
	cfg        naivebayes.Config
}

var discreteCases = []discreteCase{
	{"categorical-nb/house_votes84", "house_votes84", dataio.Options{}, naivebayes.Config{Family: naivebayes.Categorical}},
	{"categorical-nb/mushroom", "mushroom", dataio.Options{}, naivebayes.Config{Family: naivebayes.Categorical}},
	{"bernoulli-nb/optdigits", "optdigits", dataio.Options{Categorical: []string{"class"}}, naivebayes.Config{Family: naivebayes.Bernoulli, Binarize: 8}},
	{"multinomial-nb/optdigits", "optdigits", dataio.Options{Categorical: []string{"class"}}, naivebayes.Config{Family: naivebayes.Multinomial}},
	{"nb/adult", "adult", dataio.Options{}, naivebayes.Config{}},
}

// eachDiscrete fits every case of discreteCases and runs check on the
// training data and the model in a subtest named after the case.
func eachDiscrete(t *testing.T, check func(t *testing.T, dc discreteCase, d *data.Dataset, m *naivebayes.Model)) {
	for _, dc := range discreteCases {
		t.Run(dc.name, func(t *testing.T) {
			d := bundled.Load(t, dc.data, dc.opt)
			m, err := dc.cfg.Fit(d)
			if err != nil {
				t.Fatal(err)
			}
			check(t, dc, d, m)
		})
	}
}

// TestSampleDiscrete draws 100,000 rows from every discrete case and
// checks, with n_k the draws of class k, that lie within 4 standard
// errors of the model:
//   - the class frequencies, of the priors π_k (se √(π_k(1 − π_k)/n));
//   - the level frequencies of every categorical feature in every class,
//     of θ_kjv (se √(θ(1 − θ)/n_k));
//   - the frequencies of present Bernoulli features, of p_kt;
//   - the mean multinomial counts, of the class's mean count of the
//     feature in the training data, the Poisson mean SampleClass
//     documents (se √(λ_kt/n_k));
//   - the means and variances of Gaussian features (se σ/√n_k and
//     σ²√(2/n_k)).
//
// Then it refits the model on the draws and compares the two on the
// training data: priors, the mean log-likelihood per row and the
// predicted classes.
func TestSampleDiscrete(t *testing.T) {
	eachDiscrete(t, func(t *testing.T, dc discreteCase, train *data.Dataset, m *naivebayes.Model) {
		d := drawAll(t, m, nDraws, -1, seeded(5))
		K := len(m.Classes())
		nk := make([]float64, K)
		for _, y := range d.Y {
			nk[int(y)]++
		}
		for k, p := range m.Priors() {
			if f := nk[k] / nDraws; !within(f, p, math.Sqrt(p*(1-p)/nDraws)) {
				t.Errorf("class %d: frequency %g, prior %g", k, f, p)
			}
		}
		checks := 0
		// worst is the largest |error| / se over the checks.
		worst := 0.0
		check := func(what string, k int, got, want, se float64) {
			t.Helper()
			checks++
			if se > 0 {
				worst = max(worst, math.Abs(got-want)/se)
			}
			if !within(got, want, se) {
				t.Errorf("class %d, %s: %g, model %g ± %g", k, what, got, want, se)
			}
		}
		s := m.Schema()
		for _, name := range m.CategoricalFeatures() {
			j := s.Feature(name)
			theta, err := m.LevelProbabilities(name)
			if err != nil {
				t.Fatal(err)
			}
			count := make([][]float64, K)
			for k := range count {
				count[k] = make([]float64, len(theta[k]))
			}
			for i := range d.N {
				count[int(d.Y[i])][int(d.X[i*d.D()+j])]++
			}
			for k := range K {
				for v, p := range theta[k] {
					check(name+"="+s.Features[j].Levels[v], k, count[k][v]/nk[k], p, math.Sqrt(p*(1-p)/nk[k]))
				}
			}
		}
		names, w := m.CountWeights()
		// gap is the largest |λ_kt − L̄_k θ_kt| / se, with L̄_k the class's
		// mean number of counts per row: how far the documented Poisson
		// means are from the multinomial θ_kt's (smoothed) expectation.
		gap, length := 0.0, make([]float64, K)
		if dc.cfg.Family == naivebayes.Multinomial {
			for _, name := range names {
				for k, v := range classMeans(train, s.Feature(name), K) {
					length[k] += v
				}
			}
		}
		for t_, name := range names {
			j := s.Feature(name)
			sum := make([]float64, K)
			for i := range d.N {
				v := d.X[i*d.D()+j]
				if dc.cfg.Family == naivebayes.Bernoulli {
					v = b2f(v > dc.cfg.Binarize)
				}
				sum[int(d.Y[i])] += v
			}
			mean := classMeans(train, j, K)
			for k := range K {
				if dc.cfg.Family == naivebayes.Bernoulli {
					p := math.Exp(w[k][t_])
					check(name+" present", k, sum[k]/nk[k], p, math.Sqrt(p*(1-p)/nk[k]))
					continue
				}
				se := math.Sqrt(max(mean[k], 1e-9) / nk[k])
				check(name+" mean count", k, sum[k]/nk[k], mean[k], se)
				if lt := length[k] * math.Exp(w[k][t_]); lt > 0 {
					gap = max(gap, math.Abs(mean[k]-lt)/math.Sqrt(max(mean[k], lt)/nk[k]))
				}
			}
		}
		names, mu, variance := m.GaussianFeatures()
		for t_, name := range names {
			j := s.Feature(name)
			s1, s2 := make([]float64, K), make([]float64, K)
			for i := range d.N {
				k := int(d.Y[i])
				e := d.X[i*d.D()+j] - mu[k][t_]
				s1[k] += e
				s2[k] += e * e
			}
			for k := range K {
				v := variance[k][t_]
				check(name+" mean", k, mu[k][t_]+s1[k]/nk[k], mu[k][t_], math.Sqrt(v/nk[k]))
				check(name+" variance", k, s2[k]/nk[k], v, v*math.Sqrt(2/nk[k]))
			}
		}
		t.Logf("%s: %d draws, %d frequency and moment checks, largest deviation %.2f se", dc.name, nDraws, checks, worst)
		if dc.cfg.Family == naivebayes.Multinomial {
			t.Logf("%s: class mean counts λ_kt vs L̄_k θ_kt: largest gap %.2f se", dc.name, gap)
		}

		r, err := dc.cfg.Fit(d)
		if err != nil {
			t.Fatal(err)
		}
		p0, p1 := m.Priors(), r.Priors()
		dp := 0.0
		for k := range p0 {
			dp = max(dp, math.Abs(p0[k]-p1[k]))
		}
		ll0, ll1 := meanLogLik(m, train), meanLogLik(r, train)
		agree := agreement(m, r, train)
		t.Logf("%s refitted on %d draws: priors within %.4f, mean log-likelihood on %s %.4f vs %.4f nats/row, same prediction on %.1f%% of it",
			dc.name, nDraws, dp, dc.data, ll0, ll1, 100*agree)
		if dp > 0.01 {
			t.Errorf("priors differ by %g", dp)
		}
		if rel := math.Abs(ll0-ll1) / math.Abs(ll0); rel > 0.01 {
			t.Errorf("mean log-likelihood %g, refitted %g", ll0, ll1)
		}
		if agree < 0.97 {
			t.Errorf("predictions agree on %g of the rows", agree)
		}
	})
}

// classMeans returns the mean of the observed cells of feature j of d in
// each of its K classes.
func classMeans(d *data.Dataset, j, K int) []float64 {
	sum, n := make([]float64, K), make([]float64, K)
	for i := range d.N {
		if v := d.X[i*d.D()+j]; v == v && d.Y[i] == d.Y[i] {
			sum[int(d.Y[i])] += v
			n[int(d.Y[i])]++
		}
	}
	for k := range sum {
		sum[k] /= n[k]
	}
	return sum
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
