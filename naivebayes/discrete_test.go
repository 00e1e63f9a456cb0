package naivebayes

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/internal/testsupport/conformance"
)

// every returns the indices lo, lo+step, … below n.
func every(lo, step, n int) []int {
	var idx []int
	for i := lo; i < n; i += step {
		idx = append(idx, i)
	}
	return idx
}

// discreteCases are data sets for each family: the columns they take.
func discreteCases(t *testing.T) []struct {
	name string
	cfg  Config
	d    *data.Dataset
} {
	bcw := bundled.Load(t, "breast_cancer_wisconsin", dataio.Options{})
	votes := bundled.Load(t, "house_votes84", dataio.Options{})
	mushroom := bundled.Load(t, "mushroom", dataio.Options{})
	sms := bundled.Load(t, "sms_spam", dataio.Options{Text: []string{"text"}})
	sms = sms.Subset(every(0, 4, sms.N))
	adult := bundled.Load(t, "adult", dataio.Options{})
	adult = adult.Subset(every(0, 20, adult.N))
	return []struct {
		name string
		cfg  Config
		d    *data.Dataset
	}{
		{"bernoulli/house_votes84", Config{Family: Bernoulli}, votes},
		{"bernoulli/bcw", Config{Family: Bernoulli, Binarize: 3}, bcw},
		{"multinomial/bcw", Config{Family: Multinomial, Alpha: 0.5}, bcw},
		{"complement/bcw", Config{Family: Complement, Norm: true}, bcw},
		{"categorical/mushroom", Config{Family: Categorical}, mushroom.Subset(every(0, 4, mushroom.N))},
		{"categorical/house_votes84", Config{Family: Categorical, Alpha: NoAlpha}, votes},
		{"mixed/adult", Config{}, adult},
		{"multinomial/sms", Config{Family: Multinomial}, sms},
		{"bernoulli/sms", Config{Family: Bernoulli}, sms},
		{"complement/sms", Config{Family: Complement}, sms},
		{"mixed/sms-bernoulli", Config{TextModel: TextBernoulli, PriorAlpha: 1}, sms},
	}
}

func TestDiscreteConformance(t *testing.T) {
	for _, c := range discreteCases(t) {
		t.Run(c.name, func(t *testing.T) {
			conformance.Check(t, func(d *data.Dataset) (gendisc.Classifier, error) { return c.cfg.Fit(d) }, c.d,
				conformance.Decode(func(b []byte) (gendisc.Classifier, error) { return UnmarshalModel(c.d.Schema, b) }))
		})
	}
}

// chunks yields the data sets in order.
func chunks(ds ...*data.Dataset) func(func(*data.Dataset, error) bool) {
	return func(yield func(*data.Dataset, error) bool) {
		for _, d := range ds {
			if !yield(d, nil) {
				return
			}
		}
	}
}

func mustJSON(t *testing.T, m *Model) []byte {
	t.Helper()
	b, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDiscreteUpdate checks that Update of Fit(A) with B, and FitStream of
// A then B, save exactly the model of Fit(A ∪ B): the same bytes.
func TestDiscreteUpdate(t *testing.T) {
	for _, c := range discreteCases(t) {
		t.Run(c.name, func(t *testing.T) {
			n := c.d.N
			a, b := c.d.Subset(every(0, 1, n/3)), c.d.Subset(every(n/3, 1, n))
			whole, err := c.cfg.Fit(c.d)
			if err != nil {
				t.Fatal(err)
			}
			first, err := c.cfg.Fit(a)
			if err != nil {
				t.Fatal(err)
			}
			before := mustJSON(t, first)
			upd, err := first.Update(b)
			if err != nil {
				t.Fatal(err)
			}
			stream, err := c.cfg.FitStream(chunks(a, b))
			if err != nil {
				t.Fatal(err)
			}
			sameModel(t, "Update(Fit(A), B)", upd, whole, c.d)
			sameModel(t, "FitStream(A, B)", stream, whole, c.d)
			if !bytes.Equal(mustJSON(t, first), before) {
				t.Errorf("Update changed the model it was called on")
			}
		})
	}
}

// sameModel checks that m equals want: the same saved bytes when neither
// has Gaussian columns (counts add exactly), otherwise (Chan's merge of
// means and sums of squares rounds differently from one pass) the same
// probabilities on d within 1e-12.
func sameModel(t *testing.T, what string, m, want *Model, d *data.Dataset) {
	t.Helper()
	if names, _, _ := want.GaussianFeatures(); names == nil {
		if !bytes.Equal(mustJSON(t, m), mustJSON(t, want)) {
			t.Errorf("%s differs from Fit(A ∪ B):\n%s\n%s", what, mustJSON(t, m), mustJSON(t, want))
		}
		return
	}
	p, q := m.LogProba(nil, d), want.LogProba(nil, d)
	for i := range p {
		if !near(p[i], q[i], 1e-12) {
			t.Fatalf("%s: log-probability %d is %v, Fit(A ∪ B) gives %v", what, i, p[i], q[i])
		}
	}
}

// readCSV reads a CSV string; with a schema, as ReadWithSchema extending
// it.
func readCSV(t *testing.T, s *data.Schema, csv string, opt dataio.Options) *data.Dataset {
	t.Helper()
	var (
		d   *data.Dataset
		err error
	)
	if s == nil {
		d, err = dataio.Read(strings.NewReader(csv), "test.csv", opt)
	} else {
		d, err = dataio.ReadWithSchema(strings.NewReader(csv), "more.csv", s, dataio.SchemaOptions{Extend: true})
	}
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestDiscreteUpdateNewLevels: classes, category levels and words that
// appear only in the update are appended, and the result is the model
// fitted on all rows read with the same (extended) schema.
func TestDiscreteUpdateNewLevels(t *testing.T) {
	const a = "colour,size,note,class\nred,1,cheap fast,x\nblue,2,slow,y\nred,3,fast fast,x\nblue,,cheap,y\n"
	const b = "colour,size,note,class\ngreen,2,new words here,z\nred,1,fast,x\ngreen,4,here,z\n"
	opt := dataio.Options{Categorical: []string{"colour"}, Text: []string{"note"}}
	da := readCSV(t, nil, a, opt)
	db := readCSV(t, da.Schema, b, opt)
	all := readCSV(t, da.Schema, a+b[strings.IndexByte(b, '\n')+1:], opt)
	if got := all.Schema.Classes(); !slices.Equal(got, []string{"x", "y", "z"}) {
		t.Fatalf("classes %q", got)
	}
	for _, cfg := range []Config{{}, {TextModel: TextBernoulli, Alpha: 0.5}} {
		m, err := cfg.Fit(da)
		if err != nil {
			t.Fatal(err)
		}
		u, err := m.Update(db)
		if err != nil {
			t.Fatal(err)
		}
		w, err := cfg.Fit(all)
		if err != nil {
			t.Fatal(err)
		}
		sameModel(t, "update with new levels", u, w, all)
		if got := u.Schema().Features[0].Levels; !slices.Equal(got, []string{"blue", "red", "green"}) {
			t.Errorf("levels after update %q", got)
		}
	}
}

// TestDiscreteMissing checks the marginalisation of missing cells against
// a hand computation: a missing cell leaves its term out of the joint
// log-likelihood, and fitting counts each feature over the rows where it
// is observed.
func TestDiscreteMissing(t *testing.T) {
	const csv = "c,n,class\na,1,x\nb,,x\na,0,x\n,1,y\nb,1,y\n"
	d := readCSV(t, nil, csv, dataio.Options{Categorical: []string{"c"}})
	// Categorical with α = 1: class x has c observed a, b, a; class y
	// has b only.
	if _, err := (Config{Family: Categorical}).Fit(d.Subset([]int{0, 1, 2, 3, 4})); err == nil {
		t.Fatal("categorical-nb took a numeric column")
	}
	d2 := readCSV(t, nil, csv, dataio.Options{Categorical: []string{"c", "n"}})
	m, err := Config{Family: Categorical}.Fit(d2)
	if err != nil {
		t.Fatal(err)
	}
	// Levels: c {a, b}; n {0, 1}. Priors 3/5, 2/5.
	// θ_x(c=a) = (2+1)/(3+2), θ_y(c=a) = (0+1)/(1+2)
	// θ_x(n=1) = (1+1)/(2+2), θ_y(n=1) = (2+1)/(2+2)
	nan := math.NaN()
	q := &data.Dataset{Schema: d2.Schema, N: 3, X: []float64{0, nan, nan, 1, nan, nan}}
	got := m.JointLogLikelihood(nil, q)
	want := []float64{
		math.Log(3.0/5) + math.Log(3.0/5), math.Log(2.0/5) + math.Log(1.0/3),
		math.Log(3.0/5) + math.Log(2.0/4), math.Log(2.0/5) + math.Log(3.0/4),
		math.Log(3.0 / 5), math.Log(2.0 / 5),
	}
	for i := range want {
		if !near(got[i], want[i], 1e-15) {
			t.Errorf("joint %d: %v, want %v", i, got[i], want[i])
		}
	}
	// Bernoulli over the numeric column: present above 0.
	// p_x = (1+1)/(2+2) (n observed in 2 rows of x), p_y = (2+1)/(2+2).
	mb, err := Config{Family: Bernoulli}.Fit(readCSV(t, nil, "n,class\n1,x\n,x\n0,x\n1,y\n1,y\n", dataio.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	q = &data.Dataset{Schema: mb.schema, N: 2, X: []float64{0, nan}}
	got = mb.JointLogLikelihood(nil, q)
	want = []float64{math.Log(3.0/5) + math.Log(2.0/4), math.Log(2.0/5) + math.Log(1.0/4), math.Log(3.0 / 5), math.Log(2.0 / 5)}
	for i := range want {
		if !near(got[i], want[i], 1e-15) {
			t.Errorf("Bernoulli joint %d: %v, want %v", i, got[i], want[i])
		}
	}
}

// TestDiscreteUnseenLevel: a level the model has not seen is read as
// missing and gives the probabilities of the row with the cell missing.
func TestDiscreteUnseenLevel(t *testing.T) {
	d := readCSV(t, nil, "c,e,class\na,u,x\nb,v,x\na,v,y\n", dataio.Options{})
	m, err := Config{Family: Categorical}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	q, err := dataio.ReadWithSchema(strings.NewReader("c,e,class\nzzz,u,x\n,u,x\n"), "q.csv", d.Schema, dataio.SchemaOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if q.Source.Unseen[0] != 1 {
		t.Fatalf("unseen %v", q.Source.Unseen)
	}
	p := m.LogProba(nil, q)
	if p[0] != p[2] || p[1] != p[3] {
		t.Errorf("unseen level %v, missing cell %v", p[:2], p[2:])
	}
	// A level index beyond the model's levels (library use) is missing
	// too, never an index out of range.
	p2 := m.LogProba(nil, &data.Dataset{Schema: d.Schema, N: 1, X: []float64{7, 0}})
	if p2[0] != p[0] || p2[1] != p[1] {
		t.Errorf("level index 7 gives %v, want %v", p2, p[:2])
	}
}

// TestDiscreteAlphaZero: with α = 0 a value never seen with a class rules
// the class out (−Inf, no NaN), and a row no class can have is reported.
func TestDiscreteAlphaZero(t *testing.T) {
	d := readCSV(t, nil, "c,e,class\na,u,x\nb,v,y\na,w,y\n", dataio.Options{})
	m, err := Config{Family: Categorical, Alpha: NoAlpha}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	q := &data.Dataset{Schema: d.Schema, N: 2, X: []float64{1, 0, 0, 2}, Source: data.Provenance{Name: "q.csv", Lines: []int{2, 3}}}
	p := m.LogProba(nil, q)
	for _, v := range p {
		if math.IsNaN(v) {
			t.Fatalf("NaN in %v", p)
		}
	}
	// Row 0: c = b (only y), e = u (only x): impossible. Row 1: c = a,
	// e = w: only y.
	if !math.IsInf(p[0], -1) || !math.IsInf(p[1], -1) || !math.IsInf(p[2], -1) || p[3] != 0 {
		t.Errorf("log-probabilities %v", p)
	}
	// Proba: the impossible row all zeros, the other (0, 1).
	if pr := m.Proba(nil, q); pr[0] != 0 || pr[1] != 0 || pr[2] != 0 || pr[3] != 1 {
		t.Errorf("probabilities %v", pr)
	}
	err = m.Impossible(q)
	var pe *data.ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || !errors.Is(err, ErrImpossible) {
		t.Errorf("Impossible: %v", err)
	}
	if err := m.Impossible(q.Subset([]int{1})); err != nil {
		t.Errorf("Impossible of a possible row: %v", err)
	}
}

// TestDiscreteNegativeCount: a negative count is an error naming the file,
// line and column.
func TestDiscreteNegativeCount(t *testing.T) {
	d := readCSV(t, nil, "a,b,class\n1,2,x\n0,-1,y\n", dataio.Options{})
	for _, f := range []Family{Multinomial, Complement} {
		_, err := Config{Family: f}.Fit(d)
		var pe *data.ParseError
		if !errors.As(err, &pe) || pe.Line != 3 || pe.ColumnName != "b" || !errors.Is(err, ErrNegativeCount) {
			t.Errorf("%v: %v", f, err)
		}
	}
	if _, err := (Config{Family: Bernoulli}).Fit(d); err != nil {
		t.Errorf("Bernoulli: %v", err)
	}
}

// TestDiscreteCheckCounts: CheckCounts refuses, as Fit does, a negative
// count in data to predict for multinomial and complement naive Bayes,
// naming the file, line and column; Bernoulli and clean data pass.
func TestDiscreteCheckCounts(t *testing.T) {
	train := readCSV(t, nil, "a,b,class\n1,2,x\n3,1,x\n5,6,z\n", dataio.Options{})
	for _, f := range []Family{Multinomial, Complement, Bernoulli} {
		m, err := Config{Family: f}.Fit(train)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.CheckCounts(train); err != nil {
			t.Errorf("%v: training data: %v", f, err)
		}
		d := readCSV(t, m.Schema(), "a,b,class\n1,2,x\n3,-1,x\n", dataio.Options{})
		err = m.CheckCounts(d)
		var pe *data.ParseError
		switch {
		case f == Bernoulli && err != nil:
			t.Errorf("%v: %v", f, err)
		case f != Bernoulli && (!errors.As(err, &pe) || pe.File != "more.csv" || pe.Line != 3 || pe.Column != 2 || pe.ColumnName != "b" || !errors.Is(err, ErrNegativeCount)):
			t.Errorf("%v: %v", f, err)
		}
	}
}

// TestDiscreteJSONErrors: edited parameters are refused.
func TestDiscreteJSONErrors(t *testing.T) {
	d := readCSV(t, nil, "c,class\na,x\nb,y\n", dataio.Options{})
	m, err := Config{Family: Categorical}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	b := mustJSON(t, m)
	for _, edit := range []func(map[string]any){
		func(j map[string]any) { j["family"] = "nope" },
		func(j map[string]any) { j["class_weight"] = []any{1} },
		func(j map[string]any) { j["parts"] = []any{} },
		func(j map[string]any) {
			j["parts"] = []any{map[string]any{"counts": []any{[]any{[]any{1, -1}, []any{0, 1}}}}}
		},
		func(j map[string]any) { j["extra"] = 1 },
	} {
		var j map[string]any
		if err := json.Unmarshal(b, &j); err != nil {
			t.Fatal(err)
		}
		edit(j)
		e, _ := json.Marshal(j)
		if _, err := UnmarshalModel(d.Schema, e); err == nil {
			t.Errorf("accepted %s", e)
		}
	}
}

// TestMixedAdult fits mixed naive Bayes on adult (numeric and categorical
// columns with missing cells) and checks its accuracy on held-out rows.
func TestMixedAdult(t *testing.T) {
	d := bundled.Load(t, "adult", dataio.Options{})
	train, test := d.Subset(every(0, 5, d.N)), d.Subset(every(1, 5, d.N))
	m, err := Config{}.Fit(train)
	if err != nil {
		t.Fatal(err)
	}
	names, _, _ := m.GaussianFeatures()
	if len(names) != 6 || len(m.CategoricalFeatures()) != 8 {
		t.Errorf("Gaussian %q, categorical %q", names, m.CategoricalFeatures())
	}
	p := m.LogProba(nil, test)
	correct, n := 0, 0
	for i, y := range test.Y {
		if y != y {
			continue
		}
		n++
		if p[2*i+int(y)] > p[2*i+1-int(y)] {
			correct++
		}
	}
	acc := float64(correct) / float64(n)
	t.Logf("mixed naive Bayes on adult: accuracy %.4f on %d rows", acc, n)
	if acc < 0.8 {
		t.Errorf("accuracy %.4f", acc)
	}
}

// TestDiscreteMissingVotes checks marginalisation on real data: for every
// row of house_votes84 with missing votes, the joint log-likelihood of
// categorical naive Bayes (fitted on all rows, missing cells skipped) is
// the log-prior plus the log-probabilities of the observed votes only,
// computed here from the fitted value probabilities.
func TestDiscreteMissingVotes(t *testing.T) {
	d := bundled.Load(t, "house_votes84", dataio.Options{})
	m, err := Config{Family: Categorical, Alpha: 0.5}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	jll := m.JointLogLikelihood(nil, d)
	theta := make([][][]float64, d.D())
	for j, f := range d.Schema.Features {
		if theta[j], err = m.LevelProbabilities(f.Name); err != nil {
			t.Fatal(err)
		}
	}
	rows := 0
	for i := range d.N {
		x := d.Row(i)
		if !slices.ContainsFunc(x, math.IsNaN) {
			continue
		}
		rows++
		for k := range 2 {
			want := math.Log(m.Priors()[k])
			for j, v := range x {
				if v == v {
					want += math.Log(theta[j][k][int(v)])
				}
			}
			if !near(jll[2*i+k], want, 1e-13) {
				t.Fatalf("row %d, class %d: joint %v, by hand %v", i, k, jll[2*i+k], want)
			}
		}
	}
	if rows < 200 {
		t.Fatalf("only %d rows with missing votes", rows)
	}
}

// TestDiscreteWeights: a row of weight 2 counts as the row twice, exactly.
func TestDiscreteWeights(t *testing.T) {
	sms := bundled.Load(t, "sms_spam", dataio.Options{Text: []string{"text"}})
	d := sms.Subset(every(0, 10, sms.N))
	twice := d.Subset(slices.Concat(every(0, 1, d.N), every(0, 2, d.N)))
	d.Weight = make([]float64, d.N)
	for i := range d.Weight {
		d.Weight[i] = float64(1 + (i+1)%2)
	}
	for _, f := range []Family{Bernoulli, Multinomial, Complement} {
		a, err := Config{Family: f}.Fit(d)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Config{Family: f}.Fit(twice)
		if err != nil {
			t.Fatal(err)
		}
		pa, pb := a.LogProba(nil, d), b.LogProba(nil, d)
		if !slices.Equal(pa, pb) {
			t.Errorf("%v: weight 2 differs from the row twice", f)
		}
	}
}

// TestDiscreteProba: Proba is the exponential of LogProba to 1e-14, on
// categorical, Bernoulli and mixed models of bundled data with missing
// cells and text.
func TestDiscreteProba(t *testing.T) {
	for _, tc := range []struct {
		dataset string
		cfg     Config
		opt     dataio.Options
	}{
		{"house_votes84", Config{Family: Categorical}, dataio.Options{}},
		{"breast_cancer_wisconsin", Config{Family: Bernoulli, Binarize: 4}, dataio.Options{}},
		{"adult", Config{}, dataio.Options{}},
		{"sms_spam", Config{}, dataio.Options{Text: []string{"text"}}},
	} {
		d := bundled.Load(t, tc.dataset, tc.opt)
		m, err := tc.cfg.Fit(d)
		if err != nil {
			t.Fatal(err)
		}
		lp, p := m.LogProba(nil, d), m.Proba(nil, d)
		for i, v := range lp {
			if e := math.Exp(v); math.Abs(p[i]-e) > 1e-14*max(e, 1e-300) && math.Abs(p[i]-e) > 1e-300 {
				t.Fatalf("%s: cell %d: Proba %v, exp(LogProba) %v", tc.dataset, i, p[i], e)
			}
		}
	}
}
