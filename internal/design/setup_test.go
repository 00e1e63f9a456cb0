package design

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/stats"
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

// TestSetupShards: the Setup of all the rows in one Add gives Fit's
// encoder bit for bit; the Setup of three shards, merged (one of them
// after an encoding and decoding), gives Fit's encoder of all the rows:
// the same terms, centres, scales and fills to 1e-13, and the same
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
		one := NewSetup(opt)
		if err := one.Add(d); err != nil {
			t.Fatal(err)
		}
		got, err := one.Encoder()
		if err != nil {
			t.Fatal(err)
		}
		sameEncoder(t, "one shard", got, want, 0)

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
				badMoments(t, b)
			}
			if err := all.Merge(part); err != nil {
				t.Fatal(err)
			}
		}
		if got, err = all.Encoder(); err != nil {
			t.Fatal(err)
		}
		sameEncoder(t, "three shards", got, want, 1e-13)
	}
	if err := NewSetup(Options{}).Add(d); !errors.Is(err, data.ErrFeatureKind) {
		t.Errorf("a text column without Options.Text gives %v", err)
	}
	var pe *data.ParseError
	if err := NewSetup(Options{Text: &text.VectorizerConfig{}}).Add(d); !errors.As(err, &pe) || !errors.Is(err, ErrMissing) || pe.Line != d.Line(4) || pe.ColumnName != "x" {
		t.Errorf("a missing cell without Options.Impute gives %v", err)
	}
	if err := NewSetup(Options{}).Merge(NewSetup(Options{Impute: true})); err == nil {
		t.Error("statistics of other options merged")
	}
}

// sameEncoder reports an error unless got has want's terms, with centres,
// scales and fills equal to a relative tolerance tol (0: bit for bit), and
// want's vocabulary.
func sameEncoder(t *testing.T, what string, got, want *Encoder, tol float64) {
	t.Helper()
	gt, wt := got.Terms(), want.Terms()
	if len(gt) != len(wt) || got.V() != want.V() {
		t.Fatalf("%s: %d terms and %d words, Fit %d and %d", what, len(gt), got.V(), len(wt), want.V())
	}
	for k, w := range wt {
		g := gt[k]
		if g.Feature != w.Feature || g.Level != w.Level {
			t.Fatalf("%s: term %d is %+v, Fit's %+v", what, k, g, w)
		}
		for _, v := range [][2]float64{{g.Center, w.Center}, {g.Scale, w.Scale}, {g.Fill, w.Fill}} {
			if v[0] != v[1] && !(math.Abs(v[0]-v[1]) <= tol*math.Abs(v[1])) {
				t.Errorf("%s: term %d is %+v, Fit's %+v", what, k, g, w)
			}
		}
	}
	for k := range got.V() {
		if got.Name(len(gt)+k) != want.Name(len(wt)+k) {
			t.Errorf("%s: word %d is %q, Fit's %q", what, k, got.Name(len(gt)+k), want.Name(len(wt)+k))
		}
	}
}

// badMoments checks that UnmarshalSetup refuses the encoding b of a Setup
// with its moments replaced by ones of another shape or a negative sum of
// squares.
func badMoments(t *testing.T, b []byte) {
	t.Helper()
	var j map[string]any
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	neg := stats.NewMoments(1, 4)
	neg.S[3] = -1
	for _, m := range []*stats.Moments{stats.NewMoments(1, 3), stats.NewMoments(2, 4), neg} {
		j["moments"], _ = m.MarshalBinary()
		bad, _ := json.Marshal(j)
		if _, err := UnmarshalSetup(bad); err == nil {
			t.Errorf("moments of %d classes and %d features, S %v accepted", m.K(), m.D, m.S)
		}
	}
}
