// Package conformance is the test suite every gendisc classifier passes:
// the invariants that hold whatever the model, in the spirit of
// scikit-learn's estimator checks. A model package calls Check from its
// tests with a fit function and a data set:
//
//	conformance.Check(t, func(d *data.Dataset) (gendisc.Classifier, error) {
//		return naivebayes.GaussianConfig{}.Fit(d)
//	}, iris, conformance.Decode(decodeGaussian))
//
// CheckAccumulator is the suite of every gendisc.Accumulator: splits,
// merges in any grouping and order, shards whose classes differ, the
// encoding and refused merges (accumulator.go). Each family calls it from
// a TestAccumulatorConformance.
package conformance

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/mathx"
)

// Tolerances of the checks.
const (
	// SumTol bounds |Σ_k P(y = k | x) − 1| for every row.
	SumTol = 1e-12
	// PermutationTol bounds the change of any probability when the
	// training rows are permuted.
	PermutationTol = 1e-9
	// JointTol bounds |log P(y = k | x) − normalised joint| relative to
	// max(1, |log P|) for generative models.
	JointTol = 1e-12
)

// Option adds a check or changes a setting of Check.
type Option func(*options)

type options struct {
	decode func([]byte) (gendisc.Classifier, error)
	seed   uint64
}

// Decode adds the save/load round trip: the fitted model must implement
// json.Marshaler, and decode(MarshalJSON()) must give a model of the same
// kind, schema and classes whose probabilities are bit-identical.
func Decode(decode func(params []byte) (gendisc.Classifier, error)) Option {
	return func(o *options) { o.decode = decode }
}

// Seed sets the seed of the row permutation (default 1).
func Seed(seed uint64) Option {
	return func(o *options) { o.seed = seed }
}

// Check fits a model to d with fit and runs the shared invariants as
// subtests of t:
//
//   - probabilities: every row's probabilities are in [0, 1], not NaN, and
//     sum to 1 within SumTol;
//   - classes: Classes() is the schema's class order, Schema() the data's;
//   - destination: LogProba into a given slice fills and returns it, and
//     each row's result does not depend on the other rows predicted with it;
//   - permutation: fitting a permutation of the rows changes no
//     probability by more than PermutationTol;
//   - idempotent: fitting twice gives bit-identical probabilities;
//   - concurrent: LogProba from 8 goroutines at once equals the sequential
//     result exactly;
//   - joint (Generative models): LogProba is JointLogLikelihood
//     normalised, within JointTol;
//   - roundtrip (with the Decode option): see Decode;
//   - feature names (data with two or more features): data whose first two
//     features are swapped by name, values unchanged, makes LogProba panic
//     with a package-prefixed message instead of scoring the wrong columns.
//
// d must be a classification data set that fit accepts.
func Check(t *testing.T, fit func(*data.Dataset) (gendisc.Classifier, error), d *data.Dataset, opts ...Option) {
	t.Helper()
	o := options{seed: 1}
	for _, opt := range opts {
		opt(&o)
	}
	m, err := fit(d)
	if err != nil {
		t.Fatalf("fit: %v", err)
	}
	lp := m.LogProba(nil, d)
	k := len(m.Classes())
	t.Run("probabilities", func(t *testing.T) { checkProbabilities(t, lp, k) })
	t.Run("classes", func(t *testing.T) { checkClasses(t, m, d) })
	t.Run("destination", func(t *testing.T) { checkDestination(t, m, d, lp) })
	t.Run("permutation", func(t *testing.T) { checkPermutation(t, fit, d, lp, o.seed) })
	t.Run("idempotent", func(t *testing.T) {
		again, err := fit(d)
		if err != nil {
			t.Fatalf("second fit: %v", err)
		}
		sameBits(t, "second fit", again.LogProba(nil, d), lp)
	})
	t.Run("concurrent", func(t *testing.T) { checkConcurrent(t, m, d, lp) })
	if g, ok := m.(gendisc.Generative); ok {
		t.Run("joint", func(t *testing.T) { checkJoint(t, g, d, lp) })
	}
	if o.decode != nil {
		t.Run("roundtrip", func(t *testing.T) { checkRoundTrip(t, m, d, lp, o.decode) })
	}
	if d.D() >= 2 {
		t.Run("feature names", func(t *testing.T) { checkFeatureNames(t, m, d) })
	}
}

// checkFeatureNames checks that m refuses data whose first two features
// carry each other's names: the count and the values are right, so only
// the names tell that the columns are not the model's.
func checkFeatureNames(t *testing.T, m gendisc.Classifier, d *data.Dataset) {
	swapped := *d
	swapped.Schema = d.Schema.Clone()
	f := swapped.Schema.Features
	f[0].Name, f[1].Name = f[1].Name, f[0].Name
	defer func() {
		msg := fmt.Sprint(recover())
		want := fmt.Sprintf(": feature 0 is %q, the model's is %q", f[0].Name, f[1].Name)
		if !strings.Contains(msg, want) {
			t.Errorf("LogProba on swapped feature names: panic %q, want a package-prefixed message containing %q", msg, want)
		}
	}()
	m.LogProba(nil, &swapped)
}

func checkProbabilities(t *testing.T, lp []float64, k int) {
	for i := 0; i < len(lp); i += k {
		sum := 0.0
		for c, v := range lp[i : i+k] {
			p := math.Exp(v)
			if math.IsNaN(v) || v > 0 || p > 1 {
				t.Fatalf("row %d class %d: log-probability %v", i/k, c, v)
			}
			sum += p
		}
		if math.Abs(sum-1) > SumTol {
			t.Fatalf("row %d: probabilities sum to 1%+.3g", i/k, sum-1)
		}
	}
}

func checkClasses(t *testing.T, m gendisc.Classifier, d *data.Dataset) {
	if got, want := m.Classes(), d.Schema.Classes(); !slices.Equal(got, want) {
		t.Errorf("Classes() = %q, want the schema's %q", got, want)
	}
	if !m.Schema().Equal(d.Schema) {
		t.Errorf("Schema() differs from the training data's")
	}
}

func checkDestination(t *testing.T, m gendisc.Classifier, d *data.Dataset, lp []float64) {
	k := len(m.Classes())
	dst := make([]float64, len(lp))
	for i := range dst {
		dst[i] = math.NaN()
	}
	if got := m.LogProba(dst, d); &got[0] != &dst[0] {
		t.Errorf("LogProba did not return its destination")
	}
	sameBits(t, "into a destination", dst, lp)
	// Rows predicted alone or in another order give the same values.
	idx := []int{d.N - 1, 0, d.N / 2}
	sub := m.LogProba(nil, d.Subset(idx))
	for r, i := range idx {
		sameBits(t, fmt.Sprintf("row %d in a subset", i), sub[r*k:(r+1)*k], lp[i*k:(i+1)*k])
	}
}

func checkPermutation(t *testing.T, fit func(*data.Dataset) (gendisc.Classifier, error), d *data.Dataset, lp []float64, seed uint64) {
	perm := rand.New(rand.NewPCG(seed, 0x5eed)).Perm(d.N)
	m, err := fit(d.Subset(perm))
	if err != nil {
		t.Fatalf("fit on permuted rows: %v", err)
	}
	got := m.LogProba(nil, d)
	for i := range got {
		if diff := math.Abs(math.Exp(got[i]) - math.Exp(lp[i])); !(diff <= PermutationTol) {
			t.Fatalf("cell %d: probability changed by %.3g after permuting the rows", i, diff)
		}
	}
}

func checkConcurrent(t *testing.T, m gendisc.Classifier, d *data.Dataset, lp []float64) {
	const n = 8
	out := make([][]float64, n)
	var wg sync.WaitGroup
	for g := range n {
		wg.Go(func() { out[g] = m.LogProba(nil, d) })
	}
	wg.Wait()
	for g, got := range out {
		sameBits(t, fmt.Sprintf("goroutine %d", g), got, lp)
	}
}

func checkJoint(t *testing.T, m gendisc.Generative, d *data.Dataset, lp []float64) {
	k := len(m.Classes())
	jll := m.JointLogLikelihood(nil, d)
	for i := 0; i < len(jll); i += k {
		mathx.NormalizeLog(jll[i : i+k])
	}
	for i, v := range jll {
		if v != lp[i] && !(math.Abs(v-lp[i]) <= JointTol*max(1, math.Abs(lp[i]))) {
			t.Fatalf("cell %d: normalised joint log-likelihood %v, LogProba %v", i, v, lp[i])
		}
	}
}

func checkRoundTrip(t *testing.T, m gendisc.Classifier, d *data.Dataset, lp []float64, decode func([]byte) (gendisc.Classifier, error)) {
	j, ok := m.(json.Marshaler)
	if !ok {
		t.Fatalf("%T does not implement json.Marshaler", m)
	}
	b, err := j.MarshalJSON()
	if err != nil {
		t.Fatalf("MarshalJSON: %v", err)
	}
	loaded, err := decode(b)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if loaded.Kind() != m.Kind() || !loaded.Schema().Equal(m.Schema()) || !slices.Equal(loaded.Classes(), m.Classes()) {
		t.Errorf("loaded model differs: kind %q, classes %q; saved %q, %q", loaded.Kind(), loaded.Classes(), m.Kind(), m.Classes())
	}
	sameBits(t, "loaded model", loaded.LogProba(nil, d), lp)
	lj, ok := loaded.(json.Marshaler)
	if !ok {
		t.Fatalf("loaded %T does not implement json.Marshaler", loaded)
	}
	if b2, err := lj.MarshalJSON(); err != nil || string(b2) != string(b) {
		t.Errorf("saving the loaded model gives different parameters (err %v)", err)
	}
}

// sameBits fails t unless got and want hold the same float64 bits.
func sameBits(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("%s: cell %d is %v, want %v", what, i, got[i], want[i])
		}
	}
}
