package naivebayes

import (
	"encoding/json"
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
)

// small is a data set whose statistics are easy by hand:
//
//	class a: (1, 10), (3, 14)          means (2, 12), S (2, 8),  W 2
//	class b: (5, 0), (6, 3), (10, 6)   means (7, 3),  S (14, 18), W 3
//
// Over all five rows the feature variances are 46/5 and 123.2/5.
func small() *data.Dataset {
	return matrix([]string{"a", "b"},
		[][]float64{{1, 10}, {3, 14}, {5, 0}, {6, 3}, {10, 6}},
		[]int{0, 0, 1, 1, 1})
}

// logNormal is log N(x; mu, v), written out.
func logNormal(x, mu, v float64) float64 {
	return -0.5*math.Log(2*math.Pi*v) - (x-mu)*(x-mu)/(2*v)
}

func TestGaussianVarianceTying(t *testing.T) {
	for _, c := range []struct {
		tie  Variance
		want [][]float64 // variances without smoothing
	}{
		{ClassFeatureVariance, [][]float64{{1, 4}, {14.0 / 3, 6}}},
		{FeatureVariance, [][]float64{{3.2, 5.2}, {3.2, 5.2}}},
		{ClassVariance, [][]float64{{2.5, 2.5}, {32.0 / 6, 32.0 / 6}}},
		{SharedVariance, [][]float64{{4.2, 4.2}, {4.2, 4.2}}},
	} {
		t.Run(c.tie.String(), func(t *testing.T) {
			for _, vs := range []float64{NoVarSmoothing, 0.5} {
				eps := 0.0
				if vs > 0 {
					eps = vs * 123.2 / 5
				}
				m := fit(t, GaussianConfig{VarSmoothing: vs, Variance: c.tie}, small())
				if !near(m.Epsilon(), eps, 1e-15) {
					t.Errorf("epsilon %v, want %v", m.Epsilon(), eps)
				}
				checkNear(t, "means", slices.Concat(m.Means()...), []float64{2, 12, 7, 3}, 1e-15)
				want := slices.Concat(c.want...)
				for i := range want {
					want[i] += eps
				}
				checkNear(t, "variances", slices.Concat(m.Variances()...), want, 1e-15)
				// The joint log-likelihood of (4, 5), by the formula.
				jll := m.JointLogLikelihood(nil, matrix([]string{"a", "b"}, [][]float64{{4, 5}}, []int{0}))
				for k, mu := range [][]float64{{2, 12}, {7, 3}} {
					w := math.Log([]float64{0.4, 0.6}[k]) + logNormal(4, mu[0], want[2*k]) + logNormal(5, mu[1], want[2*k+1])
					if !near(jll[k], w, 1e-14) {
						t.Errorf("joint log-likelihood of class %d: %v, want %v", k, jll[k], w)
					}
				}
			}
		})
	}
}

func TestGaussianClassPrior(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  GaussianConfig
		want []float64
	}{
		{"maximum likelihood", GaussianConfig{}, []float64{0.4, 0.6}},
		{"alpha 1", GaussianConfig{PriorAlpha: 1}, []float64{3.0 / 7, 4.0 / 7}},
		{"alpha 0.5", GaussianConfig{PriorAlpha: 0.5}, []float64{2.5 / 6, 3.5 / 6}},
		{"fixed", GaussianConfig{ClassPrior: map[string]float64{"a": 0.25, "b": 0.75}}, []float64{0.25, 0.75}},
		{"fixed, normalised", GaussianConfig{ClassPrior: map[string]float64{"a": 0.25 + 4e-10, "b": 0.75}}, []float64{(0.25 + 4e-10) / (1 + 4e-10), 0.75 / (1 + 4e-10)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := fit(t, c.cfg, small())
			checkNear(t, "priors", m.Priors(), c.want, 1e-15)
			// The prior is the whole posterior of a row with every feature missing.
			lp := m.LogProba(nil, matrix([]string{"a", "b"}, [][]float64{{math.NaN(), math.NaN()}}, []int{0}))
			checkNear(t, "log-probabilities", lp, []float64{math.Log(c.want[0]), math.Log(c.want[1])}, 1e-15)
		})
	}
}

func TestGaussianMarginalisesMissingFeatures(t *testing.T) {
	cfg := GaussianConfig{VarSmoothing: NoVarSmoothing}
	m := fit(t, cfg, small())
	jll := m.JointLogLikelihood(nil, matrix([]string{"a", "b"}, [][]float64{{math.NaN(), 5}, {4, math.NaN()}}, []int{0, 0}))
	want := []float64{
		math.Log(0.4) + logNormal(5, 12, 4), math.Log(0.6) + logNormal(5, 3, 6),
		math.Log(0.4) + logNormal(4, 2, 1), math.Log(0.6) + logNormal(4, 7, 14.0/3),
	}
	checkNear(t, "joint log-likelihoods", jll, want, 1e-14)

	// The model of the second feature alone gives the same values.
	only := matrix([]string{"a", "b"}, [][]float64{{10}, {14}, {0}, {3}, {6}}, []int{0, 0, 1, 1, 1})
	one := fit(t, cfg, only).JointLogLikelihood(nil, matrix([]string{"a", "b"}, [][]float64{{5}}, []int{0}))
	checkNear(t, "one-feature model", one, jll[:2], 1e-15)
}

func TestGaussianMissingCellsInTraining(t *testing.T) {
	nan := math.NaN()
	// Class c never observes x0: it takes x0's mean and variance over the
	// labelled rows (1, 3, 5, 6, 10, 2), 4.5 and 53.5/6. Its x1 is 1.5 ± 0.5.
	// The unlabelled row is skipped.
	d := matrix([]string{"a", "b", "c"},
		[][]float64{{1, 10}, {3, 14}, {5, 0}, {6, 3}, {10, 6}, {nan, 1}, {nan, 2}, {100, 100}, {2, nan}},
		[]int{0, 0, 1, 1, 1, 2, 2, -1, 0})
	m := fit(t, GaussianConfig{VarSmoothing: NoVarSmoothing}, d)
	// Class a's x0 also has the value 2: 1, 3, 2.
	checkNear(t, "means", slices.Concat(m.Means()...), []float64{2, 12, 7, 3, 4.5, 1.5}, 1e-15)
	checkNear(t, "variances", slices.Concat(m.Variances()...), []float64{2.0 / 3, 4, 14.0 / 3, 6, 53.5 / 6, 0.25}, 1e-15)
	checkNear(t, "class weights", m.ClassWeights(), []float64{3, 3, 2}, 0)
	checkNear(t, "priors", m.Priors(), []float64{3.0 / 8, 3.0 / 8, 2.0 / 8}, 1e-15)
}

func TestGaussianClassWithoutRows(t *testing.T) {
	// Class c is in the schema but has no rows: its maximum-likelihood
	// prior is 0; with a prior pseudo-count it takes every feature's pooled
	// mean and variance.
	d := small()
	d.Schema.Target.Levels = []string{"a", "b", "c"}
	m := fit(t, GaussianConfig{VarSmoothing: NoVarSmoothing}, d)
	lp := m.LogProba(nil, d)
	for i := range d.N {
		if !math.IsInf(lp[3*i+2], -1) || math.IsNaN(lp[3*i]) || math.IsNaN(lp[3*i+1]) {
			t.Fatalf("row %d: log-probabilities %v", i, lp[3*i:3*i+3])
		}
	}
	m = fit(t, GaussianConfig{VarSmoothing: NoVarSmoothing, PriorAlpha: 1}, d)
	checkNear(t, "priors", m.Priors(), []float64{3.0 / 8, 4.0 / 8, 1.0 / 8}, 1e-15)
	checkNear(t, "class c means", m.Means()[2], []float64{5, 6.6}, 1e-15)
	checkNear(t, "class c variances", m.Variances()[2], []float64{9.2, 24.64}, 1e-14)
}

func TestGaussianWeightsAreRepeatedRows(t *testing.T) {
	iris := bundled.Load(t, "iris", dataio.Options{})
	r := rand.New(rand.NewPCG(11, 12))
	iris.Weight = make([]float64, iris.N)
	var idx []int
	for i := range iris.Weight {
		w := r.IntN(4)
		iris.Weight[i] = float64(w)
		for range w {
			idx = append(idx, i)
		}
	}
	repeated := iris.Subset(idx)
	repeated.Weight = nil
	for _, tie := range []Variance{ClassFeatureVariance, SharedVariance} {
		a := fit(t, GaussianConfig{Variance: tie}, iris)
		b := fit(t, GaussianConfig{Variance: tie}, repeated)
		checkNear(t, "class weights", a.ClassWeights(), b.ClassWeights(), 0)
		checkNear(t, "means", slices.Concat(a.Means()...), slices.Concat(b.Means()...), 1e-14)
		checkNear(t, "variances", slices.Concat(a.Variances()...), slices.Concat(b.Variances()...), 1e-13)
		checkNear(t, "log-probabilities", a.LogProba(nil, iris), b.LogProba(nil, iris), 1e-12)
	}
}

// withMissing returns a copy of d with about one cell in 10 missing and
// random weights.
func withMissing(d *data.Dataset, seed uint64) *data.Dataset {
	r := rand.New(rand.NewPCG(seed, 1))
	idx := make([]int, d.N)
	for i := range idx {
		idx[i] = i
	}
	c := d.Subset(idx)
	for i := range c.X {
		if r.IntN(10) == 0 {
			c.X[i] = math.NaN()
		}
	}
	c.Weight = make([]float64, c.N)
	for i := range c.Weight {
		c.Weight[i] = 0.5 + r.Float64()
	}
	return c
}

func TestGaussianUpdateEqualsFitOnUnion(t *testing.T) {
	iris := withMissing(bundled.Load(t, "iris", dataio.Options{}), 3)
	// A holds classes 0 and 1 only, with a schema that knows only them; B
	// holds the rest and brings class 2.
	var a, b []int
	for i := range iris.N {
		if iris.Y[i] < 2 && i%4 != 0 {
			a = append(a, i)
		} else {
			b = append(b, i)
		}
	}
	da := iris.Subset(a)
	da.Schema = iris.Schema.Clone()
	da.Schema.Target.Levels = da.Schema.Target.Levels[:2]
	for _, cfg := range []GaussianConfig{{}, {Variance: FeatureVariance, PriorAlpha: 1}, {Variance: ClassVariance, VarSmoothing: 1e-3}} {
		first := fit(t, cfg, da)
		before, _ := first.MarshalJSON()
		up, err := first.Update(iris.Subset(b))
		if err != nil {
			t.Fatalf("Update: %v", err)
		}
		whole := fit(t, cfg, iris)
		if !up.Schema().Equal(iris.Schema) {
			t.Errorf("updated schema has classes %q", up.Classes())
		}
		checkNear(t, "class weights", up.ClassWeights(), whole.ClassWeights(), 1e-15)
		checkNear(t, "means", slices.Concat(up.Means()...), slices.Concat(whole.Means()...), 1e-12)
		checkNear(t, "variances", slices.Concat(up.Variances()...), slices.Concat(whole.Variances()...), 1e-12)
		checkNear(t, "log-probabilities", up.LogProba(nil, iris), whole.LogProba(nil, iris), 1e-12)
		if after, _ := first.MarshalJSON(); string(after) != string(before) || len(first.Classes()) != 2 {
			t.Errorf("Update changed the original model")
		}
	}
}

func TestGaussianFitStream(t *testing.T) {
	iris := withMissing(bundled.Load(t, "iris", dataio.Options{}), 4)
	// The first chunk holds class 0 only and knows no other class; the
	// second brings class 1, the third all three, the fourth again knows
	// only two classes.
	var parts [4][]int
	for i := range iris.N {
		switch {
		case iris.Y[i] == 0 && i%2 == 0:
			parts[0] = append(parts[0], i)
		case iris.Y[i] < 2 && i%3 != 0:
			parts[1] = append(parts[1], i)
		case iris.Y[i] < 2:
			parts[3] = append(parts[3], i)
		default:
			parts[2] = append(parts[2], i)
		}
	}
	chunk := func(p []int, classes int) *data.Dataset {
		d := iris.Subset(p)
		d.Schema = iris.Schema.Clone()
		d.Schema.Target.Levels = d.Schema.Target.Levels[:classes]
		return d
	}
	chunks := func(yield func(*data.Dataset, error) bool) {
		_ = yield(chunk(parts[0], 1), nil) && yield(chunk(parts[1], 2), nil) && yield(chunk(parts[2], 3), nil) && yield(chunk(parts[3], 2), nil)
	}
	cfg := GaussianConfig{Variance: FeatureVariance}
	m, err := cfg.FitStream(chunks)
	if err != nil {
		t.Fatalf("FitStream: %v", err)
	}
	whole := fit(t, cfg, iris)
	if !m.Schema().Equal(iris.Schema) {
		t.Errorf("streamed schema has classes %q", m.Classes())
	}
	checkNear(t, "class weights", m.ClassWeights(), whole.ClassWeights(), 1e-15)
	checkNear(t, "means", slices.Concat(m.Means()...), slices.Concat(whole.Means()...), 1e-12)
	checkNear(t, "variances", slices.Concat(m.Variances()...), slices.Concat(whole.Variances()...), 1e-12)
	checkNear(t, "log-probabilities", m.LogProba(nil, iris), whole.LogProba(nil, iris), 1e-12)

	if _, err := cfg.FitStream(func(func(*data.Dataset, error) bool) {}); !errors.Is(err, data.ErrNoRows) {
		t.Errorf("empty stream: error %v, want ErrNoRows", err)
	}
	failed := errors.New("read failed")
	if _, err := cfg.FitStream(func(yield func(*data.Dataset, error) bool) {
		_ = yield(chunk(parts[1], 2), nil) && yield(nil, failed)
	}); err != failed {
		t.Errorf("failing stream: error %v, want %v", err, failed)
	}
}

func TestGaussianUpdateErrors(t *testing.T) {
	m := fit(t, GaussianConfig{}, small())
	renamed := small()
	renamed.Schema.Features[1].Name = "other"
	otherTarget := small()
	otherTarget.Schema.Target.Name = "label"
	fewer := matrix([]string{"a", "b"}, [][]float64{{1}}, []int{0})
	for name, d := range map[string]*data.Dataset{"renamed": renamed, "fewer features": fewer, "other target": otherTarget} {
		if _, err := m.Update(d); !errors.Is(err, ErrSchema) {
			t.Errorf("%s: error %v, want ErrSchema", name, err)
		}
	}
}

// TestGaussianUpdateReordered: data whose classes come in another order
// (as a file read on its own may give them) is renumbered into the
// model's: the update equals that with the classes in the model's order.
func TestGaussianUpdateReordered(t *testing.T) {
	m := fit(t, GaussianConfig{}, small())
	reordered, flipped := small(), small()
	reordered.Schema.Target.Levels = []string{"b", "a"}
	for i, y := range flipped.Y {
		flipped.Y[i] = 1 - y
	}
	a, err := m.Update(reordered)
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.Update(flipped)
	if err != nil {
		t.Fatal(err)
	}
	ja, _ := a.MarshalJSON()
	jb, _ := b.MarshalJSON()
	if string(ja) != string(jb) || !slices.Equal(a.Classes(), []string{"a", "b"}) {
		t.Errorf("update with reordered classes:\n%s\nwant\n%s", ja, jb)
	}
}

func TestGaussianSaveLoad(t *testing.T) {
	d := withMissing(bundled.Load(t, "wine", dataio.Options{}), 5)
	for _, cfg := range []GaussianConfig{
		{},
		{VarSmoothing: NoVarSmoothing, Variance: FeatureVariance},
		{VarSmoothing: 0.01, Variance: ClassVariance, PriorAlpha: 2},
		{Variance: SharedVariance, ClassPrior: map[string]float64{"class_0": 0.2, "class_1": 0.3, "class_2": 0.5}},
	} {
		m := fit(t, cfg, d)
		b, err := m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		loaded, err := UnmarshalGaussian(m.Schema(), b)
		if err != nil {
			t.Fatalf("UnmarshalGaussian: %v", err)
		}
		want, got := m.LogProba(nil, d), loaded.LogProba(nil, d)
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%+v: loaded model gives %v, saved %v", cfg, got[i], want[i])
			}
		}
		if c := loaded.Config(); c.VarSmoothing != m.Config().VarSmoothing || c.Variance != cfg.Variance {
			t.Errorf("loaded config %+v, saved %+v", c, m.Config())
		}
		// The model's Config reproduces it.
		again := fit(t, m.Config(), d)
		if b2, _ := again.MarshalJSON(); string(b2) != string(b) {
			t.Errorf("refitting with Config() gives a different model")
		}
	}
}

func TestUnmarshalGaussianErrors(t *testing.T) {
	m := fit(t, GaussianConfig{}, small())
	schema := m.Schema()
	good, _ := m.MarshalJSON()
	// edit changes the parameters as a generic JSON object.
	edit := func(f func(g map[string]any)) []byte {
		var g map[string]any
		if err := json.Unmarshal(good, &g); err != nil {
			t.Fatal(err)
		}
		f(g)
		b, _ := json.Marshal(g)
		return b
	}
	categorical := schema.Clone()
	categorical.Features[0].Kind = data.Categorical
	threeClasses := schema.Clone()
	threeClasses.Target.Levels = append(threeClasses.Target.Levels, "c")
	for _, c := range []struct {
		name   string
		schema *data.Schema
		params []byte
	}{
		{"truncated", schema, good[:len(good)/2]},
		{"unknown field", schema, edit(func(g map[string]any) { g["colour"] = "red" })},
		{"unknown tying", schema, edit(func(g map[string]any) { g["variance"] = "diagonal" })},
		{"negative smoothing", schema, edit(func(g map[string]any) { g["var_smoothing"] = -1 })},
		{"negative weight", schema, edit(func(g map[string]any) { g["weight"] = [][]float64{{-1, 2}, {3, 3}} })},
		{"short mean", schema, edit(func(g map[string]any) { g["mean"] = [][]float64{{1}, {2, 3}} })},
		{"NaN mean", schema, edit(func(g map[string]any) { g["mean"] = [][]any{{"NaN", 1}, {2, 3}} })},
		{"infinite variance", schema, edit(func(g map[string]any) {
			g["m2"] = [][]float64{{1e308, 1}, {2, 3}}
			g["weight"] = [][]float64{{1e-300, 2}, {3, 3}}
		})},
		{"negative m2", schema, edit(func(g map[string]any) { g["m2"] = [][]float64{{1, -2}, {2, 3}} })},
		{"bad prior", schema, edit(func(g map[string]any) { g["class_prior"] = map[string]float64{"a": 0.5, "b": 0.6} })},
		{"categorical feature", categorical, good},
		{"no features", &data.Schema{Target: schema.Target}, good},
		{"more classes", threeClasses, good},
		{"one class", schema, edit(func(g map[string]any) { g["class_weight"] = []float64{0, 3} })},
	} {
		if _, err := UnmarshalGaussian(c.schema, c.params); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}

func TestGaussianErrors(t *testing.T) {
	nan := math.NaN()
	noTarget := small()
	noTarget.Schema.Target = nil
	numericTarget := small()
	numericTarget.Schema.Target.Kind = data.Numeric
	oneClass := matrix([]string{"a", "b"}, [][]float64{{1}, {2}, {3}}, []int{1, 1, -1})
	categorical := small()
	categorical.Schema.Features[1] = data.Column{Name: "colour", Kind: data.Categorical, Levels: []string{"red", "blue"}}
	badLabel := small()
	badLabel.Y[3], badLabel.Source.Lines = 2, []int{2, 3, 4, 5, 6}
	halfLabel := small()
	halfLabel.Y[1] = 0.5
	badWeight := small()
	badWeight.Weight = []float64{1, 1, -1, 1, 1}
	infinite := small()
	infinite.X[7], infinite.Source.Lines = math.Inf(1), []int{2, 3, 4, 5, 6}
	unobserved := matrix([]string{"a", "b"}, [][]float64{{nan, nan}, {nan, nan}, {nan, nan}}, []int{0, 1, 1})
	constant := matrix([]string{"a", "b"}, [][]float64{{1, 1}, {1, 1}, {1, 1}}, []int{0, 1, 1})
	noFeatures := &data.Dataset{Schema: &data.Schema{Target: small().Schema.Target}, N: 2, Y: []float64{0, 1}}
	for _, c := range []struct {
		name string
		cfg  GaussianConfig
		d    *data.Dataset
		err  error
		text string
	}{
		{"no features", GaussianConfig{}, noFeatures, nil, "no feature columns"},
		{"no target", GaussianConfig{}, noTarget, ErrNotClassification, ""},
		{"numeric target", GaussianConfig{}, numericTarget, ErrNotClassification, ""},
		{"one class", GaussianConfig{}, oneClass, ErrOneClass, ""},
		{"categorical feature", GaussianConfig{}, categorical, ErrFeatureKind, `"colour"`},
		{"label out of range", GaussianConfig{}, badLabel, nil, "matrix:5: class index 2"},
		{"fractional label", GaussianConfig{}, halfLabel, nil, "class index 0.5"},
		{"negative weight", GaussianConfig{}, badWeight, data.ErrWeight, "weight must be a finite number >= 0: -1"},
		{"infinite value", GaussianConfig{}, infinite, data.ErrInfinite, `matrix:5: column "x1"`},
		{"no observed feature", GaussianConfig{}, unobserved, ErrNotObserved, `"x0"`},
		{"constant features", GaussianConfig{}, constant, ErrZeroVariance, `"x0"`},
		{"zero variance without smoothing", GaussianConfig{VarSmoothing: NoVarSmoothing},
			matrix([]string{"a", "b"}, [][]float64{{1, 1}, {1, 2}, {2, 3}}, []int{0, 0, 1}), ErrZeroVariance, `"x0": zero variance within class "a"`},
		{"negative smoothing", GaussianConfig{VarSmoothing: -0.5}, small(), nil, "var smoothing"},
		{"NaN smoothing", GaussianConfig{VarSmoothing: nan}, small(), nil, "var smoothing"},
		{"unknown tying", GaussianConfig{Variance: 9}, small(), nil, "tying"},
		{"negative prior alpha", GaussianConfig{PriorAlpha: -1}, small(), nil, "prior alpha"},
		{"prior alpha and fixed", GaussianConfig{PriorAlpha: 1, ClassPrior: map[string]float64{"a": 0.5, "b": 0.5}}, small(), nil, "exclude"},
		{"prior sum", GaussianConfig{ClassPrior: map[string]float64{"a": 0.5, "b": 0.4}}, small(), nil, "sum to 0.9"},
		{"zero prior", GaussianConfig{ClassPrior: map[string]float64{"a": 0, "b": 1}}, small(), nil, `"a"`},
		{"prior lacks class", GaussianConfig{ClassPrior: map[string]float64{"a": 1}}, small(), nil, `lacks class "b"`},
		{"prior of unknown class", GaussianConfig{ClassPrior: map[string]float64{"a": 0.5, "b": 0.25, "c": 0.25}}, small(), nil, `"c"`},
	} {
		_, err := c.cfg.Fit(c.d)
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if c.err != nil && !errors.Is(err, c.err) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.err)
		}
		if !strings.Contains(err.Error(), c.text) {
			t.Errorf("%s: error %q does not contain %q", c.name, err, c.text)
		}
	}
}

func TestGaussianConstantFeatureNamed(t *testing.T) {
	// Ionosphere's V2 is 0 in every row: smoothing gives it variance ε,
	// without smoothing it is an error that names it.
	d := bundled.Load(t, "ionosphere", dataio.Options{})
	m := fit(t, GaussianConfig{}, d)
	if v := m.Variances()[0][1]; v != m.Epsilon() {
		t.Errorf("variance of V2 is %v, want ε = %v", v, m.Epsilon())
	}
	_, err := GaussianConfig{VarSmoothing: NoVarSmoothing}.Fit(d)
	var pe *data.ParseError
	if !errors.As(err, &pe) || pe.ColumnName != "V2" || !errors.Is(err, ErrZeroVariance) {
		t.Errorf("error %v, want a zero variance of V2", err)
	}
}

func TestGaussianManyFeatures(t *testing.T) {
	// 10,000 features: the joint log-likelihoods are near −1.4·10⁴, whose
	// exponentials underflow; the normalisation must not.
	const n, D = 60, 10_000
	r := rand.New(rand.NewPCG(1, 2))
	x := make([][]float64, n)
	y := make([]int, n)
	for i := range x {
		y[i] = i % 3
		x[i] = make([]float64, D)
		for j := range x[i] {
			x[i][j] = 0.02*float64(y[i]) + r.NormFloat64()
		}
	}
	d := matrix([]string{"a", "b", "c"}, x, y)
	m := fit(t, GaussianConfig{}, d)
	lp := m.LogProba(nil, d)
	jll := m.JointLogLikelihood(nil, d)
	correct := 0
	for i := range n {
		row, j := lp[i*3:i*3+3], jll[i*3:i*3+3]
		sum := 0.0
		for k, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) || j[k] > -1e4 {
				t.Fatalf("row %d: log-probabilities %v, joint %v", i, row, j)
			}
			sum += math.Exp(v)
			if !near(row[k]-row[0], j[k]-j[0], 1e-9) {
				t.Fatalf("row %d: log-odds %v, joint differences %v", i, row[k]-row[0], j[k]-j[0])
			}
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Fatalf("row %d: probabilities sum to %v", i, sum)
		}
		if slices.Index(row, slices.Max(row)) == y[i] {
			correct++
		}
	}
	if correct < n*9/10 {
		t.Errorf("%d of %d training rows classified correctly", correct, n)
	}
}

func TestGaussianLogisticForm(t *testing.T) {
	pima := withMissing(bundled.Load(t, "pima_indians_diabetes", dataio.Options{}), 8)
	for _, tie := range []Variance{FeatureVariance, SharedVariance} {
		m := fit(t, GaussianConfig{Variance: tie, PriorAlpha: 1}, pima)
		w, w0, ok := m.LogisticForm()
		if !ok {
			t.Fatalf("%v: no logistic form", tie)
		}
		lp := m.LogProba(nil, pima)
		for i := range pima.N {
			z := w0
			for j, x := range pima.Row(i) {
				if x == x {
					z += w[j] * x
				} else {
					// A missing feature leaves the log-odds: take out its
					// part of w0 too.
					mu := m.Means()
					z += w[j] * (mu[0][j] + mu[1][j]) / 2
				}
			}
			if p := 1 / (1 + math.Exp(-z)); math.Abs(p-math.Exp(lp[2*i+1])) > 1e-12 {
				t.Fatalf("%v, row %d: σ(wᵀx + w0) = %v, posterior %v", tie, i, p, math.Exp(lp[2*i+1]))
			}
		}
	}
	for _, m := range []*Gaussian{fit(t, GaussianConfig{}, small()), fit(t, GaussianConfig{Variance: FeatureVariance}, bundled.Load(t, "iris", dataio.Options{}))} {
		if _, _, ok := m.LogisticForm(); ok {
			t.Errorf("a logistic form for %d classes, %v tying", len(m.Classes()), m.Config().Variance)
		}
	}
}

func TestGaussianAccessorsCopy(t *testing.T) {
	m := fit(t, GaussianConfig{ClassPrior: map[string]float64{"a": 0.5, "b": 0.5}}, small())
	before, _ := m.MarshalJSON()
	m.Means()[0][0] = 99
	m.Variances()[0][0] = 99
	m.Priors()[0] = 99
	m.ClassWeights()[0] = 99
	m.Classes()[0] = "z"
	m.Schema().Features[0].Name = "z"
	m.Config().ClassPrior["a"] = 99
	if after, _ := m.MarshalJSON(); string(after) != string(before) || m.Means()[0][0] != 2 || m.Classes()[0] != "a" {
		t.Errorf("an accessor exposed the model's storage")
	}
	if m.Kind() != "gaussian-nb" {
		t.Errorf("Kind() = %q", m.Kind())
	}
	p := m.Proba(nil, small())
	lp := m.LogProba(nil, small())
	for i := range p {
		// Proba divides the exponentials of the log-sum-exp by their sum.
		if want := math.Exp(lp[i]); math.Abs(p[i]-want) > 1e-14*want*max(1, -lp[i]) {
			t.Fatalf("Proba[%d] = %v, exp(LogProba) = %v", i, p[i], want)
		}
	}
}

func TestGaussianPanics(t *testing.T) {
	m := fit(t, GaussianConfig{}, small())
	for name, f := range map[string]func(){
		"features":    func() { m.LogProba(nil, matrix([]string{"a", "b"}, [][]float64{{1}}, []int{0})) },
		"destination": func() { m.JointLogLikelihood(make([]float64, 3), small()) },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.HasPrefix(r.(string), "naivebayes: ") {
					t.Errorf("%s: panic %v, want a naivebayes panic", name, r)
				}
			}()
			f()
		}()
	}
}

func TestVarianceNames(t *testing.T) {
	for v := range Variance(len(varianceNames.List)) {
		b, err := v.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var w Variance
		if err := w.UnmarshalText(b); err != nil || w != v {
			t.Errorf("%v round-trips to %v, %v", v, w, err)
		}
	}
	if _, err := ParseVariance("diagonal"); err == nil {
		t.Errorf("ParseVariance accepted an unknown name")
	}
	if _, err := Variance(-1).MarshalText(); err == nil || Variance(-1).String() != "Variance(-1)" {
		t.Errorf("an invalid tying marshals")
	}
}

func TestGaussianConformance(t *testing.T) {
	decode := func(schema *data.Schema) conformance.Option {
		return conformance.Decode(func(b []byte) (gendisc.Classifier, error) { return UnmarshalGaussian(schema, b) })
	}
	for _, name := range []string{"iris", "wine", "breast_cancer_wdbc", "pima_indians_diabetes", "ionosphere", "sonar"} {
		d := bundled.Load(t, name, dataio.Options{})
		for _, cfg := range []GaussianConfig{{}, {Variance: FeatureVariance, PriorAlpha: 1}} {
			t.Run(name+"/"+cfg.Variance.String(), func(t *testing.T) {
				conformance.Check(t, func(d *data.Dataset) (gendisc.Classifier, error) { return cfg.Fit(d) }, d, decode(d.Schema))
			})
		}
	}
	t.Run("class without rows", func(t *testing.T) {
		d := small()
		d.Schema.Target.Levels = []string{"a", "b", "c"}
		conformance.Check(t, func(d *data.Dataset) (gendisc.Classifier, error) { return GaussianConfig{}.Fit(d) }, d, decode(d.Schema))
	})
	t.Run("missing and weighted", func(t *testing.T) {
		d := withMissing(bundled.Load(t, "breast_cancer_wdbc", dataio.Options{}), 9)
		conformance.Check(t, func(d *data.Dataset) (gendisc.Classifier, error) { return GaussianConfig{}.Fit(d) }, d, decode(d.Schema))
	})
}

func TestGaussianAllocationsDoNotGrowWithRows(t *testing.T) {
	synthetic := func(n int) *data.Dataset {
		r := rand.New(rand.NewPCG(uint64(n), 3))
		x, y := make([][]float64, n), make([]int, n)
		for i := range x {
			y[i] = r.IntN(3)
			x[i] = []float64{r.NormFloat64() + float64(y[i]), r.NormFloat64(), r.NormFloat64() * 2}
		}
		return matrix([]string{"a", "b", "c"}, x, y)
	}
	// Both sizes cut the rows into the same number of segments.
	small, large := synthetic(40_000), synthetic(200_000)
	m := fit(t, GaussianConfig{}, small)
	allocs := func(f func()) float64 { return testing.AllocsPerRun(3, f) }
	dstSmall, dstLarge := make([]float64, small.N*3), make([]float64, large.N*3)
	if a, b := allocs(func() { m.LogProba(dstSmall, small) }), allocs(func() { m.LogProba(dstLarge, large) }); b > a {
		t.Errorf("LogProba: %v allocations for %d rows, %v for %d", a, small.N, b, large.N)
	}
	if a, b := allocs(func() { GaussianConfig{}.Fit(small) }), allocs(func() { GaussianConfig{}.Fit(large) }); b > a {
		t.Errorf("Fit: %v allocations for %d rows, %v for %d", a, small.N, b, large.N)
	}
}

func FuzzUnmarshalGaussian(f *testing.F) {
	m := fit(f, GaussianConfig{}, small())
	schema := m.Schema()
	for _, cfg := range []GaussianConfig{{}, {Variance: ClassVariance, PriorAlpha: 1}, {ClassPrior: map[string]float64{"a": 0.5, "b": 0.5}}} {
		b, _ := fit(f, cfg, small()).MarshalJSON()
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := UnmarshalGaussian(schema, b)
		if err != nil {
			return
		}
		// A model that loads saves and loads again to the same bytes.
		saved, err := m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		again, err := UnmarshalGaussian(schema, saved)
		if err != nil {
			t.Fatalf("reloading: %v", err)
		}
		if b2, _ := again.MarshalJSON(); string(b2) != string(saved) {
			t.Fatalf("saved %s, then %s", saved, b2)
		}
		m.LogProba(nil, small())
	})
}
