package dataio

import (
	"fmt"
	"math"
	"slices"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/cell"
)

// inferred builds the Dataset of Read: a column still numeric at the end
// is Numeric, a string column is Categorical or Text (forced, or by
// looksLikeText), the target is Categorical unless read as a number.
func (r *reader) inferred(forced map[int]data.Kind) (*data.Dataset, error) {
	if err := r.finalErrors(); err != nil {
		return nil, err
	}
	d := r.dataset(&data.Schema{})
	for f, pl := range r.plans {
		if pl.mode == cellSkip || pl.dst == destW {
			continue
		}
		col := data.Column{Name: pl.name}
		switch pl.mode {
		case cellInfer, cellNumber:
			col.Integral = r.cols[f].integral()
		case cellString:
			kind, ok := forced[f]
			if !ok {
				kind = data.Categorical
				if pl.dst == destX && r.looksLikeText(f) {
					kind = data.Text
				}
			}
			col.Kind = kind
			switch {
			case kind == data.Text:
				r.toText(d, f)
			case ok || pl.dst != destX:
				col.Levels = r.sortLevels(f)
			default:
				if w := r.mostlyNumeric(f); w != nil {
					d.Source.Warnings = append(d.Source.Warnings, w)
				}
				col.Levels = r.sortLevels(f)
			}
		}
		if pl.dst == destY {
			d.Schema.Target = &col
		} else {
			d.Schema.Features = append(d.Schema.Features, col)
		}
	}
	d.SetRanges()
	return d, nil
}

// withSchema builds the Dataset of ReadWithSchema: the schema s, or with
// extend a clone of it with the new levels appended.
func (r *reader) withSchema(s *data.Schema, extend bool) (*data.Dataset, error) {
	if err := r.finalErrors(); err != nil {
		return nil, err
	}
	if extend {
		s = s.Clone()
	}
	d := r.dataset(s)
	for f, pl := range r.plans {
		if pl.mode == cellSkip || pl.dst == destW {
			continue
		}
		col := schemaColumn(s, pl)
		switch col.Kind {
		case data.Text:
			r.toText(d, f)
		case data.Categorical:
			if extend {
				// Clipped: the reader of ReadChunks appends to strs
				// beyond the levels handed out.
				col.Levels = slices.Clip(r.cols[f].strs)
			}
			if c := &r.cols[f]; c.unseen > 0 && pl.dst == destX {
				p := &d.Source
				if p.Unseen == nil {
					p.Unseen, p.UnseenValues = make([]int, len(s.Features)), make([][]string, len(s.Features))
				}
				p.Unseen[pl.j], p.UnseenValues[pl.j] = c.unseen, c.unseenValues
			}
			if n := r.cols[f].booleans; n > 0 && pl.dst == destX {
				if d.Source.Booleans == nil {
					d.Source.Booleans = make([]int, len(s.Features))
				}
				d.Source.Booleans[pl.j] = n
			}
		}
	}
	if extend {
		d.SetRanges()
	}
	return d, nil
}

// finalErrors reports an input without rows, and the first infinite
// number of a column that stayed numeric.
func (r *reader) finalErrors() error {
	if r.n == 0 {
		return &data.ParseError{File: r.src, Line: r.headerLine, Err: data.ErrNoRows}
	}
	var first *data.ParseError
	for f, pl := range r.plans {
		e := r.cols[f].inf
		if pl.mode != cellInfer || e == nil {
			continue
		}
		if first == nil || e.Line < first.Line || e.Line == first.Line && e.Column < first.Column {
			first = e
		}
	}
	if first != nil {
		return first
	}
	return nil
}

// dataset wraps the arrays read.
func (r *reader) dataset(s *data.Schema) *data.Dataset {
	d := &data.Dataset{Schema: s, N: r.n, X: r.x,
		Source: data.Provenance{Name: r.src, Lines: r.lines, RowGroups: r.groups, Columns: make([]int, r.d)}}
	if r.hasY {
		d.Y = r.y
	}
	if r.hasW {
		d.Weight = r.w
	}
	for f, pl := range r.plans {
		if pl.dst == destX && pl.mode != cellSkip {
			d.Source.Columns[pl.j] = f + 1
		}
	}
	return d
}

// mostlyNumeric returns the warning for string field f, read as
// categorical by inference, when its cells are mostly numbers:
//
//	numbers >= 0.95 × non-missing cells,
//
// positioned at the first cell that is not a number; nil otherwise. It
// is called before sortLevels renumbers the cells.
func (r *reader) mostlyNumeric(f int) *data.ParseError {
	strs := r.cols[f].strs
	isNum := make([]bool, len(strs))
	for k, s := range strs {
		v, ok, _ := cell.Parse([]byte(s))
		isNum[k] = ok && !math.IsInf(v, 0)
	}
	n, nums, first := 0, 0, -1
	for i := range r.n {
		v := r.get(f, i)
		if v != v {
			continue
		}
		n++
		if isNum[int(v)] {
			nums++
		} else if first < 0 {
			first = i
		}
	}
	if first < 0 || 20*nums < 19*n {
		return nil
	}
	return r.cellError(first, f, fmt.Errorf("%w: %d of its %d values are numbers, the first that is not is %q", data.ErrMostlyNumeric, nums, n, strs[int(r.get(f, first))]))
}

// looksLikeText reports whether string field f holds prose rather than
// categories: with n non-missing cells and V distinct values,
//
//	mean words per cell >= 3, or
//	V >= 20 and 2V > n and more than V/2 values have two words or more
//
// where words are runs of bytes other than space, tab, \r and \n.
func (r *reader) looksLikeText(f int) bool {
	strs := r.cols[f].strs
	counts := make([]int, len(strs))
	n := 0
	for i := range r.n {
		if v := r.get(f, i); v == v {
			counts[int(v)]++
			n++
		}
	}
	words, multi := 0, 0
	for id, s := range strs {
		w := wordCount(s)
		words += w * counts[id]
		if w > 1 {
			multi++
		}
	}
	V := len(strs)
	return n > 0 && (words >= 3*n || V >= 20 && 2*V > n && 2*multi > V)
}

// wordCount counts the runs of non-space bytes in s.
func wordCount(s string) int {
	w, in := 0, false
	for i := 0; i < len(s); i++ {
		space := s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'
		if !space && !in {
			w++
		}
		in = !space
	}
	return w
}

// integral reports that the numbers read in the column were integers,
// and that there was one.
func (c *colState) integral() bool {
	return c.flags&statHas != 0 && c.flags&statFrac == 0
}

// toText moves string field f of the rows into d.Text, leaves NaN in X,
// and empties the field's dictionary (which ReadChunks starts afresh for
// each chunk).
func (r *reader) toText(d *data.Dataset, f int) {
	j := r.plans[f].j
	if d.Text == nil {
		d.Text = make([][]string, r.d)
	}
	col := make([]string, r.n)
	strs := r.cols[f].strs
	for i := range r.n {
		if v := r.x[i*r.d+j]; v == v {
			col[i] = strs[int(v)]
			r.x[i*r.d+j] = math.NaN()
		}
	}
	d.Text[j] = col
	r.cols[f].dict, r.cols[f].strs = nil, nil
}

// sortLevels sorts the strings of field f, numerically when all are
// numbers and bytewise otherwise, renumbers the cells, and returns the
// sorted levels.
func (r *reader) sortLevels(f int) []string {
	strs := r.cols[f].strs
	order := data.LevelOrder(strs)
	rank := make([]float64, len(strs))
	levels := make([]string, len(strs))
	for k, id := range order {
		rank[id] = float64(k)
		levels[k] = strs[id]
	}
	for i := range r.n {
		if v := r.get(f, i); v == v {
			r.set(f, i, rank[int(v)])
		}
	}
	return levels
}
