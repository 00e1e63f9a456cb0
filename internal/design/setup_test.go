package design

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/text"
)

// randomData returns n weighted rows of a numeric feature far from zero,
// a categorical one, a text one and another numeric one, with missing
// cells in the first two.
func randomData(n int) *data.Dataset {
	rng := rand.New(rand.NewPCG(5, 6))
	s := &data.Schema{Features: []data.Column{
		{Name: "x", Kind: data.Numeric},
		{Name: "c", Kind: data.Categorical, Levels: []string{"a", "b", "c", "d"}},
		{Name: "t", Kind: data.Text},
		{Name: "k", Kind: data.Numeric},
	}}
	words := strings.Fields("cash win now free call me later ok the a of to prize")
	d := &data.Dataset{Schema: s, N: n, Source: "r", Text: [][]string{nil, nil, make([]string, n), nil}, Weight: make([]float64, n)}
	for i := range n {
		x, c := 1e4+3*rng.NormFloat64(), float64(rng.IntN(4))
		if i%9 == 4 {
			x = math.NaN()
		}
		if i%13 == 6 {
			c = math.NaN()
		}
		d.X = append(d.X, x, c, math.NaN(), rng.ExpFloat64())
		var doc []string
		for range rng.IntN(6) {
			doc = append(doc, words[rng.IntN(len(words))])
		}
		d.Text[2][i] = strings.Join(doc, " ")
		d.Weight[i] = 0.5 + rng.Float64()
	}
	return d
}

// TestSetupShards: the Setup of three shards, merged (one of them after
// an encoding and decoding), gives Fit's encoder of all the rows: the
// same terms, centres, scales and fills to 1e-13, and the same
// vocabulary after pruning.
func TestSetupShards(t *testing.T) {
	d := randomData(3000)
	for _, opt := range []Options{
		{Impute: true, Text: &text.VectorizerConfig{MinDF: text.DocFreq{Count: 3}, MaxFeatures: 8}},
		{Impute: true, DropFirst: true, NoStandardize: true, Text: &text.VectorizerConfig{}},
	} {
		want, err := Fit(d, opt)
		if err != nil {
			t.Fatal(err)
		}
		var idx [3][]int
		for i := range d.N {
			idx[i*7%3] = append(idx[i*7%3], i)
		}
		all := NewSetup(opt)
		for s := range idx {
			part := NewSetup(opt)
			if err := part.Add(d.Subset(idx[s])); err != nil {
				t.Fatal(err)
			}
			if s == 1 {
				b, err := part.MarshalJSON()
				if err != nil {
					t.Fatal(err)
				}
				if part, err = UnmarshalSetup(b); err != nil {
					t.Fatal(err)
				}
				if again, _ := part.MarshalJSON(); string(again) != string(b) {
					t.Fatal("the encoding does not read back bit for bit")
				}
			}
			if err := all.Merge(part); err != nil {
				t.Fatal(err)
			}
		}
		got, err := all.Encoder()
		if err != nil {
			t.Fatal(err)
		}
		gt, wt := got.Terms(), want.Terms()
		if len(gt) != len(wt) || got.V() != want.V() {
			t.Fatalf("%d terms and %d words, Fit %d and %d", len(gt), got.V(), len(wt), want.V())
		}
		for k, w := range wt {
			g := gt[k]
			if g.Feature != w.Feature || g.Level != w.Level {
				t.Fatalf("term %d is %+v, Fit's %+v", k, g, w)
			}
			for _, v := range [][2]float64{{g.Center, w.Center}, {g.Scale, w.Scale}, {g.Fill, w.Fill}} {
				if math.Abs(v[0]-v[1]) > 1e-13*math.Abs(v[1]) {
					t.Errorf("term %d is %+v, Fit's %+v", k, g, w)
				}
			}
		}
		for k := range got.V() {
			if got.Name(len(gt)+k) != want.Name(len(wt)+k) {
				t.Errorf("word %d is %q, Fit's %q", k, got.Name(len(gt)+k), want.Name(len(wt)+k))
			}
		}
	}
	if err := NewSetup(Options{}).Add(d); err == nil {
		t.Error("a text column accepted without Options.Text")
	}
	if err := NewSetup(Options{Text: &text.VectorizerConfig{}}).Add(d); err == nil {
		t.Error("a missing cell accepted without Options.Impute")
	}
	if err := NewSetup(Options{}).Merge(NewSetup(Options{Impute: true})); err == nil {
		t.Error("statistics of other options merged")
	}
}
