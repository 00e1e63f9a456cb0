package ngram

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
)

// toy is the corpus of the hand-derived probabilities. Padded for order 2
// its bigrams are
//
//	<s> a: 3   <s> b: 1   a b: 3   a a: 1   a </s>: 1
//	b a: 1     b </s>: 2  b c: 1   c </s>: 1
//
// 14 tokens in all; V = {</s>, <unk>, a, b, c}, |V| = 5.
var toy = []string{"a b a b", "a b c", "a a", "b"}

func close(t *testing.T, what string, got, want float64) {
	t.Helper()
	if relErr(got, want) > 1e-14 {
		t.Errorf("%s = %.17g, want %.17g", what, got, want)
	}
}

// TestToyKneserNey checks modified Kneser–Ney on the toy corpus by hand.
//
// Bigrams: counts of counts n₁ = 6, n₂ = 1, n₃ = 2, n₄ = 0, so
// Y = 6/8 = 3/4, D₁ = 1 − 2·(3/4)·(1/6) = 3/4, D₂ = 2 − 3·(3/4)·2 = −2.5,
// clamped to 0, D₃₊ = 3 − 4·(3/4)·0 = 3.
//
// Unigram continuation counts (distinct words before): a 3 (<s>, a, b),
// b 2 (<s>, a), c 1 (b), </s> 3 (a, b, c), <unk> 0; 9 in all. n₁ = 1,
// n₂ = 1, n₃ = 2, n₄ = 0: Y = 1/3, D₁ = 1/3, D₂ = 2 − 3·(1/3)·2 = 0,
// D₃₊ = 3. γ = (1/3)·1 + 0·1 + 3·2 = 19/3, so with the uniform 1/5
//
//	P(a) = (0 + 19/15)/9 = 19/135     P(b) = (2 + 19/15)/9 = 49/135
//	P(c) = (2/3 + 19/15)/9 = 29/135   P(</s>) = P(<unk>) = 19/135
//
// After "a" (a b 3, a a 1, a </s> 1: c(a•) = 5, γ(a) = 3/4·2 + 3·1 = 9/2):
//
//	P(b|a) = (0 + 9/2·49/135)/5 = 49/150    P(a|a) = (1/4 + 9/2·19/135)/5 = 53/300
//	P(c|a) = 9/2·29/135/5 = 29/150          P(<unk>|a) = 19/150
func TestToyKneserNey(t *testing.T) {
	m := fit(t, Config{Order: 2}, docs(toy, nil))
	st := m.Stats(0)
	if st[1].Counts != [4]int64{6, 1, 2, 0} || st[0].Counts != [4]int64{1, 1, 2, 0} {
		t.Errorf("counts of counts %v (unigrams), %v (bigrams)", st[0].Counts, st[1].Counts)
	}
	for i, want := range [][3]float64{{1.0 / 3, 0, 3}, {0.75, 0, 3}} {
		for r := range 3 {
			close(t, "discount", st[i].Discount[r], want[r])
		}
	}
	for _, c := range []struct {
		ctx, w string
		p      float64
	}{
		{"<s>", "a", 0}, // checked below against the formula
		{"zzz", "a", 19.0 / 135}, {"zzz", "b", 49.0 / 135}, {"zzz", "c", 29.0 / 135}, {"zzz", End, 19.0 / 135}, {"zzz", Unknown, 19.0 / 135},
		{"a", "b", 49.0 / 150}, {"a", "a", 53.0 / 300}, {"a", End, 53.0 / 300}, {"a", "c", 29.0 / 150}, {"a", "never", 19.0 / 150},
	} {
		if c.p == 0 {
			continue
		}
		close(t, "P("+c.w+"|"+c.ctx+")", m.Prob(0, []string{c.ctx}, c.w), c.p)
	}
	// After <s> (<s> a 3, <s> b 1: c = 4, γ = 3/4·1 + 3·1 = 15/4):
	// P(a|<s>) = (0 + 15/4·19/135)/4.
	close(t, "P(a|<s>)", m.Prob(0, nil, "a"), 15.0/4*19/135/4)
}

// TestToyWittenBell: unigram counts a 5, b 4, c 1, </s> 4 (14), 4 distinct:
// P(w) = (c(w) + 4/5)/18; after "a", c = 5 and 3 distinct words follow:
// P(b|a) = (3 + 3·24/90)/8 = 19/40, P(c|a) = (0 + 3·9/90)/8 = 3/80.
func TestToyWittenBell(t *testing.T) {
	m := fit(t, Config{Order: 2, Smoothing: WittenBell}, docs(toy, nil))
	close(t, "P(a)", m.Prob(0, []string{"zzz"}, "a"), 5.8/18)
	close(t, "P(<unk>)", m.Prob(0, []string{"zzz"}, Unknown), 0.8/18)
	close(t, "P(b|a)", m.Prob(0, []string{"a"}, "b"), 19.0/40)
	close(t, "P(c|a)", m.Prob(0, []string{"a"}, "c"), 3.0/80)
}

// TestToyLidstone: with α = 1/2, P(b|a) = (3 + 1/2)/(5 + 5/2) = 7/15,
// P(c|a) = (1/2)/(15/2) = 1/15, and after an unseen context 1/|V| = 1/5.
func TestToyLidstone(t *testing.T) {
	m := fit(t, Config{Order: 2, Smoothing: Lidstone, Alpha: 0.5}, docs(toy, nil))
	close(t, "P(b|a)", m.Prob(0, []string{"a"}, "b"), 7.0/15)
	close(t, "P(c|a)", m.Prob(0, []string{"a"}, "c"), 1.0/15)
	close(t, "P(a|zzz)", m.Prob(0, []string{"zzz"}, "a"), 1.0/5)
}

// TestToyMLE: P(b|a) = 3/5, P(c|a) = 0, and after an unseen context the
// unigram frequency P(a) = 5/14.
func TestToyMLE(t *testing.T) {
	m := fit(t, Config{Order: 2, Smoothing: MLE}, docs(toy, nil))
	close(t, "P(b|a)", m.Prob(0, []string{"a"}, "b"), 3.0/5)
	if p := m.Prob(0, []string{"a"}, "c"); p != 0 {
		t.Errorf("P(c|a) = %v, want 0", p)
	}
	close(t, "P(a|zzz)", m.Prob(0, []string{"zzz"}, "a"), 5.0/14)
	if lp, _ := m.LogProb("c c", 0); !math.IsInf(lp, -1) {
		t.Errorf("log P(c c) = %v, want −Inf", lp)
	}
}

// TestNormalised sums P(w | h) over the vocabulary for every context h of
// Order−1 vocabulary ids (Start included), for every smoothing and orders
// 1 to 3, with and without a minimum count: each sum is 1 to 1e-12.
func TestNormalised(t *testing.T) {
	corpus := append(slices.Clone(toy), "c a b b a", "b b b b c", "d e a b")
	for _, sm := range []Smoothing{KneserNey, WittenBell, Lidstone, MLE} {
		for order := 1; order <= 3; order++ {
			for _, minCount := range []int{1, 2} {
				m := fit(t, Config{Order: order, Smoothing: sm, MinCount: minCount, Alpha: 0.3}, docs(corpus, nil))
				l := m.lms[0]
				V := len(m.vocab)
				h := make([]int32, order-1)
				p := make([]float64, V)
				for {
					l.next(p, h)
					sum := 0.0
					for _, q := range p {
						sum += q
					}
					if math.Abs(sum-1) > 1e-12 {
						t.Fatalf("%v order %d min count %d: Σ P(w | %v) = %.17g", sm, order, minCount, h, sum)
					}
					i := 0 // the next context, odometer style
					for ; i < len(h); i++ {
						if h[i]++; int(h[i]) < V {
							break
						}
						h[i] = 0
					}
					if i == len(h) {
						break
					}
				}
			}
		}
	}
}

type reference struct {
	Perplexity   map[string]float64 `json:"perplexity"`
	KN3Discounts [][3]float64       `json:"kn3_discounts"`
}

// TestReferencePerplexity compares the held-out perplexities on
// Shakespeare with those of testdata/reference.py, to 1e-10 relative,
// and checks that Kneser–Ney beats Witten–Bell and Lidstone there.
func TestReferencePerplexity(t *testing.T) {
	if testing.Short() {
		t.Skip("fits eight models of Shakespeare")
	}
	b, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref reference
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	train, test := shakespeare(t)
	d := docs(train, nil)
	settings := map[string]Config{
		"kn3": {Order: 3}, "kn2": {Order: 2}, "kn4": {Order: 4}, "kn3_min2": {Order: 3, MinCount: 2},
		"wb3": {Order: 3, Smoothing: WittenBell}, "laplace3": {Order: 3, Smoothing: Lidstone},
		"lidstone3_0.01": {Order: 3, Smoothing: Lidstone, Alpha: 0.01}, "mle3_train": {Order: 3, Smoothing: MLE},
	}
	got := map[string]float64{}
	for name, c := range settings {
		m := fit(t, c, d)
		texts := test
		if c.Smoothing == MLE {
			texts = train
		}
		got[name] = perplexity(m, 0, texts)
		if e := relErr(got[name], ref.Perplexity[name]); e > 1e-10 {
			t.Errorf("%s: perplexity %.15g, reference %.15g (relative error %.2g)", name, got[name], ref.Perplexity[name], e)
		}
		if name == "kn3" {
			for k, o := range m.Stats(0) {
				for r := range 3 {
					if relErr(o.Discount[r], ref.KN3Discounts[k][r]) > 1e-14 {
						t.Errorf("order %d: D%d = %v, reference %v", k+1, r+1, o.Discount[r], ref.KN3Discounts[k][r])
					}
				}
			}
		}
	}
	if !(got["kn3"] < got["wb3"] && got["wb3"] < got["lidstone3_0.01"] && got["lidstone3_0.01"] < got["laplace3"]) {
		t.Errorf("held-out perplexities: Kneser–Ney %v, Witten–Bell %v, Lidstone %v and %v", got["kn3"], got["wb3"], got["lidstone3_0.01"], got["laplace3"])
	}
}

// TestMergeShards fits three shards of labelled documents, merges their
// accumulators (through their encodings) and checks that the result
// equals the fit on all the rows bit for bit: the same encoding, the same
// model file, the same scores.
func TestMergeShards(t *testing.T) {
	train, _ := shakespeare(t)
	train = train[:3000]
	labels := make([]string, len(train))
	for i := range labels {
		labels[i] = []string{"even", "odd"}[i%2]
	}
	all := docs(train, labels)
	for _, c := range []Config{{Order: 3}, {Order: 2, Smoothing: WittenBell, MinCount: 2, KeepPunct: true}} {
		whole, err := NewAccumulator(c)
		if err != nil {
			t.Fatal(err)
		}
		if err := whole.Add(all); err != nil {
			t.Fatal(err)
		}
		var merged *Accumulator
		for _, r := range [][2]int{{0, 1}, {1, 1700}, {1700, 3000}} {
			idx := make([]int, 0, r[1]-r[0])
			for i := r[0]; i < r[1]; i++ {
				idx = append(idx, i)
			}
			// Each shard read on its own: its classes in its own order.
			shard := docs(all.Subset(idx).Text[0], labels[r[0]:r[1]])
			a, _ := NewAccumulator(c)
			if err := a.Add(shard); err != nil {
				t.Fatal(err)
			}
			enc, err := a.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			var b Accumulator
			if err := b.UnmarshalBinary(enc); err != nil {
				t.Fatal(err)
			}
			if merged == nil {
				merged = &b
			} else if err := merged.Merge(&b); err != nil {
				t.Fatal(err)
			}
		}
		e1, _ := whole.MarshalBinary()
		e2, _ := merged.MarshalBinary()
		if !bytes.Equal(e1, e2) {
			t.Errorf("%+v: the merged shards encode differently from the fit on all", c)
		}
		m1, _ := whole.Model()
		m2, _ := merged.Model()
		j1, _ := json.Marshal(m1)
		j2, _ := json.Marshal(m2)
		if !bytes.Equal(j1, j2) {
			t.Errorf("%+v: the model files differ", c)
		}
		s1 := m1.(gendisc.Generative).JointLogLikelihood(nil, all)
		s2 := m2.(gendisc.Generative).JointLogLikelihood(nil, all)
		for i := range s1 {
			if math.Float64bits(s1[i]) != math.Float64bits(s2[i]) {
				t.Fatalf("%+v: score %d: %v and %v", c, i, s1[i], s2[i])
			}
		}
	}
}

// TestModelFile checks that a model read back from its JSON scores as the
// original, and that its accumulator updates it as a fit on all the rows.
func TestModelFile(t *testing.T) {
	d := docs(append(slices.Clone(toy), "a c b"), []string{"x", "y", "x", "y", "x"})
	m := fit(t, Config{Order: 3, MinCount: 2}, d)
	j, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	r, err := UnmarshalModel(d.Schema, j)
	if err != nil {
		t.Fatal(err)
	}
	a, b := m.JointLogLikelihood(nil, d), r.JointLogLikelihood(nil, d)
	if !slices.Equal(a, b) {
		t.Errorf("scores %v after reading back, want %v", b, a)
	}
	for _, bad := range []string{`{"order":3}`, `{"order":3,"smoothing":"x"}`, `[]`,
		`{"order":3,"smoothing":"kneser-ney","alpha":1,"min_count":2,"words":["<s>","</s>","<unk>"],"docs":[1,1],"ngrams":[[0,0,9],[]],"counts":[[1],[]]}`} {
		if _, err := UnmarshalModel(d.Schema, []byte(bad)); err == nil {
			t.Errorf("UnmarshalModel(%s): no error", bad)
		}
	}
}

// TestClassify checks the classifier's conventions: LogProba's rows sum to
// one and the prior is the share of documents.
func TestClassify(t *testing.T) {
	d := docs([]string{"the cat sat", "a cat sat on the mat", "buy cheap pills now", "cheap pills", "the mat"}, []string{"ham", "ham", "spam", "spam", "ham"})
	m := fit(t, Config{Order: 2}, d)
	lp := m.LogProba(nil, d)
	for i := range d.N {
		if s := math.Exp(lp[2*i]) + math.Exp(lp[2*i+1]); math.Abs(s-1) > 1e-12 {
			t.Errorf("row %d: probabilities sum to %v", i, s)
		}
		want := 0
		if d.Y[i] == 1 {
			want = 1
		}
		if got := slices.Index(lp[2*i:2*i+2], slices.Max(lp[2*i:2*i+2])); got != want {
			t.Errorf("row %d classified %d, want %d", i, got, want)
		}
	}
	close(t, "prior", math.Exp(m.logPrior[0]), 3.0/5)
}

// TestSample checks that the same seed gives the same document, that a
// prompt begins it, and that maxWords bounds it.
func TestSample(t *testing.T) {
	train, _ := shakespeare(t)
	m := fit(t, Config{Order: 3, KeepPunct: true}, docs(train[:5000], nil))
	a := m.Sample(-1, "", 30, 1, rand.New(rand.NewPCG(7, 0)))
	b := m.Sample(-1, "", 30, 1, rand.New(rand.NewPCG(7, 0)))
	if !slices.Equal(a, b) || len(a) == 0 {
		t.Errorf("two draws of seed 7: %q and %q", a, b)
	}
	c := m.Sample(0, "My lord,", 12, 0.5, rand.New(rand.NewPCG(1, 0)))
	if len(c) > 12 || len(c) < 3 || !slices.Equal(c[:3], []string{"My", "lord", ","}) {
		t.Errorf("continuation of a prompt: %q", c)
	}
}

// TestErrors checks the documented errors.
func TestErrors(t *testing.T) {
	for _, c := range []Config{{Order: -1}, {Order: MaxOrder + 1}, {Alpha: -1}, {MinCount: -2}, {Smoothing: 9}} {
		if _, err := NewAccumulator(c); !errors.Is(err, ErrConfig) {
			t.Errorf("%+v: error %v, want ErrConfig", c, err)
		}
	}
	d := docs(toy, nil)
	d.Weight = []float64{1, 2, 1, 1}
	if _, err := (Config{}).Fit(d); !errors.Is(err, ErrWeights) {
		t.Errorf("weights: error %v", err)
	}
	nt := &data.Dataset{Schema: &data.Schema{Features: []data.Column{{Name: "x", Kind: data.Numeric}}}, N: 1, X: []float64{1}}
	if _, err := (Config{}).Fit(nt); !errors.Is(err, ErrConfig) {
		t.Errorf("no text column: error %v", err)
	}
	a, _ := NewAccumulator(Config{Order: 2})
	b, _ := NewAccumulator(Config{Order: 3})
	var me *gendisc.MergeError
	if err := a.Merge(b); !errors.As(err, &me) {
		t.Errorf("merging orders 2 and 3: error %v", err)
	}
	if err := a.UnmarshalBinary([]byte("gendisc-ngram-acc\x01\x03")); !errors.Is(err, ErrEncoding) {
		t.Errorf("truncated encoding: error %v", err)
	}
	if _, err := ParseSmoothing("good-turing"); err == nil {
		t.Error("ParseSmoothing(good-turing): no error")
	}
}
