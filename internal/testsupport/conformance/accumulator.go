package conformance

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
)

// AccumulatorOption adds a check or changes a setting of
// CheckAccumulator.
type AccumulatorOption func(*accOptions)

type accOptions struct {
	tol   float64
	other []func() (gendisc.Accumulator, error)
	seed  uint64
}

// Tol sets the agreement of models finished from the same rows gathered
// in other ways (other splits, other merge orders) with the model of one
// Add of all the rows: 0, the default, is bit for bit, for statistics
// that add exactly (counts, whole-number weights); tol > 0 is
// |got − want| ≤ tol·max(1, |want|) for every score, for statistics that
// merge by formulas whose rounding depends on the grouping (means and
// scatters by Chan's formula, QR factors by TSQR). The families use 0
// for counts and 1e-12 otherwise.
func Tol(tol float64) AccumulatorOption {
	return func(o *accOptions) { o.tol = tol }
}

// Refuses adds accumulators of another kind or configuration, which a
// Merge must refuse with a *gendisc.MergeError (errors.Is
// gendisc.ErrMerge), leaving both sides unchanged.
func Refuses(other ...func() (gendisc.Accumulator, error)) AccumulatorOption {
	return func(o *accOptions) { o.other = append(o.other, other...) }
}

// AccumulatorSeed sets the seed of the split of the rows (default 1).
func AccumulatorSeed(seed uint64) AccumulatorOption {
	return func(o *accOptions) { o.seed = seed }
}

// CheckAccumulator runs the invariants of gendisc.Accumulator as
// subtests of t, with accumulators that newAcc makes (empty, of one
// configuration) and the rows of d, split in three shards of random
// rows. Each shard holds only the class and category levels of its rows,
// in an order of its own, as a file read on its own would; for a
// classification, the first shard has no row of the last class, which
// the others have. The scores compared are the joint log-likelihoods of a
// gendisc.Generative model, the log-probabilities of another
// gendisc.Classifier (columns matched by class name), or the predictions
// of a gendisc.Regressor; they agree as Tol says.
//
//   - split: the shards added in turn to one accumulator give the model
//     of one Add of all the rows;
//   - merge: the shards' accumulators merged give it too, and Merge leaves
//     the accumulator merged unchanged;
//   - associative: (A + B) + C and A + (B + C) give the same model;
//   - commutative: C + A + B gives it, its classes and levels in another
//     order;
//   - empty: merging an empty accumulator, or into one, changes nothing
//     (the encodings are equal);
//   - encoding: MarshalBinary, UnmarshalBinary into a new accumulator and
//     MarshalBinary again give the same bytes, the decoded shards merge to
//     the same bytes as the shards, and a decoded accumulator finishes
//     into a model of bit-identical scores;
//   - folds: for a gendisc.FoldAdder, AddFolds of every row to one of
//     three accumulators that hold a shard's rows already (the folds
//     those of split, their classes in d's order) gives what Add of each
//     fold's rows gives them, and a fold number out of range is an error
//     that changes no accumulator;
//   - refused: merging an accumulator of another package, or one of
//     Refuses, is a *gendisc.MergeError wrapping gendisc.ErrMerge and
//     leaves both accumulators unchanged.
//
// d must be data that newAcc's accumulators take, of at least six rows;
// a classification's needs two classes or more.
func CheckAccumulator(t *testing.T, newAcc func() (gendisc.Accumulator, error), d *data.Dataset, opts ...AccumulatorOption) {
	t.Helper()
	o := accOptions{seed: 1}
	for _, opt := range opts {
		opt(&o)
	}
	d = Shard(d, allRows(d.N), nil) // only the levels that occur
	rng := rand.New(rand.NewPCG(o.seed, 2))
	shards := make([]*data.Dataset, 3)
	for s, idx := range split(d, rng) {
		shards[s] = Shard(d, idx, rng)
	}
	mk := func() gendisc.Accumulator {
		t.Helper()
		a, err := newAcc()
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	add := func(a gendisc.Accumulator, d *data.Dataset) gendisc.Accumulator {
		t.Helper()
		if err := a.Add(d); err != nil {
			t.Fatal(err)
		}
		return a
	}
	whole := finish(t, add(mk(), d))
	accs := make([]gendisc.Accumulator, 3)
	for s, sh := range shards {
		accs[s] = add(mk(), sh)
	}

	t.Run("split", func(t *testing.T) {
		seq := mk()
		for _, sh := range shards {
			add(seq, sh)
		}
		SameScores(t, "the shards added in turn", finish(t, seq), whole, d, o.tol)
	})
	t.Run("merge", func(t *testing.T) {
		SameScores(t, "the shards merged", finish(t, mergeAll(t, mk, accs...)), whole, d, o.tol)
	})
	t.Run("associative", func(t *testing.T) {
		left := mergeAll(t, mk, mergeAll(t, mk, accs[0], accs[1]), accs[2])
		right := mergeAll(t, mk, accs[0], mergeAll(t, mk, accs[1], accs[2]))
		SameScores(t, "A + (B + C) against (A + B) + C", finish(t, right), finish(t, left), d, o.tol)
	})
	t.Run("commutative", func(t *testing.T) {
		SameScores(t, "C + A + B", finish(t, mergeAll(t, mk, accs[2], accs[0], accs[1])), whole, d, o.tol)
	})
	t.Run("empty", func(t *testing.T) {
		merged := mergeAll(t, mk, accs...)
		before := encode(t, merged)
		empty := mk()
		if err := merged.Merge(empty); err != nil || !bytes.Equal(encode(t, merged), before) {
			t.Errorf("merging an empty accumulator: %v, or it changed the statistics", err)
		}
		if err := empty.Merge(merged); err != nil || !bytes.Equal(encode(t, empty), before) {
			t.Errorf("merging into an empty accumulator: %v, or the statistics differ", err)
		}
	})
	t.Run("encoding", func(t *testing.T) {
		decoded := make([]gendisc.Accumulator, len(accs))
		for s, a := range accs {
			b := encode(t, a)
			decoded[s] = mk()
			if err := decoded[s].UnmarshalBinary(b); err != nil {
				t.Fatalf("shard %d: UnmarshalBinary of its MarshalBinary: %v", s, err)
			}
			if !bytes.Equal(encode(t, decoded[s]), b) {
				t.Fatalf("shard %d: the encoding does not read back to the same bytes", s)
			}
		}
		merged, fromDecoded := mergeAll(t, mk, accs...), mergeAll(t, mk, decoded...)
		if !bytes.Equal(encode(t, fromDecoded), encode(t, merged)) {
			t.Errorf("the decoded shards merge to other statistics than the shards")
		}
		SameScores(t, "the decoded shards merged", finish(t, fromDecoded), finish(t, merged), d, 0)
	})
	t.Run("folds", func(t *testing.T) {
		if _, ok := mk().(gendisc.FoldAdder); !ok {
			t.Skip("not a gendisc.FoldAdder")
		}
		fold := make([]int, d.N)
		for f, idx := range split(d, rand.New(rand.NewPCG(o.seed, 3))) {
			for _, i := range idx {
				fold[i] = f
			}
		}
		rows := make([][]int, 3)
		for i, f := range fold {
			rows[f] = append(rows[f], i)
		}
		// Fold f's accumulator holds shard f + 1's rows already, so that
		// fold 0, without the last class, has it.
		got, want := make([]gendisc.Accumulator, 3), make([]gendisc.Accumulator, 3)
		for f := range got {
			sh := accs[(f+1)%3]
			got[f], want[f] = mergeAll(t, mk, sh), add(mergeAll(t, mk, sh), d.Subset(rows[f]))
		}
		before := make([][]byte, 3)
		for f, a := range got {
			before[f] = encode(t, a)
		}
		adder := got[0].(gendisc.FoldAdder)
		if err := adder.AddFolds(d, append(slices.Clone(fold[1:]), 3), got); err == nil {
			t.Errorf("AddFolds of a fold number out of range: no error")
		}
		for f, a := range got {
			if !bytes.Equal(encode(t, a), before[f]) {
				t.Fatalf("a refused AddFolds changed the accumulator of fold %d", f)
			}
		}
		if err := adder.AddFolds(d, fold, got); err != nil {
			t.Fatal(err)
		}
		for f := range got {
			SameScores(t, fmt.Sprintf("AddFolds' fold %d against Add of its rows", f), finish(t, got[f]), finish(t, want[f]), d, o.tol)
		}
	})
	t.Run("refused", func(t *testing.T) {
		others := []gendisc.Accumulator{foreign{}}
		for _, f := range o.other {
			b, err := f()
			if err != nil {
				t.Fatal(err)
			}
			b.Add(shards[1]) // statistics if it takes the rows; refused either way
			others = append(others, b)
		}
		a := accs[0]
		for _, b := range others {
			ab, bb := encode(t, a), encode(t, b)
			var me *gendisc.MergeError
			if err := a.Merge(b); !errors.As(err, &me) || !errors.Is(err, gendisc.ErrMerge) {
				t.Errorf("merging a %T: %v, want a *gendisc.MergeError", b, err)
			}
			if !bytes.Equal(encode(t, a), ab) || !bytes.Equal(encode(t, b), bb) {
				t.Errorf("a refused merge of a %T changed an accumulator", b)
			}
		}
	})
}

// split returns three disjoint sets of rows of d, together all of them,
// drawn at random; for a classification the first has no row of the last
// class, which the others have.
func split(d *data.Dataset, rng *rand.Rand) [][]int {
	perm := rng.Perm(d.N)
	third := d.N / 3
	out := [][]int{perm[:third], slices.Clone(perm[third : 2*third]), slices.Clone(perm[2*third:])}
	if d.Schema.Target == nil || d.Schema.Target.Kind != data.Categorical {
		return out
	}
	last := float64(len(d.Schema.Classes()) - 1)
	var keep []int
	for _, i := range out[0] {
		if d.Y[i] == last {
			out[1+len(keep)%2] = append(out[1+len(keep)%2], i)
			continue
		}
		keep = append(keep, i)
	}
	out[0] = keep
	return out
}

// Shard returns rows idx of d as a data set read on its own would hold
// them: each categorical column and the target keep only the levels that
// occur in these rows, in an order of their own (shuffled by rng; with a
// nil rng, their order in d), the cells renumbered.
func Shard(d *data.Dataset, idx []int, rng *rand.Rand) *data.Dataset {
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
	if s.Schema.Target != nil {
		relevel(s.Schema.Target, func(i int) *float64 { return &s.Y[i] })
	}
	return s
}

// Recode returns d with its levels and classes renumbered into those of
// s, which has all of them (data.Schema.Extend).
func Recode(t *testing.T, d *data.Dataset, s *data.Schema) *data.Dataset {
	t.Helper()
	u, r, err := s.Extend(d.Schema)
	if err != nil || !u.Equal(s) {
		t.Fatalf("recode: %v, %v", err, u)
	}
	return r.Apply(d, s)
}

// SameScores checks that m scores the rows of d as want does (columns
// matched by class name): bit for bit when tol is 0, else within tol
// relative, |got − want| ≤ tol·max(1, |want|). The scores are the joint
// log-likelihoods of a gendisc.Generative model, the log-probabilities
// of another gendisc.Classifier, the predictions of a gendisc.Regressor.
func SameScores(t *testing.T, what string, m, want gendisc.Model, d *data.Dataset, tol float64) {
	t.Helper()
	got, gotCols := scores(t, m, Recode(t, d, m.Schema()))
	ref, cols := scores(t, want, Recode(t, d, want.Schema()))
	K := len(cols)
	if len(gotCols) != K {
		t.Fatalf("%s: classes %q, want %q", what, gotCols, cols)
	}
	col := make([]int, K)
	for k, c := range cols {
		if col[k] = slices.Index(gotCols, c); col[k] < 0 {
			t.Fatalf("%s: classes %q, want %q", what, gotCols, cols)
		}
	}
	for i := range d.N {
		for k := range K {
			g, w := got[i*K+col[k]], ref[i*K+k]
			if g != w && (tol == 0 || !(math.Abs(g-w) <= tol*max(1, math.Abs(w)))) {
				t.Fatalf("%s: row %d, column %q: %v, want %v (one Add of all the rows; difference %.3g)", what, i, cols[k], g, w, g-w)
			}
		}
	}
}

// scores returns what m predicts for d, a row of columns per row of d,
// and the names of the columns.
func scores(t *testing.T, m gendisc.Model, d *data.Dataset) ([]float64, []string) {
	t.Helper()
	switch m := m.(type) {
	case gendisc.Generative:
		return m.JointLogLikelihood(nil, d), m.Classes()
	case gendisc.Classifier:
		return m.LogProba(nil, d), m.Classes()
	case gendisc.Regressor:
		return m.Predict(nil, d), []string{""}
	}
	t.Fatalf("a %T is neither a classifier nor a regressor", m)
	return nil, nil
}

// mergeAll merges accs, in order, into a new accumulator, checking that
// each is unchanged.
func mergeAll(t *testing.T, mk func() gendisc.Accumulator, accs ...gendisc.Accumulator) gendisc.Accumulator {
	t.Helper()
	m := mk()
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

func finish(t *testing.T, a gendisc.Accumulator) gendisc.Model {
	t.Helper()
	m, err := a.Model()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func encode(t *testing.T, a gendisc.Accumulator) []byte {
	t.Helper()
	b, err := a.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func allRows(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// foreign is an accumulator of no family, which every accumulator's Merge
// refuses.
type foreign struct{}

func (foreign) Add(*data.Dataset) error         { return nil }
func (foreign) Merge(gendisc.Accumulator) error { return nil }
func (foreign) Model() (gendisc.Model, error)   { return nil, errors.New("foreign") }
func (foreign) MarshalBinary() ([]byte, error)  { return []byte("foreign"), nil }
func (foreign) UnmarshalBinary([]byte) error    { return nil }
