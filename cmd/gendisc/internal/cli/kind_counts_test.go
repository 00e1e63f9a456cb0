package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/registry"
)

// The test kinds of mergeable models, until the families' models keep
// their statistics: a classifier that predicts the smoothed class
// frequencies whatever the features,
//
//	P(y = k | x) = (w_k + α) / (Σ_l w_l + K α),
//
// w_k the weight of the training rows of class k, its sufficient
// statistics. The two kinds differ by name only, so that models of two
// kinds can be refused.
const (
	countsKind    = "test-counts"
	countsAccKind = "test-counts-acc"
)

// decodeCounts returns the decoder of the model files of the test kind
// name.
func decodeCounts(name string) func(s *data.Schema, params []byte) (*countModel, error) {
	return func(s *data.Schema, params []byte) (*countModel, error) {
		var p countParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, err
		}
		if len(p.Counts) != len(s.Classes()) {
			return nil, fmt.Errorf("%d counts for %d classes", len(p.Counts), len(s.Classes()))
		}
		return &countModel{kind: name, schema: s, alpha: float64(p.Alpha), counts: p.Counts}, nil
	}
}

// withCountKinds registers the test kinds for the test, in one place
// each, as a family does (registry.Register): they stay out of the help
// texts of the other tests. inspect does not know them, and describes
// their models by their parameters.
func withCountKinds(t *testing.T) {
	for _, name := range []string{countsKind, countsAccKind} {
		registry.Register(registry.Kind{
			Name:  name,
			Short: "test: the smoothed class frequencies",
			Flags: func(fs *flag.FlagSet) func() (registry.Config, error) {
				newAcc := countsFlags(fs, name)
				return func() (registry.Config, error) {
					fit := func(d *data.Dataset) (gendisc.Model, error) {
						acc := newAcc()
						if err := acc.Add(d); err != nil {
							return nil, err
						}
						return acc.Model()
					}
					return registry.OnePass(fit, func() (gendisc.Accumulator, error) { return newAcc(), nil }), nil
				}
			},
		}, decodeCounts(name))
		t.Cleanup(func() { registry.Unregister(name) })
	}
}

// countsFlags defines the flag of the test kinds, --count-alpha, and
// returns the function that gives an empty accumulator of its value.
func countsFlags(fs *flag.FlagSet, name string) func() gendisc.Accumulator {
	alpha := fs.Float64("count-alpha", 1, "pseudo-count `α` of every class")
	return func() gendisc.Accumulator { return &countAcc{Kind: name, Alpha: *alpha} }
}

// countModel is a fitted model of the test kinds.
type countModel struct {
	kind   string
	schema *data.Schema
	alpha  float64
	counts []float64 // w_k, one per class
}

type countParams struct {
	Alpha  modelfile.Float  `json:"alpha"`
	Counts modelfile.Floats `json:"counts"`
}

func (m *countModel) Kind() string         { return m.kind }
func (m *countModel) Schema() *data.Schema { return m.schema }
func (m *countModel) Classes() []string    { return m.schema.Classes() }

func (m *countModel) MarshalJSON() ([]byte, error) {
	return json.Marshal(countParams{modelfile.Float(m.alpha), m.counts})
}

func (m *countModel) LogProba(dst []float64, d *data.Dataset) []float64 {
	K := len(m.counts)
	total := float64(K) * m.alpha
	for _, w := range m.counts {
		total += w
	}
	if dst == nil {
		dst = make([]float64, d.N*K)
	}
	for i := range d.N {
		for k, w := range m.counts {
			dst[i*K+k] = math.Log((w + m.alpha) / total)
		}
	}
	return dst
}

func (m *countModel) Accumulator() gendisc.Accumulator {
	return &countAcc{Kind: m.kind, Alpha: m.alpha, Schema: m.schema, Counts: slices.Clone(m.counts)}
}

// countAcc is the accumulator of the test kinds; an empty one has no
// schema.
type countAcc struct {
	Kind   string
	Alpha  float64
	Schema *data.Schema
	Counts []float64
}

// extend makes the accumulator's schema the union of its and s, and
// returns the map of s's classes.
func (a *countAcc) extend(s *data.Schema) (*data.Remap, error) {
	if a.Schema == nil {
		a.Schema = s.Clone()
	} else {
		union, r, err := a.Schema.Extend(s)
		if err != nil {
			return nil, err
		}
		a.Schema = union
		for len(a.Counts) < len(union.Classes()) {
			a.Counts = append(a.Counts, 0)
		}
		return r, nil
	}
	a.Counts = make([]float64, len(s.Classes()))
	return nil, nil
}

func (a *countAcc) Add(d *data.Dataset) error {
	r, err := a.extend(d.Schema)
	if err != nil {
		return err
	}
	d = r.Apply(d, a.Schema)
	for i, y := range d.Y {
		if y == y {
			w := 1.0
			if d.Weight != nil {
				w = d.Weight[i]
			}
			a.Counts[int(y)] += w
		}
	}
	return nil
}

func (a *countAcc) Merge(o gendisc.Accumulator) error {
	b, ok := o.(*countAcc)
	switch {
	case !ok || b.Kind != a.Kind:
		return fmt.Errorf("not an accumulator of kind %s", a.Kind)
	case b.Alpha != a.Alpha:
		return fmt.Errorf("fitted with α = %v, want %v", b.Alpha, a.Alpha)
	case b.Schema == nil:
		return nil
	}
	r, err := a.extend(b.Schema)
	if err != nil {
		return err
	}
	for l, w := range b.Counts {
		k := l
		if r != nil && r.Target != nil {
			k = r.Target[l]
		}
		a.Counts[k] += w
	}
	return nil
}

func (a *countAcc) Model() (gendisc.Model, error) {
	if a.Schema == nil {
		return nil, errors.New("no rows")
	}
	return &countModel{kind: a.Kind, schema: a.Schema.Clone(), alpha: a.Alpha, counts: slices.Clone(a.Counts)}, nil
}

func (a *countAcc) MarshalBinary() ([]byte, error) { return json.Marshal(a) }
func (a *countAcc) UnmarshalBinary(b []byte) error { return json.Unmarshal(b, a) }
