package naivebayes

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
)

// TestAddFolds checks that GaussianAccumulator.AddFolds leaves in each
// fold's accumulator the statistics that Add of a copy of the fold's rows
// gives, to 1e-12 relative (the sums are taken in blocks of all the rows,
// not of the fold's), on iris with missing cells, weights and rows
// without a label; twice, so that the second call merges into statistics
// already there.
func TestAddFolds(t *testing.T) {
	d := withMissing(bundled.Load(t, "iris", dataio.Options{}), 3)
	d.Y[5], d.Y[77] = math.NaN(), math.NaN()
	const k = 4
	r := rand.New(rand.NewPCG(4, 4))
	fold := make([]int, d.N)
	rows := make([][]int, k)
	for i := range fold {
		fold[i] = r.IntN(k)
		rows[fold[i]] = append(rows[fold[i]], i)
	}
	for _, cfg := range []GaussianConfig{{}, {Variance: SharedVariance}} {
		accs := make([]gendisc.Accumulator, k)
		want := make([]*GaussianAccumulator, k)
		for f := range k {
			accs[f], _ = cfg.NewAccumulator()
			want[f], _ = cfg.NewAccumulator()
		}
		for range 2 {
			if err := accs[0].(gendisc.FoldAdder).AddFolds(d, fold, accs); err != nil {
				t.Fatal(err)
			}
			for f := range k {
				if err := want[f].Add(d.Subset(rows[f])); err != nil {
					t.Fatal(err)
				}
			}
		}
		for f := range k {
			got, w := accs[f].(*GaussianAccumulator).stats, want[f].stats
			for _, s := range []struct {
				what      string
				got, want []float64
			}{{"class weights", got.ClassWeight, w.ClassWeight}, {"weights", got.W, w.W}, {"means", got.M, w.M}, {"sums of squares", got.S, w.S}} {
				if len(s.got) != len(s.want) {
					t.Fatalf("fold %d: %d %s, want %d", f, len(s.got), s.what, len(s.want))
				}
				for i := range s.want {
					if math.Abs(s.got[i]-s.want[i]) > 1e-12*max(1, math.Abs(s.want[i])) {
						t.Errorf("%v fold %d: %s[%d] = %v, Add of the fold's rows %v", cfg.Variance, f, s.what, i, s.got[i], s.want[i])
					}
				}
			}
		}
	}
}

// TestAddFoldsRefuses: rows with an infinite cell, an accumulator of
// other settings or kind, and fold numbers out of range are errors that
// leave every accumulator unchanged.
func TestAddFoldsRefuses(t *testing.T) {
	d := readCSV(t, nil, "n,class\n1,x\n2,y\n3,x\n4,y\n", dataio.Options{})
	fold := []int{0, 1, 0, 1}
	newAccs := func() []gendisc.Accumulator {
		a, _ := GaussianConfig{}.NewAccumulator()
		b, _ := GaussianConfig{}.NewAccumulator()
		if err := a.Add(d); err != nil {
			t.Fatal(err)
		}
		return []gendisc.Accumulator{a, b}
	}
	encodings := func(accs []gendisc.Accumulator) [][]byte {
		var out [][]byte
		for _, a := range accs {
			out = append(out, encode(t, a))
		}
		return out
	}
	bad := readCSV(t, nil, "n,class\n1,x\n2,y\n3,x\n999,y\n", dataio.Options{})
	bad.X[3] = math.Inf(1)
	other, _ := GaussianConfig{Variance: FeatureVariance}.NewAccumulator()
	multinomial, _ := Config{Family: Multinomial}.NewAccumulator()
	for _, c := range []struct {
		name string
		d    *data.Dataset
		fold []int
		add  func(accs []gendisc.Accumulator) []gendisc.Accumulator
		want func(error) bool
	}{
		{"infinite cell", bad, fold, nil, func(err error) bool {
			var pe *data.ParseError
			return errors.Is(err, data.ErrInfinite) && errors.As(err, &pe) && pe.Line == 5
		}},
		{"other settings", d, fold, func(accs []gendisc.Accumulator) []gendisc.Accumulator { return append(accs, other) },
			func(err error) bool { return errors.Is(err, gendisc.ErrMerge) }},
		{"other kind", d, fold, func(accs []gendisc.Accumulator) []gendisc.Accumulator { return append(accs, multinomial) },
			func(err error) bool { return errors.Is(err, gendisc.ErrMerge) }},
		{"fold out of range", d, []int{0, 1, 2, 1}, nil, func(err error) bool { return err != nil }},
		{"fold numbers short", d, fold[:3], nil, func(err error) bool { return err != nil }},
	} {
		accs := newAccs()
		if c.add != nil {
			accs = c.add(accs)
		}
		before := encodings(accs)
		err := accs[0].(gendisc.FoldAdder).AddFolds(c.d, c.fold, accs)
		if !c.want(err) {
			t.Errorf("%s: %v", c.name, err)
		}
		for i, b := range encodings(accs) {
			if !bytes.Equal(b, before[i]) {
				t.Errorf("%s: accumulator %d changed", c.name, i)
			}
		}
	}
}
