package synth

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/naivebayes"
)

// nDocs is the number of documents drawn from a text model: fewer than
// nDraws to keep the package's tests short (100,000 documents, 1.6 million
// words, take about 4 s on a loaded machine and pass as well, largest
// deviation 3.46 se); 20,000 give over 60,000 words of the rarer class.
const nDocs = 20000

// TestSampleTextNB draws 20,000 rows from mixed naive Bayes fitted on
// sms_spam and checks them against the model as computed here from the
// training documents and the model's vocabulary: the class frequencies of
// the priors; each class's mean document length (number of words) of
// the Poisson mean L̄_c = (words of class c) / (documents of class c)
// (se √(L̄_c/n_c)), and its variance of the Poisson variance L̄_c (se
// √((L̄_c + 2L̄_c²)/n_c), from the Poisson's fourth central moment
// L̄_c(1 + 3L̄_c)); and the frequency among all drawn words of class c of
// each of its 20 most probable terms, of the smoothed
//
//	θ_ct = (N_ct + 1) / (N_c + V)
//
// (se √(θ(1 − θ)/W_c), W_c the words drawn for class c). A model refitted
// on the draws is compared with the original on sms_spam.
func TestSampleTextNB(t *testing.T) {
	train := bundled.Load(t, "sms_spam", dataio.Options{})
	m, err := naivebayes.Config{}.Fit(train)
	if err != nil {
		t.Fatal(err)
	}
	j := train.Schema.Feature("text")
	if train.Schema.Features[j].Kind != data.Text {
		t.Fatalf("sms_spam's text column read as %v", train.Schema.Features[j].Kind)
	}
	vocab, err := m.Vocabulary("text")
	if err != nil {
		t.Fatal(err)
	}
	K, V := len(m.Classes()), vocab.Len()
	counts, _ := vocab.Transform(train.Text[j])
	nct, nc, docs := make([]float64, K*V), make([]float64, K), make([]float64, K)
	for i := range train.N {
		k := int(train.Y[i])
		docs[k]++
		cols, vals := counts.Row(i)
		for a, c := range cols {
			nct[k*V+int(c)] += vals[a]
			nc[k] += vals[a]
		}
	}

	d := drawAll(t, m, nDocs, -1, seeded(8))
	drawn, words, length, sq := make([]float64, K*V), make([]float64, K), make([]float64, K), make([]float64, K)
	nk := make([]float64, K)
	for i, doc := range d.Text[j] {
		k := int(d.Y[i])
		nk[k]++
		for _, w := range strings.Fields(doc) {
			c, ok := vocab.Index(w)
			if !ok {
				t.Fatalf("row %d: word %q not in the vocabulary", i, w)
			}
			drawn[k*V+c]++
			words[k]++
		}
		L := float64(len(strings.Fields(doc)))
		length[k] += L
		sq[k] += L * L
	}
	worst := 0.0
	check := func(what string, k int, got, want, se float64) {
		t.Helper()
		worst = max(worst, math.Abs(got-want)/se)
		if !within(got, want, se) {
			t.Errorf("class %d, %s: %g, model %g ± %g", k, what, got, want, se)
		}
	}
	for k, p := range m.Priors() {
		check("frequency", k, nk[k]/nDocs, p, math.Sqrt(p*(1-p)/nDocs))
		mean := nc[k] / docs[k]
		l := length[k] / nk[k]
		check("mean document length", k, l, mean, math.Sqrt(mean/nk[k]))
		check("document length variance", k, sq[k]/nk[k]-l*l, mean, math.Sqrt((mean+2*mean*mean)/nk[k]))
		top := make([]int, V)
		for c := range top {
			top[c] = c
		}
		slices.SortStableFunc(top, func(a, b int) int { return cmp.Compare(nct[k*V+b], nct[k*V+a]) })
		for _, c := range top[:20] {
			theta := (nct[k*V+c] + 1) / (nc[k] + float64(V))
			check("frequency of "+vocab.Term(c), k, drawn[k*V+c]/words[k], theta, math.Sqrt(theta*(1-theta)/words[k]))
		}
		t.Logf("class %s: %.0f documents of %.2f words on average (model %.2f, variance %.2f), %.0f words", m.Classes()[k], nk[k], l, mean, sq[k]/nk[k]-l*l, words[k])
	}
	t.Logf("%d documents: largest deviation %.2f se", nDocs, worst)

	r, err := naivebayes.Config{}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	p0, p1 := m.Priors(), r.Priors()
	ll0, ll1 := meanLogLik(m, train), meanLogLik(r, train)
	agree := agreement(m, r, train)
	t.Logf("refitted on %d documents: priors %.4f vs %.4f, mean log-likelihood on sms_spam %.2f vs %.2f nats/row, same prediction on %.1f%% of it",
		nDocs, p0[1], p1[1], ll0, ll1, 100*agree)
	if math.Abs(p0[1]-p1[1]) > 0.015 {
		t.Errorf("priors %v, refitted %v", p0, p1)
	}
	if agree < 0.95 {
		t.Errorf("predictions agree on %g of the rows", agree)
	}
}
