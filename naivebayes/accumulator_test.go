package naivebayes

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/internal/testsupport/conformance"
	"github.com/gendisc/gendisc/text"
)

var (
	_ gendisc.Mergeable = (*Gaussian)(nil)
	_ gendisc.Mergeable = (*Model)(nil)
)

// shardsCase is a configuration with its data: newAcc returns its empty
// accumulator, fit its model of all rows, other an accumulator of another
// kind, and tol the agreement of models of the rows gathered in other
// ways (0: bit for bit).
type shardsCase struct {
	name   string
	d      *data.Dataset
	newAcc func() (gendisc.Accumulator, error)
	fit    func(*data.Dataset) (gendisc.Generative, error)
	other  func() (gendisc.Accumulator, error)
	tol    float64
}

func shardsCases(t *testing.T) []shardsCase {
	var cases []shardsCase
	iris := withMissing(bundled.Load(t, "iris", dataio.Options{}), 4)
	multinomial := func() (gendisc.Accumulator, error) { return Config{Family: Multinomial, Alpha: 0.25}.NewAccumulator() }
	gaussian := func() (gendisc.Accumulator, error) { return GaussianConfig{}.NewAccumulator() }
	for _, cfg := range []GaussianConfig{{}, {Variance: FeatureVariance, PriorAlpha: 1}} {
		cases = append(cases, shardsCase{"gaussian/iris/" + cfg.Variance.String(), iris,
			func() (gendisc.Accumulator, error) { return cfg.NewAccumulator() },
			func(d *data.Dataset) (gendisc.Generative, error) { return cfg.Fit(d) }, multinomial, 1e-12})
	}
	for _, c := range discreteCases(t) {
		tol := 0.0
		if c.cfg.Family == Mixed && c.d.Schema.Features[0].Kind == data.Numeric {
			tol = 1e-12 // Gaussian columns: Chan's merge rounds differently
		}
		cases = append(cases, shardsCase{c.name, c.d,
			func() (gendisc.Accumulator, error) { return c.cfg.NewAccumulator() },
			func(d *data.Dataset) (gendisc.Generative, error) { return c.cfg.Fit(d) }, gaussian, tol})
	}
	return cases
}

// TestAccumulatorConformance runs the accumulator conformance suite on
// every configuration of shardsCases (every kind, text included): bit for
// bit for counts, within 1e-12 for Gaussian moments; and one Add of all
// the rows finishes into the model of Fit, bit for bit.
func TestAccumulatorConformance(t *testing.T) {
	for _, c := range shardsCases(t) {
		t.Run(c.name, func(t *testing.T) {
			conformance.CheckAccumulator(t, c.newAcc, c.d, conformance.Tol(c.tol), conformance.Refuses(c.other))
			a, err := c.newAcc()
			if err != nil {
				t.Fatal(err)
			}
			if err := a.Add(c.d); err != nil {
				t.Fatal(err)
			}
			want, err := c.fit(c.d)
			if err != nil {
				t.Fatal(err)
			}
			conformance.SameScores(t, "one Add", finish(t, a), want, c.d, 0)
		})
	}
}

func finish(t *testing.T, a gendisc.Accumulator) gendisc.Generative {
	t.Helper()
	m, err := a.Model()
	if err != nil {
		t.Fatal(err)
	}
	return m.(gendisc.Generative)
}

func encode(t *testing.T, a gendisc.Accumulator) []byte {
	t.Helper()
	b, err := a.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestAccumulatorModelType: Model finishes into the type of Fit, and a
// model's Accumulator holds its statistics.
func TestAccumulatorModelType(t *testing.T) {
	iris := bundled.Load(t, "iris", dataio.Options{})
	g := fit(t, GaussianConfig{}, iris)
	m, err := g.Accumulator().Model()
	if err != nil {
		t.Fatal(err)
	}
	if gm, ok := m.(*Gaussian); !ok || !bytes.Equal(mustGaussianJSON(t, gm), mustGaussianJSON(t, g)) {
		t.Errorf("Gaussian.Accumulator().Model() = %T, not the model", m)
	}
	votes := bundled.Load(t, "house_votes84", dataio.Options{})
	nb, err := Config{Family: Categorical}.Fit(votes)
	if err != nil {
		t.Fatal(err)
	}
	m, err = nb.Accumulator().Model()
	if err != nil {
		t.Fatal(err)
	}
	if dm, ok := m.(*Model); !ok || !bytes.Equal(mustJSON(t, dm), mustJSON(t, nb)) {
		t.Errorf("Model.Accumulator().Model() = %T, not the model", m)
	}
	a, _ := Config{}.NewAccumulator()
	if _, err := a.Model(); !errors.Is(err, data.ErrNoRows) {
		t.Errorf("empty accumulator: %v, want ErrNoRows", err)
	}
}

func mustGaussianJSON(t *testing.T, m *Gaussian) []byte {
	t.Helper()
	b, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestMergeRefuses: another kind or other settings are a *gendisc.MergeError, a
// schema with other features a *data.SchemaError; the accumulator is
// unchanged.
func TestMergeRefuses(t *testing.T) {
	iris := bundled.Load(t, "iris", dataio.Options{})
	g, _ := GaussianConfig{}.NewAccumulator()
	if err := g.Add(iris); err != nil {
		t.Fatal(err)
	}
	before := encode(t, g)
	multi, _ := Config{Family: Multinomial}.NewAccumulator()
	if err := multi.Add(iris); err != nil {
		t.Fatal(err)
	}
	mixed, _ := Config{}.NewAccumulator()
	if err := mixed.Add(iris); err != nil {
		t.Fatal(err)
	}
	tied, _ := GaussianConfig{Variance: SharedVariance}.NewAccumulator()
	alpha, _ := Config{Family: Multinomial, Alpha: 0.5}.NewAccumulator()
	renamed := iris.Subset(every(0, 1, iris.N))
	renamed.Schema = iris.Schema.Clone()
	renamed.Schema.Features[0].Name = "other"
	other, _ := GaussianConfig{}.NewAccumulator()
	if err := other.Add(renamed); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		a, o gendisc.Accumulator
	}{
		{"gaussian ← multinomial", g, multi},
		{"gaussian ← other tying", g, tied},
		{"multinomial ← nb", multi, mixed},
		{"multinomial ← other alpha", multi, alpha},
	} {
		var me *gendisc.MergeError
		if err := c.a.Merge(c.o); !errors.As(err, &me) || !errors.Is(err, gendisc.ErrMerge) || me.Other != otherKind(c.o) {
			t.Errorf("%s: %v, want a *gendisc.MergeError", c.name, err)
		}
	}
	var se *data.SchemaError
	if err := g.Merge(other); !errors.As(err, &se) || se.Column != "other" || !errors.Is(err, ErrSchema) {
		t.Errorf("other features: %v, want a *data.SchemaError", err)
	}
	if !bytes.Equal(encode(t, g), before) {
		t.Errorf("a refused merge changed the accumulator")
	}
	if err := g.UnmarshalBinary(encode(t, multi)); !errors.Is(err, gendisc.ErrMerge) {
		t.Errorf("decoding a multinomial-nb accumulator as gaussian-nb: %v", err)
	}
}

// TestBernoulliLevelOrder: a binary categorical column whose two levels
// come in the other order, or of which a shard has one level, counts the
// same cells as present after the merge.
func TestBernoulliLevelOrder(t *testing.T) {
	const csv = "v,class\ny,a\nn,a\ny,b\ny,b\nn,a\n"
	d := readCSV(t, nil, csv, dataio.Options{})
	whole, err := Config{Family: Bernoulli}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, split := range [][]int{{0, 2}, {1, 4}, {0, 1}} {
		var rest []int
		for i := range d.N {
			if !slices.Contains(split, i) {
				rest = append(rest, i)
			}
		}
		a, _ := Config{Family: Bernoulli}.NewAccumulator()
		b, _ := Config{Family: Bernoulli}.NewAccumulator()
		rng := rand.New(rand.NewPCG(3, uint64(split[1])))
		if err := a.Add(conformance.Shard(d, split, rng)); err != nil {
			t.Fatal(err)
		}
		if err := b.Add(conformance.Shard(d, rest, rng)); err != nil {
			t.Fatal(err)
		}
		if err := a.Merge(b); err != nil {
			t.Fatal(err)
		}
		conformance.SameScores(t, "bernoulli shards", finish(t, a), whole, d, 0)
	}
	three := readCSV(t, nil, "v,class\nmaybe,a\ny,b\n", dataio.Options{})
	a, _ := Config{Family: Bernoulli}.NewAccumulator()
	if err := a.Add(d); err != nil {
		t.Fatal(err)
	}
	if err := a.Add(three); !errors.Is(err, ErrFeatureKind) {
		t.Errorf("a third level: %v, want ErrFeatureKind", err)
	}
}

// TestAddErrorUnchanged: rows with a bad cell are an error, positioned at
// the cell, and add nothing, even when they bring new classes and levels.
func TestAddErrorUnchanged(t *testing.T) {
	for _, c := range []struct {
		cfg       Config
		good, bad string
		want      error
	}{
		{Config{Family: Multinomial}, "n,note,class\n1,a b,x\n2,b,y\n", "n,note,class\n3,c,z\n-1,a,x\n", ErrNegativeCount},
		{Config{}, "n,c,note,class\n1,red,a b,x\n2,blue,b,y\n", "n,c,note,class\n3,green,c,z\n999,red,a,x\n", data.ErrInfinite},
	} {
		opt := dataio.Options{Text: []string{"note"}}
		if c.cfg.Family == Mixed {
			opt.Categorical = []string{"c"}
		}
		a, _ := c.cfg.NewAccumulator()
		if err := a.Add(readCSV(t, nil, c.good, opt)); err != nil {
			t.Fatal(err)
		}
		before := encode(t, a)
		bad := readCSV(t, nil, c.bad, opt)
		if bad.X[bad.D()] == 999 {
			bad.X[bad.D()] = math.Inf(1) // read refuses it
		}
		var pe *data.ParseError
		if err := a.Add(bad); !errors.Is(err, c.want) || !errors.As(err, &pe) || pe.Line != 3 {
			t.Errorf("%v: %v, want %v on line 3", c.cfg.Family, err, c.want)
		}
		if !bytes.Equal(encode(t, a), before) {
			t.Errorf("%v: a failed Add changed the accumulator", c.cfg.Family)
		}
	}
	g, _ := GaussianConfig{}.NewAccumulator()
	if err := g.Add(readCSV(t, nil, "n,class\n1,x\n2,y\n", dataio.Options{})); err != nil {
		t.Fatal(err)
	}
	before := encode(t, g)
	bad := readCSV(t, nil, "n,class\n3,z\n999,x\n", dataio.Options{})
	bad.X[1] = math.Inf(1)
	if err := g.Add(bad); !errors.Is(err, data.ErrInfinite) {
		t.Errorf("gaussian-nb: %v, want ErrInfinite", err)
	}
	if !bytes.Equal(encode(t, g), before) {
		t.Errorf("gaussian-nb: a failed Add changed the accumulator")
	}
}

// TestMergeLoaded: the settings of a model read back from its model file
// are those of its configuration, so that its accumulator merges with
// one made from the configuration.
func TestMergeLoaded(t *testing.T) {
	for _, c := range discreteCases(t) {
		m, err := c.cfg.Fit(c.d)
		if err != nil {
			t.Fatal(err)
		}
		loaded, err := UnmarshalModel(m.Schema(), mustJSON(t, m))
		if err != nil {
			t.Fatal(err)
		}
		a, _ := c.cfg.NewAccumulator()
		if err := a.Merge(loaded.Accumulator()); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	iris := bundled.Load(t, "iris", dataio.Options{})
	cfg := GaussianConfig{ClassPrior: map[string]float64{"Iris-setosa": 0.5, "Iris-versicolor": 0.25, "Iris-virginica": 0.25}, VarSmoothing: NoVarSmoothing}
	g := fit(t, cfg, iris)
	loaded, err := UnmarshalGaussian(g.Schema(), mustGaussianJSON(t, g))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := cfg.NewAccumulator()
	if err := a.Merge(loaded.Accumulator()); err != nil {
		t.Errorf("gaussian-nb: %v", err)
	}
}

// TestDecodedAdd: an accumulator read back from its encoding takes new
// rows, with new classes, levels and words, as the original does.
func TestDecodedAdd(t *testing.T) {
	const a = "colour,note,class\nred,cheap fast,x\nblue,slow,y\nred,fast fast,x\n"
	const b = "colour,note,class\ngreen,new words here,z\nred,fast,x\nyellow,here,y\n"
	for _, cfg := range []Config{{}, {Family: Categorical}, {Family: Multinomial}} {
		opt := dataio.Options{Text: []string{"note"}}
		switch cfg.Family {
		case Categorical:
			opt = dataio.Options{Ignore: []string{"note"}}
		case Multinomial:
			opt.Ignore = []string{"colour"}
		}
		da, db := readCSV(t, nil, a, opt), readCSV(t, nil, b, opt)
		orig, _ := cfg.NewAccumulator()
		if err := orig.Add(da); err != nil {
			t.Fatal(err)
		}
		var dec Accumulator
		if err := dec.UnmarshalBinary(encode(t, orig)); err != nil {
			t.Fatal(err)
		}
		for _, acc := range []*Accumulator{orig, &dec} {
			if err := acc.Add(db); err != nil {
				t.Fatal(err)
			}
		}
		if got, want := encode(t, &dec), encode(t, orig); !bytes.Equal(got, want) {
			t.Errorf("%v: decoded and added:\n%s\nwant\n%s", cfg.Family, got, want)
		}
	}
}

// TestSettingsDiff: two models of other settings are refused with the
// setting that differs and both values, not the dump of every setting.
func TestSettingsDiff(t *testing.T) {
	one, _ := Config{Family: Multinomial, Alpha: 0.5}.NewAccumulator()
	two, _ := Config{Family: Multinomial, Alpha: 1, Text: text.VectorizerConfig{NGrams: text.NGrams{Min: 1, Max: 2}}}.NewAccumulator()
	err := one.Merge(two)
	want := `other settings: alpha 0.5 and 1; text.ngrams {"max":0,"min":0} and {"max":2,"min":1}`
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("merge: %v, want an error ending %q", err, want)
	}
	if got := settingsDiff([]byte(`{"a":1,"b":{"c":[1]}}`), []byte(`{"a":1,"b":{"c":[2]},"d":true}`)); got != "b {\"c\":[1]} and {\"c\":[2]}; d null and true" {
		t.Errorf("settingsDiff = %q", got)
	}
}
