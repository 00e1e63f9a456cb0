package gda

import (
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

var (
	_ gendisc.Generative = (*LDA)(nil)
	_ gendisc.Generative = (*QDA)(nil)
)

// fitter fits one kind with a configuration, for tests that run on both.
type fitter struct {
	name string
	fit  func(*data.Dataset) (gendisc.Generative, error)
}

func fitters(c Config) []fitter {
	return []fitter{
		{"lda", func(d *data.Dataset) (gendisc.Generative, error) { return LDAConfig(c).Fit(d) }},
		{"qda", func(d *data.Dataset) (gendisc.Generative, error) { return QDAConfig(c).Fit(d) }},
	}
}

func mustFit(t testing.TB, f fitter, d *data.Dataset) gendisc.Generative {
	t.Helper()
	m, err := f.fit(d)
	if err != nil {
		t.Fatalf("%s: %v", f.name, err)
	}
	return m
}

// TestConformance runs the shared classifier checks on iris, wine, and
// wine with 5% of its cells missing (EM at fit, marginals at prediction).
func TestConformance(t *testing.T) {
	for _, name := range []string{"iris", "wine", "wine-missing"} {
		var d *data.Dataset
		if name == "wine-missing" {
			d = removeCells(bundled.Load(t, "wine", dataio.Options{}), 0.05, rand.New(rand.NewPCG(2, 2)))
		} else {
			d = bundled.Load(t, name, dataio.Options{})
		}
		for _, c := range []Config{{}, {Estimator: Unbiased, PriorAlpha: 1}, {ShrinkageAuto: true}} {
			t.Run(name+"/lda", func(t *testing.T) {
				conformance.Check(t, func(d *data.Dataset) (gendisc.Classifier, error) { return LDAConfig(c).Fit(d) }, d,
					conformance.Decode(func(b []byte) (gendisc.Classifier, error) { return UnmarshalLDA(d.Schema, b) }))
			})
			t.Run(name+"/qda", func(t *testing.T) {
				conformance.Check(t, func(d *data.Dataset) (gendisc.Classifier, error) { return QDAConfig(c).Fit(d) }, d,
					conformance.Decode(func(b []byte) (gendisc.Classifier, error) { return UnmarshalQDA(d.Schema, b) }))
			})
		}
	}
}

// TestLogisticForm checks σ(wᵀx + w0) against the Bayes-rule posterior of
// binary LDA, and the softmax of the linear form for every LDA.
func TestLogisticForm(t *testing.T) {
	for _, tc := range []struct {
		name string
		drop []string
	}{{"breast_cancer_wdbc", nil}, {"sonar", nil}, {"ionosphere", []string{"V2"}}, {"wine", nil}, {"iris", nil}} {
		d := bundled.Load(t, tc.name, dataio.Options{Ignore: tc.drop})
		for _, c := range []LDAConfig{{}, {Estimator: Unbiased, PriorAlpha: 3}, {Shrinkage: 0.2}} {
			m, err := c.Fit(d)
			if err != nil {
				t.Fatal(err)
			}
			p := proba(m, d)
			K, D := len(m.Classes()), d.D()
			W, b := m.Linear()
			soft := make([]float64, d.N*K)
			for i := range d.N {
				row := soft[i*K : (i+1)*K]
				for k := range K {
					row[k] = b[k]
					for j, v := range d.Row(i) {
						row[k] += W[k*D+j] * v
					}
				}
				lse := math.Inf(-1)
				for _, v := range row {
					lse = math.Max(lse, v)
				}
				s := 0.0
				for _, v := range row {
					s += math.Exp(v - lse)
				}
				for k := range row {
					row[k] = math.Exp(row[k]-lse) / s
				}
			}
			near(t, tc.name+" softmax form", soft, p, 1e-12)
			if K != 2 {
				continue
			}
			w, w0, _ := m.LogisticForm()
			sig := make([]float64, d.N)
			p1 := make([]float64, d.N)
			for i := range d.N {
				z := w0
				for j, v := range d.Row(i) {
					z += w[j] * v
				}
				sig[i] = 1 / (1 + math.Exp(-z))
				p1[i] = p[i*2+1]
			}
			near(t, tc.name+" logistic form", sig, p1, 1e-12)
		}
	}
}

// TestUpdateEqualsFit checks that fitting part of the data and updating
// with the rest equals a fit on all of it.
func TestUpdateEqualsFit(t *testing.T) {
	d := bundled.Load(t, "wine", dataio.Options{})
	rng := rand.New(rand.NewPCG(7, 7))
	perm := rng.Perm(d.N)
	a, b := d.Subset(perm[:100]), d.Subset(perm[100:])
	b.Weight = make([]float64, b.N)
	for i := range b.Weight {
		b.Weight[i] = 0.5 + rng.Float64()
	}
	all := d.Subset(perm)
	all.Weight = append(slices.Repeat([]float64{1}, 100), b.Weight...)
	for _, c := range []Config{{}, {Estimator: Unbiased, ShrinkageAuto: true}} {
		lda, err := LDAConfig(c).Fit(a)
		if err != nil {
			t.Fatal(err)
		}
		upd, err := lda.Update(b)
		if err != nil {
			t.Fatal(err)
		}
		whole, err := LDAConfig(c).Fit(all)
		if err != nil {
			t.Fatal(err)
		}
		near(t, "lda update", proba(upd, d), proba(whole, d), 1e-12)
		nearRel(t, "lda covariance", upd.Covariance(), whole.Covariance(), 1e-12)
		qda, err := QDAConfig(c).Fit(a)
		if err != nil {
			t.Fatal(err)
		}
		qupd, err := qda.Update(b)
		if err != nil {
			t.Fatal(err)
		}
		qwhole, err := QDAConfig(c).Fit(all)
		if err != nil {
			t.Fatal(err)
		}
		near(t, "qda update", proba(qupd, d), proba(qwhole, d), 1e-12)
		for k, cov := range qupd.Covariances() {
			nearRel(t, "qda covariance", cov, qwhole.Covariances()[k], 1e-12)
		}
		if lda.Covariance()[0] == upd.Covariance()[0] {
			t.Error("Update changed nothing, or changed the original model")
		}
	}
}

// TestUpdateNewClass adds a class by an update.
func TestUpdateNewClass(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
	var first, second []int
	for i, y := range d.Y {
		if y < 2 {
			first = append(first, i)
		} else {
			second = append(second, i)
		}
	}
	a := d.Subset(first)
	a.Schema = d.Schema.Clone()
	a.Schema.Target.Levels = a.Schema.Target.Levels[:2]
	m, err := LDAConfig{}.Fit(a)
	if err != nil {
		t.Fatal(err)
	}
	upd, err := m.Update(d.Subset(second))
	if err != nil {
		t.Fatal(err)
	}
	whole, err := LDAConfig{}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(upd.Classes(), whole.Classes()) {
		t.Fatalf("classes %q, want %q", upd.Classes(), whole.Classes())
	}
	near(t, "update with a new class", proba(upd, d), proba(whole, d), 1e-12)
	bad := d.Subset(second)
	bad.Schema = d.Schema.Clone()
	bad.Schema.Features[0].Name = "other"
	if _, err := m.Update(bad); !errors.Is(err, ErrSchema) {
		t.Errorf("update with another feature: %v, want ErrSchema", err)
	}
}

// TestWeightsAreCounts: a row of weight 2 counts as two rows (for the MLE
// estimates, which depend on the weights only).
func TestWeightsAreCounts(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
	w := make([]float64, d.N)
	var idx []int
	for i := range d.N {
		w[i] = float64(1 + i%3)
		for range int(w[i]) {
			idx = append(idx, i)
		}
	}
	dw := d.Subset(slices.Collect(func(yield func(int) bool) {
		for i := range d.N {
			if !yield(i) {
				return
			}
		}
	}))
	dw.Weight = w
	dup := d.Subset(idx)
	for _, f := range fitters(Config{}) {
		a, b := mustFit(t, f, dw), mustFit(t, f, dup)
		near(t, f.name+" weights", proba(a, d), proba(b, d), 1e-12)
	}
}

// TestMarginalisation: with feature j missing, the joint log-likelihood is
// that of the model fitted without feature j (the MLE of a sub-vector's
// Gaussian is the sub-vector of the MLE).
func TestMarginalisation(t *testing.T) {
	d := bundled.Load(t, "wine", dataio.Options{})
	drop := []string{d.Schema.Features[2].Name, d.Schema.Features[7].Name}
	sub := bundled.Load(t, "wine", dataio.Options{Ignore: drop})
	miss := d.Subset(slices.Collect(func(yield func(int) bool) {
		for i := range d.N {
			yield(i)
		}
	}))
	for i := range miss.N {
		miss.X[i*d.D()+2], miss.X[i*d.D()+7] = math.NaN(), math.NaN()
	}
	for _, c := range []Config{{}, {Estimator: Unbiased}} {
		for _, f := range fitters(c) {
			full, part := mustFit(t, f, d), mustFit(t, f, sub)
			got, want := full.JointLogLikelihood(nil, miss), part.JointLogLikelihood(nil, sub)
			nearRel(t, f.name+" marginal joint", got, want, 1e-12)
			near(t, f.name+" marginal posterior", proba(full, miss), proba(part, sub), 1e-12)
		}
	}
	// Every feature missing: the posterior is the prior.
	for i := range miss.X {
		miss.X[i] = math.NaN()
	}
	for _, f := range fitters(Config{}) {
		m := mustFit(t, f, d)
		p := proba(m, miss)
		pri := m.(interface{ Priors() []float64 }).Priors()
		for i := range miss.N {
			near(t, "all missing", p[i*3:i*3+3], pri, 1e-15)
		}
	}
}

// TestNoNaN: rows far outside the data give probabilities, not NaN.
func TestNoNaN(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
	x := matrix(d.Schema.Classes(), [][]float64{{1e300, -1e300, 1e300, 1e300}, {1e-300, 0, 0, 0}, {5, 3, 1e160, 1}}, []int{0, 0, 0})
	x.Schema = d.Schema
	for _, f := range fitters(Config{}) {
		m := mustFit(t, f, d)
		for i, v := range proba(m, x) {
			if math.IsNaN(v) {
				t.Fatalf("%s: probability %d is NaN", f.name, i)
			}
		}
	}
}

// TestErrors checks the data errors and their messages.
func TestErrors(t *testing.T) {
	iono := bundled.Load(t, "ionosphere", dataio.Options{})
	for _, tc := range []struct {
		name string
		fit  func() error
		err  error
		msg  []string
	}{
		{"qda constant feature", func() error {
			_, err := (QDAConfig{}).Fit(bundled.Load(t, "ionosphere", dataio.Options{Ignore: []string{"V2"}}))
			return err
		},
			ErrSingular, []string{`"V1"`, `within class "good"`, "Config.Shrinkage"}},
		{"lda constant feature", func() error { _, err := (LDAConfig{}).Fit(iono); return err },
			ErrSingular, []string{`"V2"`, "zero variance", "Config.Shrinkage"}},
		{"qda too few rows", func() error {
			d := bundled.Load(t, "sonar", dataio.Options{})
			_, err := (QDAConfig{}).Fit(d.Subset(slices.Concat(seq(0, 40), seq(150, 208))))
			return err
		}, ErrTooFewRows, []string{`class "M"`, "61", "Config.Shrinkage"}},
		{"qda one row", func() error {
			d := bundled.Load(t, "iris", dataio.Options{})
			_, err := (QDAConfig{Shrinkage: 0.5}).Fit(d.Subset([]int{0, 1, 2, 60, 61, 62, 149}))
			return err
		}, ErrTooFewRows, []string{`"Iris-virginica" has 1`}},
		{"lda collinear", func() error {
			d := bundled.Load(t, "iris", dataio.Options{})
			x := make([][]float64, d.N)
			y := make([]int, d.N)
			for i := range d.N {
				r := d.Row(i)
				x[i] = []float64{r[0], r[1], r[0] + 2*r[1]}
				y[i] = int(d.Y[i])
			}
			_, err := (LDAConfig{}).Fit(matrix(d.Schema.Classes(), x, y))
			return err
		}, ErrSingular, []string{"pooled covariance matrix is singular", "Config.Shrinkage"}},
		{"one class", func() error {
			_, err := (LDAConfig{}).Fit(matrix([]string{"a", "b"}, [][]float64{{1}, {2}, {4}}, []int{0, 0, 0}))
			return err
		}, ErrEmptyClass, nil},
		{"no features", func() error {
			d := &data.Dataset{Schema: &data.Schema{Target: &data.Column{Name: "c", Kind: data.Categorical, Levels: []string{"a", "b"}}},
				N: 3, Y: []float64{0, 1, 1}}
			_, err := (QDAConfig{}).Fit(d)
			return err
		}, ErrNoFeatures, nil},
		{"categorical feature", func() error {
			d := bundled.Load(t, "iris", dataio.Options{})
			d.Schema = d.Schema.Clone()
			d.Schema.Features[1].Kind = data.Categorical
			_, err := (QDAConfig{}).Fit(d)
			return err
		}, ErrFeatureKind, []string{"sepalwidth"}},
		{"infinite cell", func() error {
			d := bundled.Load(t, "iris", dataio.Options{})
			d.X[7*4+2] = math.Inf(1)
			_, err := (LDAConfig{}).Fit(d)
			return err
		}, data.ErrInfinite, []string{"iris:9", "petallength"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.fit()
			if !errors.Is(err, tc.err) {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			for _, s := range tc.msg {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
		})
	}
	// Shrinkage cures what it is advised for.
	if _, err := (QDAConfig{ShrinkageAuto: true}).Fit(bundled.Load(t, "ionosphere", dataio.Options{Ignore: []string{"V2"}})); err != nil {
		t.Errorf("qda with automatic shrinkage: %v", err)
	}
	if _, err := (LDAConfig{Shrinkage: 0.1}).Fit(iono); err != nil {
		t.Errorf("lda with shrinkage: %v", err)
	}
}

func seq(lo, hi int) []int {
	s := make([]int, 0, hi-lo)
	for i := lo; i < hi; i++ {
		s = append(s, i)
	}
	return s
}

func TestConfigErrors(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
	for _, c := range []Config{
		{Shrinkage: -0.1}, {Shrinkage: 1.5}, {Shrinkage: math.NaN()}, {Shrinkage: 0.1, ShrinkageAuto: true},
		{Estimator: 7}, {PriorAlpha: -1}, {PriorAlpha: 1, ClassPrior: map[string]float64{"a": 1}},
		{MaxIter: -1}, {Tol: math.Inf(1)},
		{ClassPrior: map[string]float64{"Iris-setosa": 0.5, "Iris-versicolor": 0.5}},
	} {
		if _, err := LDAConfig(c).Fit(d); err == nil {
			t.Errorf("config %+v accepted", c)
		}
	}
	if _, err := ParseCovarianceEstimator("biased"); err == nil {
		t.Error("unknown estimator name accepted")
	}
}

func TestPriors(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{}) // 50 rows per class
	m, err := LDAConfig{ClassPrior: map[string]float64{"Iris-setosa": 0.2, "Iris-versicolor": 0.3, "Iris-virginica": 0.5}}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "fixed priors", m.Priors(), []float64{0.2, 0.3, 0.5}, 1e-15)
	sub := d.Subset(slices.Concat(seq(0, 10), seq(50, 150)))
	q, err := QDAConfig{PriorAlpha: 1}.Fit(sub)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "smoothed priors", q.Priors(), []float64{11.0 / 113, 51.0 / 113, 51.0 / 113}, 1e-15)
}

// TestUnbiasedIsScaledMLE: the unbiased covariances are the MLE ones
// scaled by W/(W − K) (LDA) and W_k/(W_k − 1) (QDA).
func TestUnbiasedIsScaledMLE(t *testing.T) {
	d := bundled.Load(t, "wine", dataio.Options{})
	counts := []float64{59, 71, 48}
	l0, _ := LDAConfig{}.Fit(d)
	l1, _ := LDAConfig{Estimator: Unbiased}.Fit(d)
	want := l0.Covariance()
	scale(want, 178.0/175)
	nearRel(t, "lda unbiased", l1.Covariance(), want, 1e-15)
	q0, _ := QDAConfig{}.Fit(d)
	q1, _ := QDAConfig{Estimator: Unbiased}.Fit(d)
	for k, c := range q0.Covariances() {
		scale(c, counts[k]/(counts[k]-1))
		nearRel(t, "qda unbiased", q1.Covariances()[k], c, 1e-15)
	}
}

// TestTransformMissing: a row with a missing cell is projected with the
// cell filled by its conditional expectation; complete rows are unchanged.
func TestTransformMissing(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
	m, err := LDAConfig{}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	full := m.Transform(nil, d, 2)
	miss := d.Subset(seq(0, d.N))
	miss.X[3*4+1] = math.NaN()
	got := m.Transform(nil, miss, 2)
	for i := range d.N {
		if i == 3 {
			continue
		}
		near(t, "complete row", got[i*2:i*2+2], full[i*2:i*2+2], 0)
	}
	// The filled value is close to the observed one for a typical row.
	if math.Abs(got[6]-full[6]) > 1 || math.IsNaN(got[6]) {
		t.Errorf("row with a missing cell projected to %v, complete %v", got[6:8], full[6:8])
	}
}

// TestFitStream: fitting chunks equals fitting their union, with missing
// cells, weights, and chunks whose classes are a prefix of the others'.
func TestFitStream(t *testing.T) {
	d := bundled.Load(t, "wine", dataio.Options{})
	rng := rand.New(rand.NewPCG(3, 3))
	perm := rng.Perm(d.N)
	// The first chunk has classes 0 and 1 only, under a two-class schema.
	var first, rest []int
	for _, i := range perm {
		if d.Y[i] < 2 && len(first) < 60 {
			first = append(first, i)
		} else {
			rest = append(rest, i)
		}
	}
	all := d.Subset(append(slices.Clone(first), rest...))
	for i := range all.X {
		if rng.Float64() < 0.05 {
			all.X[i] = math.NaN()
		}
	}
	all.Weight = make([]float64, all.N)
	for i := range all.Weight {
		all.Weight[i] = 0.5 + rng.Float64()
	}
	cut := []int{0, 60, 100, 101, all.N}
	for i := cut[1]; i < cut[2]; i++ {
		all.Weight[i] = 1 // the second chunk comes without weights
	}
	chunks := func(yield func(*data.Dataset, error) bool) {
		for c := range len(cut) - 1 {
			ch := all.Subset(seq(cut[c], cut[c+1]))
			if c == 0 {
				ch.Schema = all.Schema.Clone()
				ch.Schema.Target.Levels = ch.Schema.Target.Levels[:2]
			}
			if c == 1 {
				ch.Weight = nil
			}
			if !yield(ch, nil) {
				return
			}
		}
	}
	for _, c := range []Config{{}, {ShrinkageAuto: true}} {
		ls, err := LDAConfig(c).FitStream(chunks)
		if err != nil {
			t.Fatal(err)
		}
		lw, err := LDAConfig(c).Fit(all)
		if err != nil {
			t.Fatal(err)
		}
		near(t, "lda stream", proba(ls, d), proba(lw, d), 1e-10)
		qs, err := QDAConfig(c).FitStream(chunks)
		if err != nil {
			t.Fatal(err)
		}
		qw, err := QDAConfig(c).Fit(all)
		if err != nil {
			t.Fatal(err)
		}
		near(t, "qda stream", proba(qs, d), proba(qw, d), 1e-10)
		if ls.EMIterations() == 0 || qs.EMIterations() == 0 {
			t.Error("no EM in a stream with missing cells")
		}
	}
	failing := func(yield func(*data.Dataset, error) bool) { yield(nil, errors.New("disk on fire")) }
	if _, err := (LDAConfig{}).FitStream(failing); err == nil || err.Error() != "disk on fire" {
		t.Errorf("stream error: %v", err)
	}
	if _, err := (QDAConfig{}).FitStream(func(func(*data.Dataset, error) bool) {}); !errors.Is(err, data.ErrNoRows) {
		t.Errorf("empty stream: %v", err)
	}
}
