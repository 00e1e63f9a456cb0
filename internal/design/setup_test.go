package design

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
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
	d := &data.Dataset{Schema: s, N: n, Source: data.Named("r"), Text: [][]string{nil, nil, make([]string, n), nil}, Weight: make([]float64, n)}
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
// after an encoding and decoding), gives Fit's terms with the centres,
// scales and fills of all the rows to 1e-13 of their exact values, and
// Fit's vocabulary after pruning. (The exact values, not Fit's: the means
// of the column far from zero carry a rounding error of about n·u·|M|,
// which Chan's merge of Fit's two segments or of the three shards turns
// into an error of the scale in proportion to |M|/s, here 1.8e-13 for
// Fit's.)
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
		sameEncoder(t, "one shard", got, want, nil, 0)

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
		sameEncoder(t, "three shards", got, want, exactTerms(d, want.Terms(), opt.NoStandardize), 1e-13)
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

// sameEncoder reports an error unless got has the terms terms (want's
// when nil), with centres, scales and fills equal to a relative tolerance
// tol (0: bit for bit), and want's vocabulary.
func sameEncoder(t *testing.T, what string, got, want *Encoder, terms []Term, tol float64) {
	t.Helper()
	if terms == nil {
		terms = want.Terms()
	}
	gt := got.Terms()
	if len(gt) != len(terms) || got.V() != want.V() {
		t.Fatalf("%s: %d terms and %d words, want %d and %d", what, len(gt), got.V(), len(terms), want.V())
	}
	for k, w := range terms {
		g := gt[k]
		if g.Feature != w.Feature || g.Level != w.Level {
			t.Fatalf("%s: term %d is %+v, want %+v", what, k, g, w)
		}
		for _, v := range [][2]float64{{g.Center, w.Center}, {g.Scale, w.Scale}, {g.Fill, w.Fill}} {
			if v[0] != v[1] && !(math.Abs(v[0]-v[1]) <= tol*math.Abs(v[1])) {
				t.Errorf("%s: term %d is %+v, want %+v", what, k, g, w)
			}
		}
	}
	for k := range got.V() {
		if got.Name(len(gt)+k) != want.Name(len(terms)+k) {
			t.Errorf("%s: word %d is %q, Fit's %q", what, k, got.Name(len(gt)+k), want.Name(len(terms)+k))
		}
	}
}

// exactTerms returns the terms with the centres, scales and fills of the
// observed cells of d computed in rational arithmetic, each rounded once
// to float64 (the square root from 200 bits): a level's fill Σ w [x = l]
// / W, a numeric column's mean M = Σ w x / W and standard deviation
// √((Σ w x² − M Σ w x)/W) (as centre and scale, or with noStandardize M
// as fill).
func exactTerms(d *data.Dataset, terms []Term, noStandardize bool) []Term {
	for t := range terms {
		term := &terms[t]
		var w, lw, sx, sxx big.Rat
		for i := range d.N {
			v := d.X[i*d.D()+term.Feature]
			if v != v {
				continue
			}
			wi := new(big.Rat).SetFloat64(weight(d, i))
			w.Add(&w, wi)
			if term.Level >= 0 {
				if int(v) == term.Level {
					lw.Add(&lw, wi)
				}
				continue
			}
			x := new(big.Rat).SetFloat64(v)
			wx := new(big.Rat).Mul(wi, x)
			sx.Add(&sx, wx)
			sxx.Add(&sxx, wx.Mul(wx, x))
		}
		if term.Level >= 0 {
			term.Fill, _ = new(big.Rat).Quo(&lw, &w).Float64()
			continue
		}
		m := new(big.Rat).Quo(&sx, &w)
		mean, _ := m.Float64()
		if noStandardize {
			term.Fill = mean
			continue
		}
		v := new(big.Rat).Sub(&sxx, m.Mul(m, &sx))
		sd, _ := new(big.Float).SetPrec(200).Sqrt(new(big.Float).SetPrec(200).SetRat(v.Quo(v, &w))).Float64()
		term.Center = mean
		if sd > 0 {
			term.Scale = sd
		}
	}
	return terms
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
