package naivebayes

import (
	"math"
	"testing"

	"github.com/gendisc/gendisc/dataio"
)

// TestScoreSamplesUnseenWords checks the density of documents with words
// outside the vocabulary against the (V+1)-slot distributions worked out
// by hand, and that predictions do not see the slot. Training: "a b" and
// "a a" of class x, "b c" of class y; α = 1, V = 3, N_x = 4, N_y = 2,
// π = (2/3, 1/3).
//
//	multinomial: θ'_x = (4, 2, 1, 1)/8, θ'_y = (1, 2, 2, 1)/6 over (a, b, c, unseen)
//	Bernoulli:   p_x = (3/4, 2/4, 1/4), p_y = (1/3, 2/3, 2/3), p_unseen = 1/4, 1/3
func TestScoreSamplesUnseenWords(t *testing.T) {
	opt := dataio.Options{Text: []string{"doc"}}
	train := readCSV(t, nil, "doc,y\na b,x\na a,x\nb c,y\n", opt)
	test := readCSV(t, train.Schema, "doc,y\nzz,x\na zz,x\nzz qq qq,x\n\"\",x\nb,x\n", opt)
	const px, py = 2. / 3, 1. / 3
	for _, tc := range []struct {
		family Family
		want   []float64 // p(x) per test row
	}{
		{Multinomial, []float64{
			px/8 + py/6,
			px*(4./8)*(1./8) + py*(1./6)*(1./6),
			px*math.Pow(1./8, 3) + py*math.Pow(1./6, 3),
			1, // an empty document is no observation
			px*(2./8) + py*(2./6),
		}},
		{Bernoulli, []float64{
			// absent a, b, c; unseen present
			px*(1./4)*(2./4)*(3./4)*(1./4) + py*(2./3)*(1./3)*(1./3)*(1./3),
			px*(3./4)*(2./4)*(3./4)*(1./4) + py*(1./3)*(1./3)*(1./3)*(1./3),
			px*(1./4)*(2./4)*(3./4)*(1./4) + py*(2./3)*(1./3)*(1./3)*(1./3),
			1,
			// b present, no unseen word
			px*(1./4)*(2./4)*(3./4)*(3./4) + py*(2./3)*(2./3)*(1./3)*(2./3),
		}},
	} {
		m, err := Config{Family: tc.family}.Fit(train)
		if err != nil {
			t.Fatal(err)
		}
		got := m.ScoreSamples(nil, test)
		for i, want := range tc.want {
			if math.Abs(got[i]-math.Log(want)) > 1e-14 {
				t.Errorf("%v: row %d: log p(x) = %.17g, want %.17g", tc.family, i, got[i], math.Log(want))
			}
		}
		// Predictions leave the slot out: the joint log-likelihood of a
		// document of unseen words only is the log prior, exactly.
		jll := m.JointLogLikelihood(nil, test)
		if tc.family == Multinomial && (jll[0] != math.Log(px) || jll[1] != math.Log(py)) {
			t.Errorf("%v: joint of unseen words %v, want the log priors", tc.family, jll[:2])
		}
	}
}
