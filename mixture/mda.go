package mixture

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/mathx"
	"github.com/gendisc/gendisc/modelfile"
)

// KindMDA is the model kind of mixture discriminant analysis.
const KindMDA = "mda"

// DefaultComponentsPerClass is MDAConfig's default number of components,
// that of R's mda.
const DefaultComponentsPerClass = 3

// MDAConfig holds the hyperparameters of mixture discriminant analysis
// (Hastie and Tibshirani 1996): the density of every class is a Gaussian
// mixture fitted by EM to the rows of that class, and a row is classified
// by Bayes' rule,
//
//	P(y = c | x) = π_c p_c(x) / Σ_l π_l p_l(x),  p_c(x) = Σ_k π_ck N(x; μ_ck, Σ_ck),
//
// with the class priors π_c the weighted class frequencies. With one
// component per class and full covariances it is QDA with maximum-
// likelihood covariances (whose eigenvalues are floored at
// Mixture.RegCovar, or with Ridge raised by it). The zero value has the
// defaults.
type MDAConfig struct {
	// ComponentsPerClass is the number of components K of every class's
	// mixture (default 3); a class with rows but fewer than K is an error.
	ComponentsPerClass int
	// Mixture configures the EM fit of every class; its Components is
	// ignored.
	Mixture Config
}

// MDA is a fitted mixture discriminant analysis model, a
// gendisc.Generative classifier. It is immutable and safe for concurrent
// use.
type MDA struct {
	schema  *data.Schema
	k       int
	weights []float64 // the weight of every class's training rows
	logPri  []float64 // log π_c
	mix     []*GMM    // per class; nil for a class without training rows
}

var _ gendisc.Generative = (*MDA)(nil)

// Fit fits a mixture to the rows of every class of d, with the random
// draws of the classes' initialisations taken from rng in class order.
// Rows whose target is missing are left out. A class without rows gets
// prior 0 (log-probability −Inf). Fit returns an error for data it cannot
// fit: no categorical target, no labelled row, a class with rows but
// fewer than ComponentsPerClass (naming the class and its row count), and
// the errors of Config.Fit. It panics if rng is nil.
func (c MDAConfig) Fit(d *data.Dataset, rng *rand.Rand) (*MDA, error) {
	k := c.ComponentsPerClass
	if k == 0 {
		k = DefaultComponentsPerClass
	}
	if k < 0 {
		return nil, fmt.Errorf("mixture: %d components per class", k)
	}
	if d.Schema.Target == nil || d.Schema.Target.Kind != data.Categorical || d.Y == nil {
		return nil, fmt.Errorf("mixture: mda needs a categorical target in %s", source(d))
	}
	classes := d.Schema.Classes()
	rows := make([][]int, len(classes))
	weights := make([]float64, len(classes))
	for i, y := range d.Y {
		if math.IsNaN(y) {
			continue
		}
		rows[int(y)] = append(rows[int(y)], i)
		if d.Weight == nil {
			weights[int(y)]++
		} else {
			weights[int(y)] += d.Weight[i]
		}
	}
	total := 0.0
	for _, w := range weights {
		total += w
	}
	if !(total > 0) {
		return nil, fmt.Errorf("mixture: %s has no labelled row", source(d))
	}
	m := &MDA{schema: d.Schema.Clone(), k: k, weights: weights, logPri: make([]float64, len(classes)),
		mix: make([]*GMM, len(classes))}
	for y, idx := range rows {
		if n := len(idx); n > 0 && n < k {
			return nil, fmt.Errorf("mixture: class %q has %d rows in %s, fewer than the %d components per class", classes[y], n, source(d), k)
		}
	}
	for y, idx := range rows {
		m.logPri[y] = math.Log(weights[y] / total)
		if len(idx) == 0 {
			continue
		}
		cfg := c.Mixture
		cfg.Components = k
		g, err := cfg.Fit(d.Subset(idx), rng)
		if err != nil {
			return nil, fmt.Errorf("mixture: class %q: %w", classes[y], err)
		}
		m.mix[y] = g
	}
	return m, nil
}

// Kind returns "mda".
func (m *MDA) Kind() string { return KindMDA }

// Schema returns the layout of the training data, target included.
func (m *MDA) Schema() *data.Schema { return m.schema }

// Classes returns the class names, in the order of the probability
// columns.
func (m *MDA) Classes() []string { return m.schema.Classes() }

// ComponentsPerClass returns the configured number of components K.
func (m *MDA) ComponentsPerClass() int { return m.k }

// Priors returns the class priors π_c.
func (m *MDA) Priors() []float64 {
	p := make([]float64, len(m.logPri))
	for c, v := range m.logPri {
		p[c] = math.Exp(v)
	}
	return p
}

// ClassWeights returns the weight of every class's training rows.
func (m *MDA) ClassWeights() []float64 { return slices.Clone(m.weights) }

// Mixture returns the mixture of class c, or nil when the class had no
// training rows.
func (m *MDA) Mixture(c int) *GMM { return m.mix[c] }

// JointLogLikelihood writes log p(x_i, y = c) = log π_c + log p_c(x_i) to
// dst[i·C+c] for every row i of d and class c, and returns dst; a nil dst
// is allocated, otherwise len(dst) must be d.N·C. Missing cells are
// marginalised; a value below float64's range (a row far out) is −Inf
// (GMM.ScoreSamples), and LogProba scores such rows again. It panics if d's features differ from the model's schema by name, kind or order.
func (m *MDA) JointLogLikelihood(dst []float64, d *data.Dataset) []float64 {
	nc := len(m.mix)
	dst = dstLen(dst, d.N*nc)
	col := make([]float64, d.N)
	for c, g := range m.mix {
		if g == nil {
			for i := range d.N {
				dst[i*nc+c] = math.Inf(-1)
			}
			continue
		}
		g.ScoreSamples(col, d)
		for i, v := range col {
			dst[i*nc+c] = m.logPri[c] + v
		}
	}
	return dst
}

// LogProba writes log P(y = c | x_i), the joint log-likelihood normalised
// by log-sum-exp over the classes, to dst[i·C+c], with the conventions of
// JointLogLikelihood.
//
// A row whose joint is −Inf for every class (its squared distances
// overflow) is scored again (farRow): each class's density as a scaled
// number (GMM.farScaled), so that the classes compare order by order and
// the posteriors are finite and sum to 1: far out along a direction x̃
// the class whose widest component that way is the widest wins.
func (m *MDA) LogProba(dst []float64, d *data.Dataset) []float64 {
	nc := len(m.mix)
	dst = m.JointLogLikelihood(dst, d)
	for i := range d.N {
		row := dst[i*nc : (i+1)*nc]
		if mx := slices.Max(row); math.IsInf(mx, 0) || mx != mx {
			m.farRow(row, d.Row(i))
			continue
		}
		mathx.NormalizeLog(row)
	}
	return dst
}

// farRow writes the log-posteriors of the row x to out from the scaled
// joint of each class c, log π_c + log p(x | c) (GMM.farScaled), by
// mathx.NormalizeLogScaled; a class without a mixture gets −Inf.
func (m *MDA) farRow(out, x []float64) {
	s := make([]mathx.Scaled, len(m.mix))
	c := mathx.RowScale(x).C
	for k, g := range m.mix {
		if g == nil {
			s[k].Const = math.Inf(-1)
			continue
		}
		s[k], _, _ = g.farScaled(make([]float64, g.m.k), x)
		s[k].Const += m.logPri[k]
	}
	mathx.NormalizeLogScaled(out, s, c)
}

// Sample draws a class c with probability π_c and x from its mixture,
// writes x to dst and returns dst and c; see GMM.Sample.
func (m *MDA) Sample(dst []float64, rng *rand.Rand) ([]float64, int) {
	u, c := rng.Float64(), len(m.mix)-1
	for l, lp := range m.logPri[:c] {
		if p := math.Exp(lp); u < p {
			c = l
			break
		} else {
			u -= p
		}
	}
	for m.mix[c] == nil {
		c-- // a class of prior 0 is drawn only through rounding
	}
	dst, _ = m.mix[c].Sample(dst, rng)
	return dst, c
}

// SampleClass draws x from the mixture of class c into dst and returns
// dst. It panics if class c had no training rows.
func (m *MDA) SampleClass(dst []float64, c int, rng *rand.Rand) []float64 {
	if m.mix[c] == nil {
		panic(fmt.Sprintf("mixture: SampleClass of class %d, which had no training rows", c))
	}
	dst, _ = m.mix[c].Sample(dst, rng)
	return dst
}

// mdaJSON is the layout of an MDA's parameters in a model file.
type mdaJSON struct {
	ComponentsPerClass int               `json:"components_per_class"`
	ClassWeights       modelfile.Floats  `json:"class_weights"`
	Mixtures           []json.RawMessage `json:"mixtures"` // a GMM's parameters, or null
}

// MarshalJSON writes the class weights and every class's mixture (see
// GMM.MarshalJSON); UnmarshalMDA reads them back bit for bit.
func (m *MDA) MarshalJSON() ([]byte, error) {
	p := mdaJSON{ComponentsPerClass: m.k, ClassWeights: m.weights}
	for _, g := range m.mix {
		raw := json.RawMessage("null")
		if g != nil {
			b, err := g.MarshalJSON()
			if err != nil {
				return nil, err
			}
			raw = b
		}
		p.Mixtures = append(p.Mixtures, raw)
	}
	return json.Marshal(p)
}

// UnmarshalMDA rebuilds an MDA model from its schema and the parameters
// written by MarshalJSON, checking them: a categorical target, one mixture
// (or null, for a class of weight 0) per class, valid mixtures (see
// UnmarshalGMM) of ComponentsPerClass components each, non-negative class
// weights.
func UnmarshalMDA(schema *data.Schema, params []byte) (*MDA, error) {
	var p mdaJSON
	dec := json.NewDecoder(bytes.NewReader(params))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("mixture: reading mda parameters: %w", err)
	}
	if schema == nil || schema.Target == nil || schema.Target.Kind != data.Categorical {
		return nil, fmt.Errorf("mixture: mda model without a categorical target")
	}
	nc := len(schema.Classes())
	if len(p.ClassWeights) != nc || len(p.Mixtures) != nc || p.ComponentsPerClass < 1 {
		return nil, fmt.Errorf("mixture: mda model with %d classes, %d class weights, %d mixtures and %d components per class",
			nc, len(p.ClassWeights), len(p.Mixtures), p.ComponentsPerClass)
	}
	features := schema.Clone()
	features.Target = nil
	m := &MDA{schema: schema.Clone(), k: p.ComponentsPerClass, weights: p.ClassWeights,
		logPri: make([]float64, nc), mix: make([]*GMM, nc)}
	total := 0.0
	for c, w := range p.ClassWeights {
		if !(w >= 0) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("mixture: mda class weight %v", w)
		}
		total += w
		if string(p.Mixtures[c]) == "null" {
			if w > 0 {
				return nil, fmt.Errorf("mixture: mda class %q of weight %v without a mixture", schema.Classes()[c], w)
			}
			continue
		}
		g, err := UnmarshalGMM(features, p.Mixtures[c])
		if err != nil {
			return nil, fmt.Errorf("mixture: mda class %q: %w", schema.Classes()[c], err)
		}
		if g.Components() != p.ComponentsPerClass {
			return nil, fmt.Errorf("mixture: mda class %q: a mixture of %d components, the model has %d per class",
				schema.Classes()[c], g.Components(), p.ComponentsPerClass)
		}
		m.mix[c] = g
	}
	if !(total > 0) {
		return nil, fmt.Errorf("mixture: mda class weights sum to %v", total)
	}
	for c, w := range p.ClassWeights {
		m.logPri[c] = math.Log(w / total)
	}
	return m, nil
}
