package data

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/gendisc/gendisc/internal/cell"
)

// Union returns the schema that dataio.Read infers for the rows of two files
// read together, from the schemas s and t that dataio.Read inferred for each: the
// features must agree in number, order and name, and the targets in name
// (or both be absent). A column's kind is the more general of the two,
//
//	numeric < categorical < text,
//
// its levels (and the classes) are the union of both, sorted as dataio.Read sorts
// them: numerically when every level is a number, bytewise otherwise. A
// numeric column is integral when it is in both, and its Range is the
// union of both (nil when either lacks one). s and t are not changed.
//
// A column numeric in one schema and categorical in the other becomes
// categorical with the levels of the categorical one only: the numeric
// file's values are not in its schema. Reading that file again with the
// column forced categorical (dataio.Options.Categorical) gives the levels to
// complete the union.
func (s *Schema) Union(t *Schema) (*Schema, error) {
	if len(s.Features) != len(t.Features) {
		return nil, &SchemaError{Reason: fmt.Sprintf("%d features, want %d", len(t.Features), len(s.Features))}
	}
	out := s.Clone()
	for j := range t.Features {
		f, o := &t.Features[j], &out.Features[j]
		if f.Name != o.Name {
			return nil, &SchemaError{Column: f.Name, Reason: fmt.Sprintf("feature %d is %q, want %q", j+1, f.Name, o.Name)}
		}
		unionColumn(o, f)
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
		return nil, &SchemaError{Column: name, Target: true, Reason: "present in one schema only"}
	case s.Target.Name != t.Target.Name:
		return nil, &SchemaError{Column: t.Target.Name, Target: true, Reason: fmt.Sprintf("want %q", s.Target.Name)}
	default:
		unionColumn(out.Target, t.Target)
	}
	return out, nil
}

// unionColumn sets o, a clone's column, to the union of o and f.
func unionColumn(o, f *Column) {
	o.Kind = max(o.Kind, f.Kind)
	o.Integral = o.Kind == Numeric && o.Integral && f.Integral
	if o.Kind == Numeric {
		o.Range = o.Range.union(f.Range)
	} else {
		o.Range = nil
	}
	if o.Kind != Categorical {
		o.Levels = nil
		return
	}
	levels := slices.Clone(o.Levels)
	for _, l := range f.Levels {
		if !slices.Contains(o.Levels, l) {
			levels = append(levels, l)
		}
	}
	o.Levels = sortedLevels(levels)
}

// sortedLevels returns the distinct strings strs in the order of dataio.Read's
// levels: numerically when every one is a number, otherwise bytewise.
func sortedLevels(strs []string) []string {
	order := LevelOrder(strs)
	levels := make([]string, len(strs))
	for k, id := range order {
		levels[k] = strs[id]
	}
	return levels
}

// LevelOrder returns the indices of the distinct strings strs in the order
// of dataio.Read's levels: numerically when every one is a number (a finite one),
// otherwise bytewise; numbers that compare equal are ordered bytewise.
func LevelOrder(strs []string) []int {
	nums := make([]float64, len(strs))
	numeric := true
	for k, s := range strs {
		v, ok, _ := cell.Parse([]byte(s))
		numeric = numeric && ok && !math.IsInf(v, 0)
		nums[k] = v
	}
	order := make([]int, len(strs))
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(a, b int) int {
		if numeric {
			if c := cmp.Compare(nums[a], nums[b]); c != 0 {
				return c
			}
		}
		return cmp.Compare(strs[a], strs[b])
	})
	return order
}
