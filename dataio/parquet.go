package dataio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"sync"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/format"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/parallel"
)

// ErrParquetType is wrapped by the error for a Parquet column of a type
// that is not read (a nested or repeated column, an INT96 or INTERVAL,
// ...), unless the column is ignored, and for a DATE, TIME or TIMESTAMP
// column that is not named numeric or categorical (see logicalKind).
var ErrParquetType = errors.New("column type not read")

// parquetTable reads a Parquet file one row group at a time.
type parquetTable struct {
	file  *parquet.File
	at    io.ReaderAt // the file, of size bytes (checkChunk)
	size  int64
	src   string
	cols  []parquetColumn
	group int // the next row group
	rows  int // in the file
	// bufs hold the values of the columns of numbers for features, by
	// field, while a row group is read (see readColumn).
	bufs [][]float64
	// chunks hold the bytes of each field's column chunk while checkChunk
	// reads them, reused from one row group to the next.
	chunks [][]byte
	// maxRows bounds the rows of a row group: 1024 a byte of the file
	// (runs of one value cost a few bytes for any number of rows, but a
	// file of a thousand rows a byte is not one gendisc is given).
	maxRows int
}

// parquetColumn is a column of the file, with how its values are read.
type parquetColumn struct {
	name string
	kind parquet.Kind
	// unsigned: an INT32 or INT64 holding unsigned integers.
	unsigned bool
	// optional: the column may hold nulls (it has definition levels).
	optional bool
	// logical: how the values of a DECIMAL, DATE, TIME or TIMESTAMP are
	// converted.
	logical parquetLogical
	// refused says why the column is not read ("" when it is); it is an
	// error only when the column is not ignored.
	refused string
}

// openParquet opens the Parquet file of in, sets the header from its
// columns, and returns the table that reads its rows.
func openParquet(r *reader, in *Input) (t *parquetTable, err error) {
	defer recoverParquet(r.src, &err)
	if err := checkFooter(in.at, in.size); err != nil {
		return nil, fmt.Errorf("%s: not a readable Parquet file: %w", r.src, err)
	}
	at, size, err := decompressLZ4(in.at, in.size)
	if err != nil {
		return nil, fmt.Errorf("%s: not a readable Parquet file: %w", r.src, err)
	}
	f, err := parquet.OpenFile(at, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, fmt.Errorf("%s: not a readable Parquet file: %w", r.src, err)
	}
	t = &parquetTable{file: f, at: at, size: size, src: r.src, maxRows: int(min(in.size<<10, math.MaxInt32))}
	seen := map[string]bool{}
	for _, fl := range f.Schema().Fields() {
		c := parquetColumn{name: fl.Name(), optional: fl.Optional()}
		if seen[c.name] {
			return nil, &data.ParseError{File: r.src, ColumnName: c.name, Err: data.ErrDuplicate}
		}
		seen[c.name] = true
		switch {
		case !fl.Leaf():
			c.refused = "a nested column (a group of fields)"
		case fl.Repeated():
			c.refused = "a repeated column (a list)"
		default:
			c.kind = fl.Type().Kind()
			c.unsigned, c.logical, c.refused = parquetType(fl.Type())
		}
		t.cols = append(t.cols, c)
		r.header = append(r.header, c.name)
	}
	if len(t.cols) == 0 {
		return nil, &data.ParseError{File: r.src, Err: data.ErrEmpty}
	}
	if len(f.Schema().Columns()) != len(t.cols) {
		// Nested columns hold several leaves: the leaf columns do not
		// line up with the fields.
		for _, c := range t.cols {
			if c.refused != "" {
				return nil, &data.ParseError{File: r.src, ColumnName: c.name, Err: fmt.Errorf("%w: %s", ErrParquetType, c.refused)}
			}
		}
	}
	row := 1
	for _, g := range f.RowGroups() {
		r.groups = append(r.groups, row)
		row += int(g.NumRows())
	}
	t.rows = row - 1
	return t, nil
}

// parquetType tells how a leaf column of type t is read: unsigned
// integers, a logical type converted, or refused with the reason.
//
// INT96, a deprecated timestamp, is refused: writers disagree on its time
// zone (UTC for Spark, local time for Impala and Hive), so any reading of
// it would be a guess; a TIMESTAMP says which it is. (parquet-go turns
// the converted types DATE, TIME_* and TIMESTAMP_* into their logical
// types, and a DECIMAL too when the file gives its scale.)
func parquetType(t parquet.Type) (unsigned bool, logical parquetLogical, refused string) {
	if t.Kind() == parquet.Int96 {
		return false, logical, "INT96 (a legacy timestamp of no stated time zone: write it as a TIMESTAMP)"
	}
	if lt := t.LogicalType(); lt != nil {
		if v, ok := lt.Value.(*format.IntType); ok {
			return !v.IsSigned, logical, ""
		}
		if logical, refused = parquetLogicalType(lt, t.Kind(), t.Length()); logical.kind != logicalNone || refused != "" {
			return false, logical, refused
		}
	}
	if ct := t.ConvertedType(); ct != nil {
		switch *ct {
		case deprecated.Decimal:
			return false, logical, "a DECIMAL without its scale"
		case deprecated.Interval:
			return false, logical, "an INTERVAL"
		case deprecated.Uint8, deprecated.Uint16, deprecated.Uint32, deprecated.Uint64:
			return true, logical, ""
		}
	}
	if t.Kind() == parquet.FixedLenByteArray {
		return false, logical, "FIXED_LEN_BYTE_ARRAY"
	}
	return false, logical, ""
}

// recoverParquet turns a panic of the Parquet decoder on a corrupt file
// into an error.
func recoverParquet(src string, err *error) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("%s: corrupt Parquet file: %v", src, p)
	}
}

// next reads the next row group, its columns in parallel.
func (t *parquetTable) next(r *reader) (more bool, err error) {
	defer recoverParquet(t.src, &err)
	groups := t.file.RowGroups()
	if t.group == len(groups) {
		return false, nil
	}
	if t.group == 0 {
		r.reserve(min(t.rows, t.maxRows))
	}
	g := groups[t.group]
	t.group++
	for f, c := range t.cols {
		switch mode := r.plans[f].mode; {
		case mode == cellSkip:
		case c.refused != "":
			return false, &data.ParseError{File: t.src, ColumnName: c.name,
				Err: fmt.Errorf("%w: the column is %s; numbers, strings and booleans are read (ignore the column to read the others)", ErrParquetType, c.refused)}
		case c.logical.named() && mode == cellInfer:
			return false, &data.ParseError{File: t.src, ColumnName: c.name,
				Err: fmt.Errorf("%w: the column is %s when named so, or ignored %s", ErrParquetType, c.logical.what(), namedRemedy)}
		}
	}
	// The rows are allocated before they are read: a corrupt count
	// must not allocate what the columns do not hold.
	n := int(g.NumRows())
	chunks := g.ColumnChunks()
	if len(chunks) != len(t.cols) {
		return false, t.groupError(r, 0, fmt.Errorf("%d column chunks for %d columns", len(chunks), len(t.cols)))
	}
	for f, cc := range chunks {
		if r.plans[f].mode != cellSkip && (cc.NumValues() != int64(n) || n < 0 || n > t.maxRows) {
			return false, t.groupError(r, f, fmt.Errorf("%d values for the row group's %d rows", cc.NumValues(), n))
		}
	}
	lo, err := r.addRows(n)
	if err != nil {
		return false, err
	}
	for k := range n {
		r.lines[lo+k] = r.groups[t.group-1] + k
	}
	errs := make([]error, len(t.cols))
	if t.bufs == nil {
		t.bufs = make([][]float64, len(t.cols)) // buffer fills its own field's
		t.chunks = make([][]byte, len(t.cols))  // readColumn its own field's
	}
	var next sync.Mutex
	todo := 0
	parallel.For(parallel.Workers(), 1, func(_, _, _ int) {
		for {
			next.Lock()
			f := todo
			todo++
			next.Unlock()
			if f >= len(t.cols) {
				return
			}
			if r.plans[f].mode != cellSkip {
				errs[f] = t.readColumn(r, f, chunks[f], lo, n, t.buffer(r, f, n))
			}
		}
	})
	t.scatter(r, lo, n)
	var first *data.ParseError
	for _, err := range errs {
		var pe *data.ParseError
		switch {
		case err == nil:
		case !errors.As(err, &pe):
			return false, err
		case first == nil || pe.Line < first.Line:
			first = pe
		}
	}
	if first != nil {
		return false, first
	}
	return t.group < len(groups), nil
}

// held returns the bytes of the file when it was read into memory (see
// Open), else 0.
func (t *parquetTable) held() int64 {
	if _, ok := t.at.(*bytes.Reader); ok {
		return t.size
	}
	return 0
}

// buffer returns the buffer of n values for field f when its values are
// numbers for a feature (see readColumn), else nil.
func (t *parquetTable) buffer(r *reader, f, n int) []float64 {
	c, pl := &t.cols[f], &r.plans[f]
	if pl.dst != destX || pl.mode != cellInfer && pl.mode != cellNumber || c.unsigned || c.logical.kind != logicalNone ||
		c.kind != parquet.Double && c.kind != parquet.Int64 && c.kind != parquet.Int32 {
		return nil
	}
	if cap(t.bufs[f]) < n {
		t.bufs[f] = make([]float64, n)
	}
	return t.bufs[f][:n]
}

// scatter copies the buffered columns of rows [lo, lo+n) into X, the
// rows in parallel.
func (t *parquetTable) scatter(r *reader, lo, n int) {
	var fields []int
	for f, b := range t.bufs {
		if b != nil && r.plans[f].mode != cellSkip && r.plans[f].dst == destX {
			fields = append(fields, f)
		}
	}
	if len(fields) == 0 {
		return
	}
	d := r.d
	cols, js := make([][]float64, len(fields)), make([]int, len(fields))
	for k, f := range fields {
		cols[k], js[k] = t.bufs[f][:n], r.plans[f].j
	}
	parallel.For(n, 4096, func(_, a, b int) {
		for i := a; i < b; i++ {
			row := r.x[(lo+i)*d : (lo+i+1)*d]
			for k, col := range cols {
				row[js[k]] = col[i]
			}
		}
	})
}

// readColumn reads column chunk cc, the n values of field f from row lo.
//
// A column of numbers for a feature (fast) goes to buf, from which
// scatter copies it into X row by row once every column is read: columns
// written straight into the rows of X by parallel workers would share
// cache lines.
func (t *parquetTable) readColumn(r *reader, f int, cc parquet.ColumnChunk, lo, n int, buf []float64) (err error) {
	defer recoverParquet(t.src, &err)
	c := &t.cols[f]
	if groups := t.file.Metadata().RowGroups; t.group-1 < len(groups) && f < len(groups[t.group-1].Columns) {
		meta := &groups[t.group-1].Columns[f].MetaData
		if err := checkChunk(t.at, t.size, meta, n, c.optional, &t.chunks[f]); err != nil {
			return t.groupError(r, f, err)
		}
	}
	pages := cc.Pages()
	defer pages.Close()
	vals := make([]parquet.Value, 1024)
	fast := buf != nil
	var text []byte
	i := lo
	for {
		page, err := pages.ReadPage()
		if err == io.EOF {
			break
		}
		if err != nil {
			return t.groupError(r, f, err)
		}
		if fast && page.Dictionary() == nil && page.NumNulls() == 0 {
			// The page's values as they lie in it: no parquet.Value each.
			k, ok := copyNumbers(buf[min(i-lo, n):], page.Data())
			if ok {
				if i+k > lo+n || int64(k) != page.NumValues() {
					parquet.Release(page)
					return t.groupError(r, f, fmt.Errorf("more values than the row group's %d rows", n))
				}
				err := t.checkNumbers(r, f, i, buf[i-lo:i-lo+k], nil)
				parquet.Release(page)
				if err != nil {
					return err
				}
				i += k
				continue
			}
		}
		values := page.Values()
		for {
			k, err := values.ReadValues(vals)
			if i+k > lo+n {
				parquet.Release(page)
				return t.groupError(r, f, fmt.Errorf("more values than the row group's %d rows", n))
			}
			var perr error
			if fast {
				perr = t.putNumbers(r, c, f, i, vals[:k], buf[i-lo:])
			} else {
				for m, v := range vals[:k] {
					if perr = t.put(r, c, f, i+m, v, &text); perr != nil {
						break
					}
				}
			}
			if perr != nil {
				parquet.Release(page)
				return perr
			}
			i += k
			if err == io.EOF {
				break
			}
			if err != nil {
				parquet.Release(page)
				return t.groupError(r, f, err)
			}
		}
		parquet.Release(page)
	}
	if i != lo+n {
		return t.groupError(r, f, fmt.Errorf("%d values for the row group's %d rows", i-lo, n))
	}
	return nil
}

// putNumbers stores the values vals of column c, a DOUBLE, INT64 or INT32
// column read into feature f as numbers, of rows from i, in dst: the loop
// of put and putNumber for the common case, which leaves an infinite
// number or NaN to putNumber (checkNumbers).
func (t *parquetTable) putNumbers(r *reader, c *parquetColumn, f, i int, vals []parquet.Value, dst []float64) error {
	for m, v := range vals {
		switch {
		case v.IsNull():
			dst[m] = math.NaN()
		case c.kind == parquet.Double:
			dst[m] = v.Double()
		case c.kind == parquet.Int64:
			dst[m] = float64(v.Int64())
		default:
			dst[m] = float64(v.Int32())
		}
	}
	return t.checkNumbers(r, f, i, dst[:len(vals)], vals)
}

// checkNumbers notes the kinds of the numbers ys of feature f, rows from
// i (numFlags), and passes an infinite number or NaN to putNumber, which
// refuses it or reads it as missing, leaving in ys what it stored; a null
// (vals[m] when vals is not nil) is already missing.
func (t *parquetTable) checkNumbers(r *reader, f, i int, ys []float64, vals []parquet.Value) error {
	var flags uint8
	for m, y := range ys {
		if y-y != 0 {
			if vals != nil && vals[m].IsNull() {
				continue
			}
			if err := r.putNumber(f, i+m, y, nil); err != nil {
				return err
			}
			ys[m] = r.get(f, i+m)
			continue
		}
		flags |= numFlags(y, true)
	}
	r.cols[f].flags |= flags
	return nil
}

// copyNumbers copies the values of a page of DOUBLE, INT64 or INT32 into
// dst as float64 and returns how many the page holds (which may be more
// than dst, which then holds the first); ok is false for any other kind.
func copyNumbers(dst []float64, vals encoding.Values) (n int, ok bool) {
	switch vals.Kind() {
	case encoding.Double:
		v := vals.Double()
		copy(dst, v)
		return len(v), true
	case encoding.Int64:
		v := vals.Int64()
		for m, x := range v[:min(len(v), len(dst))] {
			dst[m] = float64(x)
		}
		return len(v), true
	case encoding.Int32:
		v := vals.Int32()
		for m, x := range v[:min(len(v), len(dst))] {
			dst[m] = float64(x)
		}
		return len(v), true
	}
	return 0, false
}

// put stores value v of column c in field f of row i.
func (t *parquetTable) put(r *reader, c *parquetColumn, f, i int, v parquet.Value, text *[]byte) error {
	if v.IsNull() {
		r.putMissing(f, i)
		return nil
	}
	if c.logical.kind != logicalNone {
		return t.putLogical(r, c, f, i, v, text)
	}
	switch c.kind {
	case parquet.Double:
		return r.putNumber(f, i, v.Double(), nil)
	case parquet.Float:
		// The shortest decimal that rounds to the float32, as a CSV
		// file written from it would hold.
		*text = strconv.AppendFloat((*text)[:0], float64(v.Float()), 'g', -1, 32)
		x, _ := strconv.ParseFloat(string(*text), 64)
		return r.putNumber(f, i, x, nil)
	case parquet.Int32:
		if c.unsigned {
			return r.putNumber(f, i, float64(uint32(v.Int32())), nil)
		}
		return r.putNumber(f, i, float64(v.Int32()), nil)
	case parquet.Int64:
		if c.unsigned {
			return r.putNumber(f, i, float64(uint64(v.Int64())), nil)
		}
		return r.putNumber(f, i, float64(v.Int64()), nil)
	case parquet.Boolean:
		return r.putString(f, i, strconv.AppendBool((*text)[:0], v.Boolean()))
	case parquet.ByteArray:
		if len(v.ByteArray()) > r.maxRecord {
			return r.cellError(i, f, tooLongErr(r.maxRecord))
		}
		return r.putString(f, i, v.ByteArray())
	}
	return t.groupError(r, f, fmt.Errorf("%w: physical type %v", ErrParquetType, c.kind))
}

// groupError is an error of the decoder about field f in the current
// row group.
func (t *parquetTable) groupError(r *reader, f int, err error) error {
	return &data.ParseError{File: t.src, Line: r.groups[t.group-1], RowGroup: t.group, ColumnName: t.cols[f].name,
		Err: fmt.Errorf("reading the row group: %w", err)}
}
