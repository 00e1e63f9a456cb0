package data

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Errors wrapped in a FieldError.
var (
	// ErrMissingField: a record lacks a feature of the schema.
	ErrMissingField = errors.New("missing field")
	// ErrUnknownField: a record has a field that is neither a feature
	// nor the target of the schema.
	ErrUnknownField = errors.New("unknown field")
	// ErrFieldType: a field's value is not of the type its column takes.
	ErrFieldType = errors.New("wrong type")
)

// FieldError is an error of a record given as named fields (Schema.Rows):
// the record's index Row (from 0), the field's name and the reason, Err,
// which wraps ErrMissingField, ErrUnknownField, ErrFieldType, ErrInfinite
// or ErrUnseenClass.
type FieldError struct {
	Row   int
	Field string
	Err   error
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("record %d: field %q: %v", e.Row, e.Field, e.Err)
}

func (e *FieldError) Unwrap() error { return e.Err }

// Rows returns the data set of the records, each a row given as named
// fields, laid out as s describes: the rows a service receives as JSON
// objects, say, for a fitted model's schema. A record holds a field for
// every feature of s, named as the feature, in any order, and may hold
// one for the target; its values are
//
//   - for a numeric column, a number: any Go integer or floating-point
//     type, or a json.Number (decode with json.Decoder.UseNumber to get
//     them); NaN is a missing cell, ±Inf an error (ErrInfinite);
//   - for a categorical column, a string, one of the column's levels; a
//     level that s does not have is a missing cell, counted in
//     Dataset.Source.Unseen as dataio.ReadWithSchema counts it. A categorical target
//     must be one of the classes (ErrUnseenClass);
//   - for a text column, a string;
//   - nil, for a missing cell of any column (JSON null).
//
// Strings are taken as they are: no spaces are trimmed and the missing
// tokens of dataio.Read ("NA", "?", ...) are levels or words like any other. A
// record without the target leaves it missing (NaN in Dataset.Y), and
// Dataset.Y is nil when no record has it. The Dataset has the schema s
// (shared, not copied), no weights, and a Source that holds only the
// counts of unseen values and booleans (see Dataset.CountUnseen).
//
// Rows returns a *FieldError, for the first record and within it the
// first field in the schema's order that is wrong: a feature that is not
// there (ErrMissingField), a value of the wrong type (ErrFieldType), an
// infinite number, an unknown class, and then the first field, in sorted
// order, that s does not name (ErrUnknownField).
func (s *Schema) Rows(records []map[string]any) (*Dataset, error) {
	D := len(s.Features)
	d := &Dataset{Schema: s, N: len(records), X: make([]float64, len(records)*D)}
	for j, c := range s.Features {
		if c.Kind == Text {
			if d.Text == nil {
				d.Text = make([][]string, D)
			}
			d.Text[j] = make([]string, len(records))
		}
	}
	target := ""
	if s.Target != nil {
		target = s.Target.Name
	}
	for i, rec := range records {
		known := 0 // the fields of rec that s names
		fail := func(field string, err error) (*Dataset, error) {
			return nil, &FieldError{Row: i, Field: field, Err: err}
		}
		for j := range s.Features {
			c := &s.Features[j]
			v, ok := rec[c.Name]
			if !ok {
				return fail(c.Name, ErrMissingField)
			}
			known++
			x, str, err := cellValue(c, v)
			if err != nil {
				return fail(c.Name, err)
			}
			switch {
			case c.Kind == Text:
				d.Text[j][i], x = str, math.NaN()
			case c.Kind == Categorical && v != nil:
				if x = float64(c.Level(str)); x < 0 {
					if k := c.BooleanLevel(str); k >= 0 {
						x = float64(k)
						d.CountBoolean(j)
					} else {
						x = math.NaN()
						d.CountUnseen(j, str)
					}
				}
			}
			d.X[i*D+j] = x
		}
		if v, ok := rec[target]; ok && s.Target != nil {
			known++
			y, str, err := cellValue(s.Target, v)
			if err != nil {
				return fail(target, err)
			}
			if s.Target.Kind == Categorical && v != nil {
				if y = float64(s.Target.Level(str)); y < 0 {
					return fail(target, fmt.Errorf("%w: %q", ErrUnseenClass, str))
				}
			}
			if d.Y == nil {
				d.Y = make([]float64, len(records))
				for k := range i {
					d.Y[k] = math.NaN()
				}
			}
			d.Y[i] = y
		} else if d.Y != nil {
			d.Y[i] = math.NaN()
		}
		if known < len(rec) {
			return fail(s.unknownField(rec), ErrUnknownField)
		}
	}
	return d, nil
}

// unknownField returns the first field of rec, in sorted order, that is
// neither a feature nor the target of s.
func (s *Schema) unknownField(rec map[string]any) string {
	var unknown []string
	for name := range rec {
		if s.Feature(name) < 0 && (s.Target == nil || name != s.Target.Name) {
			unknown = append(unknown, name)
		}
	}
	return slices.Min(unknown)
}

// cellValue reads the value v of a field of column c: the number of a numeric
// column (NaN for nil), or the string of a categorical or text column (""
// for nil, then x is NaN).
func cellValue(c *Column, v any) (x float64, str string, err error) {
	if v == nil {
		return math.NaN(), "", nil
	}
	if c.Kind != Numeric {
		str, ok := v.(string)
		if !ok {
			return 0, "", fmt.Errorf("%w: %T %v, want a string (the column is %s)", ErrFieldType, v, v, c.Kind)
		}
		return math.NaN(), str, nil
	}
	switch v := v.(type) {
	case float64:
		x = v
	case float32:
		x = float64(v)
	case int:
		x = float64(v)
	case int8:
		x = float64(v)
	case int16:
		x = float64(v)
	case int32:
		x = float64(v)
	case int64:
		x = float64(v)
	case uint:
		x = float64(v)
	case uint8:
		x = float64(v)
	case uint16:
		x = float64(v)
	case uint32:
		x = float64(v)
	case uint64:
		x = float64(v)
	case uintptr:
		x = float64(v)
	case json.Number:
		x, err = strconv.ParseFloat(string(v), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return 0, "", fmt.Errorf("%w: json.Number %q is not a number", ErrFieldType, string(v))
		}
	case string:
		return 0, "", fmt.Errorf("%w: the string %q, want a number (the column is numeric)", ErrFieldType, v)
	default:
		return 0, "", fmt.Errorf("%w: %T %v, want a number (the column is numeric)", ErrFieldType, v, v)
	}
	if math.IsInf(x, 0) {
		return 0, "", fmt.Errorf("%w: %v", ErrInfinite, v)
	}
	return x, "", nil
}
