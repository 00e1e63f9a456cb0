package design

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/text"
)

// Setup gathers, in parts, the statistics Fit computes from the data: for
// each numeric feature the weight, weighted mean and centred sum of
// squares of its observed cells (parts merged by Chan's pairwise
// formulas), for each categorical feature the weight of each level, for
// each text feature its term counts (text.Counter). Adding the rows in
// chunks, or merging Setups that saw disjoint rows, and calling Encoder
// gives Fit's encoder of all the rows up to rounding. A Setup is not safe
// for concurrent use.
type Setup struct {
	opt    Options
	schema *data.Schema // nil before the first rows
	w      []float64    // per feature: Σ w over the observed cells
	mean   []float64    // per numeric feature: the weighted mean
	m2     []float64    // per numeric feature: Σ w (x − mean)²
	levels [][]float64  // per categorical feature: Σ w per level
	counts []*text.Counter
}

// NewSetup returns an empty Setup for the options of Fit.
func NewSetup(opt Options) *Setup { return &Setup{opt: opt} }

// Schema returns the schema of the rows seen so far: the first rows',
// extended by the levels and classes of the others (data.Schema.Extend);
// nil before any.
func (s *Setup) Schema() *data.Schema { return s.schema }

// Add adds the rows of d, whose features must be those of the rows seen
// before, new levels and classes allowed. It returns Fit's errors for bad
// weights, a text column without Options.Text and a missing cell without
// Options.Impute, before it changes anything.
func (s *Setup) Add(d *data.Dataset) error {
	if err := CheckWeights(d); err != nil {
		return err
	}
	for _, c := range d.Schema.Features {
		if c.Kind == data.Text && s.opt.Text == nil {
			return fmt.Errorf("%s: column %q is text: this model does not encode text columns", d.Source, c.Name)
		}
	}
	if !s.opt.Impute {
		for i := range d.N {
			for j, v := range d.Row(i) {
				if v != v && d.Schema.Features[j].Kind != data.Text {
					return &data.ParseError{File: d.Source, Line: d.Line(i), ColumnName: d.Schema.Features[j].Name, Err: ErrMissing}
				}
			}
		}
	}
	var err error
	if d, err = s.extend(d); err != nil {
		return err
	}
	for j, c := range d.Schema.Features {
		switch c.Kind {
		case data.Text:
			s.counts[j].Add(documents(d, j))
			continue
		case data.Categorical:
			s.levels[j] = grow(s.levels[j], len(c.Levels))
		}
		// Two passes over the chunk's cells of column j, then Chan's
		// formulas into the totals.
		w, sum := 0.0, 0.0
		for i := range d.N {
			v := d.X[i*d.D()+j]
			if v != v {
				continue
			}
			wi := weight(d, i)
			w += wi
			if c.Kind == data.Numeric {
				sum += wi * v
			} else {
				s.levels[j][int(v)] += wi
			}
		}
		if c.Kind == data.Categorical || w == 0 {
			s.w[j] += w
			continue
		}
		mean, m2 := sum/w, 0.0
		for i := range d.N {
			if v := d.X[i*d.D()+j]; v == v {
				m2 += weight(d, i) * (v - mean) * (v - mean)
			}
		}
		s.addMoments(j, w, mean, m2)
	}
	return nil
}

// addMoments merges the moments (w, mean, m2) of other cells of numeric
// feature j into the totals:
//
//	W = W_a + W_b,  δ = m_b − m_a,  m = m_a + δ W_b/W,
//	M2 = M2_a + M2_b + δ² W_a W_b / W
func (s *Setup) addMoments(j int, w, mean, m2 float64) {
	if w == 0 {
		return
	}
	wa := s.w[j]
	tot := wa + w
	delta := mean - s.mean[j]
	s.w[j] = tot
	s.mean[j] += delta * (w / tot)
	s.m2[j] += m2 + delta*delta*wa*(w/tot)
}

// grow returns x with zeros appended up to length n.
func grow(x []float64, n int) []float64 {
	return append(x, make([]float64, max(0, n-len(x)))...)
}

// extend makes the Setup's schema that of its rows and d's, sizing the
// statistics of the first rows, and returns d renumbered into it.
func (s *Setup) extend(d *data.Dataset) (*data.Dataset, error) {
	if s.schema == nil {
		if err := s.start(d.Schema); err != nil {
			return nil, err
		}
		return d, nil
	}
	if s.schema == d.Schema {
		return d, nil
	}
	ext, remap, err := s.schema.Extend(d.Schema)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Source, err)
	}
	s.schema = ext
	return remap.Apply(d, ext), nil
}

// start sizes the statistics for the schema of the first rows.
func (s *Setup) start(sc *data.Schema) error {
	D := len(sc.Features)
	s.schema = sc
	s.w, s.mean, s.m2 = make([]float64, D), make([]float64, D), make([]float64, D)
	s.levels, s.counts = make([][]float64, D), make([]*text.Counter, D)
	for j, c := range sc.Features {
		if c.Kind == data.Text {
			if s.opt.Text == nil {
				return fmt.Errorf("column %q is text: this model does not encode text columns", c.Name)
			}
			var err error
			if s.counts[j], err = text.NewCounter(*s.opt.Text); err != nil {
				return err
			}
		}
	}
	return nil
}

// Merge adds the statistics of o, a Setup with the same options that saw
// other rows; levels and classes only o saw come after the Setup's own.
// o is unchanged.
func (s *Setup) Merge(o *Setup) error {
	if !sameOptions(s.opt, o.opt) {
		return fmt.Errorf("design: cannot merge statistics gathered with other options")
	}
	if o.schema == nil {
		return nil
	}
	if s.schema == nil {
		if err := s.start(o.schema); err != nil {
			return err
		}
	}
	ext, remap, err := s.schema.Extend(o.schema)
	if err != nil {
		return err
	}
	s.schema = ext
	for j, c := range ext.Features {
		switch c.Kind {
		case data.Text:
			if _, err := s.counts[j].Merge(o.counts[j]); err != nil {
				return err
			}
		case data.Categorical:
			s.levels[j] = grow(s.levels[j], len(c.Levels))
			for l, w := range o.levels[j] {
				if m := remap.Features[j]; m != nil {
					l = m[l]
				}
				s.levels[j][l] += w
			}
			s.w[j] += o.w[j]
		case data.Numeric:
			s.addMoments(j, o.w[j], o.mean[j], o.m2[j])
		}
	}
	return nil
}

func sameOptions(a, b Options) bool {
	ta, tb := a.Text, b.Text
	a.Text, b.Text = nil, nil
	return a == b && (ta == nil) == (tb == nil) && (ta == nil || *ta == *tb)
}

// Encoder returns the encoder of the rows seen, as Fit computes it: each
// numeric column standardised with its weighted mean and population
// standard deviation (s = √(M2/W), 1 when 0), each level's indicator
// filled with its frequency, each text column's vocabulary pruned by the
// text settings. It returns an error when no rows were added, when a
// column has no observed cell, and when a text column's vocabulary is
// empty.
func (s *Setup) Encoder() (*Encoder, error) {
	if s.schema == nil {
		return nil, fmt.Errorf("design: no rows")
	}
	var terms []Term
	var vocabs []*text.Vocabulary
	for j, c := range s.schema.Features {
		if c.Kind == data.Text {
			v, _, err := s.counts[j].Vocabulary()
			if err != nil {
				return nil, fmt.Errorf("column %q: %w", c.Name, err)
			}
			vocabs = append(vocabs, v)
			continue
		}
		if !(s.w[j] > 0) {
			return nil, fmt.Errorf("column %q has no observed value", c.Name)
		}
		if c.Kind == data.Categorical {
			for l, w := range grow(s.levels[j], len(c.Levels)) {
				if l > 0 || !s.opt.DropFirst {
					terms = append(terms, Term{Feature: j, Level: l, Scale: 1, Fill: w / s.w[j]})
				}
			}
			continue
		}
		term := Term{Feature: j, Level: -1, Center: s.mean[j], Scale: 1}
		switch sd := math.Sqrt(s.m2[j] / s.w[j]); {
		case s.opt.NoStandardize:
			term.Center, term.Fill = 0, s.mean[j]
		case sd > 0:
			term.Scale = sd
		}
		terms = append(terms, term)
	}
	return New(s.schema, terms, vocabs)
}

// setupJSON is the encoded form of a Setup; floats read back bit for bit.
type setupJSON struct {
	Impute        bool                    `json:"impute,omitempty"`
	DropFirst     bool                    `json:"drop_first,omitempty"`
	NoStandardize bool                    `json:"no_standardize,omitempty"`
	Text          *text.VectorizerConfig  `json:"text,omitempty"`
	Schema        *data.Schema            `json:"schema,omitempty"`
	W             []float64               `json:"w,omitempty"`
	Mean          []float64               `json:"mean,omitempty"`
	M2            []float64               `json:"m2,omitempty"`
	Levels        [][]float64             `json:"levels,omitempty"`
	Counts        map[int]json.RawMessage `json:"counts,omitempty"`
}

// MarshalJSON encodes the Setup, its options and schema included.
func (s *Setup) MarshalJSON() ([]byte, error) {
	j := setupJSON{Impute: s.opt.Impute, DropFirst: s.opt.DropFirst, NoStandardize: s.opt.NoStandardize, Text: s.opt.Text,
		Schema: s.schema, W: s.w, Mean: s.mean, M2: s.m2, Levels: s.levels}
	for f, c := range s.counts {
		if c != nil {
			b, err := c.MarshalJSON()
			if err != nil {
				return nil, err
			}
			if j.Counts == nil {
				j.Counts = map[int]json.RawMessage{}
			}
			j.Counts[f] = b
		}
	}
	return json.Marshal(j)
}

// UnmarshalSetup reads a Setup written by MarshalJSON, checking that its
// statistics fit its schema: one entry per feature, finite and
// non-negative weights and sums of squares, one weight per level, term
// counts for the text features only, with the text settings.
func UnmarshalSetup(b []byte) (*Setup, error) {
	var j setupJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return nil, fmt.Errorf("design: %w", err)
	}
	s := NewSetup(Options{Impute: j.Impute, DropFirst: j.DropFirst, NoStandardize: j.NoStandardize, Text: j.Text})
	if j.Schema == nil {
		return s, nil
	}
	if err := s.start(j.Schema); err != nil {
		return nil, fmt.Errorf("design: %w", err)
	}
	D := len(j.Schema.Features)
	if len(j.W) != D || len(j.Mean) != D || len(j.M2) != D || len(j.Levels) != D {
		return nil, fmt.Errorf("design: statistics for %d features, want %d", len(j.W), D)
	}
	s.w, s.mean, s.m2, s.levels = j.W, j.Mean, j.M2, j.Levels
	for f, c := range j.Schema.Features {
		if len(s.levels[f]) > len(c.Levels) || c.Kind != data.Categorical && len(s.levels[f]) > 0 {
			return nil, fmt.Errorf("design: feature %q: %d level weights", c.Name, len(s.levels[f]))
		}
		for _, v := range append([]float64{s.w[f], s.m2[f]}, s.levels[f]...) {
			if !(v >= 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("design: feature %q: weight or sum of squares %v", c.Name, v)
			}
		}
		if math.IsNaN(s.mean[f]) || math.IsInf(s.mean[f], 0) {
			return nil, fmt.Errorf("design: feature %q: mean %v", c.Name, s.mean[f])
		}
		raw, ok := j.Counts[f]
		if ok != (c.Kind == data.Text) {
			return nil, fmt.Errorf("design: feature %q: term counts given or missing", c.Name)
		}
		if ok {
			cnt, err := text.UnmarshalCounter(raw)
			if err != nil {
				return nil, fmt.Errorf("design: feature %q: %w", c.Name, err)
			}
			if cnt.Config() != *s.opt.Text {
				return nil, fmt.Errorf("design: feature %q: term counts with other settings", c.Name)
			}
			s.counts[f] = cnt
		}
	}
	if len(j.Counts) != len(slices.DeleteFunc(slices.Clone(s.counts), func(c *text.Counter) bool { return c == nil })) {
		return nil, fmt.Errorf("design: term counts for features that are not text")
	}
	return s, nil
}
