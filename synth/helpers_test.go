package synth

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/mixture"
	"github.com/gendisc/gendisc/naivebayes"
)

// kindCase is one generative kind: how to fit it and the moments of the
// distribution of each class (or component) it draws from.
type kindCase struct {
	name string
	fit  func(d *data.Dataset) (gendisc.Sampler, error)
	// moments returns the prior π_k and, per class k and feature j, the
	// mean and variance of x_j given y = k.
	moments func(m gendisc.Sampler) (prior []float64, mean, variance [][]float64)
}

// eachKind fits every kind of kindCases on d and runs check on the model
// in a subtest named after the kind.
func eachKind(t *testing.T, d *data.Dataset, check func(t *testing.T, kc kindCase, m gendisc.Sampler)) {
	for _, kc := range kindCases {
		t.Run(kc.name, func(t *testing.T) {
			m, err := kc.fit(d)
			if err != nil {
				t.Fatal(err)
			}
			check(t, kc, m)
		})
	}
}

func seeded(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 7)) }

// diagonal returns the diagonal of the p×p matrix a.
func diagonal(a []float64, p int) []float64 {
	out := make([]float64, p)
	for j := range out {
		out[j] = a[j*p+j]
	}
	return out
}

// mixtureMoments returns the weights of g's components and the mean and
// variance of each feature under each component.
func mixtureMoments(g *mixture.GMM) (w []float64, mean, variance [][]float64) {
	K, D := g.Components(), g.Dim()
	mu, cov := g.Means(), g.Covariances()
	for k := range K {
		mean = append(mean, mu[k*D:(k+1)*D])
		variance = append(variance, diagonal(cov[k*D*D:(k+1)*D*D], D))
	}
	return g.Weights(), mean, variance
}

// emTol stops the EM of lda and qda on data with missing cells when no
// mean or covariance moves by more than 1e-5 standard deviations: enough
// for imputation, and quicker than the default.
const emTol = 1e-5

var kindCases = []kindCase{
	{
		name: "gaussian-nb",
		fit: func(d *data.Dataset) (gendisc.Sampler, error) {
			return naivebayes.GaussianConfig{}.Fit(d)
		},
		moments: func(m gendisc.Sampler) ([]float64, [][]float64, [][]float64) {
			g := m.(*naivebayes.Gaussian)
			return g.Priors(), g.Means(), g.Variances()
		},
	},
	{
		name: "lda",
		fit:  func(d *data.Dataset) (gendisc.Sampler, error) { return gda.LDAConfig{Tol: emTol}.Fit(d) },
		moments: func(m gendisc.Sampler) ([]float64, [][]float64, [][]float64) {
			l := m.(*gda.LDA)
			means := l.Means()
			v := diagonal(l.Covariance(), len(means[0]))
			vars := make([][]float64, len(means))
			for k := range vars {
				vars[k] = v
			}
			return l.Priors(), means, vars
		},
	},
	{
		name: "qda",
		fit:  func(d *data.Dataset) (gendisc.Sampler, error) { return gda.QDAConfig{Tol: emTol}.Fit(d) },
		moments: func(m gendisc.Sampler) ([]float64, [][]float64, [][]float64) {
			q := m.(*gda.QDA)
			means := q.Means()
			var vars [][]float64
			for _, c := range q.Covariances() {
				vars = append(vars, diagonal(c, len(means[0])))
			}
			return q.Priors(), means, vars
		},
	},
	{
		name: "gmm",
		fit: func(d *data.Dataset) (gendisc.Sampler, error) {
			return mixture.Config{Components: 3}.Fit(d, seeded(1))
		},
		moments: func(m gendisc.Sampler) ([]float64, [][]float64, [][]float64) {
			return mixtureMoments(m.(*mixture.GMM))
		},
	},
	{
		name: "mda",
		fit: func(d *data.Dataset) (gendisc.Sampler, error) {
			return mixture.MDAConfig{ComponentsPerClass: 2}.Fit(d, seeded(1))
		},
		// The class density is a mixture: its mean is Σ_c π_c μ_c and
		// its variance Σ_c π_c (σ²_c + μ_c²) − mean².
		moments: func(m gendisc.Sampler) ([]float64, [][]float64, [][]float64) {
			md := m.(*mixture.MDA)
			var means, vars [][]float64
			for c := range md.Classes() {
				w, mu, v := mixtureMoments(md.Mixture(c))
				mean, sq := make([]float64, len(mu[0])), make([]float64, len(mu[0]))
				for k := range w {
					for j := range mean {
						mean[j] += w[k] * mu[k][j]
						sq[j] += w[k] * (v[k][j] + mu[k][j]*mu[k][j])
					}
				}
				for j := range sq {
					sq[j] -= mean[j] * mean[j]
				}
				means, vars = append(means, mean), append(vars, sq)
			}
			return md.Priors(), means, vars
		},
	},
}

// drawAll draws n rows from m into a data set of m's schema, the class (or
// component) of each row in Y, the documents of text features in Text.
func drawAll(t testing.TB, m gendisc.Sampler, n, class int, rng *rand.Rand) *data.Dataset {
	t.Helper()
	return drawClipped(t, m, n, class, nil, rng)
}

// drawClipped is drawAll with the rows truncated to clip's box.
func drawClipped(t testing.TB, m gendisc.Sampler, n, class int, clip *Clip, rng *rand.Rand) *data.Dataset {
	t.Helper()
	s := m.Schema()
	d := &data.Dataset{Schema: s, X: make([]float64, 0, n*len(s.Features)), Y: make([]float64, 0, n)}
	err := Sample(m, n, class, clip, rng, func(r Row) error {
		d.X = append(d.X, r.X...)
		d.Y = append(d.Y, float64(r.Y))
		if r.Text != nil && d.Text == nil {
			d.Text = make([][]string, len(r.Text))
		}
		for j, doc := range r.Text {
			if s.Features[j].Kind == data.Text {
				d.Text[j] = append(d.Text[j], doc)
			}
		}
		d.N++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// within reports whether |got − want| ≤ 4 se.
func within(got, want, se float64) bool { return math.Abs(got-want) <= 4*se }
