package cv

import (
	"math"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/linear"
	"github.com/gendisc/gendisc/naivebayes"
	"github.com/gendisc/gendisc/ngram"
)

// kindCase is a configuration of a kind with statistics, its fit and its
// accumulator, and the data it is cross-validated on.
type kindCase struct {
	name   string
	data   func(t *testing.T) *data.Dataset
	fit    func(d *data.Dataset) (gendisc.Model, error)
	newAcc func() (gendisc.Accumulator, error)
}

// model and acc make a family's typed results interface values.
func model[M gendisc.Model](m M, err error) (gendisc.Model, error) {
	if err != nil {
		return nil, err
	}
	return m, nil
}

func acc[A gendisc.Accumulator](a A, err error) (gendisc.Accumulator, error) {
	if err != nil {
		return nil, err
	}
	return a, nil
}

// head returns the first n rows of d.
func head(d *data.Dataset, n int) *data.Dataset {
	idx := make([]int, min(n, d.N))
	for i := range idx {
		idx[i] = i
	}
	return d.Subset(idx)
}

func statisticsKinds() []kindCase {
	load := func(name string, opt dataio.Options, n int) func(t *testing.T) *data.Dataset {
		return func(t *testing.T) *data.Dataset { return head(bundled.Load(t, name, opt), n) }
	}
	gnb := naivebayes.GaussianConfig{}
	mnb := naivebayes.Config{Family: naivebayes.Multinomial}
	lda := gda.LDAConfig{}
	qda := gda.QDAConfig{}
	lin := linear.Config{}
	lm := ngram.Config{Order: 2}
	return []kindCase{
		{"gaussian-nb", load("wine", dataio.Options{}, 1000),
			func(d *data.Dataset) (gendisc.Model, error) { return model(gnb.Fit(d)) },
			func() (gendisc.Accumulator, error) { return acc(gnb.NewAccumulator()) }},
		{"multinomial-nb", load("sms_spam", dataio.Options{}, 400),
			func(d *data.Dataset) (gendisc.Model, error) { return model(mnb.Fit(d)) },
			func() (gendisc.Accumulator, error) { return acc(mnb.NewAccumulator()) }},
		{"lda", load("wine", dataio.Options{}, 1000),
			func(d *data.Dataset) (gendisc.Model, error) { return model(lda.Fit(d)) },
			func() (gendisc.Accumulator, error) { return acc(lda.NewAccumulator()) }},
		{"qda", load("iris", dataio.Options{}, 1000),
			func(d *data.Dataset) (gendisc.Model, error) { return model(qda.Fit(d)) },
			func() (gendisc.Accumulator, error) { return acc(qda.NewAccumulator()) }},
		{"linear", load("wine", dataio.Options{Target: "alcohol", NumericTarget: true}, 1000),
			func(d *data.Dataset) (gendisc.Model, error) { return model(lin.Fit(d)) },
			func() (gendisc.Accumulator, error) { return acc(lin.NewAccumulator()) }},
		{"ngram", load("sms_spam", dataio.Options{}, 300),
			func(d *data.Dataset) (gendisc.Model, error) { return model(lm.Fit(d)) },
			func() (gendisc.Accumulator, error) { return acc(ngram.NewAccumulator(lm)) }},
	}
}

// predictions returns what m predicts of d: the log-probabilities of a
// language model's documents (marginal and under each row's class) or
// of a classifier's classes, or a regressor's values.
func predictions(t *testing.T, m gendisc.Model, d *data.Dataset) []float64 {
	t.Helper()
	switch m := m.(type) {
	case ngram.LanguageModel:
		var out []float64
		for i, doc := range d.Text[m.Column()] {
			lp, _ := m.LogProb(doc, -1)
			lc, _ := m.LogProb(doc, int(d.Y[i]))
			out = append(out, lp, lc)
		}
		return out
	case gendisc.Classifier:
		return m.LogProba(nil, d)
	case gendisc.Regressor:
		return m.Predict(nil, d)
	}
	t.Fatalf("%s: no predictions", m.Kind())
	return nil
}

// nearRel reports whether got is within tol of want relative to
// max(1, |want|) (log-probabilities near 0 are compared absolutely).
func nearRel(got, want, tol float64) bool {
	if math.IsInf(want, 0) || math.IsNaN(want) {
		return got == want || math.IsNaN(got) && math.IsNaN(want)
	}
	return math.Abs(got-want) <= tol*max(1, math.Abs(want))
}

// TestOnePassEqualsRefit checks that every fold's model from the merged
// accumulators of the other folds predicts as a refit on the other folds'
// rows does, to 1e-12 relative, for 5 folds and for 2 (where the merge is
// a copy of one fold's accumulator). The models are built after all the
// merges, so a merge that changed its argument (an accumulator shared by
// several prefixes and suffixes) would show.
func TestOnePassEqualsRefit(t *testing.T) {
	for _, kc := range statisticsKinds() {
		t.Run(kc.name, func(t *testing.T) {
			d := kc.data(t)
			for _, k := range []int{5, 2} {
				f, err := KFold(d.N, k, 7)
				if err != nil {
					t.Fatal(err)
				}
				accs, err := foldAccumulators(d, f, kc.newAcc, 2)
				if err != nil {
					t.Fatal(err)
				}
				for fold := range k {
					merged, err := accs[fold].Model()
					if err != nil {
						t.Fatalf("fold %d: %v", fold, err)
					}
					train, test := f.Split(fold)
					refit, err := kc.fit(d.Subset(train))
					if err != nil {
						t.Fatalf("fold %d: %v", fold, err)
					}
					td := d.Subset(test)
					got, want := predictions(t, merged, td), predictions(t, refit, td)
					for i := range want {
						if !nearRel(got[i], want[i], 1e-12) {
							t.Fatalf("k=%d fold %d prediction %d: one pass %v, refit %v", k, fold, i, got[i], want[i])
						}
					}
				}
			}
		})
	}
}

// TestRunOnePassEqualsRefit checks that Run's one-pass path reports the
// figures of its refitting path: the means to 1e-10 and the standard
// errors (differences of nearly equal numbers) to 1e-8.
func TestRunOnePassEqualsRefit(t *testing.T) {
	for _, kc := range statisticsKinds() {
		t.Run(kc.name, func(t *testing.T) {
			d := kc.data(t)
			f, err := KFold(d.N, 4, 3)
			if err != nil {
				t.Fatal(err)
			}
			refit := &Runner{Fit: kc.fit}
			onePass := &Runner{Fit: kc.fit, NewAccumulator: kc.newAcc}
			a, err := refit.Run(d, f)
			if err != nil {
				t.Fatal(err)
			}
			b, err := onePass.Run(d, f)
			if err != nil {
				t.Fatal(err)
			}
			ma, sa, _ := a.summary()
			mb, sb, _ := b.summary()
			compareTrees(t, "mean", ma, mb, 1e-10)
			compareTrees(t, "se", sa, sb, 1e-8)
		})
	}
}

// compareTrees checks that the numbers of got are within tol of want's,
// relative to max(1, |want|).
func compareTrees(t *testing.T, path string, got, want *tree, tol float64) {
	t.Helper()
	switch {
	case want.fields != nil:
		for _, k := range want.keys {
			g, ok := got.fields[k]
			if !ok || g == nil {
				t.Errorf("%s.%s missing", path, k)
				continue
			}
			compareTrees(t, path+"."+k, g, want.fields[k], tol)
		}
	case want.array:
		if len(got.items) != len(want.items) {
			t.Errorf("%s: %d items, want %d", path, len(got.items), len(want.items))
			return
		}
		for i := range want.items {
			compareTrees(t, path, got.items[i], want.items[i], tol)
		}
	case want.isNum:
		if !got.isNum || !nearRel(got.num, want.num, tol) {
			t.Errorf("%s = %v, want %v", path, got.num, want.num)
		}
	}
}
