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
	"github.com/gendisc/gendisc/text"
)

var (
	_ gendisc.Mergeable = (*Gaussian)(nil)
	_ gendisc.Mergeable = (*Model)(nil)
)

// shard returns rows idx of d as a data set read on its own would hold
// them: each categorical column and the target keep only the levels that
// occur in these rows, in an order of their own (shuffled by rng; with
// a nil rng, their order in d), the cells renumbered.
func shard(d *data.Dataset, idx []int, rng *rand.Rand) *data.Dataset {
	s := d.Subset(idx)
	s.Schema = d.Schema.Clone()
	relevel := func(c *data.Column, cell func(i int) *float64) {
		if c.Kind != data.Categorical {
			return
		}
		var used []int
		for i := range s.N {
			if v := *cell(i); v == v && !slices.Contains(used, int(v)) {
				used = append(used, int(v))
			}
		}
		if rng == nil {
			slices.Sort(used)
		} else {
			rng.Shuffle(len(used), func(a, b int) { used[a], used[b] = used[b], used[a] })
		}
		levels := make([]string, len(used))
		to := make(map[int]int, len(used))
		for k, l := range used {
			levels[k], to[l] = c.Levels[l], k
		}
		c.Levels = levels
		for i := range s.N {
			if p := cell(i); *p == *p {
				*p = float64(to[int(*p)])
			}
		}
	}
	D := s.D()
	for j := range s.Schema.Features {
		relevel(&s.Schema.Features[j], func(i int) *float64 { return &s.X[i*D+j] })
	}
	relevel(s.Schema.Target, func(i int) *float64 { return &s.Y[i] })
	return s
}

// recode returns d with its levels and classes renumbered into those of
// s, which has all of them (data.Schema.Extend).
func recode(t *testing.T, d *data.Dataset, s *data.Schema) *data.Dataset {
	t.Helper()
	u, r, err := s.Extend(d.Schema)
	if err != nil || !u.Equal(s) {
		t.Fatalf("recode: %v, %v", err, u)
	}
	return r.Apply(d, s)
}

// sameJoint checks that m gives the joint log-likelihoods that want gives
// on d (m's classes matched to want's by name): bit for bit when tol is 0,
// else within tol relative (near).
func sameJoint(t *testing.T, what string, m, want gendisc.Generative, d *data.Dataset, tol float64) {
	t.Helper()
	got, ref := m.JointLogLikelihood(nil, recode(t, d, m.Schema())), want.JointLogLikelihood(nil, d)
	K := len(want.Classes())
	if len(m.Classes()) != K {
		t.Fatalf("%s: classes %q, want %q", what, m.Classes(), want.Classes())
	}
	col := make([]int, K)
	for k, c := range want.Classes() {
		col[k] = slices.Index(m.Classes(), c)
	}
	for i := range d.N {
		for k := range K {
			g, w := got[i*K+col[k]], ref[i*K+k]
			if tol == 0 && g != w || tol > 0 && !near(g, w, tol) {
				t.Fatalf("%s: row %d class %q: %v, Fit gives %v", what, i, want.Classes()[k], g, w)
			}
		}
	}
}

// shardsCase is a configuration with its data: newAcc returns its empty
// accumulator, fit its model of all rows, and tol the agreement of the
// merged model (0: bit for bit).
type shardsCase struct {
	name   string
	d      *data.Dataset
	newAcc func() (gendisc.Accumulator, error)
	fit    func(*data.Dataset) (gendisc.Generative, error)
	tol    float64
}

func shardsCases(t *testing.T) []shardsCase {
	var cases []shardsCase
	iris := withMissing(bundled.Load(t, "iris", dataio.Options{}), 4)
	for _, cfg := range []GaussianConfig{{}, {Variance: FeatureVariance, PriorAlpha: 1}} {
		cases = append(cases, shardsCase{"gaussian/iris/" + cfg.Variance.String(), iris,
			func() (gendisc.Accumulator, error) { return cfg.NewAccumulator() },
			func(d *data.Dataset) (gendisc.Generative, error) { return cfg.Fit(d) }, 1e-12})
	}
	for _, c := range discreteCases(t) {
		tol := 0.0
		if c.cfg.Family == Mixed && c.d.Schema.Features[0].Kind == data.Numeric {
			tol = 1e-12 // Gaussian columns: Chan's merge rounds differently
		}
		cases = append(cases, shardsCase{c.name, c.d,
			func() (gendisc.Accumulator, error) { return c.cfg.NewAccumulator() },
			func(d *data.Dataset) (gendisc.Generative, error) { return c.cfg.Fit(d) }, tol})
	}
	return cases
}

// TestShardsMerge fits 3 disjoint shards of each data set, each with its
// own order of classes and levels, merges them, in the library and
// through MarshalBinary and UnmarshalBinary, and compares with the fit on
// all rows: bit for bit for counts, within 1e-12 for Gaussian moments;
// so does one accumulator to which the shards are added in turn.
// Merging an empty accumulator changes nothing, and the order of the
// merges does not matter.
func TestShardsMerge(t *testing.T) {
	for _, c := range shardsCases(t) {
		t.Run(c.name, func(t *testing.T) {
			c.d = shard(c.d, every(0, 1, c.d.N), nil) // only levels that occur
			rng := rand.New(rand.NewPCG(1, 2))
			perm := rng.Perm(c.d.N)
			third := c.d.N / 3
			accs := make([]gendisc.Accumulator, 3)
			seq, _ := c.newAcc() // the shards added one after the other
			for s := range accs {
				idx := perm[s*third : min(c.d.N, (s+1)*third)]
				if s == 2 {
					idx = perm[s*third:]
				}
				a, err := c.newAcc()
				if err != nil {
					t.Fatal(err)
				}
				sh := shard(c.d, idx, rng)
				if err := a.Add(sh); err != nil {
					t.Fatal(err)
				}
				if err := seq.Add(sh); err != nil {
					t.Fatal(err)
				}
				accs[s] = a
			}
			whole, err := c.fit(c.d)
			if err != nil {
				t.Fatal(err)
			}
			merged := mergeAll(t, c.newAcc, accs...)
			m := finish(t, merged)
			sameJoint(t, "merged shards", m, whole, c.d, c.tol)
			sameJoint(t, "shards added in turn", finish(t, seq), whole, c.d, c.tol)
			checkNear(t, "class weights", byName(m.Classes(), classWeights(m), whole.Classes()), classWeights(whole), c.tol)

			// Through the encoding: each shard decoded, then merged.
			decoded := make([]gendisc.Accumulator, 3)
			for s, a := range accs {
				b := encode(t, a)
				d, _ := c.newAcc()
				if err := d.UnmarshalBinary(b); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(encode(t, d), b) {
					t.Fatalf("shard %d: the encoding does not read back", s)
				}
				decoded[s] = d
			}
			if !bytes.Equal(encode(t, mergeAll(t, c.newAcc, decoded...)), encode(t, merged)) {
				t.Errorf("merging decoded shards differs from merging the shards")
			}

			// Merging an empty accumulator, or into one, changes nothing.
			before := encode(t, merged)
			empty, _ := c.newAcc()
			if err := merged.Merge(empty); err != nil || !bytes.Equal(encode(t, merged), before) {
				t.Errorf("merging an empty accumulator: %v", err)
			}
			if err := empty.Merge(merged); err != nil || !bytes.Equal(encode(t, empty), before) {
				t.Errorf("merging into an empty accumulator: %v", err)
			}

			// Another order: classes and levels come in another order, the
			// model is the same.
			other := finish(t, mergeAll(t, c.newAcc, accs[2], accs[0], accs[1]))
			sameJoint(t, "merged in another order", other, m, recode(t, c.d, m.Schema()), c.tol)
		})
	}
}

// mergeAll merges accs, in order, into a new accumulator; they are
// unchanged.
func mergeAll(t *testing.T, newAcc func() (gendisc.Accumulator, error), accs ...gendisc.Accumulator) gendisc.Accumulator {
	t.Helper()
	m, _ := newAcc()
	for _, a := range accs {
		before := encode(t, a)
		if err := m.Merge(a); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(encode(t, a), before) {
			t.Fatalf("Merge changed the accumulator merged")
		}
	}
	return m
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

func classWeights(m gendisc.Model) []float64 {
	switch m := m.(type) {
	case *Gaussian:
		return m.ClassWeights()
	case *Model:
		return m.ClassWeights()
	}
	return nil
}

// byName returns the values v of classes in the order of want.
func byName(classes []string, v []float64, want []string) []float64 {
	out := make([]float64, len(want))
	for k, c := range want {
		out[k] = v[slices.Index(classes, c)]
	}
	return out
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

// TestMergeRefuses: another kind or other settings are a *MergeError, a
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
		var me *MergeError
		if err := c.a.Merge(c.o); !errors.As(err, &me) || !errors.Is(err, ErrMerge) || me.Other != otherKind(c.o) {
			t.Errorf("%s: %v, want a *MergeError", c.name, err)
		}
	}
	var se *data.SchemaError
	if err := g.Merge(other); !errors.As(err, &se) || se.Column != "other" || !errors.Is(err, ErrSchema) {
		t.Errorf("other features: %v, want a *data.SchemaError", err)
	}
	if !bytes.Equal(encode(t, g), before) {
		t.Errorf("a refused merge changed the accumulator")
	}
	if err := g.UnmarshalBinary(encode(t, multi)); !errors.Is(err, ErrMerge) {
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
		if err := a.Add(shard(d, split, rng)); err != nil {
			t.Fatal(err)
		}
		if err := b.Add(shard(d, rest, rng)); err != nil {
			t.Fatal(err)
		}
		if err := a.Merge(b); err != nil {
			t.Fatal(err)
		}
		sameJoint(t, "bernoulli shards", finish(t, a), whole, d, 0)
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
