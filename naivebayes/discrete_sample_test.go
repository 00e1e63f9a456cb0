package naivebayes

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
)

// TestMixedSampleIsGaussian: on numeric columns, mixed naive Bayes draws
// and imputes as Gaussian naive Bayes, bit for bit.
func TestMixedSampleIsGaussian(t *testing.T) {
	d := bundled.Load(t, "breast_cancer_wisconsin", dataio.Options{})
	m, err := Config{}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	g, err := GaussianConfig{}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	r1, r2 := rand.New(rand.NewPCG(1, 2)), rand.New(rand.NewPCG(1, 2))
	for range 100 {
		a, ka := m.Sample(nil, r1)
		b, kb := g.Sample(nil, r2)
		if ka != kb || !slices.Equal(a, b) {
			t.Fatalf("mixed drew %v of class %d, Gaussian %v of class %d", a, ka, b, kb)
		}
	}
	if a, b := m.Impute(nil, d), g.Impute(nil, d); !slices.Equal(a, b) {
		t.Errorf("imputations differ")
	}
}

// TestCategoricalSample: level frequencies of 20,000 draws of a class are
// within 4 standard errors of θ_kjv, and imputation keeps observed cells
// and fills missing ones with levels.
func TestCategoricalSample(t *testing.T) {
	d := bundled.Load(t, "house_votes84", dataio.Options{})
	for _, f := range []Family{Categorical, Bernoulli} {
		m, err := Config{Family: f}.Fit(d)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(3, 4))
		const n = 20000
		yes := make([]float64, d.D())
		x := make([]float64, d.D())
		for range n {
			m.SampleClass(x, 1, rng)
			for j, v := range x {
				yes[j] += v
			}
		}
		for j, c := range d.Schema.Features {
			var p float64
			if f == Categorical {
				theta, _ := m.LevelProbabilities(c.Name)
				p = theta[1][1]
			} else {
				_, w := m.CountWeights()
				p = math.Exp(w[1][j])
			}
			if se := math.Sqrt(p * (1 - p) / n); math.Abs(yes[j]/n-p) > 4*se {
				t.Errorf("%v %s: share of yes %.4f, model %.4f", f, c.Name, yes[j]/n, p)
			}
		}
		filled := m.ImputeRand(nil, d, rng)
		for i, v := range d.X {
			if v == v && filled[i] != v || v != v && filled[i] != 0 && filled[i] != 1 {
				t.Fatalf("%v: cell %d was %v, imputed %v", f, i, v, filled[i])
			}
		}
	}
}

// TestSampleText: drawn documents use the vocabulary, and their mean
// length is the class's within 4 standard errors.
func TestSampleText(t *testing.T) {
	d := bundled.Load(t, "sms_spam", dataio.Options{Text: []string{"text"}})
	for _, f := range []Family{Multinomial, Bernoulli, Complement} {
		m, err := Config{Family: f}.Fit(d)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := m.Vocabulary("text")
		rng := rand.New(rand.NewPCG(5, 6))
		const n = 500
		total := 0.0
		doc := make([]string, 1)
		for range n {
			m.SampleText(doc, 1, rng)
			words := strings.Fields(doc[0])
			for _, w := range words {
				if _, ok := v.Index(w); !ok {
					t.Fatalf("%v: word %q is not in the vocabulary", f, w)
				}
			}
			total += float64(len(words))
		}
		tp := m.parts[0].(*textPart)
		want := 0.0
		if f == Bernoulli {
			for t := range v.Len() {
				want += math.Exp(tp.w.b[v.Len()+t])
			}
		} else {
			want = tp.length[1]
		}
		if got := total / n; math.Abs(got-want) > 4*math.Sqrt(want/n)+1e-9 {
			t.Errorf("%v: mean length %.3f, model %.3f", f, got, want)
		}
	}
}

// TestSampleTextConcurrent: the first draws of a fresh model from 8
// goroutines at once (which make the cumulative θ) give the documents of
// the same seed drawn alone.
func TestSampleTextConcurrent(t *testing.T) {
	d := bundled.Load(t, "sms_spam", dataio.Options{Text: []string{"text"}})
	fresh := func() *Model {
		m, err := Config{Family: Complement}.Fit(d)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	draw := func(m *Model) string {
		doc := make([]string, 1)
		m.SampleText(doc, 0, rand.New(rand.NewPCG(7, 8)))
		return doc[0]
	}
	want := draw(fresh())
	m := fresh()
	got := make([]string, 8)
	var wg sync.WaitGroup
	for g := range got {
		wg.Go(func() { got[g] = draw(m) })
	}
	wg.Wait()
	for g, doc := range got {
		if doc != want {
			t.Fatalf("goroutine %d drew %q, alone %q", g, doc, want)
		}
	}
}
