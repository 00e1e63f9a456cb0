package design

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/stats"
	"github.com/gendisc/gendisc/text"
)

// Setup gathers, in parts, the statistics Fit computes from the data: the
// moments of every feature's observed cells (a stats.Moments of one
// class, accumulated by Moments.Add as Fit does and merged by
// Moments.Merge), for each categorical feature the weight of each level,
// for each text feature its term counts (text.Counter). Adding the rows in
// chunks, or merging Setups that saw disjoint rows, and calling Encoder
// gives Fit's encoder of all the rows up to rounding, and bit for bit when
// one Add into an empty Setup saw them all. A Setup is not safe for
// concurrent use.
type Setup struct {
	opt    Options
	schema *data.Schema   // nil before the first rows
	mom    *stats.Moments // per feature: W, M, S of its observed cells
	levels [][]float64    // per categorical feature: Σ w per level
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
			return textError(d, c)
		}
	}
	// Fit's pass over the rows; the observed weights show the missing cells.
	mom := stats.NewMoments(1, d.D())
	if d.D() > 0 {
		mom.Add(d.X, nil, d.Weight)
	}
	if !s.opt.Impute && missingCells(d, mom) {
		return missingError(d)
	}
	var err error
	if d, err = s.extend(d); err != nil {
		return err
	}
	s.mom.Merge(mom)
	var ind []Term // every level of every categorical feature
	for j, c := range d.Schema.Features {
		switch c.Kind {
		case data.Text:
			s.counts[j].Add(documents(d, j))
		case data.Categorical:
			s.levels[j] = grow(s.levels[j], len(c.Levels))
			for l := range c.Levels {
				ind = append(ind, Term{Feature: j, Level: l})
			}
		}
	}
	for a, w := range levelWeights(d, ind) {
		s.levels[ind[a].Feature][ind[a].Level] += w
	}
	return nil
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
	s.mom = stats.NewMoments(1, D)
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
	s.mom.Merge(o.mom)
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
// standard deviation (standardize), each level's indicator
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
		a := s.mom.At(0, j)
		if !(a.W > 0) {
			return nil, fmt.Errorf("column %q has no observed value", c.Name)
		}
		if c.Kind == data.Categorical {
			for l, w := range grow(s.levels[j], len(c.Levels)) {
				if l > 0 || !s.opt.DropFirst {
					terms = append(terms, Term{Feature: j, Level: l, Scale: 1, Fill: w / a.W})
				}
			}
			continue
		}
		term := Term{Feature: j, Level: -1, Scale: 1}
		standardize(&term, a, s.opt.NoStandardize)
		terms = append(terms, term)
	}
	return New(s.schema, terms, vocabs)
}

// setupJSON is the encoded form of a Setup; floats read back bit for bit.
// Moments is the moments' encoding in package stats (Moments.MarshalBinary,
// base64 in JSON).
type setupJSON struct {
	Impute        bool                    `json:"impute,omitempty"`
	DropFirst     bool                    `json:"drop_first,omitempty"`
	NoStandardize bool                    `json:"no_standardize,omitempty"`
	Text          *text.VectorizerConfig  `json:"text,omitempty"`
	Schema        *data.Schema            `json:"schema,omitempty"`
	Moments       []byte                  `json:"moments,omitempty"`
	Levels        [][]float64             `json:"levels,omitempty"`
	Counts        map[int]json.RawMessage `json:"counts,omitempty"`
}

// MarshalJSON encodes the Setup, its options and schema included.
func (s *Setup) MarshalJSON() ([]byte, error) {
	j := setupJSON{Impute: s.opt.Impute, DropFirst: s.opt.DropFirst, NoStandardize: s.opt.NoStandardize, Text: s.opt.Text,
		Schema: s.schema, Levels: s.levels}
	if s.mom != nil {
		j.Moments, _ = s.mom.MarshalBinary() // never fails
	}
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
// statistics fit its schema: moments of one class with one entry per
// feature, finite and non-negative weights and sums of squares, finite
// means, one weight per level, term counts for the text features only,
// with the text settings.
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
	if err := s.mom.UnmarshalBinary(j.Moments); err != nil {
		return nil, fmt.Errorf("design: moments: %w", err)
	}
	if s.mom.K() != 1 || s.mom.D != D || len(j.Levels) != D {
		return nil, fmt.Errorf("design: statistics of %d classes and %d features, %d level weights, want 1, %d, %d",
			s.mom.K(), s.mom.D, len(j.Levels), D, D)
	}
	if w := s.mom.ClassWeight[0]; !(w >= 0) || math.IsInf(w, 0) {
		return nil, fmt.Errorf("design: total weight %v", w)
	}
	s.levels = j.Levels
	for f, c := range j.Schema.Features {
		if len(s.levels[f]) > len(c.Levels) || c.Kind != data.Categorical && len(s.levels[f]) > 0 {
			return nil, fmt.Errorf("design: feature %q: %d level weights", c.Name, len(s.levels[f]))
		}
		a := s.mom.At(0, f)
		for _, v := range append([]float64{a.W, a.S}, s.levels[f]...) {
			if !(v >= 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("design: feature %q: weight or sum of squares %v", c.Name, v)
			}
		}
		if math.IsNaN(a.M) || math.IsInf(a.M, 0) {
			return nil, fmt.Errorf("design: feature %q: mean %v", c.Name, a.M)
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
