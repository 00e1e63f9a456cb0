package dataio

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/hugepage"
	"github.com/gendisc/gendisc/internal/parallel"
)

// readConfig tunes the reader; tests shrink it to exercise chunk and block
// boundaries.
type readConfig struct {
	chunk  int // bytes read and parsed at a time (grown for a longer row)
	blocks int // blocks per chunk; 0 = four per core, each at least minBlock bytes
	// perChunk: the arrays hold one chunk's rows at a time (ReadChunks),
	// so they are sized for the chunk alone, and the buffer starts at
	// the full chunk size (the first chunk is the sample the types are
	// inferred from).
	perChunk bool
	limits   Limits // of the Options
}

var defaultConfig = readConfig{chunk: 32 << 20} // as documented in Read and ReadChunks

const minBlock = 256 << 10

// colState is what the reader knows about one field of the file over the
// chunks read so far.
type colState struct {
	flags uint8            // statHas | statFrac | statNonCanon over the numbers read
	inf   *data.ParseError // first infinite number of an inferred column
	// dict and strs intern the strings of a cellString field: strs[id] is
	// the string stored as id.
	dict map[string]int32
	strs []string
	// closed says that strings not already in dict are unseen levels
	// (a schema's categorical column read without Extend).
	closed bool
	// bytes counts the memory of dict and strs (stringBytes a string).
	bytes int64
	// inexact says that numbers not written in canonical form were
	// turned into strings when the column turned out not to be numeric,
	// so their text was lost.
	inexact bool
	unseen  int // cells with an unseen level
	// unseenValues are the first of those values (MaxUnseenValues).
	unseenValues []string
	// level is the schema's column of a closed field, for the levels of
	// a boolean pair (Column.BooleanLevel); booleans counts the cells
	// read as them.
	level    *data.Column
	booleans int
}

// unseenLevel handles the value s of field f, row i, that is not a level
// of its closed column c: the level of a boolean pair that s stands for,
// or a missing value counted as unseen, or the error of an unseen class
// (unless unseenClassMissing) or, with unseenError, of an unseen level.
// It returns the level's id, or −1 for a missing value.
func (r *reader) unseenLevel(f, i int, s string) (int32, error) {
	c, pl := &r.cols[f], &r.plans[f]
	if c.level != nil {
		if k := c.level.BooleanLevel(s); k >= 0 {
			c.booleans++
			return int32(k), nil
		}
	}
	switch {
	case pl.dst == destY && !r.unseenClassMissing:
		return -1, r.cellError(i, f, fmt.Errorf("%w: %q", data.ErrUnseenClass, s))
	case pl.dst == destX && r.unseenError:
		return -1, r.cellError(i, f, fmt.Errorf("%w: %q (the model's levels: %s)", data.ErrUnseenLevel, s, levelList(c.level)))
	}
	c.unseen++
	if len(c.unseenValues) < data.MaxUnseenValues && !slices.Contains(c.unseenValues, s) {
		c.unseenValues = append(c.unseenValues, s)
	}
	return -1, nil
}

// levelList lists the first levels of c for a message.
func levelList(c *data.Column) string {
	if c == nil {
		return ""
	}
	const most = 10
	if len(c.Levels) > most {
		return strings.Join(c.Levels[:most], ", ") + fmt.Sprintf(", ... (%d in all)", len(c.Levels))
	}
	return strings.Join(c.Levels, ", ")
}

// reader reads a delimited file in chunks: each chunk ends at a row
// boundary, is split into blocks of whole rows, and the blocks are parsed
// in parallel straight into X, Y, Weight and Lines, which grow by the
// chunk's rows.
type reader struct {
	in     io.Reader
	src    string
	cfg    readConfig
	buf    []byte // pending input
	spare  []byte // the next buffer, filled while buf is parsed
	eof    bool
	offset int64 // input offset of buf[0]
	input  *Input
	line   int // line of buf[0]

	comma      byte
	header     []string
	headerLine int

	plans []fieldPlan // per field of the file
	cols  []colState
	d     int // features
	hasY  bool
	hasW  bool
	// unseenError makes an unseen level of a feature an error
	// (SchemaOptions.UnseenError).
	unseenError bool
	// unseenClassMissing reads an unseen class as a missing target
	// (SchemaOptions.UnseenClassMissing).
	unseenClassMissing bool

	n       int // rows read
	x, y, w []float64
	lines   []int

	// tab reads Parquet or JSON lines in place of delimited text; nil
	// for CSV.
	tab table
	// groups, for a Parquet file, are the numbers (from 1) of the first
	// row of each row group.
	groups []int

	maxRecord int   // Limits.MaxRecord
	budget    int64 // Limits.MaxMemory, -1 for none
}

// newReader reads the header of in. comma 0 detects the delimiter.
func newReader(in io.Reader, src string, comma rune, cfg readConfig) (*reader, error) {
	c, err := checkComma(comma)
	if err != nil {
		return nil, err
	}
	budget := cfg.limits.maxMemory()
	input, err := open(in, src, budget)
	if err != nil {
		return nil, err
	}
	in = input.Reader
	r := &reader{in: in, src: src, cfg: cfg, input: input, line: 1, maxRecord: cfg.limits.maxRecord(), budget: budget}
	if input.Format != CSV {
		return r, r.openTable(input)
	}
	// Small inputs get a small buffer; one of unknown size (or
	// compressed) starts at 64 KB and doubles with each chunk up to
	// cfg.chunk (unless read chunk by chunk).
	size := min(cfg.chunk, 64<<10)
	switch {
	case input.Compression == "" && input.length >= 0:
		size = min(cfg.chunk, int(input.length)+1)
	case cfg.perChunk:
		size = cfg.chunk
	}
	r.buf = make([]byte, 0, size)
	if err := r.readHeader(c); err != nil {
		return nil, err
	}
	return r, nil
}

// inputSize returns the number of bytes left in in when it can tell, else
// -1.
func inputSize(in io.Reader) int64 {
	switch v := in.(type) {
	case interface{ Len() int }:
		return int64(v.Len())
	case interface {
		Stat() (fs.FileInfo, error)
		io.Seeker
	}:
		fi, err := v.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			return -1
		}
		off, err := v.Seek(0, io.SeekCurrent)
		if err != nil {
			return -1
		}
		return fi.Size() - off
	}
	return -1
}

// fill reads until the buffer is full or the input ends.
func (r *reader) fill() (err error) {
	r.buf, r.eof, err = readFull(r.in, r.src, r.buf, r.eof)
	return err
}

// readFull reads from in into buf until buf is full or in ends (eof).
func readFull(in io.Reader, src string, buf []byte, eof bool) ([]byte, bool, error) {
	for len(buf) < cap(buf) && !eof {
		n, err := in.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			eof = true
		} else if err != nil {
			return buf, eof, fmt.Errorf("%s: %w", src, err)
		}
	}
	return buf, eof, nil
}

// consume drops the first k bytes of the buffer, which hold that many
// line ends.
func (r *reader) consume(k, lines int) {
	r.buf = r.buf[:copy(r.buf, r.buf[k:])]
	r.offset += int64(k)
	r.line += lines
}

// resize gives the buffer capacity c (at least its length).
func (r *reader) resize(c int) {
	r.buf = append(make([]byte, 0, max(c, len(r.buf))), r.buf...)
}

// doubled returns twice c, or most when that is less or not much more
// (within half of it), so that a buffer doubling towards most does not
// stop just short of it.
func doubled(c, most int) int {
	if c = 2 * c; most-c < c/2 {
		return most
	}
	return c
}

// growRecord doubles the buffer, which holds no whole record from its
// start, up to one byte more than a record's limit: a buffer of that size
// that is full holds a record too long.
func (r *reader) growRecord() error {
	most := r.maxRecord + 1
	if len(r.buf) >= most {
		// The record starts after the blank lines at the start of
		// the buffer.
		blank := r.buf[:len(r.buf)-len(bytes.TrimLeft(r.buf, "\r\n"))]
		return tooLong(r.src, r.line+bytes.Count(blank, []byte{'\n'}), r.maxRecord)
	}
	c := doubled(cap(r.buf), most)
	if err := r.checkMemory(int64(c)); err != nil { // the old buffer and the new
		return err
	}
	r.resize(c)
	return nil
}

var bom = []byte("\xef\xbb\xbf")

// readHeader skips a byte order mark and blank lines, finds the header
// row, detects the delimiter unless comma is set, and reads the names.
func (r *reader) readHeader(comma byte) error {
	if cap(r.buf) < len(bom) {
		r.resize(len(bom))
	}
	if err := r.fill(); err != nil {
		return err
	}
	if bytes.HasPrefix(r.buf, bom) {
		r.consume(len(bom), 0)
	}
	var end int
	var counts [3]int
	for {
		if err := r.fill(); err != nil {
			return err
		}
		blank := 0
		for blank < len(r.buf) && (r.buf[blank] == '\n' || r.buf[blank] == '\r') {
			blank++
		}
		if blank > 0 {
			r.consume(blank, bytes.Count(r.buf[:blank], []byte{'\n'}))
			continue
		}
		if len(r.buf) == 0 {
			return &data.ParseError{File: r.src, Err: data.ErrEmpty}
		}
		end, counts = headerEnd(r.buf)
		if end >= 0 || r.eof {
			break
		}
		if err := r.growRecord(); err != nil {
			return err
		}
	}
	if end > r.maxRecord || end < 0 && len(r.buf) > r.maxRecord {
		return tooLong(r.src, r.line, r.maxRecord)
	}
	if end < 0 {
		end = len(r.buf)
	}
	if comma == 0 {
		comma = detectComma(counts)
	}
	r.comma, r.headerLine = comma, r.line
	k := &block{b: r.buf[:end], comma: comma}
	seen := make(map[string]int)
	for p, line := 0, r.line; ; {
		s, e, nl, err := k.field(p)
		col := len(r.header) + 1
		if err == nil && !utf8.Valid(s) {
			err = fmt.Errorf("%w: %q", data.ErrEncoding, s)
		}
		if err != nil {
			return &data.ParseError{File: r.src, Line: line, Column: col, Err: err}
		}
		name := string(s)
		if name == "" {
			name = "column_" + strconv.Itoa(col)
		}
		if c, ok := seen[name]; ok {
			return &data.ParseError{File: r.src, Line: line, Column: col, ColumnName: name,
				Err: fmt.Errorf("%w (also column %d)", data.ErrDuplicate, c)}
		}
		seen[name] = col
		r.header = append(r.header, name)
		line += nl
		if e == end || r.buf[e] == '\n' {
			break
		}
		p = e + 1
	}
	r.consume(end, bytes.Count(r.buf[:end], []byte{'\n'}))
	return nil
}

// readRows reads every row after the header.
func (r *reader) readRows() error {
	for {
		more, err := r.readChunk()
		if err != nil || !more {
			return err
		}
	}
}

// readChunk reads the next chunk of rows into the arrays, after those
// read before; more reports that input is left. A chunk is the rows that
// end in the buffer (cfg.chunk bytes, grown for a longer row).
func (r *reader) readChunk() (more bool, err error) {
	more, err = r.readSome()
	if err == nil {
		err = r.checkMemory(0)
	}
	return more, err
}

// readSome is readChunk before the check of the memory budget.
func (r *reader) readSome() (more bool, err error) {
	if r.tab != nil {
		return r.tab.next(r)
	}
	for {
		if cap(r.buf) < r.cfg.chunk && !r.eof {
			r.resize(min(2*cap(r.buf), r.cfg.chunk))
		}
		if err := r.fill(); err != nil {
			return false, err
		}
		if len(r.buf) == 0 {
			return false, nil
		}
		nb := r.cfg.blocks
		if nb <= 0 {
			nb = min(4*parallel.Workers(), max(1, len(r.buf)/minBlock))
		}
		targets := make([]int, nb-1)
		for k := range targets {
			targets[k] = (k + 1) * len(r.buf) / nb
		}
		splits, last := scanRows(r.buf, r.comma, targets)
		if r.eof {
			last = len(r.buf)
		}
		if last == 0 {
			if err := r.growRecord(); err != nil {
				return false, err
			}
			continue
		}
		bounds := []int{0}
		for _, s := range splits {
			if s > bounds[len(bounds)-1] && s < last {
				bounds = append(bounds, s)
			}
		}
		bounds = append(bounds, last)
		if r.eof {
			lines, err := r.parseChunk(r.buf[:last], bounds)
			r.consume(last, lines)
			return false, err
		}
		// While the chunk is parsed, the rest of the input is read into
		// the spare buffer, after the bytes that follow the chunk.
		if cap(r.spare) != cap(r.buf) {
			r.spare = make([]byte, 0, cap(r.buf))
		}
		next, eof := append(r.spare[:0], r.buf[last:]...), false
		done := make(chan error, 1)
		go func() {
			var err error
			next, eof, err = readFull(r.in, r.src, next, eof)
			done <- err
		}()
		lines, err := r.parseChunk(r.buf[:last], bounds)
		if readErr := <-done; err == nil {
			err = readErr
		}
		if err != nil {
			return false, err
		}
		r.spare, r.buf, r.eof = r.buf[:0], next, eof
		r.offset += int64(last)
		r.line += lines
		return true, nil
	}
}

// parseChunk parses the rows of chunk c, split into blocks at bounds, and
// returns the number of lines it held.
func (r *reader) parseChunk(c []byte, bounds []int) (lines int, err error) {
	nb := len(bounds) - 1
	blocks := make([]block, nb)
	// A block holds at most one row per newline, plus an unterminated
	// last row: first[i] is the first row slot of block i.
	first := make([]int, nb+1)
	first[0] = r.n
	line := r.line
	for i := range blocks {
		b := c[bounds[i]:bounds[i+1]]
		nl := bytes.Count(b, []byte{'\n'})
		stats := make([]colStats, len(r.plans))
		for f := range stats {
			stats[f].flip = -1
		}
		blocks[i] = block{b: b, comma: r.comma, src: r.src, line0: line, d: r.d,
			plans: slices.Clone(r.plans), stats: stats, maxRecord: r.maxRecord}
		first[i+1] = first[i] + nl + 1
		line += nl
	}
	if err := r.grow(first[nb], len(c)); err != nil {
		return 0, err
	}
	for i := range blocks {
		k := &blocks[i]
		lo, hi := first[i], first[i+1]
		k.x, k.lines = r.x[lo*r.d:hi*r.d], r.lines[lo:hi]
		if r.hasY {
			k.y = r.y[lo:hi]
		}
		if r.hasW {
			k.w = r.w[lo:hi]
		}
	}
	// Workers take the next block as they finish one, so a core that
	// the machine gives to another process does not hold the chunk up.
	var next atomic.Int64
	parallel.For(parallel.Workers(), 1, func(_, _, _ int) {
		for i := int(next.Add(1) - 1); i < nb; i = int(next.Add(1) - 1) {
			blocks[i].parse()
		}
	})
	for i := range blocks {
		if blocks[i].err != nil {
			return 0, blocks[i].err
		}
	}
	starts := r.compact(blocks)
	if err := r.merge(blocks, starts); err != nil {
		return 0, err
	}
	return line - r.line, nil
}

// grow makes room for rows [0, rows) in the arrays. Knowing the input size
// (or, compressed, an estimate of it: Input.expectedSize), it allocates
// for the rows expected in the whole input (by the rows per byte of this
// chunk, plus 5%), once when the size is known; otherwise, or when that
// was too few, or when the arrays hold one chunk at a time,
// geometrically. Growing holds the old arrays and the new at once: the
// new ones are made as large as that leaves room for in the memory
// budget, and when the rows do not fit the read stops (ErrMemory).
func (r *reader) grow(rows, chunkBytes int) error {
	if rows > cap(r.lines) {
		c := max(rows, cap(r.lines)*5/4)
		size := r.input.expectedSize()
		if left := float64(size - r.offset - int64(chunkBytes)); size >= 0 && r.tab == nil && !r.cfg.perChunk && left > 0 {
			c = max(c, rows+int(left*float64(rows-r.n)/float64(chunkBytes)*1.05))
		}
		if r.budget >= 0 {
			perRow := int64(r.rowBytes())
			if room := (r.budget - r.memoryUsed()) / perRow; int64(c) > room {
				if int64(rows) > room {
					return r.overBudget(r.memoryUsed() + int64(rows)*perRow)
				}
				c = int(room)
			}
		}
		r.lines = hugepage.Clone(r.lines[:r.n], c)
		r.x = hugepage.Clone(r.x[:r.n*r.d], c*r.d)
		if r.hasY {
			r.y = hugepage.Clone(r.y[:r.n], c)
		}
		if r.hasW {
			r.w = hugepage.Clone(r.w[:r.n], c)
		}
	}
	r.lines = r.lines[:rows]
	r.x = r.x[:rows*r.d]
	if r.hasY {
		r.y = r.y[:rows]
	}
	if r.hasW {
		r.w = r.w[:rows]
	}
	return nil
}

// rowBytes is the memory of a row in the arrays: its features, target,
// weight and line.
func (r *reader) rowBytes() int {
	n := r.d + 1
	if r.hasY {
		n++
	}
	if r.hasW {
		n++
	}
	return 8 * n
}

// stringBytes is the memory counted for a string of n bytes held in a
// column's dictionary: its bytes, its header in strs and its map entry.
func stringBytes(n int) int64 { return int64(n) + 64 }

// memoryUsed returns the memory that the read holds, as the budget counts
// it: the arrays, the strings of the columns' dictionaries, the input
// buffers and what a Parquet or JSON-lines table holds (its buffer, a
// Parquet file read into memory). The short-lived data of a chunk being
// parsed (each block's own dictionary) is not counted: it is bounded by
// the chunk's size.
func (r *reader) memoryUsed() int64 {
	n := 8 * int64(cap(r.lines)+cap(r.x)+cap(r.y)+cap(r.w))
	n += int64(cap(r.buf) + cap(r.spare))
	for f := range r.cols {
		n += r.cols[f].bytes
	}
	if r.tab != nil {
		n += r.tab.held()
	}
	return n
}

// checkMemory returns the error of a read that holds more than its budget
// when it takes more bytes.
func (r *reader) checkMemory(more int64) error {
	if need := r.memoryUsed() + more; r.budget >= 0 && need > r.budget {
		return r.overBudget(need)
	}
	return nil
}

// overBudget is the error of a read that would hold need bytes, past the
// budget, positioned at the last row read (the line reached when there
// is none).
func (r *reader) overBudget(need int64) *data.ParseError {
	if r.n == 0 || len(r.lines) < r.n {
		return overBudget(r.src, r.line, need, r.budget)
	}
	e := overBudget(r.src, r.lines[r.n-1], need, r.budget)
	if r.groups != nil {
		e.RowGroup = data.RowGroupOf(r.groups, e.Line)
	}
	return e
}

// compact moves the rows of each block next to those of the block before
// (a block holds fewer rows than lines when there are blank lines or
// quoted newlines) and returns the first row of each block.
func (r *reader) compact(blocks []block) []int {
	starts := make([]int, len(blocks))
	row := r.n
	for i := range blocks {
		k := &blocks[i]
		starts[i] = row
		if n := k.rows; &k.lines[0] != &r.lines[row] {
			copy(r.x[row*r.d:], k.x[:n*r.d])
			copy(r.lines[row:], k.lines[:n])
			if r.hasY {
				copy(r.y[row:], k.y[:n])
			}
			if r.hasW {
				copy(r.w[row:], k.w[:n])
			}
		}
		row += k.rows
	}
	r.n = row
	r.x, r.lines = r.x[:row*r.d], r.lines[:row]
	if r.hasY {
		r.y = r.y[:row]
	}
	if r.hasW {
		r.w = r.w[:row]
	}
	return starts
}

// merge folds what the blocks learnt about each field into the reader's
// state: string ids are mapped from each block's dictionary to the
// column's, and an inferred column in which some block met a non-number
// turns into a string column, its earlier numbers written back as text.
func (r *reader) merge(blocks []block, starts []int) error {
	for f := range r.plans {
		pl, c := &r.plans[f], &r.cols[f]
		flipped := false
		for i := range blocks {
			flipped = flipped || blocks[i].stats[f].flip >= 0
		}
		switch {
		case pl.mode == cellNumber || pl.mode == cellInfer && !flipped:
			for i := range blocks {
				st := &blocks[i].stats[f]
				c.flags |= st.flags
				if c.inf == nil {
					c.inf = st.inf
				}
			}
		case pl.mode == cellInfer:
			r.numbersToText(f, 0, starts[0], c.flags)
			for i := range blocks {
				st := &blocks[i].stats[f]
				lo, hi := starts[i], starts[i]+blocks[i].rows
				if st.flip >= 0 {
					r.numbersToText(f, lo, lo+st.flip, st.flags)
					if err := r.remap(f, st.strs, lo+st.flip, hi); err != nil {
						return err
					}
				} else {
					r.numbersToText(f, lo, hi, st.flags)
				}
			}
			pl.mode, c.inf, c.flags = cellString, nil, 0
		case pl.mode == cellString:
			for i := range blocks {
				st := &blocks[i].stats[f]
				if err := r.remap(f, st.strs, starts[i], starts[i]+blocks[i].rows); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// numbersToText replaces the numbers in rows [lo, hi) of field f by the ids
// of their text, written as strconv.FormatFloat(v, 'f', -1, 64): the text
// they were read from unless flags has statNonCanon.
func (r *reader) numbersToText(f, lo, hi int, flags uint8) {
	if flags&statNonCanon != 0 {
		r.cols[f].inexact = true
	}
	var buf []byte
	for i := lo; i < hi; i++ {
		v := r.get(f, i)
		if v != v {
			continue
		}
		buf = strconv.AppendFloat(buf[:0], v, 'f', -1, 64)
		r.set(f, i, float64(intern(&r.cols[f], buf)))
	}
}

// remap replaces the block ids of rows [lo, hi) of field f, strings strs,
// by the column's ids. A string the column does not admit is an unseen
// level (unseenLevel).
func (r *reader) remap(f int, strs []string, lo, hi int) error {
	if len(strs) == 0 {
		return nil
	}
	ids := make([]int32, len(strs))
	for k, s := range strs {
		ids[k] = intern(&r.cols[f], s)
	}
	for i := lo; i < hi; i++ {
		v := r.get(f, i)
		if v != v {
			continue
		}
		id := ids[int(v)]
		if id < 0 {
			var err error
			if id, err = r.unseenLevel(f, i, strs[int(v)]); err != nil {
				return err
			}
		}
		if id < 0 {
			r.set(f, i, math.NaN())
		} else {
			r.set(f, i, float64(id))
		}
	}
	return nil
}

// intern returns the id of s in the column's dictionary, adding it
// unless the dictionary is closed (-1 then).
func intern[S string | []byte](c *colState, s S) int32 {
	if id, ok := c.dict[string(s)]; ok {
		return id
	}
	if c.closed {
		return -1
	}
	if c.dict == nil {
		c.dict = make(map[string]int32)
	}
	id := int32(len(c.strs))
	str := string(s)
	c.bytes += stringBytes(len(str))
	c.dict[str] = id
	c.strs = append(c.strs, str)
	return id
}

// get and set access the cell of field f in row i.
func (r *reader) get(f, i int) float64 {
	switch pl := &r.plans[f]; pl.dst {
	case destY:
		return r.y[i]
	case destW:
		return r.w[i]
	default:
		return r.x[i*r.d+pl.j]
	}
}

func (r *reader) set(f, i int, v float64) {
	switch pl := &r.plans[f]; pl.dst {
	case destY:
		r.y[i] = v
	case destW:
		r.w[i] = v
	default:
		r.x[i*r.d+pl.j] = v
	}
}
