package conformance

import (
	"encoding/json"
	"math"
	"slices"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
)

// priorOnly predicts the class frequencies of its training data for every
// row: the simplest classifier that passes every check.
type priorOnly struct {
	schema *data.Schema
	LogP   []float64
}

func (m *priorOnly) Kind() string         { return "prior-only" }
func (m *priorOnly) Schema() *data.Schema { return m.schema.Clone() }
func (m *priorOnly) Classes() []string    { return slices.Clone(m.schema.Classes()) }
func (m *priorOnly) LogProba(dst []float64, d *data.Dataset) []float64 {
	if dst == nil {
		dst = make([]float64, d.N*len(m.LogP))
	}
	for i := range d.N {
		copy(dst[i*len(m.LogP):], m.LogP)
	}
	return dst
}
func (m *priorOnly) JointLogLikelihood(dst []float64, d *data.Dataset) []float64 {
	return m.LogProba(dst, d)
}
func (m *priorOnly) MarshalJSON() ([]byte, error) { return json.Marshal(m.LogP) }

func fitPriorOnly(d *data.Dataset) (gendisc.Classifier, error) {
	m := &priorOnly{schema: d.Schema, LogP: make([]float64, len(d.Schema.Classes()))}
	for _, y := range d.Y {
		m.LogP[int(y)]++
	}
	for k, c := range m.LogP {
		m.LogP[k] = math.Log(c / float64(d.N))
	}
	return m, nil
}

func TestCheckPriorOnly(t *testing.T) {
	d := &data.Dataset{
		Schema: &data.Schema{Features: []data.Column{{Name: "x"}},
			Target: &data.Column{Name: "y", Kind: data.Categorical, Levels: []string{"a", "b", "c"}}},
		N: 6, X: []float64{1, 2, 3, 4, 5, 6}, Y: []float64{0, 1, 1, 2, 2, 2},
	}
	var schema *data.Schema = d.Schema
	Check(t, fitPriorOnly, d, Seed(7), Decode(func(b []byte) (gendisc.Classifier, error) {
		m := &priorOnly{schema: schema}
		return m, json.Unmarshal(b, &m.LogP)
	}))
}
