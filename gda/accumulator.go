package gda

import (
	"bytes"
	"encoding/json"
	"fmt"
	"iter"
	"maps"
	"math"
	"slices"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/stats"
)

var (
	_ gendisc.FoldAdder = (*Accumulator)(nil)
	_ gendisc.Mergeable = (*LDA)(nil)
	_ gendisc.Mergeable = (*QDA)(nil)
)

// mergeError returns the *gendisc.MergeError of gda: the accumulator (or
// E-step statistics) of kind refuses statistics of other.
func mergeError(kind, other, reason string) error {
	return &gendisc.MergeError{Package: "gda", Kind: kind, Other: other, Reason: reason}
}

// Accumulator is a partial fit of LDA or QDA (gendisc.Accumulator): the
// per-class statistics (stats.Scatter: weight, mean, scatter and, with
// ShrinkageAuto, the third and fourth moments) of the complete rows added
// so far, and the labelled rows with missing cells themselves: their
// cells (NaN where missing), class and weight, p + 2 numbers a row. EM
// needs those rows at every iteration, so they are kept, not summarised;
// they are usually few. Model runs EM over all of them with the statistics
// of all the complete rows, so that fitting disjoint shards and merging
// their accumulators gives the fit on all the rows up to rounding, with
// or without missing cells.
//
// The zero Accumulator is not usable: make one with LDAConfig.Accumulator,
// QDAConfig.Accumulator, a model's Accumulator, or UnmarshalBinary.
type Accumulator struct {
	kind   string
	cfg    Config
	schema *data.Schema   // nil before the first rows
	stats  *stats.Classes // of the complete rows
	inc    rows           // the labelled rows with missing cells
	source string         // the data of the last Add, for errors
}

// rows are labelled rows with missing cells: x holds their cells
// row-major (NaN where missing), y their class indices, w their weights.
type rows struct{ x, y, w []float64 }

func (r *rows) n() int { return len(r.y) }

func (r rows) clone() rows { return rows{slices.Clone(r.x), slices.Clone(r.y), slices.Clone(r.w)} }

// add appends the rows idx of d (weight 1 when d has none).
func (r *rows) add(d *data.Dataset, idx []int) {
	for _, i := range idx {
		r.x = append(r.x, d.Row(i)...)
		r.y = append(r.y, d.Y[i])
		r.w = append(r.w, weightAt(d.Weight, i))
	}
}

// NewAccumulator returns an empty LDA accumulator of configuration c, or
// the error of an invalid configuration.
func (c LDAConfig) NewAccumulator() (*Accumulator, error) { return newAccumulator(KindLDA, Config(c)) }

// NewAccumulator returns an empty QDA accumulator of configuration c, or
// the error of an invalid configuration.
func (c QDAConfig) NewAccumulator() (*Accumulator, error) { return newAccumulator(KindQDA, Config(c)) }

func newAccumulator(kind string, c Config) (*Accumulator, error) {
	cfg, err := c.validate()
	if err != nil {
		return nil, err
	}
	return &Accumulator{kind: kind, cfg: cfg}, nil
}

// Kind returns the kind of the model the accumulator fits, "lda" or "qda".
func (a *Accumulator) Kind() string { return a.kind }

// Add adds the rows of d: the statistics of its complete rows, and a copy
// of its labelled rows with missing cells. d's schema must extend the
// accumulator's (data.Schema.Extend): the same numeric features; classes
// in any order, new ones appended. Rows without a label or of weight 0
// are skipped. Data problems are errors as for Fit (a *data.ParseError);
// a schema that does not extend wraps a *data.SchemaError (ErrSchema).
// The accumulator is unchanged by rows it refuses.
func (a *Accumulator) Add(d *data.Dataset) error {
	if err := checkRows(d); err != nil {
		return err
	}
	var schema *data.Schema
	acc, k := a.stats, 0
	if a.schema == nil {
		schema, acc = d.Schema.Clone(), stats.NewClasses(len(d.Schema.Classes()), d.D(), a.cfg.ShrinkageAuto)
	} else {
		s, r, err := a.schema.Extend(d.Schema)
		if err != nil {
			return &data.ParseError{File: d.Source.Name, Err: err}
		}
		d, schema, k = r.Apply(d, s), s, acc.K()
		acc.Grow(len(s.Classes()))
	}
	inc, inf := acc.Add(d.X, d.Y, d.Weight)
	if inf >= 0 {
		if a.stats != nil {
			a.stats.Class = a.stats.Class[:k] // without the classes Grow added
		}
		return infiniteError(d, inf)
	}
	a.schema, a.stats = schema, acc
	a.inc.add(d, inc)
	a.source = d.Source.Name
	return nil
}

// AddFolds adds row i of d to accs[fold[i]] for every row
// (gendisc.FoldAdder) in one pass over the rows, without copying the
// complete ones: with K classes, the complete rows of fold f and class k
// are class f·K + k of one stats.Classes.Add over all the rows
// (gendisc.FoldLabels), whose classes f·K to f·K + K − 1 are merged into
// accs[f] with the fold's rows with missing cells. accs must be
// *Accumulator of a's kind and configuration (a *gendisc.MergeError
// otherwise); errors are those of Add, and leave every accumulator
// unchanged.
func (a *Accumulator) AddFolds(d *data.Dataset, fold []int, accs []gendisc.Accumulator) error {
	gs := make([]*Accumulator, len(accs))
	for f, o := range accs {
		b, ok := o.(*Accumulator)
		if !ok {
			return mergeError(a.kind, fmt.Sprintf("%T", o), "not a gda accumulator")
		}
		if err := compatible(a.kind, b.kind, a.cfg, b.cfg); err != nil {
			return err
		}
		if b.schema != nil {
			if _, _, err := b.schema.Extend(d.Schema); err != nil {
				return &data.ParseError{File: d.Source.Name, Err: err}
			}
		}
		gs[f] = b
	}
	if err := checkRows(d); err != nil {
		return err
	}
	y, err := gendisc.FoldLabels(d, fold, len(accs))
	if err != nil {
		return err
	}
	k := len(d.Schema.Classes())
	all := stats.NewClasses(len(accs)*k, d.D(), a.cfg.ShrinkageAuto)
	inc, inf := all.Add(d.X, y, d.Weight)
	if inf >= 0 {
		return infiniteError(d, inf)
	}
	incomplete := make([][]int, len(accs))
	for _, i := range inc {
		incomplete[fold[i]] = append(incomplete[fold[i]], i)
	}
	for f, g := range gs {
		part := &Accumulator{kind: g.kind, cfg: g.cfg, schema: d.Schema, source: d.Source.Name,
			stats: &stats.Classes{D: all.D, Class: all.Class[f*k : (f+1)*k : (f+1)*k]}}
		part.inc.add(d, incomplete[f])
		if err := g.Merge(part); err != nil {
			return err // not reached: the schemas were checked above
		}
		g.source = d.Source.Name
	}
	return nil
}

// Merge adds the statistics and incomplete rows of o, an *Accumulator of
// the same kind and configuration that saw other rows; the classes only o
// saw come after the accumulator's own. o is unchanged. Another kind or
// configuration is a *gendisc.MergeError; schemas that do not extend each other a
// *data.SchemaError.
func (a *Accumulator) Merge(o gendisc.Accumulator) error {
	b, ok := o.(*Accumulator)
	if !ok {
		return mergeError(a.kind, fmt.Sprintf("%T", o), "not a gda accumulator")
	}
	if err := compatible(a.kind, b.kind, a.cfg, b.cfg); err != nil {
		return err
	}
	if b.schema == nil {
		return nil
	}
	if b == a {
		b = a.clone()
	}
	if a.schema == nil {
		c := b.clone()
		a.schema, a.stats, a.inc, a.source = c.schema, c.stats, c.inc, c.source
		return nil
	}
	if a.stats.D != b.stats.D {
		return mergeError(a.kind, b.kind, fmt.Sprintf("%d features, want %d", b.stats.D, a.stats.D))
	}
	s, r, err := a.schema.Extend(b.schema)
	if err != nil {
		return err
	}
	a.schema = s
	a.stats.Grow(len(s.Classes()))
	a.stats.MergeRemap(b.stats, r.Target)
	a.inc.x = append(a.inc.x, b.inc.x...)
	a.inc.w = append(a.inc.w, b.inc.w...)
	for _, y := range b.inc.y {
		if r.Target != nil {
			y = float64(r.Target[int(y)])
		}
		a.inc.y = append(a.inc.y, y)
	}
	return nil
}

// compatible returns a *gendisc.MergeError unless kind b and configuration bc
// are kind a and configuration ac.
func compatible(a, b string, ac, bc Config) error {
	reason := ""
	switch {
	case a != b:
		reason = "another kind of model"
	case ac.Estimator != bc.Estimator:
		reason = fmt.Sprintf("covariance estimator %v, want %v", bc.Estimator, ac.Estimator)
	case ac.Shrinkage != bc.Shrinkage || ac.ShrinkageAuto != bc.ShrinkageAuto:
		reason = "another shrinkage"
	case ac.PriorAlpha != bc.PriorAlpha || !maps.Equal(ac.ClassPrior, bc.ClassPrior):
		reason = "another class prior"
	case ac.MaxIter != bc.MaxIter || ac.Tol != bc.Tol:
		reason = "other EM settings"
	default:
		return nil
	}
	return mergeError(a, b, reason)
}

func (a *Accumulator) clone() *Accumulator {
	c := *a
	if a.schema != nil {
		c.schema, c.stats = a.schema.Clone(), a.stats.Clone()
	}
	c.inc = a.inc.clone()
	return &c
}

// Model finishes the fit (gendisc.Accumulator): an *LDA or a *QDA fitted
// on the rows added and merged so far, as Fit would fit them all, with EM
// over all the rows with missing cells. The accumulator is unchanged.
func (a *Accumulator) Model() (gendisc.Model, error) {
	m, err := a.fit()
	if err != nil {
		return nil, err
	}
	if a.kind == KindLDA {
		return newLDA(m, nil)
	}
	return newQDA(m, nil)
}

// fit derives the model from the statistics of the complete rows and, by
// EM, the rows with missing cells.
func (a *Accumulator) fit() (*model, error) {
	if a.schema == nil {
		return nil, &data.ParseError{File: a.source, Err: data.ErrNoRows}
	}
	schema := a.schema.Clone()
	fitted, iters := a.stats.Clone(), 0
	if n := a.inc.n(); n > 0 {
		d := &data.Dataset{Schema: schema, N: n, X: a.inc.x, Y: a.inc.y, Weight: a.inc.w, Source: data.Named(a.source)}
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		var err error
		if fitted, iters, err = em(a.kind, a.cfg, schema, a.stats, d, all); err != nil {
			return nil, err
		}
	}
	m, err := newModel(a.kind, a.cfg, schema, fitted, a.source)
	if err != nil {
		return nil, err
	}
	m.iters = iters
	if a.inc.n() > 0 {
		m.complete, m.inc = a.stats.Clone(), a.inc.clone()
	}
	return m, nil
}

// accumulator returns an accumulator holding the statistics the model was
// fitted from: those of its complete rows and its rows with missing cells.
func (m *model) accumulator(kind string) *Accumulator {
	a := &Accumulator{kind: kind, cfg: m.cfg, schema: m.schema.Clone(), stats: m.stats.Clone()}
	if m.complete != nil {
		a.stats, a.inc = m.complete.Clone(), m.inc.clone()
	}
	return a
}

// Accumulator returns an accumulator holding the model's statistics
// (gendisc.Mergeable): adding rows and finishing updates the model,
// merging another model's accumulator merges the models.
func (m *LDA) Accumulator() gendisc.Accumulator { return m.m.accumulator(KindLDA) }

// Accumulator returns an accumulator holding the model's statistics
// (gendisc.Mergeable). See LDA.Accumulator.
func (m *QDA) Accumulator() gendisc.Accumulator { return m.m.accumulator(KindQDA) }

// accumulatorFormat names the encoding of an Accumulator.
const accumulatorFormat = "gendisc-gda-accumulator/1"

// accumulatorJSON is the encoding of an Accumulator: Params holds the
// configuration, the statistics of the complete rows (Classes) and the
// rows with missing cells.
type accumulatorJSON struct {
	Format string       `json:"format"`
	Kind   string       `json:"kind"`
	Schema *data.Schema `json:"schema"`
	Source string       `json:"source,omitempty"`
	Params paramsJSON   `json:"params"`
}

// MarshalBinary encodes the accumulator with its kind and configuration
// (as JSON; every number reads back bit for bit).
func (a *Accumulator) MarshalBinary() ([]byte, error) {
	e := accumulatorJSON{Format: accumulatorFormat, Kind: a.kind, Schema: a.schema, Source: a.source,
		Params: newParamsJSON(a.cfg, 0, a.stats)}
	e.Params.Incomplete = newRowsJSON(a.inc)
	return json.Marshal(e)
}

// UnmarshalBinary replaces a by the accumulator that b encodes
// (MarshalBinary), checking what it reads.
func (a *Accumulator) UnmarshalBinary(b []byte) error {
	var e accumulatorJSON
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		return fmt.Errorf("gda: accumulator: %w", err)
	}
	if e.Format != accumulatorFormat || (e.Kind != KindLDA && e.Kind != KindQDA) {
		return mergeError(a.kind, fmt.Sprintf("%q", e.Kind), fmt.Sprintf("format %q, want %q of lda or qda", e.Format, accumulatorFormat))
	}
	cfg, err := e.Params.config(e.Kind)
	if err != nil {
		return err
	}
	n := &Accumulator{kind: e.Kind, cfg: cfg, source: e.Source}
	if e.Schema != nil {
		if err := checkSchema(e.Kind, e.Schema); err != nil {
			return err
		}
		n.schema = e.Schema
		if n.stats, err = decodeStats(e.Kind, cfg, e.Schema, "classes", e.Params.Classes); err != nil {
			return err
		}
		if n.inc, err = e.Params.Incomplete.rows(e.Schema); err != nil {
			return fmt.Errorf("gda: %s accumulator: %w", e.Kind, err)
		}
	} else if len(e.Params.Classes) > 0 || e.Params.Incomplete != nil {
		return fmt.Errorf("gda: %s accumulator: statistics without a schema", e.Kind)
	}
	*a = *n
	return nil
}

// rowsJSON is the saved form of rows with missing cells.
type rowsJSON struct {
	X      modelfile.Floats `json:"x"` // row-major, "NaN" where missing
	Class  []int            `json:"class"`
	Weight modelfile.Floats `json:"weight"`
}

func newRowsJSON(r rows) *rowsJSON {
	if r.n() == 0 {
		return nil
	}
	c := make([]int, r.n())
	for i, y := range r.y {
		c[i] = int(y)
	}
	return &rowsJSON{X: r.x, Class: c, Weight: r.w}
}

// rows checks the saved rows against the schema and returns them.
func (j *rowsJSON) rows(s *data.Schema) (rows, error) {
	if j == nil {
		return rows{}, nil
	}
	n, p, K := len(j.Class), len(s.Features), len(s.Classes())
	if len(j.X) != n*p || len(j.Weight) != n {
		return rows{}, fmt.Errorf("incomplete rows: %d cells, %d classes and %d weights for %d features", len(j.X), n, len(j.Weight), p)
	}
	r := rows{x: slices.Clone([]float64(j.X)), y: make([]float64, n), w: slices.Clone([]float64(j.Weight))}
	for i, k := range j.Class {
		if k < 0 || k >= K {
			return rows{}, fmt.Errorf("incomplete row %d: class %d out of range", i, k)
		}
		if w := r.w[i]; !(w > 0) || math.IsInf(w, 1) {
			return rows{}, fmt.Errorf("incomplete row %d: weight %v", i, w)
		}
		row, nan := r.x[i*p:(i+1)*p], false
		for _, v := range row {
			nan = nan || math.IsNaN(v)
			if math.IsInf(v, 0) {
				return rows{}, fmt.Errorf("incomplete row %d: an infinite cell", i)
			}
		}
		if !nan {
			return rows{}, fmt.Errorf("incomplete row %d: no missing cell", i)
		}
		r.y[i] = float64(k)
	}
	return r, nil
}

// fitData fits a model of the kind to the rows of d.
func fitData(kind string, c Config, d *data.Dataset) (*model, error) {
	return fitChunks(kind, c, func(yield func(*data.Dataset, error) bool) { yield(d, nil) })
}

// fitChunks fits a model of the kind to the rows of the chunks
// (gendisc.AddChunks).
func fitChunks(kind string, c Config, chunks iter.Seq2[*data.Dataset, error]) (*model, error) {
	a, err := newAccumulator(kind, c)
	if err != nil {
		return nil, err
	}
	if err := gendisc.AddChunks(a, chunks); err != nil {
		return nil, err
	}
	return a.fit()
}

// update returns the model of m's statistics and the rows of d.
func (m *model) update(kind string, d *data.Dataset) (*model, error) {
	a := m.accumulator(kind)
	if err := a.Add(d); err != nil {
		return nil, err
	}
	return a.fit()
}

// SameStatistics reports whether the accumulators of o gather the
// statistics of c's: unless one of them chooses the shrinkage
// automatically and the other does not (ShrinkageAuto keeps third and
// fourth moments), since the estimator, a fixed shrinkage, the class
// prior and EM's settings apply when the model is made of the statistics
// (ModelFrom).
func (c LDAConfig) SameStatistics(o LDAConfig) bool { return c.ShrinkageAuto == o.ShrinkageAuto }

// SameStatistics is LDAConfig.SameStatistics for QDA.
func (c QDAConfig) SameStatistics(o QDAConfig) bool { return c.ShrinkageAuto == o.ShrinkageAuto }

// ModelFrom returns the LDA of c made of the statistics of a, an LDA
// accumulator of a configuration with the same statistics
// (SameStatistics): the model of c fitted to a's rows. a is not changed.
func (c LDAConfig) ModelFrom(a *Accumulator) (*LDA, error) {
	return newLDA(a.fitWith(KindLDA, Config(c)))
}

// ModelFrom is LDAConfig.ModelFrom for QDA.
func (c QDAConfig) ModelFrom(a *Accumulator) (*QDA, error) {
	return newQDA(a.fitWith(KindQDA, Config(c)))
}

// fitWith is fit with the configuration c in place of a's, for a model of
// kind: an error for an invalid c, or for an accumulator of another kind
// or of other statistics.
func (a *Accumulator) fitWith(kind string, c Config) (*model, error) {
	cfg, err := c.validate()
	if err != nil {
		return nil, err
	}
	if a.kind != kind || a.cfg.ShrinkageAuto != cfg.ShrinkageAuto {
		return nil, mergeError(kind, a.kind, "statistics of another kind or shrinkage")
	}
	b := *a
	b.cfg = cfg
	return b.fit()
}
