package dataio

import (
	"bytes"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/cell"
)

// cellMode says how the cells of a field are read.
type cellMode uint8

const (
	// cellSkip: an ignored column.
	cellSkip cellMode = iota
	// cellInfer: a number while every cell so far was one; at the first
	// other cell the column becomes cellString.
	cellInfer
	// cellNumber: must be a number.
	cellNumber
	// cellString: kept as text, interned, stored as the string's id.
	cellString
)

// dest is where the cells of a field are stored.
type dest uint8

const (
	destX dest = iota // feature column j of X
	destY             // the target
	destW             // the row weights
)

// fieldPlan says what to do with one field of the file.
type fieldPlan struct {
	name string
	mode cellMode
	dst  dest
	j    int // feature index, for destX
}

// Flags of colStats.
const (
	statHas      = 1 << iota // some number was read
	statFrac                 // some number was not an integer
	statNonCanon             // some number was not in canonical form
)

// colStats is what parsing one block learnt about one field.
type colStats struct {
	// flip is the block row of the first cell of an inferred column that
	// was not a number; -1 when none. Cells before it hold numbers, cells
	// from it on hold string ids.
	flip  int
	flags uint8
	// inf is the first infinite number of an inferred column, an error if
	// the column ends up numeric.
	inf *data.ParseError
	// dict and strs intern the strings of the block: strs[id] is the
	// string stored as id.
	dict map[string]int32
	strs []string
	last int32 // id of the last string, checked before dict
}

// block is a range of whole rows of a chunk, parsed by one goroutine
// straight into its rows of the dataset's arrays.
type block struct {
	b       []byte
	comma   byte
	src     string
	line0   int // line of b[0]
	d       int // features per row
	x, y, w []float64
	lines   []int
	plans   []fieldPlan // a copy: cellInfer turns into cellString
	stats   []colStats
	rows    int
	err     error
	scratch []byte
	// maxRecord is the most bytes of a row (Limits.MaxRecord); 0 for
	// no limit.
	maxRecord int
}

// parse reads the rows of k.b, stopping at the first error (k.err).
// Blank lines are skipped.
func (k *block) parse() {
	b, n, nf := k.b, len(k.b), len(k.plans)
	line := k.line0
	p := 0
	for p < n {
		if b[p] == '\n' {
			p, line = p+1, line+1
			continue
		}
		if b[p] == '\r' && (p+1 == n || b[p+1] == '\n') {
			p, line = p+2, line+1
			continue
		}
		r := k.rows
		k.lines[r] = line
		start := p
		x := k.x[r*k.d : (r+1)*k.d]
		for f := 0; ; f++ {
			if f == nf {
				k.tooMany(p, r, nf)
				return
			}
			// The fast path: an unquoted finite number for a feature.
			pl := &k.plans[f]
			end, nl, ok := 0, 0, false
			if (pl.mode == cellInfer || pl.mode == cellNumber) && pl.dst == destX && p < n && b[p] != '"' {
				var v float64
				var canon bool
				v, end, ok, canon = cell.Scan(b, p)
				ok = ok && v-v == 0 && k.fieldEnd(end)
				if ok {
					k.stats[f].flags |= numFlags(v, canon)
					x[pl.j] = v
				}
			}
			if !ok {
				end, nl = k.cell(p, f, r, line)
				if k.err != nil {
					return
				}
			}
			line += nl
			if end < n && b[end] == '\r' {
				end++
			}
			if end == n || b[end] == '\n' {
				p = min(end+1, n)
				if k.maxRecord > 0 && p-start > k.maxRecord {
					k.err = tooLong(k.src, k.lines[r], k.maxRecord)
					return
				}
				line++
				if f+1 < nf {
					k.fieldCount(r, nf, f+1)
					return
				}
				break
			}
			p = end + 1 // past the comma
		}
		k.rows++
	}
}

// fieldEnd reports whether a field can end at b[e]: at a comma, a line
// end, or the end of the block.
func (k *block) fieldEnd(e int) bool {
	b := k.b
	return e == len(b) || b[e] == k.comma || b[e] == '\n' || b[e] == '\r' && (e+1 == len(b) || b[e+1] == '\n')
}

// numFlags are the colStats flags of a finite number v.
func numFlags(v float64, canon bool) uint8 {
	fl := uint8(statHas)
	if !canon {
		fl |= statNonCanon
	}
	if v != math.Trunc(v) {
		fl |= statFrac
	}
	return fl
}

// cell reads the field at b[p:] in general: quoted or not, any content.
func (k *block) cell(p, f, r, line int) (end, nl int) {
	s, end, nl, err := k.field(p)
	if err != nil {
		k.fail(line, f+1, k.plans[f].name, err)
		return end, nl
	}
	pl := &k.plans[f]
	switch pl.mode {
	case cellSkip:
	case cellInfer, cellNumber:
		if cell.Missing(cell.TrimSpace(s)) {
			k.store(f, r, line, s, math.NaN(), true)
			break
		}
		if v, ok, canon := cell.Parse(s); ok {
			k.store(f, r, line, s, v, canon)
			break
		}
		if pl.mode == cellNumber {
			k.fail(line, f+1, pl.name, fmt.Errorf("%w: %q", data.ErrNotNumber, s))
			break
		}
		pl.mode = cellString
		k.stats[f].flip = r
		k.intern(f, r, line, s)
	case cellString:
		k.intern(f, r, line, s)
	}
	return end, nl
}

// store writes the number v, read from text s, into field f of row r.
func (k *block) store(f, r, line int, s []byte, v float64, canon bool) {
	pl, st := &k.plans[f], &k.stats[f]
	switch {
	case v != v:
	case math.IsInf(v, 0):
		err := fmt.Errorf("%w: %q", data.ErrInfinite, s)
		if pl.mode == cellNumber {
			k.fail(line, f+1, pl.name, err)
			return
		}
		if st.inf == nil {
			st.inf = &data.ParseError{File: k.src, Line: line, Column: f + 1, ColumnName: pl.name, Err: err}
		}
		st.flags |= statNonCanon
	default:
		st.flags |= numFlags(v, canon)
	}
	switch pl.dst {
	case destX:
		k.x[r*k.d+pl.j] = v
	case destY:
		k.y[r] = v
	case destW:
		if !(v >= 0) {
			k.fail(line, f+1, pl.name, fmt.Errorf("%w: %q", data.ErrWeight, s))
		}
		k.w[r] = v
	}
}

// intern stores the string s (or a missing value) in field f of row r as
// its id in the block's dictionary.
func (k *block) intern(f, r, line int, s []byte) {
	v := math.NaN()
	if !cell.Missing(cell.TrimSpace(s)) {
		st := &k.stats[f]
		id, ok := st.last, len(st.strs) > 0 && string(s) == st.strs[st.last]
		if !ok {
			id, ok = st.dict[string(s)]
		}
		if !ok {
			if !utf8.Valid(s) {
				k.fail(line, f+1, k.plans[f].name, fmt.Errorf("%w: %q", data.ErrEncoding, s))
				return
			}
			if st.dict == nil {
				st.dict = make(map[string]int32)
			}
			id = int32(len(st.strs))
			str := string(s)
			st.dict[str] = id
			st.strs = append(st.strs, str)
		}
		st.last, v = id, float64(id)
	}
	if k.plans[f].dst == destY {
		k.y[r] = v
	} else {
		k.x[r*k.d+k.plans[f].j] = v
	}
}

// tooMany reports row r, which has more than nf fields, counting them.
func (k *block) tooMany(p, r, nf int) {
	got := nf
	for {
		_, end, _, err := k.field(p)
		got++
		if err != nil || end == len(k.b) || k.b[end] == '\n' {
			break
		}
		p = end + 1
	}
	k.fieldCount(r, nf, got)
}

// fieldCount reports row r, which has got fields where the header has nf,
// at the first field that is missing (named by the header) or the first
// one too many.
func (k *block) fieldCount(r, nf, got int) {
	col, name := nf+1, ""
	if got < nf {
		col, name = got+1, k.plans[got].name
	}
	k.fail(k.lines[r], col, name, fmt.Errorf("%w: line %d has %d fields, the header has %d", data.ErrFieldCount, k.lines[r], got, nf))
}

func (k *block) fail(line, col int, name string, err error) {
	k.err = &data.ParseError{File: k.src, Line: line, Column: col, ColumnName: name, Err: err}
}

// field reads the field at k.b[p:] and returns its content (a view of k.b,
// or of k.scratch for a quoted field with doubled quotes), the offset of
// its terminator (a comma, '\n', or len(b)), and the number of newlines
// inside it. A quoted field keeps its content as written (line ends
// included) except that "" stands for "; a quote inside an unquoted field
// is an error.
func (k *block) field(p int) (s []byte, end, nl int, err error) {
	b := k.b
	if p == len(b) || b[p] != '"' {
		i := p
		for i < len(b) && b[i] != k.comma && b[i] != '\n' {
			if b[i] == '"' {
				return nil, i, 0, fmt.Errorf("%w: \" in an unquoted field", data.ErrQuote)
			}
			i++
		}
		s = b[p:i]
		if (i == len(b) || b[i] == '\n') && len(s) > 0 && s[len(s)-1] == '\r' {
			s = s[:len(s)-1]
		}
		return s, i, 0, nil
	}
	q := p + 1
	escaped := false
	for {
		i := bytes.IndexByte(b[q:], '"')
		if i < 0 {
			return nil, len(b), 0, fmt.Errorf("%w: quoted field not closed", data.ErrQuote)
		}
		q += i
		if q+1 < len(b) && b[q+1] == '"' {
			q += 2
			escaped = true
			continue
		}
		break
	}
	s = b[p+1 : q]
	nl = bytes.Count(s, []byte{'\n'})
	end = q + 1
	if end < len(b) && b[end] == '\r' && (end+1 == len(b) || b[end+1] == '\n') {
		end++
	}
	if end < len(b) && b[end] != k.comma && b[end] != '\n' {
		return nil, end, nl, fmt.Errorf("%w: text after the closing quote", data.ErrQuote)
	}
	if escaped {
		k.scratch = k.scratch[:0]
		for i := 0; i < len(s); i++ {
			if s[i] == '"' {
				i++ // the first of a doubled quote
			}
			k.scratch = append(k.scratch, s[i])
		}
		s = k.scratch
	}
	return s, end, nl, nil
}
