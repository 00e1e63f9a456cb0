package data

import (
	"errors"
	"fmt"
	"slices"
)

// ErrSchema is wrapped by a *SchemaError: two schemas that cannot hold
// the same rows.
var ErrSchema = errors.New("schemas do not match")

// SchemaError says why a schema cannot extend another: the column (a
// feature's name, or the target's) and the reason.
type SchemaError struct {
	Column string // the column's name; "" for the feature count
	Target bool   // the column is the target
	Reason string
}

func (e *SchemaError) Error() string {
	switch {
	case e.Column == "":
		return fmt.Sprintf("%v: %s", ErrSchema, e.Reason)
	case e.Target:
		return fmt.Sprintf("%v: target %q: %s", ErrSchema, e.Column, e.Reason)
	}
	return fmt.Sprintf("%v: feature %q: %s", ErrSchema, e.Column, e.Reason)
}

func (e *SchemaError) Unwrap() error { return ErrSchema }

// Remap maps the level indices of one schema's categorical columns to
// those of a schema that extends it (Schema.Extend): Features[j][l] is the
// new index of level l of feature j, Target[l] that of class l. A nil map
// is the identity, the common case of data read with the extended schema's
// levels first.
type Remap struct {
	Features [][]int
	Target   []int
}

// Identity reports whether r changes no index.
func (r *Remap) Identity() bool {
	if r == nil {
		return true
	}
	for _, m := range r.Features {
		if m != nil {
			return false
		}
	}
	return r.Target == nil
}

// Extend returns the schema of the rows of s and t together, with the
// map from t's level indices to the result's. The features must agree in
// number, order, name and kind, and the targets in name and kind (or both
// be absent). Each categorical column of the result has s's levels in
// their order, then t's levels that s lacks, in t's order; the classes
// likewise. A numeric column is integral when it is in both, and its
// Range is the union of both (nil when either lacks one). s and t are
// not changed.
//
// Data read with dataio.ReadWithSchema(…, s, …) (whose levels begin with s's)
// extends s with the identity map.
func (s *Schema) Extend(t *Schema) (*Schema, *Remap, error) {
	if len(s.Features) != len(t.Features) {
		return nil, nil, &SchemaError{Reason: fmt.Sprintf("%d features, want %d", len(t.Features), len(s.Features))}
	}
	out := s.Clone()
	r := &Remap{Features: make([][]int, len(s.Features))}
	for j, f := range t.Features {
		o := &out.Features[j]
		if f.Name != o.Name {
			return nil, nil, &SchemaError{Column: f.Name, Reason: fmt.Sprintf("feature %d is %q, want %q", j+1, f.Name, o.Name)}
		}
		if f.Kind != o.Kind {
			return nil, nil, &SchemaError{Column: f.Name, Reason: fmt.Sprintf("%s, want %s", f.Kind, o.Kind)}
		}
		o.Integral = o.Integral && f.Integral
		o.Range = o.Range.union(f.Range)
		o.Levels, r.Features[j] = unionLevels(o.Levels, f.Levels)
	}
	switch {
	case s.Target == nil && t.Target == nil:
	case s.Target == nil || t.Target == nil:
		name := ""
		if s.Target != nil {
			name = s.Target.Name
		}
		if t.Target != nil {
			name = t.Target.Name
		}
		return nil, nil, &SchemaError{Column: name, Target: true, Reason: "present in one schema only"}
	case s.Target.Name != t.Target.Name:
		return nil, nil, &SchemaError{Column: t.Target.Name, Target: true, Reason: fmt.Sprintf("want %q", s.Target.Name)}
	case s.Target.Kind != t.Target.Kind:
		return nil, nil, &SchemaError{Column: t.Target.Name, Target: true, Reason: fmt.Sprintf("%s, want %s", t.Target.Kind, s.Target.Kind)}
	default:
		out.Target.Integral = out.Target.Integral && t.Target.Integral
		out.Target.Levels, r.Target = unionLevels(out.Target.Levels, t.Target.Levels)
	}
	return out, r, nil
}

// unionLevels returns a's levels followed by those of b that a lacks, and
// the map from b's indices to the union's: nil when it is the identity (b
// begins with a or is a prefix of it).
func unionLevels(a, b []string) ([]string, []int) {
	if len(b) == 0 {
		return a, nil
	}
	n := min(len(a), len(b))
	if slices.Equal(a[:n], b[:n]) {
		if len(b) > len(a) {
			a = append(a, b[len(a):]...)
		}
		return a, nil
	}
	index := make(map[string]int, len(a)+len(b))
	for i, l := range a {
		index[l] = i
	}
	m := make([]int, len(b))
	for i, l := range b {
		k, ok := index[l]
		if !ok {
			k = len(a)
			a = append(a, l)
			index[l] = k
		}
		m[i] = k
	}
	return a, m
}

// Apply returns d with its categorical cells and classes renumbered by r
// and its schema set to s, the schema r maps into. d is returned as it is
// (its schema replaced in a shallow copy) when r is the identity; otherwise
// X and Y are copied. Missing cells (NaN) stay missing.
func (r *Remap) Apply(d *Dataset, s *Schema) *Dataset {
	c := *d
	c.Schema = s
	if r.Identity() {
		return &c
	}
	D, copied := d.D(), false
	for j, m := range r.Features {
		if m == nil {
			continue
		}
		if !copied {
			c.X, copied = slices.Clone(d.X), true
		}
		for i := j; i < len(c.X); i += D {
			if v := c.X[i]; v == v {
				c.X[i] = float64(m[int(v)])
			}
		}
	}
	if r.Target != nil && d.Y != nil {
		c.Y = slices.Clone(d.Y)
		for i, v := range c.Y {
			if v == v {
				c.Y[i] = float64(r.Target[int(v)])
			}
		}
	}
	return &c
}
