package naivebayes

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/text"
)

// modelJSON is the saved form of a Model: its settings, the class
// weights, and the sufficient statistics of each part in the order in
// which the settings assign the schema's columns to parts. The fitted
// parameters are derived on loading by the code of Fit, so a loaded model
// predicts bit for bit as the saved one.
type modelJSON struct {
	Family       string                `json:"family"`
	Alpha        modelfile.Float       `json:"alpha"`
	Binarize     modelfile.Float       `json:"binarize"`
	Norm         bool                  `json:"norm,omitempty"`
	TextModel    TextModel             `json:"text_model"`
	Text         text.VectorizerConfig `json:"text"`
	VarSmoothing modelfile.Float       `json:"var_smoothing"`
	Variance     Variance              `json:"variance"`
	PriorAlpha   modelfile.Float       `json:"prior_alpha,omitempty"`
	ClassPrior   map[string]float64    `json:"class_prior,omitempty"`
	ClassWeight  modelfile.Floats      `json:"class_weight"`
	Parts        []json.RawMessage     `json:"parts"`
}

// MarshalJSON writes the model's settings and sufficient statistics, the
// parameters of its model file (see UnmarshalModel).
func (m *Model) MarshalJSON() ([]byte, error) {
	j, err := modelSettings(m.params).withStats(m.classWeight, m.parts)
	if err != nil {
		return nil, err
	}
	return json.Marshal(j)
}

// modelSettings returns the saved form of the settings p, without
// statistics.
func modelSettings(p params) modelJSON {
	c := p.cfg
	return modelJSON{Family: c.Family.String(), Alpha: modelfile.Float(p.alpha), Binarize: modelfile.Float(c.Binarize),
		Norm: c.Norm, TextModel: c.TextModel, Text: c.Text, VarSmoothing: modelfile.Float(max(c.VarSmoothing, 0)), Variance: c.Variance,
		PriorAlpha: modelfile.Float(p.prior.alpha), ClassPrior: p.prior.fixed}
}

// withStats returns j with the class weights and the statistics of parts.
func (j modelJSON) withStats(classWeight []float64, parts []part) (modelJSON, error) {
	j.ClassWeight = classWeight
	for _, pt := range parts {
		b, err := json.Marshal(pt.stats())
		if err != nil {
			return j, err
		}
		j.Parts = append(j.Parts, b)
	}
	return j, nil
}

// settings is the model-file form of the accumulator's settings, without
// statistics.
func (a *Accumulator) settings() modelJSON { return modelSettings(a.params) }

// MarshalBinary encodes the settings, the schema and the statistics, which
// UnmarshalBinary reads back bit-exactly.
func (a *Accumulator) MarshalBinary() ([]byte, error) {
	j := a.settings()
	if a.schema != nil {
		var err error
		if j, err = j.withStats(a.classWeight, a.parts); err != nil {
			return nil, err
		}
	}
	return encodeAccumulator(a.kind(), a.schema, a.source, j)
}

// UnmarshalBinary sets a to the accumulator encoded by MarshalBinary,
// of any kind of Config (its settings replace a's), checking the
// statistics against the schema. The encoding of a GaussianAccumulator is
// a *gendisc.MergeError.
func (a *Accumulator) UnmarshalBinary(b []byte) error {
	j, err := decodeAccumulator(b, familyKinds.List...)
	if err != nil {
		return err
	}
	var u *Accumulator
	if j.Schema == nil {
		var m modelJSON
		if err := strictDecode(j.Params, &m); err != nil {
			return fmt.Errorf("naivebayes: accumulator: %w", err)
		}
		p, err := m.params()
		if err != nil {
			return fmt.Errorf("naivebayes: accumulator: %w", err)
		}
		u = &Accumulator{params: p}
	} else if u, err = unmarshalAccumulator(j.Schema, j.Params); err != nil {
		return fmt.Errorf("naivebayes: accumulator: %w", err)
	}
	if u.kind() != j.Kind {
		return fmt.Errorf("naivebayes: accumulator: kind %q with the parameters of %q", j.Kind, u.kind())
	}
	u.source = j.Source
	*a = *u
	return nil
}

// persistentPart is a part whose statistics can be saved and restored.
type persistentPart interface {
	// stats returns the statistics as a value to marshal to JSON.
	stats() any
	// restore sets the statistics from their JSON, checking them against
	// the model's schema.
	restore(b []byte, s *data.Schema) error
}

// UnmarshalModel returns the model saved by MarshalJSON with the given
// schema, checking that the parameters fit the schema and are valid
// statistics.
func UnmarshalModel(schema *data.Schema, params []byte) (*Model, error) {
	m, err := unmarshalModel(schema, params)
	if err != nil {
		return nil, fmt.Errorf("naivebayes: model parameters: %w", err)
	}
	return m, nil
}

func unmarshalModel(schema *data.Schema, params []byte) (*Model, error) {
	a, err := unmarshalAccumulator(schema, params)
	if err != nil {
		return nil, err
	}
	m := &Model{params: a.params, classWeight: a.classWeight, parts: a.parts}
	m.schema = a.schema
	return m, m.fit("")
}

// params checks the saved settings and returns them. The file holds the
// smoothing in effect, 0 for none: the markers NoAlpha and NoVarSmoothing,
// negative, are Config's and not a file's.
func (j *modelJSON) params() (params, error) {
	fam, err := ParseFamily(j.Family)
	if err != nil {
		return params{}, err
	}
	if err := smoothingDomain.CheckValue("alpha", float64(j.Alpha)); err != nil {
		return params{}, err
	}
	if err := smoothingDomain.CheckValue("var_smoothing", float64(j.VarSmoothing)); err != nil {
		return params{}, err
	}
	c := Config{Family: fam, Alpha: float64(j.Alpha), Binarize: float64(j.Binarize), Norm: j.Norm, TextModel: j.TextModel,
		Text: j.Text, VarSmoothing: float64(j.VarSmoothing), Variance: j.Variance, PriorAlpha: float64(j.PriorAlpha), ClassPrior: j.ClassPrior}
	if c.Alpha == 0 {
		c.Alpha = NoAlpha
	}
	if c.VarSmoothing == 0 {
		c.VarSmoothing = NoVarSmoothing
	}
	return c.params()
}

// unmarshalAccumulator returns the statistics saved by MarshalJSON with
// the given schema, unfitted, checking that they fit the schema.
func unmarshalAccumulator(schema *data.Schema, params []byte) (*Accumulator, error) {
	var j modelJSON
	if err := strictDecode(params, &j); err != nil {
		return nil, err
	}
	if schema == nil || schema.Target == nil || schema.Target.Kind != data.Categorical || len(schema.Features) == 0 {
		return nil, errors.New("the schema needs features and a categorical target")
	}
	p, err := j.params()
	if err != nil {
		return nil, err
	}
	a := &Accumulator{params: p, schema: schema.Clone()}
	parts, kerr := assignParts(p, a.schema)
	if kerr != nil {
		return nil, fmt.Errorf("column %q: %w", kerr.column, kerr.err)
	}
	if len(j.Parts) != len(parts) {
		return nil, fmt.Errorf("%d parts of statistics, the schema needs %d", len(j.Parts), len(parts))
	}
	K := len(schema.Classes())
	if len(j.ClassWeight) != K {
		return nil, fmt.Errorf("%d class weights for %d classes", len(j.ClassWeight), K)
	}
	if err := countDomain.Check("class_weight", j.ClassWeight); err != nil {
		return nil, err
	}
	a.classWeight = j.ClassWeight
	for i, pt := range parts {
		if err := pt.restore(j.Parts[i], a.schema); err != nil {
			return nil, fmt.Errorf("parts[%d]: %w", i, err)
		}
	}
	a.parts = parts
	return a, nil
}

// strictDecode decodes b into v, refusing unknown fields.
func strictDecode(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// countDomain is the interval of a weighted count (a sum of row weights)
// in a model file: non-negative, and small enough that the sums of a
// model's counts, over up to 1e50 of them, stay finite.
var countDomain = modelfile.Interval{Lo: 0, Hi: 1e250, Why: "the sums of larger counts overflow float64"}

// checkMatrix checks that rows, the field name, has r rows of c counts
// (countDomain) and returns them concatenated.
func checkMatrix(name string, rows []modelfile.Floats, r, c int) ([]float64, error) {
	if len(rows) != r {
		return nil, fmt.Errorf("%s: %d rows, want %d", name, len(rows), r)
	}
	for i, row := range rows { // before allocating r·c values: the file must hold them
		if len(row) != c {
			return nil, fmt.Errorf("%s[%d]: %d values, want %d", name, i, len(row), c)
		}
		if err := countDomain.Check(fmt.Sprintf("%s[%d]", name, i), row); err != nil {
			return nil, err
		}
	}
	out := make([]float64, 0, r*c)
	for _, row := range rows {
		out = append(out, row...)
	}
	return out, nil
}

// checkSubcounts checks that no count of s, the field name, exceeds the
// count at the same place in n: a Bernoulli count of presences cannot
// exceed the count of the observations (within the rounding of the sums,
// relative 1e-9).
func checkSubcounts(name string, s, n []float64, c int) error {
	for i, v := range s {
		if v > n[i]*(1+1e-9) {
			return fmt.Errorf("%s[%d][%d]: %v present of %v observed: more presences than observations", name, i/c, i%c, v, n[i])
		}
	}
	return nil
}

// cut splits a k×v row-major matrix into its rows.
func cut(x []float64, k, v int) []modelfile.Floats {
	out := make([]modelfile.Floats, k)
	for c := range out {
		out[c] = x[c*v : (c+1)*v]
	}
	return out
}

// countJSON holds the statistics of a countPart: S and N at [k][t].
type countJSON struct {
	S []modelfile.Floats `json:"s"`
	N []modelfile.Floats `json:"n"`
}

func (p *countPart) stats() any {
	k := len(p.st.s) / p.st.v
	return countJSON{S: cut(p.st.s, k, p.st.v), N: cut(p.st.n, k, p.st.v)}
}

func (p *countPart) restore(b []byte, s *data.Schema) error {
	var j countJSON
	if err := strictDecode(b, &j); err != nil {
		return err
	}
	K, V := len(s.Classes()), p.st.v
	var err error
	if p.st.s, err = checkMatrix("s", j.S, K, V); err != nil {
		return err
	}
	if p.st.n, err = checkMatrix("n", j.N, K, V); err != nil {
		return err
	}
	if p.ck == countBernoulli {
		return checkSubcounts("s", p.st.s, p.st.n, V)
	}
	return nil
}

// categoricalJSON holds N_kjv at [f][k][v].
type categoricalJSON struct {
	Counts [][]modelfile.Floats `json:"counts"`
}

func (p *categoricalPart) stats() any {
	j := categoricalJSON{Counts: make([][]modelfile.Floats, len(p.n))}
	for f, byClass := range p.n {
		for _, v := range byClass {
			j.Counts[f] = append(j.Counts[f], v)
		}
	}
	return j
}

func (p *categoricalPart) restore(b []byte, s *data.Schema) error {
	var j categoricalJSON
	if err := strictDecode(b, &j); err != nil {
		return err
	}
	if len(j.Counts) != len(p.cols) {
		return fmt.Errorf("level counts of %d features, want %d", len(j.Counts), len(p.cols))
	}
	K := len(s.Classes())
	for f, col := range p.cols {
		L := len(s.Features[col].Levels)
		x, err := checkMatrix(fmt.Sprintf("counts[%d] (feature %q)", f, s.Features[col].Name), j.Counts[f], K, L)
		if err != nil {
			return err
		}
		for c := range K {
			p.n[f] = append(p.n[f], x[c*L:(c+1)*L:(c+1)*L]) // capped: grow appends levels
		}
	}
	return nil
}

// gaussianPartJSON holds the Gaussian statistics of the numeric columns.
type gaussianPartJSON struct {
	ClassWeight modelfile.Floats   `json:"class_weight"`
	Weight      []modelfile.Floats `json:"weight"`
	Mean        []modelfile.Floats `json:"mean"`
	M2          []modelfile.Floats `json:"m2"`
}

func (p *gaussianPart) stats() any {
	K, D := p.st.K(), p.st.D
	return gaussianPartJSON{ClassWeight: p.st.ClassWeight, Weight: cut(p.st.W, K, D), Mean: cut(p.st.M, K, D), M2: cut(p.st.S, K, D)}
}

func (p *gaussianPart) restore(b []byte, s *data.Schema) error {
	var j gaussianPartJSON
	if err := strictDecode(b, &j); err != nil {
		return err
	}
	sub := &data.Schema{Target: s.Target}
	for _, c := range p.cols {
		sub.Features = append(sub.Features, s.Features[c])
	}
	st, err := (&gaussianJSON{ClassWeight: j.ClassWeight, Weight: j.Weight, Mean: j.Mean, M2: j.M2}).moments(sub)
	if err != nil {
		return err
	}
	p.st = st
	return nil
}

// textJSON holds a text column's Counter (terms in id order with their
// frequencies) and S_kt, Σ w_i per class by term id.
type textJSON struct {
	Counter json.RawMessage    `json:"counter"`
	S       []modelfile.Floats `json:"s"`
	Docs    modelfile.Floats   `json:"docs"`
}

func (p *textPart) stats() any {
	b, _ := p.counter.MarshalJSON() // a Counter always marshals
	j := textJSON{Counter: b, Docs: p.docs}
	for _, v := range p.s {
		j.S = append(j.S, v)
	}
	return j
}

func (p *textPart) restore(b []byte, s *data.Schema) error {
	var j textJSON
	if err := strictDecode(b, &j); err != nil {
		return err
	}
	c, err := text.UnmarshalCounter(j.Counter)
	if err != nil {
		return err
	}
	if c.Config() != p.cfg {
		return fmt.Errorf("text column %q: the term counts were made with other settings than the model's", s.Features[p.col].Name)
	}
	K := len(s.Classes())
	x, err := checkMatrix("s", j.S, K, c.Len())
	if err != nil {
		return err
	}
	if err := countDomain.Check("docs", j.Docs); err != nil {
		return err
	}
	if len(j.Docs) != K {
		return fmt.Errorf("docs: %d values for %d classes", len(j.Docs), K)
	}
	docs := []float64(j.Docs)
	if p.ck == countBernoulli {
		n := make([]float64, len(x)) // each class's documents, for every term
		for i := range n {
			n[i] = docs[i/c.Len()]
		}
		if err := checkSubcounts("s", x, n, c.Len()); err != nil {
			return err
		}
	}
	p.counter, p.docs = c, docs
	for k := range K {
		p.s = append(p.s, x[k*c.Len():(k+1)*c.Len():(k+1)*c.Len()]) // capped: grow appends terms
	}
	return nil
}
