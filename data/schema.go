package data

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gendisc/gendisc/internal/enum"
)

// Kind is the type of a column.
type Kind int

const (
	// Numeric columns hold real numbers.
	Numeric Kind = iota
	// Categorical columns hold one of a finite set of levels, stored in a
	// Dataset as the level's index.
	Categorical
	// Text columns hold free text, kept as strings and tokenised by the
	// models that use them.
	Text
)

var kindNames = &enum.Names[Kind]{Type: "Kind", What: "column kind",
	List: []string{Numeric: "numeric", Categorical: "categorical", Text: "text"}}

// String returns "numeric", "categorical" or "text".
func (k Kind) String() string { return kindNames.String(k) }

// MarshalText writes the kind's name.
func (k Kind) MarshalText() ([]byte, error) { return kindNames.MarshalText(k) }

// UnmarshalText reads a kind's name.
func (k *Kind) UnmarshalText(b []byte) error { return kindNames.UnmarshalText(k, b) }

// Column describes one column of a data set.
type Column struct {
	Name string `json:"name"`
	Kind Kind   `json:"kind"`
	// Levels are the values of a categorical column; a cell holds the
	// index of its level. Levels are sorted: numerically when every level
	// is a number, otherwise as strings.
	Levels []string `json:"levels,omitempty"`
	// Integral reports that every observed value of a numeric column was
	// an integer, so synthetic values can be written as integers.
	Integral bool `json:"integral,omitempty"`
	// Range holds the smallest and largest observed value of a numeric
	// feature in the rows read; in a model's schema, in its training
	// rows (widened by the rows of updates and merges). It is empty
	// (Range.Empty) for a feature without an observed value, and nil for
	// other columns and the target, and in the schema of a model file
	// written before ranges were kept, where it is unknown.
	Range *Range `json:"range,omitempty"`
}

// Range is the closed interval [Min, Max] of the values of a column,
// written to JSON as the array [Min, Max]; the empty range of a column
// without values has Min = +Inf and Max = −Inf, and is written [].
type Range struct{ Min, Max float64 }

// emptyRange is the range of no values.
var emptyRange = Range{Min: math.Inf(1), Max: math.Inf(-1)}

// Empty reports whether r holds no value (Min > Max).
func (r Range) Empty() bool { return r.Min > r.Max }

// MarshalJSON writes r as [Min, Max], or [] when it is empty.
func (r Range) MarshalJSON() ([]byte, error) {
	if r.Empty() {
		return []byte("[]"), nil
	}
	return json.Marshal([2]float64{r.Min, r.Max})
}

// UnmarshalJSON reads [Min, Max] with Min ≤ Max, or [] for the empty
// range, refusing anything else.
func (r *Range) UnmarshalJSON(b []byte) error {
	var v []float64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	switch {
	case v != nil && len(v) == 0:
		*r = emptyRange
	case len(v) == 2 && v[0] <= v[1]:
		r.Min, r.Max = v[0], v[1]
	default:
		return fmt.Errorf("range %v: want [min, max] with min ≤ max, or []", v)
	}
	return nil
}

// union returns the smallest interval that holds r and o: nil when
// either is nil, as the values behind a missing range are unknown.
func (r *Range) union(o *Range) *Range {
	if r == nil || o == nil {
		return nil
	}
	return &Range{Min: min(r.Min, o.Min), Max: max(r.Max, o.Max)}
}

// SetRanges sets the Range of every numeric feature of d's schema to the
// interval of its observed values in d's rows (empty without one), widened
// by the range it had (the ranges of earlier chunks, or of a model's
// training rows, in a schema read with Extend).
func (d *Dataset) SetRanges() {
	D := d.D()
	lo, hi := make([]float64, D), make([]float64, D)
	for j := range D {
		lo[j], hi[j] = math.Inf(1), math.Inf(-1)
	}
	for i := range d.N {
		for j, v := range d.X[i*D : (i+1)*D] {
			// NaN (missing, or a text cell) fails both tests.
			if v < lo[j] {
				lo[j] = v
			}
			if v > hi[j] {
				hi[j] = v
			}
		}
	}
	for j := range D {
		c := &d.Schema.Features[j]
		if c.Kind != Numeric {
			continue
		}
		r := &Range{Min: lo[j], Max: hi[j]}
		if c.Range != nil {
			r = r.union(c.Range)
		}
		c.Range = r
	}
}

// Level returns the index of the level named s, or -1.
func (c *Column) Level(s string) int { return slices.Index(c.Levels, s) }

// booleanPairs are the spellings of a boolean pair, true's level first,
// in lower case.
var booleanPairs = [][2]string{{"true", "false"}, {"t", "f"}, {"yes", "no"}, {"y", "n"}, {"1", "0"}}

// BooleanLevel returns the index of the level that s, true or false in
// any case (as Parquet and JSON write booleans), stands for in a column
// whose two levels are a boolean pair in another spelling: t and f, yes
// and no, y and n, 1 and 0 (any case), true's level for true. It returns
// −1 for another s or another column.
func (c *Column) BooleanLevel(s string) int {
	var b int // 0 for true, 1 for false
	switch {
	case strings.EqualFold(s, "true"):
	case strings.EqualFold(s, "false"):
		b = 1
	default:
		return -1
	}
	if len(c.Levels) != 2 {
		return -1
	}
	for _, p := range booleanPairs {
		for k := range 2 {
			if strings.EqualFold(c.Levels[k], p[0]) && strings.EqualFold(c.Levels[1-k], p[1]) {
				if b == 0 {
					return k
				}
				return 1 - k
			}
		}
	}
	return -1
}

// Schema is the layout of a data set: its feature columns, in order, and
// its target. A model keeps the schema of its training data.
type Schema struct {
	Features []Column `json:"features"`
	// Target is the column to predict; nil for data without one (the
	// input of a mixture model).
	Target *Column `json:"target,omitempty"`
}

// Classes returns the class names: the levels of a categorical target.
func (s *Schema) Classes() []string {
	if s.Target == nil {
		return nil
	}
	return s.Target.Levels
}

// Feature returns the index of the feature named name, or -1.
func (s *Schema) Feature(name string) int {
	return slices.IndexFunc(s.Features, func(c Column) bool { return c.Name == name })
}

// Clone returns a deep copy of s.
func (s *Schema) Clone() *Schema {
	c := &Schema{Features: make([]Column, len(s.Features))}
	for i, f := range s.Features {
		f.Levels = slices.Clone(f.Levels)
		if f.Range != nil {
			r := *f.Range
			f.Range = &r
		}
		c.Features[i] = f
	}
	if s.Target != nil {
		t := *s.Target
		t.Levels = slices.Clone(t.Levels)
		c.Target = &t
	}
	return c
}

// Equal reports whether s and t describe the same layout.
func (s *Schema) Equal(t *Schema) bool {
	a, _ := json.Marshal(s)
	b, _ := json.Marshal(t)
	return string(a) == string(b)
}

// SameFeatures returns nil when t has the features of s: the same number,
// and at each position the same name and kind, and for a categorical
// feature the same number of levels (a cell holds a level index, so the
// levels must line up). Data read with dataio.ReadWithSchema(…, s, …) always
// passes. Models call it once per prediction to refuse data whose columns
// are named or ordered differently; the error names the first difference.
func (s *Schema) SameFeatures(t *Schema) error {
	if s == t {
		return nil
	}
	if len(s.Features) != len(t.Features) {
		return fmt.Errorf("data set has %d features, the model %d", len(t.Features), len(s.Features))
	}
	for j, a := range s.Features {
		b := t.Features[j]
		switch {
		case a.Name != b.Name:
			return fmt.Errorf("feature %d is %q, the model's is %q", j, b.Name, a.Name)
		case a.Kind != b.Kind:
			return fmt.Errorf("feature %q is %s, the model's is %s", b.Name, b.Kind, a.Kind)
		case a.Kind == Categorical && len(a.Levels) != len(b.Levels):
			return fmt.Errorf("categorical feature %q has %d levels, the model's %d", b.Name, len(b.Levels), len(a.Levels))
		}
	}
	return nil
}
