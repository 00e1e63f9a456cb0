package data

import (
	"fmt"
	"slices"
	"sort"
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
	// Source says where the rows came from, for error messages and
	// notes: the file, the line of each row, what the reader met. The
	// zero value for rows made in memory.
	Source Provenance
}

// Provenance is where a Dataset's rows came from and what reading them
// met: what a reader (package dataio) knows besides the table itself, kept
// apart from it so that a Dataset is the data. The methods of Dataset that
// position an error (RowError, CellError) use it.
type Provenance struct {
	// Name names the source (a file name, "<stdin>") in error messages.
	Name string
	// Lines[i] is the line of the source on which row i starts (the header
	// is line 1). Nil when the rows did not come from a file.
	Lines []int
	// RowGroups, for rows read from a Parquet file, holds the number
	// (from 1) of the first row of each row group of the file; Lines then
	// hold the rows' numbers in the file (from 1). Nil for other sources.
	RowGroups []int
	// Columns[j] is the field number (from 1) of feature j in the source,
	// for positioned errors (see Dataset.CellError); nil when unknown.
	Columns []int
	// Warnings are notes about how the source was read that are not
	// errors, each a *ParseError.
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

// Named returns the provenance of rows from the source called name, about
// which nothing else is known.
func Named(name string) Provenance { return Provenance{Name: name} }

// String returns the source's name, so that a Dataset's Source prints as
// its name in messages.
func (p Provenance) String() string { return p.Name }

// Line returns the source line of row i, or 0 when unknown.
func (p Provenance) Line(i int) int {
	if p.Lines == nil {
		return 0
	}
	return p.Lines[i]
}

// MaxUnseenValues is how many of a column's unseen values a data set
// keeps (Provenance.UnseenValues).
const MaxUnseenValues = 3

// CountUnseen counts in Source.Unseen a cell of feature j whose value v
// is not a level of the schema, and keeps v in Source.UnseenValues when it
// is one of the first. For readers of rows.
func (d *Dataset) CountUnseen(j int, v string) {
	p := &d.Source
	if p.Unseen == nil {
		p.Unseen, p.UnseenValues = make([]int, d.D()), make([][]string, d.D())
	}
	p.Unseen[j]++
	if ex := p.UnseenValues[j]; len(ex) < MaxUnseenValues && !slices.Contains(ex, v) {
		p.UnseenValues[j] = append(ex, v)
	}
}

// CountBoolean counts in Source.Booleans a cell of feature j read as a
// level of a boolean pair (Column.BooleanLevel). For readers of rows.
func (d *Dataset) CountBoolean(j int) {
	p := &d.Source
	if p.Booleans == nil {
		p.Booleans = make([]int, d.D())
	}
	p.Booleans[j]++
}

// D is the number of feature columns.
func (d *Dataset) D() int { return len(d.Schema.Features) }

// Row returns the features of row i, a view into X.
func (d *Dataset) Row(i int) []float64 {
	D := d.D()
	return d.X[i*D : (i+1)*D : (i+1)*D]
}

// Line returns the source line of row i, or 0 when unknown.
func (d *Dataset) Line(i int) int { return d.Source.Line(i) }

// RowError returns an error about row i positioned at its source line.
func (d *Dataset) RowError(i int, format string, args ...any) error {
	return d.position(&ParseError{File: d.Source.Name, Line: d.Line(i), Err: fmt.Errorf(format, args...)})
}

// CellError returns an error about feature j of row i positioned at its
// source line and column.
func (d *Dataset) CellError(i, j int, err error) error {
	col := 0
	if d.Source.Columns != nil {
		col = d.Source.Columns[j]
	}
	return d.position(&ParseError{File: d.Source.Name, Line: d.Line(i), Column: col, ColumnName: d.Schema.Features[j].Name, Err: err})
}

// position adds the row group to e, an error about a row of a Parquet
// file.
func (d *Dataset) position(e *ParseError) *ParseError {
	if d.Source.RowGroups != nil && e.Line > 0 {
		e.RowGroup, e.Column = RowGroupOf(d.Source.RowGroups, e.Line), 0
	}
	return e
}

// RowGroupOf returns the row group (from 1) of the row numbered row (from
// 1) of a Parquet file whose row groups start at the rows starts.
func RowGroupOf(starts []int, row int) int {
	return sort.SearchInts(starts, row+1)
}

// Subset returns a new Dataset holding rows idx of d, in that order, with the
// same schema (shared, not copied) and the same Source but for the lines
// of those rows (its notes, Warnings, Unseen and Booleans, are left out).
func (d *Dataset) Subset(idx []int) *Dataset { return d.SubsetInto(nil, idx) }

// SubsetInto is Subset writing into dst, whose storage (X, Y, Weight,
// Text, Source.Lines) it reuses where its capacity suffices, so that a
// loop over many subsets allocates once; dst nil allocates a new Dataset.
// The result is dst (or the new Dataset), its other fields reset to those
// of a subset of d. dst must not share storage with d.
func (d *Dataset) SubsetInto(dst *Dataset, idx []int) *Dataset {
	if dst == nil {
		dst = &Dataset{}
	}
	D := d.D()
	p := &d.Source
	lines := dst.Source.Lines
	*dst = Dataset{Schema: d.Schema, N: len(idx), X: resize(dst.X, len(idx)*D),
		Source: Provenance{Name: p.Name, Columns: p.Columns, RowGroups: p.RowGroups},
		Y:      dst.Y, Weight: dst.Weight, Text: dst.Text}
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
	if p.Lines != nil {
		dst.Source.Lines = resize(lines, len(idx))
		for k, i := range idx {
			dst.Source.Lines[k] = p.Lines[i]
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
