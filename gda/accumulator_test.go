package gda

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/internal/testsupport/conformance"
)

// gdaModel is what the tests read of a fitted LDA or QDA.
type gdaModel interface {
	gendisc.Generative
	gendisc.Mergeable
	Priors() []float64
	Means() [][]float64
	EMIterations() int
}

// modelOf returns the model inside an LDA or a QDA.
func modelOf(m gdaModel) *model {
	if l, ok := m.(*LDA); ok {
		return l.m
	}
	return m.(*QDA).m
}

// covs returns the covariance matrices of an LDA (one) or a QDA (per class).
func covs(m gdaModel) [][]float64 {
	if l, ok := m.(*LDA); ok {
		return [][]float64{l.Covariance()}
	}
	return m.(*QDA).Covariances()
}

// withClassOrder returns the rows idx of d under a schema whose classes
// are d's in the order perm (perm[a] is the class of d at position a).
func withClassOrder(d *data.Dataset, idx, perm []int) *data.Dataset {
	s := d.Subset(idx)
	s.Schema = d.Schema.Clone()
	pos := make([]int, len(perm))
	for a, k := range perm {
		s.Schema.Target.Levels[a] = d.Schema.Target.Levels[k]
		pos[k] = a
	}
	s.Y = slices.Clone(s.Y)
	for i, y := range s.Y {
		if y == y {
			s.Y[i] = float64(pos[int(y)])
		}
	}
	return s
}

// sameFit fails unless got, whose classes may be in another order, has
// the priors, means, covariances and predictions on d of want to tol
// relative.
func sameFit(t *testing.T, what string, got, want gdaModel, d *data.Dataset, tol float64) {
	t.Helper()
	K := len(want.Classes())
	pos := make([]int, K) // got's index of want's class k
	for k, c := range want.Classes() {
		pos[k] = slices.Index(got.Classes(), c)
		if pos[k] < 0 {
			t.Fatalf("%s: class %q missing from %q", what, c, got.Classes())
		}
	}
	gp, wp := got.Priors(), want.Priors()
	gm, wm := got.Means(), want.Means()
	gc, wc := covs(got), covs(want)
	for k := range K {
		nearRel(t, what+" prior", []float64{gp[pos[k]]}, []float64{wp[k]}, tol)
		nearRel(t, what+" mean", gm[pos[k]], wm[k], tol)
		if len(wc) > 1 {
			nearRel(t, what+" covariance", gc[pos[k]], wc[k], tol)
		}
	}
	if len(wc) == 1 {
		nearRel(t, what+" covariance", gc[0], wc[0], tol)
	}
	// The statistics, third and fourth moments (Ledoit–Wolf) included.
	gs, ws := modelOf(got).stats, modelOf(want).stats
	for k := range K {
		g, w := gs.Class[pos[k]], ws.Class[k]
		nearRel(t, what+" weight", []float64{g.W}, []float64{w.W}, tol)
		nearRel(t, what+" scatter", g.S, w.S, tol)
		if w.Fourth() {
			nearRel(t, what+" third moments", g.M3, w.M3, tol)
			nearRel(t, what+" fourth moments", g.M4, w.M4, tol)
		}
	}
	gl, wl := got.LogProba(nil, d), want.LogProba(nil, d)
	for i := range d.N {
		for k := range K {
			g, w := gl[i*K+pos[k]], wl[i*K+k]
			if !(math.Abs(g-w) <= tol*max(1, math.Abs(w))) {
				t.Fatalf("%s: log-probability of row %d, class %q: %.17g, want %.17g", what, i, want.Classes()[k], g, w)
			}
		}
	}
}

func fitKind(t *testing.T, kind string, c Config, d *data.Dataset) gdaModel {
	t.Helper()
	var m gdaModel
	var err error
	if kind == KindLDA {
		m, err = LDAConfig(c).Fit(d)
	} else {
		m, err = QDAConfig(c).Fit(d)
	}
	if err != nil {
		t.Fatalf("%s %+v: %v", kind, c, err)
	}
	return m
}

func newAcc(t *testing.T, kind string, c Config) *Accumulator {
	t.Helper()
	var a *Accumulator
	var err error
	if kind == KindLDA {
		a, err = LDAConfig(c).Accumulator()
	} else {
		a, err = QDAConfig(c).Accumulator()
	}
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// shards cuts the rows of d into three disjoint random shards, each with
// its classes in another order.
func shards(d *data.Dataset, seed uint64) []*data.Dataset {
	rng := rand.New(rand.NewPCG(seed, 7))
	perm := rng.Perm(d.N)
	K := len(d.Schema.Classes())
	cut := []int{0, d.N / 5, d.N / 2, d.N}
	out := make([]*data.Dataset, 3)
	for s := range out {
		idx := slices.Clone(perm[cut[s]:cut[s+1]])
		slices.Sort(idx)
		order := make([]int, K)
		for k := range order {
			order[k] = (k + s) % K // shard s starts with class s
		}
		if s == 2 {
			slices.Reverse(order)
		}
		out[s] = withClassOrder(d, idx, order)
	}
	return out
}

// TestAccumulatorConformance runs the accumulator conformance suite on LDA
// and QDA, with and without shrinkage, on data without missing cells (iris)
// and with (wine with 3% of the cells removed, whose rows go to EM): within
// 1e-12, the scatters merging by Chan's formula.
func TestAccumulatorConformance(t *testing.T) {
	wineMissing := bundled.Load(t, "wine", dataio.Options{})
	rng := rand.New(rand.NewPCG(5, 5))
	for i := range wineMissing.X {
		if rng.Float64() < 0.03 {
			wineMissing.X[i] = math.NaN()
		}
	}
	iris := bundled.Load(t, "iris", dataio.Options{})
	for _, kind := range []string{KindLDA, KindQDA} {
		for _, c := range []Config{{}, {ShrinkageAuto: true}} {
			for name, d := range map[string]*data.Dataset{"iris": iris, "wine with missing cells": wineMissing} {
				t.Run(fmt.Sprintf("%s/%+v/%s", kind, c, name), func(t *testing.T) {
					conformance.CheckAccumulator(t, func() (gendisc.Accumulator, error) { return newAccumulator(kind, c) }, d,
						conformance.Tol(1e-12), conformance.Refuses(
							func() (gendisc.Accumulator, error) { return newAccumulator(kind, Config{Shrinkage: 0.5}) },
							func() (gendisc.Accumulator, error) { return newAccumulator(otherKind(kind), c) }))
				})
			}
		}
	}
}

// otherKind is QDA for LDA and LDA for QDA.
func otherKind(kind string) string {
	if kind == KindLDA {
		return KindQDA
	}
	return KindLDA
}

// TestMergeShardsEqualsFit fits three disjoint shards with their classes
// in different orders, merges them (in the library, through
// MarshalBinary/UnmarshalBinary, and from fitted models' accumulators)
// and compares with the fit on all the rows: priors, means, covariances
// and log-probabilities to 1e-12 relative, for LDA and QDA, with and
// without shrinkage, on data without missing cells (iris, wine) and with
// (breast_cancer_wisconsin, and wine with 3% of the cells removed).
func TestMergeShardsEqualsFit(t *testing.T) {
	wineMissing := bundled.Load(t, "wine", dataio.Options{})
	rng := rand.New(rand.NewPCG(5, 5))
	for i := range wineMissing.X {
		if rng.Float64() < 0.03 {
			wineMissing.X[i] = math.NaN()
		}
	}
	sets := map[string]*data.Dataset{
		"iris":                    bundled.Load(t, "iris", dataio.Options{}),
		"wine":                    bundled.Load(t, "wine", dataio.Options{}),
		"breast_cancer_wisconsin": bundled.Load(t, "breast_cancer_wisconsin", dataio.Options{}),
		"wine with missing cells": wineMissing,
	}
	configs := []Config{{}, {Estimator: Unbiased}, {Shrinkage: 0.25}, {ShrinkageAuto: true}, {PriorAlpha: 1}}
	for name, d := range sets {
		parts := shards(d, 1)
		for _, kind := range []string{KindLDA, KindQDA} {
			for _, c := range configs {
				want := fitKind(t, kind, c, d)
				if name != "iris" && name != "wine" && want.EMIterations() == 0 {
					t.Fatalf("%s: no EM", name)
				}
				// In the library.
				accs := make([]*Accumulator, 3)
				for s, p := range parts {
					accs[s] = newAcc(t, kind, c)
					if err := accs[s].Add(p); err != nil {
						t.Fatal(err)
					}
				}
				merged := newAcc(t, kind, c)
				for _, a := range accs {
					if err := merged.Merge(a); err != nil {
						t.Fatal(err)
					}
				}
				got, err := merged.Model()
				if err != nil {
					t.Fatal(err)
				}
				what := name + " " + kind
				sameFit(t, what+" merged", got.(gdaModel), want, d, 1e-12)

				// Through the encoding: each shard's accumulator
				// travels, the first decoded one takes the others.
				var first *Accumulator
				for _, a := range accs {
					b, err := a.MarshalBinary()
					if err != nil {
						t.Fatal(err)
					}
					dec := &Accumulator{}
					if err := dec.UnmarshalBinary(b); err != nil {
						t.Fatal(err)
					}
					if b2, _ := dec.MarshalBinary(); !bytes.Equal(b, b2) {
						t.Fatalf("%s: encoding not stable", what)
					}
					if first == nil {
						first = dec
					} else if err := first.Merge(dec); err != nil {
						t.Fatal(err)
					}
				}
				got2, err := first.Model()
				if err != nil {
					t.Fatal(err)
				}
				sameFit(t, what+" decoded", got2.(gdaModel), want, d, 1e-12)

				// From fitted models (gendisc.Mergeable), where every
				// shard has enough rows to be fitted alone.
				if kind == KindQDA && name != "iris" {
					continue
				}
				acc := fitKind(t, kind, c, parts[0]).Accumulator()
				for _, p := range parts[1:] {
					if err := acc.Merge(fitKind(t, kind, c, p).Accumulator()); err != nil {
						t.Fatal(err)
					}
				}
				got3, err := acc.Model()
				if err != nil {
					t.Fatal(err)
				}
				sameFit(t, what+" models merged", got3.(gdaModel), want, d, 1e-12)
			}
		}
	}
}

// TestAccumulatorBitExact: decoding an encoded accumulator gives a model
// identical bit for bit; adding the same rows to decoded and original
// accumulators too; Model leaves the accumulator as it was.
func TestAccumulatorBitExact(t *testing.T) {
	d := bundled.Load(t, "breast_cancer_wisconsin", dataio.Options{})
	parts := shards(d, 2)
	for _, kind := range []string{KindLDA, KindQDA} {
		for _, c := range []Config{{ShrinkageAuto: true}, {Shrinkage: 0.1, ClassPrior: map[string]float64{"benign": 0.25, "malignant": 0.75}}} {
			if c.ClassPrior != nil && !slices.Contains(d.Schema.Classes(), "benign") {
				c.ClassPrior = nil
			}
			a := newAcc(t, kind, c)
			if err := a.Add(parts[0]); err != nil {
				t.Fatal(err)
			}
			b, err := a.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			before, _ := a.Model()
			var dec Accumulator
			if err := dec.UnmarshalBinary(b); err != nil {
				t.Fatal(err)
			}
			for _, x := range []*Accumulator{a, &dec} {
				if err := x.Add(parts[1]); err != nil {
					t.Fatal(err)
				}
			}
			ma, err := a.Model()
			if err != nil {
				t.Fatal(err)
			}
			md, err := dec.Model()
			if err != nil {
				t.Fatal(err)
			}
			ja, _ := json.Marshal(ma)
			jd, _ := json.Marshal(md)
			if !bytes.Equal(ja, jd) {
				t.Errorf("%s %+v: decoded accumulator gives another model", kind, c)
			}
			near(t, "predictions", ma.(gendisc.Generative).LogProba(nil, d), md.(gendisc.Generative).LogProba(nil, d), 0)
			again, _ := a.Model()
			if j1, j2 := mustJSON(t, ma), mustJSON(t, again); !bytes.Equal(j1, j2) {
				t.Error("Model changed the accumulator")
			}
			if j1, j2 := mustJSON(t, before), mustJSON(t, ma); bytes.Equal(j1, j2) {
				t.Error("Add changed nothing")
			}
		}
	}
}

func mustJSON(t *testing.T, m any) []byte {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestUpdateWithMissingCells: updating a model fitted with missing cells,
// also after a round trip through its JSON form, is the fit on all the
// rows: EM revisits the earlier incomplete rows. A model file without the
// incomplete rows (as written before they were kept) still loads.
func TestUpdateWithMissingCells(t *testing.T) {
	d := bundled.Load(t, "breast_cancer_wisconsin", dataio.Options{})
	parts := shards(d, 3)
	for _, kind := range []string{KindLDA, KindQDA} {
		c := Config{}
		want := fitKind(t, kind, c, d)
		m := fitKind(t, kind, c, parts[2])
		params := mustJSON(t, m)
		var loaded gdaModel
		var err error
		if kind == KindLDA {
			loaded, err = UnmarshalLDA(m.Schema(), params)
		} else {
			loaded, err = UnmarshalQDA(m.Schema(), params)
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, start := range []gdaModel{m, loaded} {
			acc := start.Accumulator()
			for _, p := range parts[:2] {
				if err := acc.Add(p); err != nil {
					t.Fatal(err)
				}
			}
			got, err := acc.Model()
			if err != nil {
				t.Fatal(err)
			}
			sameFit(t, kind+" update", got.(gdaModel), want, d, 1e-12)
		}
		var p map[string]json.RawMessage
		if err := json.Unmarshal(params, &p); err != nil {
			t.Fatal(err)
		}
		if p["complete"] == nil || p["incomplete"] == nil {
			t.Fatalf("%s: the model file lacks the incomplete rows", kind)
		}
		delete(p, "complete")
		delete(p, "incomplete")
		old, _ := json.Marshal(p)
		var om gendisc.Classifier
		if kind == KindLDA {
			om, err = UnmarshalLDA(m.Schema(), old)
		} else {
			om, err = UnmarshalQDA(m.Schema(), old)
		}
		if err != nil {
			t.Fatalf("%s: an older file: %v", kind, err)
		}
		near(t, "older file", om.LogProba(nil, d), m.LogProba(nil, d), 0)
		delete(p, "classes")
		p["complete"] = json.RawMessage(`[]`)
		bad, _ := json.Marshal(p)
		if _, err := UnmarshalQDA(m.Schema(), bad); err == nil {
			t.Errorf("%s: complete statistics without incomplete rows accepted", kind)
		}
	}
}

// TestAccumulatorErrors: merging another kind or configuration is a
// *MergeError, data of other features a schema error, an empty
// accumulator ErrNoRows, a foreign encoding an error.
func TestAccumulatorErrors(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
	a := newAcc(t, KindLDA, Config{})
	if _, err := a.Model(); !errors.Is(err, data.ErrNoRows) {
		t.Errorf("empty accumulator: %v, want ErrNoRows", err)
	}
	if err := a.Add(d); err != nil {
		t.Fatal(err)
	}
	var me *gendisc.MergeError
	for _, o := range []*Accumulator{newAcc(t, KindQDA, Config{}), newAcc(t, KindLDA, Config{Shrinkage: 0.5}),
		newAcc(t, KindLDA, Config{Estimator: Unbiased}), newAcc(t, KindLDA, Config{MaxIter: 3})} {
		if err := a.Merge(o); !errors.As(err, &me) || !errors.Is(err, gendisc.ErrMerge) {
			t.Errorf("merge of %s %+v: %v, want a *gendisc.MergeError", o.kind, o.cfg, err)
		}
	}
	if err := a.Merge(nil); !errors.As(err, &me) {
		t.Errorf("merge of nil: %v, want a *gendisc.MergeError", err)
	}
	other := bundled.Load(t, "wine", dataio.Options{})
	if err := a.Add(other); !errors.Is(err, ErrSchema) || !errors.Is(err, data.ErrSchema) {
		t.Errorf("rows of other features: %v, want ErrSchema", err)
	}
	o := newAcc(t, KindLDA, Config{})
	if err := o.Add(other); err != nil {
		t.Fatal(err)
	}
	var se *data.SchemaError
	if err := a.Merge(o); !errors.As(err, &se) && !errors.As(err, &me) {
		t.Errorf("merge of other features: %v", err)
	}
	// Merging itself doubles the weights, not the model.
	self := newAcc(t, KindQDA, Config{})
	if err := self.Add(d); err != nil {
		t.Fatal(err)
	}
	if err := self.Merge(self); err != nil {
		t.Fatal(err)
	}
	m, _ := self.Model()
	w := m.(*QDA).ClassWeights()
	if w[0] != 100 {
		t.Errorf("self-merge: class weight %v, want 100", w[0])
	}
	var dec Accumulator
	if err := dec.UnmarshalBinary([]byte(`{"format":"something else","kind":"lda","params":{}}`)); !errors.As(err, &me) {
		t.Errorf("foreign encoding: %v", err)
	}
	if err := dec.UnmarshalBinary([]byte(`not json`)); err == nil {
		t.Error("bad encoding accepted")
	}
	// An empty accumulator travels too.
	b, _ := newAcc(t, KindQDA, Config{ShrinkageAuto: true}).MarshalBinary()
	if err := dec.UnmarshalBinary(b); err != nil || dec.Kind() != KindQDA || !dec.cfg.ShrinkageAuto {
		t.Errorf("empty accumulator: %v, %s %+v", err, dec.Kind(), dec.cfg)
	}
}
