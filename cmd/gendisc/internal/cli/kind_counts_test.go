package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/registry"
	"github.com/gendisc/gendisc/server"
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

// TestTestKindEverywhere checks that a kind declared in one place (the
// registration of withCountKinds, in this test file alone) reaches every
// part of gendisc: fit's help and --model, fit (saving the model file),
// predict, eval and inspect (loading it; inspect by the generic
// description of a kind it does not know), the server, and compare.
func TestTestKindEverywhere(t *testing.T) {
	withCountKinds(t)
	dir := t.TempDir()
	model := filepath.Join(dir, "counts.json")

	if help := mustRun(t, "help", "fit"); !strings.Contains(help, "\n--model "+countsKind+": test: the smoothed class frequencies\n") || !strings.Contains(help, "--count-alpha") {
		t.Errorf("fit's help lacks the test kind and its flag")
	}
	mustRun(t, "fit", "--model", countsKind, "--count-alpha", "2", "--data", "iris", "--out", model)

	// iris has 50 rows of each of its 3 classes: P(y = k) = (50 + 2)/(150 + 3·2) = 1/3.
	pred := mustRun(t, "predict", "--model", model, "--data", "iris")
	lines := strings.Split(strings.TrimSpace(pred), "\n")
	if len(lines) != 151 || lines[1] != "Iris-setosa,0.3333333333333333,0.3333333333333333,0.3333333333333333" {
		t.Errorf("predict: %d lines, the first row %q", len(lines), lines[min(1, len(lines)-1)])
	}
	if out := mustRun(t, "eval", "--model", model, "--data", "iris"); !strings.Contains(out, "accuracy") {
		t.Errorf("eval printed %q", out)
	}
	var rep struct {
		Kind       string
		Parameters countParams
	}
	if err := json.Unmarshal([]byte(mustRun(t, "inspect", "--model", model, "--json")), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Kind != countsKind || rep.Parameters.Alpha != 2 || !slices.Equal([]float64(rep.Parameters.Counts), []float64{50, 50, 50}) {
		t.Errorf("inspect --json: %+v", rep)
	}

	s, err := server.New(server.Options{Models: map[string]string{"counts": model}, MaxRows: 1 << 10, MaxBodyBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	rc, err := datasets.Open("iris")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(rc)
	rc.Close()
	r := httptest.NewRequest("POST", "/v1/models/counts/predict", bytes.NewReader(body))
	r.Header.Set("Content-Type", "text/csv")
	r.Header.Set("Accept", "text/csv")
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != 200 || w.Body.String() != pred {
		t.Errorf("serve: status %d, the answer differs from gendisc predict's", w.Code)
	}

	report := filepath.Join(dir, "report")
	mustRun(t, "compare", "--data", "iris", "--models", countsKind+",gaussian-nb", "--splits", "2", "--sizes", "30,60", "--out", report, "--quiet")
	results, err := os.ReadFile(filepath.Join(report, "curves.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(results), countsKind) {
		t.Errorf("compare's results do not hold the test kind:\n%s", results)
	}
}
