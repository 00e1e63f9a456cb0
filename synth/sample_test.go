package synth

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
)

const nDraws = 100000

// TestSampleMoments draws 100,000 rows from every kind fitted on iris and
// checks that the class frequencies lie within 4 standard errors of the
// priors, and the mean and variance of every feature in every class within
// 4 standard errors of the model's: the mean's standard error is
// σ/√n_k, the variance's √((m₄ − s⁴)/n_k) with m₄ the sample's fourth
// central moment.
func TestSampleMoments(t *testing.T) {
	iris := bundled.Load(t, "iris", dataio.Options{})
	eachKind(t, iris, func(t *testing.T, kc kindCase, m gendisc.Sampler) {
		d := drawAll(t, m, nDraws, -1, seeded(2))
		prior, mean, variance := kc.moments(m)
		checkMoments(t, d, prior, mean, variance)
	})
}

func checkMoments(t *testing.T, d *data.Dataset, prior []float64, mean, variance [][]float64) {
	t.Helper()
	K, D := len(prior), d.D()
	count := make([]float64, K)
	s1, s2, s4 := make([]float64, K*D), make([]float64, K*D), make([]float64, K*D)
	for i := range d.N {
		k := int(d.Y[i])
		count[k]++
		for j, v := range d.Row(i) {
			e := v - mean[k][j]
			s1[k*D+j] += e
			s2[k*D+j] += e * e
			s4[k*D+j] += e * e * e * e
		}
	}
	n := float64(d.N)
	for k, p := range prior {
		if f := count[k] / n; !within(f, p, math.Sqrt(p*(1-p)/n)) {
			t.Errorf("class %d: frequency %g, prior %g", k, f, p)
		}
		nk := count[k]
		if nk == 0 {
			continue
		}
		for j := range D {
			// Moments about the model's mean: s2/n_k estimates σ² without bias.
			m1, v := s1[k*D+j]/nk, s2[k*D+j]/nk
			if !within(m1, 0, math.Sqrt(variance[k][j]/nk)) {
				t.Errorf("class %d, feature %d: mean %g, model %g (σ %g)", k, j, mean[k][j]+m1, mean[k][j], math.Sqrt(variance[k][j]))
			}
			if se := math.Sqrt((s4[k*D+j]/nk - v*v) / nk); !within(v, variance[k][j], se) {
				t.Errorf("class %d, feature %d: variance %g, model %g ± %g", k, j, v, variance[k][j], se)
			}
		}
	}
}

// TestSampleClass draws from one class of every classifier.
func TestSampleClass(t *testing.T) {
	iris := bundled.Load(t, "iris", dataio.Options{})
	eachKind(t, iris, func(t *testing.T, kc kindCase, m gendisc.Sampler) {
		if _, ok := m.(gendisc.ClassSampler); !ok {
			if err := Sample(m, 1, 0, nil, seeded(1), func(Row) error { return nil }); !errors.Is(err, ErrClass) {
				t.Fatalf("Sample of class 0 from a %s: %v, want ErrClass", kc.name, err)
			}
			return
		}
		d := drawAll(t, m, 20000, 2, seeded(3))
		prior, mean, variance := kc.moments(m)
		for i := range d.N {
			if d.Y[i] != 2 {
				t.Fatalf("row %d of class %g", i, d.Y[i])
			}
		}
		for k := range prior {
			prior[k] = 0
		}
		prior[2] = 1
		checkMoments(t, d, prior, mean, variance)
		if err := Sample(m, 1, 3, nil, seeded(1), func(Row) error { return nil }); !errors.Is(err, ErrClass) {
			t.Errorf("Sample of class 3 of 3: %v, want ErrClass", err)
		}
	})
}

// TestSampleSeed: the same seed gives the same rows; write's error stops
// the draws.
func TestSampleSeed(t *testing.T) {
	iris := bundled.Load(t, "iris", dataio.Options{})
	m, err := kindCases[2].fit(iris)
	if err != nil {
		t.Fatal(err)
	}
	a, b := drawAll(t, m, 50, -1, seeded(9)), drawAll(t, m, 50, -1, seeded(9))
	for i := range a.X {
		if a.X[i] != b.X[i] {
			t.Fatalf("cell %d: %g then %g with the same seed", i, a.X[i], b.X[i])
		}
	}
	stop := errors.New("stop")
	calls := 0
	err = Sample(m, 10, -1, nil, seeded(1), func(Row) error {
		calls++
		if calls == 3 {
			return stop
		}
		return nil
	})
	if err != stop || calls != 3 {
		t.Errorf("Sample returned %v after %d calls, want stop after 3", err, calls)
	}
}

// TestRefit refits every kind on 100,000 of its draws and compares the
// two models on iris: priors, the mean log-likelihood per row, and the
// predicted classes (components for gmm).
func TestRefit(t *testing.T) {
	iris := bundled.Load(t, "iris", dataio.Options{})
	eachKind(t, iris, func(t *testing.T, kc kindCase, m gendisc.Sampler) {
		d := drawAll(t, m, nDraws, -1, seeded(4))
		if m.Schema().Target == nil { // gmm: the components are no classes
			d.Y = nil
		}
		r, err := kc.fit(d)
		if err != nil {
			t.Fatal(err)
		}
		p0, _, _ := kc.moments(m)
		p1, _, _ := kc.moments(r)
		dp := 0.0
		for k := range p0 {
			dp = max(dp, math.Abs(p0[k]-p1[k]))
		}
		ll0, ll1 := meanLogLik(m, iris), meanLogLik(r, iris)
		agree := agreement(m, r, iris)
		t.Logf("%s refitted on %d draws: priors within %.4f, mean log-likelihood on iris %.4f vs %.4f nats/row, same prediction on %.1f%% of iris",
			kc.name, nDraws, dp, ll0, ll1, 100*agree)
		if dp > 0.01 && m.Schema().Target != nil {
			t.Errorf("priors differ by %g", dp)
		}
		if math.Abs(ll0-ll1) > 0.05 {
			t.Errorf("mean log-likelihood %g, refitted %g", ll0, ll1)
		}
		if m.Schema().Target != nil && agree < 0.97 {
			t.Errorf("predictions agree on %g of the rows", agree)
		}
	})
}

// meanLogLik returns the mean log-likelihood log p(x_i) of d's rows.
func meanLogLik(m gendisc.Sampler, d *data.Dataset) float64 {
	var ll []float64
	switch m := m.(type) {
	case gendisc.Generative:
		j := m.JointLogLikelihood(nil, d)
		K := len(m.Classes())
		for i := range d.N {
			row := j[i*K : (i+1)*K]
			mx := math.Inf(-1)
			for _, v := range row {
				mx = max(mx, v)
			}
			s := 0.0
			for _, v := range row {
				s += math.Exp(v - mx)
			}
			ll = append(ll, mx+math.Log(s))
		}
	case interface {
		ScoreSamples([]float64, *data.Dataset) []float64
	}:
		ll = m.ScoreSamples(nil, d)
	}
	s := 0.0
	for _, v := range ll {
		s += v
	}
	return s / float64(len(ll))
}

// agreement returns the share of d's rows that two classifiers put in the
// same class; 1 for models that are not classifiers.
func agreement(a, b gendisc.Sampler, d *data.Dataset) float64 {
	ca, ok := a.(gendisc.Classifier)
	if !ok {
		return 1
	}
	cb := b.(gendisc.Classifier)
	pa, pb := ca.LogProba(nil, d), cb.LogProba(nil, d)
	K, same := len(ca.Classes()), 0
	for i := range d.N {
		if argmax(pa[i*K:(i+1)*K]) == argmax(pb[i*K:(i+1)*K]) {
			same++
		}
	}
	return float64(same) / float64(d.N)
}

func argmax(x []float64) int {
	best := 0
	for k, v := range x {
		if v > x[best] {
			best = k
		}
	}
	return best
}

// texter adds a document per row to a Gaussian model, as a text family
// of naive Bayes would: "c<class>" in its text feature.
type texter struct {
	gendisc.ClassSampler
	schema *data.Schema
}

func (m texter) Schema() *data.Schema { return m.schema }

func (m texter) SampleText(dst []string, c int, rng *rand.Rand) {
	dst[len(dst)-1] = fmt.Sprintf("c%d", c)
}

// TestSampleText: a TextSampler's documents come with the rows, drawn for
// the row's class.
func TestSampleText(t *testing.T) {
	iris := bundled.Load(t, "iris", dataio.Options{})
	m, err := kindCases[0].fit(iris)
	if err != nil {
		t.Fatal(err)
	}
	s := m.Schema().Clone()
	s.Features[3].Kind = data.Text // the last feature plays a text column
	n := 0
	err = Sample(texter{m.(gendisc.ClassSampler), s}, 100, -1, nil, seeded(1), func(r Row) error {
		n++
		if want := fmt.Sprintf("c%d", r.Y); len(r.Text) != 4 || r.Text[3] != want {
			return fmt.Errorf("row of class %d with text %q", r.Y, r.Text)
		}
		return nil
	})
	if err != nil || n != 100 {
		t.Fatalf("%d rows, %v", n, err)
	}
}
