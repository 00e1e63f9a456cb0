package dataio

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/cell"
)

// table is a source of typed cells, Parquet or JSON lines, that the
// reader reads in place of delimited text: its column names are the
// header, and each call of next appends a batch of rows to the reader's
// arrays with addRows and the put methods, so that the types are inferred,
// the options applied and the Dataset built as for CSV.
type table interface {
	// next appends the next batch of rows; more reports that input is
	// left.
	next(r *reader) (more bool, err error)
	// held returns the memory that the table holds besides the
	// reader's arrays (see reader.memoryUsed).
	held() int64
}

// openTable starts reading in, Parquet or JSON lines.
func (r *reader) openTable(in *Input) error {
	var err error
	switch in.Format {
	case Parquet:
		r.tab, err = openParquet(r, in)
	case JSONLines:
		r.tab, err = openJSONLines(r, in)
	}
	return err
}

// addRows makes room for n more rows, numbered (or on the lines) pos[k]
// in the source, and returns the index of the first.
func (r *reader) addRows(n int) (int, error) {
	i := r.n
	if err := r.grow(r.n+n, 0); err != nil {
		return 0, err
	}
	r.n += n
	return i, nil
}

// reserve makes room for rows in all, when the whole input is read at
// once, so that the arrays are allocated once; within the memory budget,
// the rows that do not fit being left to addRows to refuse.
func (r *reader) reserve(rows int) {
	if !r.cfg.perChunk && rows > cap(r.lines) {
		if r.budget >= 0 {
			rows = int(min(int64(rows), (r.budget-r.memoryUsed())/int64(r.rowBytes())))
		}
		if rows > cap(r.lines) && r.grow(rows, 0) == nil {
			_ = r.grow(r.n, 0)
		}
	}
}

// cellError is an error about field f of row i: positioned at its line
// and field in a CSV file, at its line and key in JSON lines, at its row
// group, row and column in Parquet.
func (r *reader) cellError(i, f int, err error) *data.ParseError {
	e := &data.ParseError{File: r.src, Line: r.lines[i], ColumnName: r.plans[f].name, Err: err}
	switch {
	case r.groups != nil:
		e.RowGroup = data.RowGroupOf(r.groups, r.lines[i])
	case r.tab == nil:
		e.Column = f + 1
	}
	return e
}

// putNumber stores the number v, written as text (nil when it was not
// text, such as a Parquet DOUBLE, and then v is read), in field f of row
// i. NaN is a missing value.
func (r *reader) putNumber(f, i int, v float64, text []byte) error {
	pl, c := &r.plans[f], &r.cols[f]
	switch {
	case pl.mode == cellSkip:
		return nil
	case text == nil && v != v:
		r.set(f, i, v)
		return nil
	case pl.mode == cellString:
		if text == nil {
			text = strconv.AppendFloat(nil, v, 'f', -1, 64)
		}
		return r.putString(f, i, text)
	}
	canon := true
	if text != nil {
		var ok bool
		v, ok, canon = cell.Parse(text)
		if !ok {
			return r.cellError(i, f, fmt.Errorf("%w: %q", data.ErrNotNumber, text))
		}
	}
	if math.IsInf(v, 0) {
		what := text
		if what == nil {
			what = strconv.AppendFloat(nil, v, 'g', -1, 64)
		}
		if pl.mode == cellNumber || pl.dst == destW {
			return r.cellError(i, f, fmt.Errorf("%w: %q", data.ErrInfinite, what))
		}
		if c.inf == nil {
			c.inf = r.cellError(i, f, fmt.Errorf("%w: %q", data.ErrInfinite, what))
		}
		canon = false
	}
	c.flags |= numFlags(v, canon)
	if pl.dst == destW && !(v >= 0) {
		return r.cellError(i, f, fmt.Errorf("%w: %v", data.ErrWeight, v))
	}
	r.set(f, i, v)
	return nil
}

// putString stores the string s in field f of row i: a missing value when
// it is one of the missing-value texts, a number in a numeric column, and
// otherwise the string, which turns an inferred column into a string
// column (its numbers so far written as text).
func (r *reader) putString(f, i int, s []byte) error {
	pl, c := &r.plans[f], &r.cols[f]
	if pl.mode == cellSkip {
		return nil
	}
	if cell.Missing(cell.TrimSpace(s)) {
		r.set(f, i, math.NaN())
		return nil
	}
	switch pl.mode {
	case cellNumber:
		return r.putNumber(f, i, 0, s)
	case cellInfer:
		r.numbersToText(f, 0, i, c.flags)
		pl.mode, c.inf, c.flags = cellString, nil, 0
	}
	id, ok := c.dict[string(s)]
	if !ok {
		if !utf8.Valid(s) {
			return r.cellError(i, f, fmt.Errorf("%w: %q", data.ErrEncoding, s))
		}
		id = intern(c, s)
	}
	if id < 0 {
		var err error
		if id, err = r.unseenLevel(f, i, string(s)); err != nil {
			return err
		}
		if id < 0 {
			r.set(f, i, math.NaN())
			return nil
		}
	}
	r.set(f, i, float64(id))
	return nil
}

// putMissing stores a missing value in field f of row i.
func (r *reader) putMissing(f, i int) {
	if r.plans[f].mode != cellSkip {
		r.set(f, i, math.NaN())
	}
}
