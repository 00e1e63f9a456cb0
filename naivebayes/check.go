package naivebayes

import (
	"errors"
	"fmt"
	"slices"

	"github.com/gendisc/gendisc/data"
)

// Errors wrapped by the data errors of Fit and Update.
var (
	// ErrNotClassification: the data set has no categorical target
	// (data.ErrNotClassification).
	ErrNotClassification = data.ErrNotClassification
	// ErrOneClass: fewer than two classes have rows of positive weight.
	ErrOneClass = errors.New("fewer than two classes have rows: naive Bayes needs at least two")
	// ErrFeatureKind: a feature's kind does not suit the model.
	ErrFeatureKind = errors.New("unsuitable feature kind")
	// ErrNotObserved: a feature has no observed value in the labelled rows.
	ErrNotObserved = errors.New("no observed value in the labelled rows")
	// ErrZeroVariance: a fitted variance is zero.
	ErrZeroVariance = errors.New("zero variance")
	// ErrSchema: the data of an update does not match the model's schema.
	ErrSchema = errors.New("data does not match the model's schema")
)

// checkRows checks what every naive Bayes variant needs of training rows
// (data.Dataset.CheckClassRows).
func checkRows(d *data.Dataset) error { return d.CheckClassRows("naivebayes") }

// checkClasses returns ErrOneClass unless at least two classes have a
// positive total weight.
func checkClasses(source string, classWeight []float64) error {
	if !twoClasses(classWeight) {
		return &data.ParseError{File: source, Err: ErrOneClass}
	}
	return nil
}

// twoClasses reports whether at least two classes have a positive total
// weight.
func twoClasses(classWeight []float64) bool {
	n := 0
	for _, w := range classWeight {
		if w > 0 {
			n++
		}
	}
	return n >= 2
}

// columnError is a data error about feature j of schema s.
func columnError(source string, s *data.Schema, j int, err error) error {
	return &data.ParseError{File: source, ColumnName: s.Features[j].Name, Err: err}
}

// extendSchema returns the schema of a model fitted on data of schema old
// and then on data of schema upd: the same features (names, kinds), the
// levels of each categorical feature and of the target such that one list
// begins with the other, so that level indices agree; the longer list is
// kept, appending upd's new levels (classes). Integral stays set only where
// both set it.
func extendSchema(old, upd *data.Schema) (*data.Schema, error) {
	if len(old.Features) != len(upd.Features) {
		return nil, fmt.Errorf("%w: %d features, the model has %d", ErrSchema, len(upd.Features), len(old.Features))
	}
	s := old.Clone()
	for j, f := range upd.Features {
		o := &s.Features[j]
		if f.Name != o.Name || f.Kind != o.Kind || !isPrefix(f.Levels, o.Levels) && !isPrefix(o.Levels, f.Levels) {
			return nil, fmt.Errorf("%w: feature %d is %q (%v), the model's is %q (%v), with the model's levels first", ErrSchema, j+1, f.Name, f.Kind, o.Name, o.Kind)
		}
		if len(f.Levels) > len(o.Levels) {
			o.Levels = slices.Clone(f.Levels)
		}
		o.Integral = o.Integral && f.Integral
	}
	t := upd.Target
	if t == nil || t.Name != s.Target.Name || t.Kind != s.Target.Kind || !isPrefix(s.Target.Levels, t.Levels) && !isPrefix(t.Levels, s.Target.Levels) {
		return nil, fmt.Errorf("%w: the target must be %q with the classes %q first", ErrSchema, old.Target.Name, old.Target.Levels)
	}
	if len(t.Levels) > len(s.Target.Levels) {
		s.Target.Levels = slices.Clone(t.Levels)
	}
	return s, nil
}

// isPrefix reports whether a begins with b.
func isPrefix(a, b []string) bool { return len(b) <= len(a) && slices.Equal(a[:len(b)], b) }
