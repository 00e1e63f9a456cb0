package crf

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/registry"
)

// Kind is the kind of CRF model files.
const Kind = "crf"

func init() {
	registry.Register(registry.Kind{Name: Kind, Short: "first-order linear-chain conditional random field tagger, L-BFGS on the penalised conditional likelihood", Input: registry.Sequences, Flags: flags}, UnmarshalModel)
}

// Kind returns "crf".
func (m *Model) Kind() string { return Kind }

// Schema returns the model's schema: a text feature "tokens" and the
// target "tags" whose levels are the labels, sorted. It stands for the
// sequence schema to come (the sentences of tokens and their tags).
func (m *Model) Schema() *data.Schema {
	return &data.Schema{Features: []data.Column{{Name: "tokens", Kind: data.Text}},
		Target: &data.Column{Name: "tags", Kind: data.Categorical, Levels: slices.Sorted(slices.Values(m.fs.labels))}}
}

// modelJSON is the saved form of a model: for attribute a, States[a] are
// the labels (ids into Labels, ascending) of its state features and
// Weights[a] their weights; Transitions holds λ(y′, y) at y′·L + y.
type modelJSON struct {
	Templates   string      `json:"templates,omitempty"`
	Buckets     int         `json:"buckets,omitempty"`
	Labels      []string    `json:"labels"`
	Attributes  []string    `json:"attributes"`
	States      [][]int32   `json:"states"`
	Weights     [][]float64 `json:"weights"`
	Transitions []float64   `json:"transitions"`
	Iterations  int         `json:"iterations"`
	Warnings    []string    `json:"warnings,omitempty"`
	Vocabulary  []string    `json:"vocabulary,omitempty"`
}

// MarshalJSON writes the model's parameters for a model file.
func (m *Model) MarshalJSON() ([]byte, error) {
	fs := m.fs
	j := modelJSON{Labels: fs.labels, Attributes: fs.attrs, Iterations: m.iters, Warnings: m.warnings, Vocabulary: m.words(),
		States: make([][]int32, len(fs.attrs)), Weights: make([][]float64, len(fs.attrs)), Transitions: m.tr.logT}
	if m.templates != nil {
		j.Templates, j.Buckets = m.templates.String(), m.templates.Buckets
	}
	for a := range fs.attrs {
		lo, hi := fs.start[a], fs.start[a+1]
		j.States[a], j.Weights[a] = fs.label[lo:hi], m.w[lo:hi]
	}
	return json.Marshal(j)
}

// maxWeight bounds the magnitude of a weight in a model file, far above
// what a fit gives (tens), so that the scores of items stay finite.
const maxWeight = 1e10

// maxLabels bounds the labels of a model file: forward–backward costs
// L² per item.
const maxLabels = 4096

// UnmarshalModel rebuilds a model from a model file's schema and the
// parameters MarshalJSON wrote, checking every field: templates that
// parse and buckets ≥ 0; 1 to 4096 distinct labels, the sorted labels
// being the schema's target levels; distinct non-empty attribute names;
// for each attribute, ascending label ids below L with as many weights;
// L² transition weights; weights of magnitude at most 1e10; iterations ≥ 0; warnings of
// one line each; a vocabulary sorted and distinct, only with templates
// (absent from files written before models kept it: no vocabulary).
func UnmarshalModel(schema *data.Schema, params []byte) (*Model, error) {
	m, err := unmarshalModel(schema, params)
	if err != nil {
		return nil, fmt.Errorf("crf: model parameters: %w", err)
	}
	return m, nil
}

func unmarshalModel(schema *data.Schema, params []byte) (*Model, error) {
	var j modelJSON
	if err := json.Unmarshal(params, &j); err != nil {
		return nil, err
	}
	m := &Model{iters: j.Iterations, warnings: j.Warnings}
	switch {
	case j.Templates != "":
		tp, err := ParseTemplates(j.Templates)
		if err != nil {
			return nil, err
		}
		if j.Buckets < 0 {
			return nil, fmt.Errorf("buckets %d: want ≥ 0", j.Buckets)
		}
		tp.Buckets = j.Buckets
		m.templates = tp
	case j.Buckets != 0:
		return nil, fmt.Errorf("buckets without templates")
	}
	if err := m.readVocabulary(j.Vocabulary); err != nil {
		return nil, err
	}
	if j.Iterations < 0 {
		return nil, fmt.Errorf("iterations %d: want ≥ 0", j.Iterations)
	}
	for _, w := range j.Warnings {
		if strings.ContainsAny(w, "\n\r") {
			return nil, fmt.Errorf("a warning of more than one line")
		}
	}
	L := len(j.Labels)
	if L == 0 || L > maxLabels {
		return nil, fmt.Errorf("%d labels: want 1 to %d", L, maxLabels)
	}
	fs := &features{labelID: map[string]int32{}, attrID: map[string]int32{}}
	for _, l := range j.Labels {
		if _, dup := fs.labelID[l]; dup {
			return nil, fmt.Errorf("label %q twice", l)
		}
		fs.intern(&fs.labels, fs.labelID, l)
	}
	if schema == nil || len(schema.Features) != 1 || schema.Features[0].Kind != data.Text || schema.Target == nil ||
		!slices.Equal(schema.Target.Levels, slices.Sorted(slices.Values(j.Labels))) {
		return nil, fmt.Errorf("the schema is not one text feature and a target whose levels are the labels")
	}
	if len(j.States) != len(j.Attributes) || len(j.Weights) != len(j.Attributes) {
		return nil, fmt.Errorf("states for %d and weights for %d of %d attributes", len(j.States), len(j.Weights), len(j.Attributes))
	}
	fs.start = make([]int32, 1, len(j.Attributes)+1)
	var w []float64
	for a, name := range j.Attributes {
		if _, dup := fs.attrID[name]; dup || name == "" {
			return nil, fmt.Errorf("attribute %q empty or twice", name)
		}
		fs.intern(&fs.attrs, fs.attrID, name)
		ys, ws := j.States[a], j.Weights[a]
		if len(ys) != len(ws) {
			return nil, fmt.Errorf("attribute %q: %d labels and %d weights", name, len(ys), len(ws))
		}
		for k, y := range ys {
			if y < 0 || int(y) >= L || (k > 0 && y <= ys[k-1]) {
				return nil, fmt.Errorf("attribute %q: labels %v are not ascending ids below %d", name, ys, L)
			}
			if !(math.Abs(ws[k]) <= maxWeight) {
				return nil, fmt.Errorf("attribute %q: weight %v: want a magnitude ≤ %g", name, ws[k], maxWeight)
			}
		}
		fs.label = append(fs.label, ys...)
		w = append(w, ws...)
		if len(fs.label) > 1<<31-1-L*L {
			return nil, fmt.Errorf("too many state features")
		}
		fs.start = append(fs.start, int32(len(fs.label)))
	}
	if len(j.Transitions) != L*L {
		return nil, fmt.Errorf("%d transition weights for %d labels, want %d", len(j.Transitions), L, L*L)
	}
	fs.trans = make([]int32, L*L)
	for i, v := range j.Transitions {
		if !(math.Abs(v) <= maxWeight) {
			return nil, fmt.Errorf("transition weight %v: want a magnitude ≤ %g", v, maxWeight)
		}
		fs.trans[i] = int32(len(w))
		w = append(w, v)
	}
	fs.nFeatures = len(w)
	m.fs, m.w, m.tr = fs, w, fs.transitions(w)
	return m, nil
}
