package data

import (
	"fmt"
	"slices"
)

// Dataset is a table of rows in contiguous storage: the features of row i
// are X[i*D : (i+1)*D], D = len(Schema.Features), as float64 with NaN for a
// missing cell and the level index for a categorical cell. Text columns
// hold NaN in X; their strings are in Text.
type Dataset struct {
	Schema *Schema
	// N is the number of rows.
	N int
	// X holds the features, row-major, N × len(Schema.Features).
	X []float64
	// Text[j] holds the cells of feature j when it is a text column
	// (len N, "" for missing); Text[j] is nil for other columns. Text is
	// nil when there are no text columns.
	Text [][]string
	// Y holds the target of each row (the class index for a categorical
	// target), NaN when missing; nil when the schema has no target or the
	// file had no target column.
	Y []float64
	// Weight holds a weight per row; nil means every row weighs 1.
	Weight []float64
	// Source names where the rows came from (a file name, "<stdin>") for
	// error messages.
	Source string
	// Lines[i] is the line of the source on which row i starts (the header
	// is line 1). Nil when the rows did not come from a file.
	Lines []int
	// RowGroups, for rows read from a Parquet file, holds the number
	// (from 1) of the first row of each row group of the file; Lines then
	// hold the rows' numbers in the file (from 1). Nil for other sources.
	RowGroups []int
	// Columns[j] is the field number (from 1) of feature j in the source,
	// for positioned errors (see CellError); nil when unknown.
	Columns []int
	// Warnings are notes about how the source was read that are not
	// errors, each a *ParseError (see Read).
	Warnings []error
	// Unseen[j] counts the cells of feature j whose value was not among
	// the schema's levels (a categorical column read with a fixed schema);
	// they are stored as missing. Nil when there were none.
	Unseen []int
	// UnseenValues[j] holds a few of those values (up to
	// MaxUnseenValues, the first met), for a message; nil with Unseen.
	UnseenValues [][]string
	// Booleans[j] counts the cells of feature j that held true or false
	// where the schema's levels are a boolean pair of other spelling
	// (Column.BooleanLevel), and were read as those levels. Nil when
	// there were none.
	Booleans []int
}

// MaxUnseenValues is how many of a column's unseen values a data set
// keeps (Dataset.UnseenValues).
const MaxUnseenValues = 3

// CountUnseen counts in Unseen a cell of feature j whose value v is not a
// level of the schema, and keeps v in UnseenValues when it is one of the
// first. For readers of rows.
func (d *Dataset) CountUnseen(j int, v string) {
	if d.Unseen == nil {
		d.Unseen, d.UnseenValues = make([]int, d.D()), make([][]string, d.D())
	}
	d.Unseen[j]++
	if ex := d.UnseenValues[j]; len(ex) < MaxUnseenValues && !slices.Contains(ex, v) {
		d.UnseenValues[j] = append(ex, v)
	}
}

// CountBoolean counts in Booleans a cell of feature j read as a level of
// a boolean pair (Column.BooleanLevel). For readers of rows.
func (d *Dataset) CountBoolean(j int) {
	if d.Booleans == nil {
		d.Booleans = make([]int, d.D())
	}
	d.Booleans[j]++
}

// D is the number of feature columns.
func (d *Dataset) D() int { return len(d.Schema.Features) }

// Row returns the features of row i, a view into X.
func (d *Dataset) Row(i int) []float64 {
	D := d.D()
	return d.X[i*D : (i+1)*D : (i+1)*D]
}

// Line returns the source line of row i, or 0 when unknown.
func (d *Dataset) Line(i int) int {
	if d.Lines == nil {
		return 0
	}
	return d.Lines[i]
}

// RowError returns an error about row i positioned at its source line.
func (d *Dataset) RowError(i int, format string, args ...any) error {
	return d.position(&ParseError{File: d.Source, Line: d.Line(i), Err: fmt.Errorf(format, args...)})
}

// CellError returns an error about feature j of row i positioned at its
// source line and column.
func (d *Dataset) CellError(i, j int, err error) error {
	col := 0
	if d.Columns != nil {
		col = d.Columns[j]
	}
	return d.position(&ParseError{File: d.Source, Line: d.Line(i), Column: col, ColumnName: d.Schema.Features[j].Name, Err: err})
}

// position adds the row group to e, an error about a row of a Parquet
// file.
func (d *Dataset) position(e *ParseError) *ParseError {
	if d.RowGroups != nil && e.Line > 0 {
		e.RowGroup, e.Column = groupOf(d.RowGroups, e.Line), 0
	}
	return e
}

// Subset returns a new Dataset holding rows idx of d, in that order, with the
// same schema (shared, not copied).
func (d *Dataset) Subset(idx []int) *Dataset { return d.SubsetInto(nil, idx) }

// SubsetInto is Subset writing into dst, whose storage (X, Y, Weight,
// Text, Lines) it reuses where its capacity suffices, so that a loop over
// many subsets allocates once; dst nil allocates a new Dataset. The
// result is dst (or the new Dataset), its other fields reset to those of
// a subset of d. dst must not share storage with d.
func (d *Dataset) SubsetInto(dst *Dataset, idx []int) *Dataset {
	if dst == nil {
		dst = &Dataset{}
	}
	D := d.D()
	*dst = Dataset{Schema: d.Schema, N: len(idx), X: resize(dst.X, len(idx)*D), Source: d.Source, Columns: d.Columns, RowGroups: d.RowGroups,
		Y: dst.Y, Weight: dst.Weight, Text: dst.Text, Lines: dst.Lines}
	for k, i := range idx {
		copy(dst.X[k*D:(k+1)*D], d.X[i*D:(i+1)*D])
	}
	pick := func(out, v []float64) []float64 {
		if v == nil {
			return nil
		}
		out = resize(out, len(idx))
		for k, i := range idx {
			out[k] = v[i]
		}
		return out
	}
	dst.Y, dst.Weight = pick(dst.Y, d.Y), pick(dst.Weight, d.Weight)
	if d.Text == nil {
		dst.Text = nil
	} else {
		dst.Text = resize(dst.Text, len(d.Text))
		for j, col := range d.Text {
			if col == nil {
				dst.Text[j] = nil
				continue
			}
			dst.Text[j] = resize(dst.Text[j], len(idx))
			for k, i := range idx {
				dst.Text[j][k] = col[i]
			}
		}
	}
	if d.Lines == nil {
		dst.Lines = nil
	} else {
		dst.Lines = resize(dst.Lines, len(idx))
		for k, i := range idx {
			dst.Lines[k] = d.Lines[i]
		}
	}
	return dst
}

// resize returns s with length n: s itself when its capacity suffices,
// else a new slice.
func resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}
