package dataio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"sync/atomic"
	"unicode/utf8"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/cell"
	"github.com/gendisc/gendisc/internal/parallel"
)

// JSON lines are read a batch of jsonBatch non-blank lines at a time: the
// batch's text is read into one buffer of whole lines, split into blocks
// of lines that are parsed in parallel (jsonBlock.parse) into flat arrays
// of cells, and the cells are then stored in line order with the reader's
// put methods, which infer the types as for CSV. The first batch decides
// the columns: its keys in the order they are first met.
//
// Each line is read by a scanner written for the one thing this reader
// accepts, a flat JSON object (jsonBlock.scan), instead of encoding/json's
// Decoder: the Decoder allocates per token and took 4.8 s of CPU for the
// benchmark's 39 MB file (8 MB/s), this reader 0.41 s; on the 1,000,000-row
// file of BenchmarkReadJSONLines it takes 13.6x less CPU (the formats
// workload of bench/run and the benchmark measure it: bench/README.md).
// A line the scanner does not accept is read again by the Decoder
// (jsonBlock.parseSlow), which gives its error, so that the errors are
// those of encoding/json; strings with escapes or invalid UTF-8 are
// decoded by encoding/json as well.

// ErrJSON is wrapped by the errors about a line of JSON lines that is not
// a flat JSON object.
var ErrJSON = errors.New("not a flat JSON object")

// jsonBatch is the number of lines read at a time; the columns are the
// keys met in the first batch.
const jsonBatch = 1 << 16

// jsonTable reads JSON lines a batch of lines at a time.
type jsonTable struct {
	in      io.Reader
	src     string
	input   *Input
	blocks  int    // blocks per batch; 0 = four per core, each at least minBlock bytes
	buf     []byte // input read; buf[pos:] is not parsed yet
	pos     int
	eof     bool
	readErr error // a read error, returned once the lines before it are parsed
	line    int   // lines before buf[pos]
	index   map[string]int
	parts   []jsonBlock // the blocks of the batch parsed last
	used    int         // blocks of parts that hold the batch
	pending bool        // the first batch is parsed, not stored yet
	scratch []byte
	stamp   []uint32 // per field, the row (+1) that next stored last in it
	maxLine int      // the most bytes of a line, its newline included
	chunk   int      // the bytes after which a batch ends (but the first)
	// checkMemory is the reader's: the error when more bytes would
	// pass the memory budget.
	checkMemory func(more int64) error
}

// jsonBlock is a block of whole lines of a batch and what parse read from
// them: the cells of the lines' objects in line order, the object of line
// lines[k] being cells[ends[k-1]:ends[k]].
type jsonBlock struct {
	b     []byte // the block's text
	line0 int    // line of b[0]; lines and errors count from 0 in parse
	nl    int    // lines of b (parse)
	src   string
	cells []jsonCell
	ends  []int
	lines []int
	arena []byte // the texts of cells that are not in b (jsonArena)
	err   error

	// Fields: with index nil (the first batch), the keys met in this
	// block are numbered in the order they are met (names, keys, later
	// mapped to the columns by fields); otherwise index gives the column
	// of a key and names are the columns.
	index map[string]int
	keys  map[string]int
	names []string
	field []int // column of each key of the block (first batch)
	// order[m] is the field of the m-th key of the line before, tried
	// first; stamp[f] is the serial number of the last line that had
	// field f, serial that of the line being read.
	order  []int
	stamp  []uint32
	serial uint32
}

// jsonCell is a value of a line's object: a number or a string (true and
// false are the strings "true" and "false"; null is no cell) in field f.
type jsonCell struct {
	f    int32
	kind uint8
	// a holds the text b[a>>32 : a&0xffffffff] (arena with jsonArena),
	// or the bits of the value of a jsonValue.
	a uint64
}

const (
	jsonNumber = 1 + iota // a number, by its text
	jsonValue             // a number whose text is canonical (parseCell), by its value
	jsonString            // a string
	jsonArena  = 0x80     // with jsonNumber or jsonString: the text is in the arena
)

// openJSONLines reads the first batch of lines and sets the header from
// their keys, in the order they are first met.
func openJSONLines(r *reader, in *Input) (*jsonTable, error) {
	size := min(r.cfg.chunk, 1<<20)
	if in.Compression == "" && in.length >= 0 {
		size = min(int(in.length)+1, 64<<20)
	}
	size = max(size, len(bom))
	t := &jsonTable{in: in.Reader, src: r.src, input: in, blocks: r.cfg.blocks,
		buf: make([]byte, 0, size), index: map[string]int{},
		maxLine: min(r.maxRecord, maxJSONOffset), chunk: r.cfg.chunk, checkMemory: r.checkMemory}
	r.tab = t // for the memory budget, while the first batch is read
	t.fill()
	if bytes.HasPrefix(t.buf, bom) {
		t.pos = len(bom)
	}
	if err := t.batch(nil); err != nil {
		return nil, err
	}
	// The keys of each block that the blocks before did not have are
	// the next columns.
	for k := range t.parts[:t.used] {
		p := &t.parts[k]
		p.field = p.field[:0]
		for _, key := range p.names {
			f, ok := t.index[key]
			if !ok {
				f = len(r.header)
				t.index[key] = f
				r.header = append(r.header, key)
			}
			p.field = append(p.field, f)
		}
	}
	if len(r.header) == 0 {
		return nil, &data.ParseError{File: r.src, Err: data.ErrEmpty}
	}
	t.pending = true
	return t, nil
}

// next stores the next batch of lines.
func (t *jsonTable) next(r *reader) (more bool, err error) {
	if !t.pending {
		if err := t.batch(t.index); err != nil {
			return false, err
		}
	}
	first := t.pending
	t.pending = false
	n, size := 0, 0
	for _, p := range t.parts[:t.used] {
		n += len(p.lines)
		size += len(p.b)
	}
	// Knowing the input's size, the arrays are allocated once, for the
	// rows expected at the first batch's rows per byte (plus 5%).
	if all := t.input.expectedSize(); first && all > 0 && size > 0 && !t.eof {
		r.reserve(int(float64(n) * float64(all) / float64(size) * 1.05))
	}
	i, err := r.addRows(n)
	if err != nil {
		return false, err
	}
	if len(t.stamp) != len(r.header) {
		t.stamp = make([]uint32, len(r.header))
	}
	clear(t.stamp)
	for k := range t.parts[:t.used] {
		p := &t.parts[k]
		c := 0
		for m, end := range p.ends {
			r.lines[i] = p.line0 + p.lines[m]
			// The fields of the line's cells are stamped with the row
			// (+1); the others are missing.
			for ; c < end; c++ {
				cell := &p.cells[c]
				f := int(cell.f)
				if first {
					f = p.field[f]
				}
				if err := t.put(r, p, f, i, cell); err != nil {
					return false, err
				}
				t.stamp[f] = uint32(i) + 1
			}
			for f, st := range t.stamp {
				if st != uint32(i)+1 {
					r.putMissing(f, i)
				}
			}
			i++
		}
	}
	return t.pos < len(t.buf) || !t.eof, nil
}

// put stores the value of cell in field f of row i, as putNumber and
// putString do for its text.
func (t *jsonTable) put(r *reader, p *jsonBlock, f, i int, cell *jsonCell) error {
	if cell.kind == jsonValue {
		v := math.Float64frombits(cell.a)
		if r.plans[f].mode != cellString {
			return r.putNumber(f, i, v, nil)
		}
		// The text is canonical: the value's shortest form.
		t.scratch = strconv.AppendFloat(t.scratch[:0], v, 'f', -1, 64)
		return r.putNumber(f, i, 0, t.scratch)
	}
	text := p.b
	if cell.kind&jsonArena != 0 {
		text = p.arena
	}
	text = text[cell.a>>32 : cell.a&math.MaxUint32]
	if cell.kind&^jsonArena == jsonNumber {
		return r.putNumber(f, i, 0, text)
	}
	return r.putString(f, i, text)
}

// fill reads until the buffer is full or the input ends; a read error is
// kept in readErr.
func (t *jsonTable) fill() {
	if t.readErr == nil {
		t.buf, t.eof, t.readErr = readFull(t.in, t.src, t.buf, t.eof)
	}
}

// maxJSONOffset bounds the length of a line whatever Limits.MaxRecord
// says: the cells of a block keep their offsets in 32 bits (jsonCell.a).
const maxJSONOffset = 1<<32 - 1

// batch reads and parses the next batch: up to jsonBatch non-blank lines,
// into t.parts[:t.used]; index gives the column of each key, nil for the
// first batch. Batches after the first also end once they hold chunk
// bytes, so that their memory is bounded by the chunk's size and a line's
// limit.
func (t *jsonTable) batch(index map[string]int) error {
	// Drop what the last batch read and find the lines of this one,
	// reading more input (into a larger buffer when it is full) as
	// needed.
	t.buf = t.buf[:copy(t.buf, t.buf[t.pos:])]
	t.pos = 0
	p, recs, lines := 0, 0, 0
	all := false
	if t.eof {
		// When the input left has fewer lines than a batch, all of it
		// is the batch.
		if nl := bytes.Count(t.buf, []byte{'\n'}); nl < jsonBatch {
			p, lines, all = len(t.buf), nl, true
			if len(t.buf) > 0 && t.buf[len(t.buf)-1] != '\n' {
				lines++
			}
			for q, k := 0, 0; len(t.buf) > t.maxLine && q < len(t.buf); k++ {
				e := lineEnd(t.buf, q)
				if e-q > t.maxLine {
					return t.tooLong(k)
				}
				q = e
			}
		}
	}
	for !all && recs < jsonBatch && (index == nil || p < t.chunk) {
		e := bytes.IndexByte(t.buf[p:], '\n')
		switch {
		case e >= 0:
			e += p + 1
		case t.eof && p < len(t.buf):
			e = len(t.buf)
		case t.eof || t.readErr != nil:
		default:
			if len(t.buf)-p > t.maxLine {
				return t.tooLong(lines)
			}
			if len(t.buf) == cap(t.buf) {
				c := doubled(cap(t.buf), p+t.maxLine+1)
				if err := t.checkMemory(int64(c)); err != nil {
					return err
				}
				t.buf = append(make([]byte, 0, c), t.buf...)
			}
			t.fill()
			continue
		}
		if e < 0 {
			break
		}
		if e-p > t.maxLine {
			return t.tooLong(lines)
		}
		if !blankLine(t.buf[p:e]) {
			recs++
		}
		lines++
		p = e
	}
	t.split(p)
	t.parse(index)
	// The blocks counted their lines from 0.
	line0 := t.line + 1
	for k := range t.parts[:t.used] {
		b := &t.parts[k]
		b.line0 = line0
		if b.err != nil {
			b.err.(*data.ParseError).Line += line0
			return b.err
		}
		line0 += b.nl
	}
	t.pos = p
	t.line += lines
	if t.readErr != nil && recs < jsonBatch {
		return t.readErr
	}
	return nil
}

// tooLong is the error for the line after the batch's first lines, longer
// than maxLine.
func (t *jsonTable) tooLong(lines int) error {
	return tooLong(t.src, t.line+lines+1, t.maxLine)
}

// held returns the bytes of the input buffer and of what its blocks parsed
// from the last batch: cells of 16 bytes, line ends and numbers of 8, and
// the texts of their arena.
func (t *jsonTable) held() int64 {
	n := int64(cap(t.buf))
	for k := range t.parts {
		p := &t.parts[k]
		n += int64(16*cap(p.cells) + 8*(cap(p.ends)+cap(p.lines)) + cap(p.arena))
	}
	return n
}

// split divides the batch buf[:end] into blocks of whole lines.
func (t *jsonTable) split(end int) {
	nb := t.blocks
	if nb <= 0 {
		nb = min(4*parallel.Workers(), max(1, end/minBlock))
	}
	// A block's offsets are 32-bit.
	nb = max(nb, end>>30+1)
	if len(t.parts) < nb {
		t.parts = append(t.parts, make([]jsonBlock, nb-len(t.parts))...)
	}
	t.used = 0
	lo := 0
	for k := 1; k <= nb && lo < end; k++ {
		hi := end
		if k < nb {
			hi = max(lo, k*end/nb)
			if e := bytes.IndexByte(t.buf[hi:end], '\n'); e >= 0 {
				hi += e + 1
			} else {
				hi = end
			}
		}
		if hi == lo {
			continue
		}
		p := &t.parts[t.used]
		p.b, p.src = t.buf[lo:hi], t.src
		lo = hi
		t.used++
	}
}

// parse parses the blocks in parallel; index is as for batch.
func (t *jsonTable) parse(index map[string]int) {
	names := make([]string, len(index))
	for key, f := range index {
		names[f] = key
	}
	for k := range t.parts[:t.used] {
		p := &t.parts[k]
		p.index = index
		if index != nil {
			p.names = names
			if len(p.stamp) < len(names) {
				p.stamp = make([]uint32, len(names))
			}
		} else {
			p.keys = map[string]int{}
			p.names = p.names[:0]
			p.stamp = p.stamp[:0]
		}
		p.order = p.order[:0]
	}
	// Workers take the next block as they finish one, as for CSV.
	var next atomic.Int64
	parallel.For(parallel.Workers(), 1, func(_, _, _ int) {
		for i := int(next.Add(1) - 1); i < t.used; i = int(next.Add(1) - 1) {
			t.parts[i].parse()
		}
	})
}

// blankLine reports whether line holds nothing but white space.
func blankLine(line []byte) bool {
	return len(line) == 0 || line[0] != '{' && len(bytes.TrimSpace(line)) == 0
}

// parse reads the lines of the block, up to the first that is not a flat
// JSON object or has a key that is not a column (k.err then).
func (k *jsonBlock) parse() {
	k.cells, k.ends, k.lines, k.arena, k.err = k.cells[:0], k.ends[:0], k.lines[:0], k.arena[:0], nil
	line := 0
	defer func() { k.nl = line }()
	for p := 0; p < len(k.b); line++ {
		e := -1 // the end of the line, after its newline, when found
		if k.b[p] != '{' {
			if e = lineEnd(k.b, p); blankLine(k.b[p:e]) {
				p = e
				continue
			}
		}
		k.serial++
		if k.serial == 0 {
			clear(k.stamp)
			k.serial = 1
		}
		start := len(k.cells)
		q, ok := k.scan(p)
		if !ok {
			k.cells = k.cells[:start]
			if e < 0 {
				e = lineEnd(k.b, p)
			}
			if err := k.parseSlow(k.b[p:e], line); err != nil {
				k.err = err
				return
			}
			q = e
		}
		if len(k.ends) == 0 {
			k.reserve(q - p)
		}
		k.ends = append(k.ends, len(k.cells))
		k.lines = append(k.lines, line)
		p = q
	}
}

// reserve sizes the arrays for the lines of the block when they are like
// its first, of n bytes, so that they rarely grow.
func (k *jsonBlock) reserve(n int) {
	lines := len(k.b)/max(n, 1)*11/10 + 16
	if cap(k.lines) < lines {
		k.ends, k.lines = make([]int, 0, lines), make([]int, 0, lines)
	}
	if cells := lines * (len(k.cells) + 1); cap(k.cells) < cells {
		k.cells = append(make([]jsonCell, 0, cells), k.cells...)
	}
}

// lineEnd returns the end of the line of b that starts at p: after its
// newline, or len(b).
func lineEnd(b []byte, p int) int {
	if e := bytes.IndexByte(b[p:], '\n'); e >= 0 {
		return p + e + 1
	}
	return len(b)
}

// scan reads the line of the block that starts at p as a flat JSON
// object,
//
//	ws '{' ws [ string ws ':' ws value ws { ',' ws string ws ':' ws value ws } ] '}' ws
//
// value being a string, a number (by JSON's grammar), true, false or null,
// and ws spaces, tabs and CRs, appends its cells, and returns the end of
// the line (after its newline). It reports false, with some cells
// appended, for a line that is not such an object or whose keys are not
// columns or twice on the line.
func (k *jsonBlock) scan(p int) (end int, ok bool) {
	b := k.b
	e := len(b)
	p = skipSpace(b, p)
	if p == e || b[p] != '{' {
		return 0, false
	}
	p = skipSpace(b, p+1)
	if p < e && b[p] == '}' {
		return k.end(p + 1)
	}
	for m := 0; ; m++ {
		// The key.
		if p == e || b[p] != '"' {
			return 0, false
		}
		ks, ke, plain := scanString(b, p+1)
		if ke < 0 {
			return 0, false
		}
		key := b[ks:ke]
		if !plain {
			if key, ok = unquote(b[p:ke+1], nil); !ok {
				return 0, false
			}
		}
		p = skipSpace(b, ke+1)
		if p == e || b[p] != ':' {
			return 0, false
		}
		f, known := k.lookup(key, m)
		if !known || k.stamp[f] == k.serial {
			return 0, false
		}
		k.stamp[f] = k.serial
		// The value.
		p = skipSpace(b, p+1)
		if p == e {
			return 0, false
		}
		jc := jsonCell{f: int32(f)}
		switch c := b[p]; {
		case c == '"':
			s, se, plain := scanString(b, p+1)
			if se < 0 {
				return 0, false
			}
			jc.kind, jc.a = jsonString, uint64(s)<<32|uint64(se)
			if !plain {
				a := len(k.arena)
				if k.arena, ok = unquote(b[p:se+1], k.arena); !ok {
					return 0, false
				}
				jc.kind, jc.a = jsonString|jsonArena, uint64(a)<<32|uint64(len(k.arena))
			}
			p = se + 1
		case c == 't' || c == 'f':
			word := "false"
			if c == 't' {
				word = "true"
			}
			if !bytes.HasPrefix(b[p:], []byte(word)) {
				return 0, false
			}
			jc.kind, jc.a = jsonString, uint64(p)<<32|uint64(p+len(word))
			p += len(word)
		case c == 'n':
			if !bytes.HasPrefix(b[p:], []byte("null")) {
				return 0, false
			}
			jc.kind = 0
			p += 4
		default:
			q := scanJSONNumber(b, p)
			if q < 0 {
				return 0, false
			}
			jc.kind, jc.a = jsonNumber, uint64(p)<<32|uint64(q)
			if v, _, canon := cell.Parse(b[p:q]); canon {
				jc.kind, jc.a = jsonValue, math.Float64bits(v)
			}
			p = q
		}
		if jc.kind != 0 {
			k.cells = append(k.cells, jc)
		}
		p = skipSpace(b, p)
		switch {
		case p == e:
			return 0, false
		case b[p] == ',':
			p = skipSpace(b, p+1)
		case b[p] == '}':
			return k.end(p + 1)
		default:
			return 0, false
		}
	}
}

// end returns the end of the line whose object closes before p: after
// its newline, past white space, or false when other text follows.
func (k *jsonBlock) end(p int) (int, bool) {
	p = skipSpace(k.b, p)
	switch {
	case p == len(k.b):
		return p, true
	case k.b[p] == '\n':
		return p + 1, true
	}
	return 0, false
}

// lookup returns the field of key, the m-th of its line (m < 0: not
// known), and whether it is a column; in the first batch every key is,
// numbered in the order met.
func (k *jsonBlock) lookup(key []byte, m int) (int, bool) {
	if m >= 0 && m < len(k.order) {
		if f := k.order[m]; k.names[f] == string(key) {
			return f, true
		}
	}
	var f int
	var ok bool
	if k.index != nil {
		if f, ok = k.index[string(key)]; !ok {
			return 0, false
		}
	} else if f, ok = k.keys[string(key)]; !ok {
		f = len(k.names)
		k.keys[string(key)] = f
		k.names = append(k.names, string(key))
		k.stamp = append(k.stamp, 0)
	}
	switch {
	case m >= 0 && m < len(k.order):
		k.order[m] = f
	case m == len(k.order):
		k.order = append(k.order, f)
	}
	return f, true
}

// skipSpace returns the position of the first byte at or after p that is
// not JSON white space within a line (space, tab, CR).
func skipSpace(b []byte, p int) int {
	for p < len(b) && (b[p] == ' ' || b[p] == '\t' || b[p] == '\r') {
		p++
	}
	return p
}

// scanString finds the end of the JSON string whose text starts at b[p],
// after its opening quote: the position of its closing quote (-1 when
// there is none, or a control character) and whether its text is the
// string itself (no backslash, valid UTF-8).
func scanString(b []byte, p int) (start, end int, plain bool) {
	start, plain = p, true
	ascii := true
	for ; p < len(b); p++ {
		switch c := b[p]; {
		case c == '"':
			if !ascii {
				plain = plain && utf8.Valid(b[start:p])
			}
			return start, p, plain
		case c == '\\':
			plain = false
			if p+1 < len(b) {
				p++ // an escaped quote does not end the string
			}
		case c < ' ':
			return start, -1, false
		case c >= 0x80:
			ascii = false
		}
	}
	return start, -1, false
}

// scanJSONNumber returns the end of the JSON number at b[p:],
//
//	[-] (0 | [1-9] digits) [. digits] [(e|E) [+-] digits]
//
// or -1 when there is none.
func scanJSONNumber(b []byte, p int) int {
	n := len(b)
	if p < n && b[p] == '-' {
		p++
	}
	switch {
	case p < n && b[p] == '0':
		p++
	case p < n && b[p]-'1' < 9:
		p = skipDigits(b, p)
	default:
		return -1
	}
	if p < n && b[p] == '.' {
		q := skipDigits(b, p+1)
		if q == p+1 {
			return -1
		}
		p = q
	}
	if p < n && b[p]|0x20 == 'e' {
		p++
		if p < n && (b[p] == '+' || b[p] == '-') {
			p++
		}
		q := skipDigits(b, p)
		if q == p {
			return -1
		}
		p = q
	}
	return p
}

// skipDigits returns the position of the first byte at or after p that is
// not a decimal digit.
func skipDigits(b []byte, p int) int {
	for p < len(b) && b[p]-'0' < 10 {
		p++
	}
	return p
}

// unquote appends to dst the string of the JSON string literal q (quotes
// included) as encoding/json decodes it (escapes, surrogate pairs, invalid
// UTF-8 replaced by U+FFFD); false when q is not a valid literal.
func unquote(q, dst []byte) ([]byte, bool) {
	var s string
	if json.Unmarshal(q, &s) != nil {
		return dst, false
	}
	return append(dst, s...), true
}

// parseSlow reads the line (number line) with encoding/json's Decoder and
// appends its cells, or returns the error that says why it is not a flat
// JSON object of known keys.
func (k *jsonBlock) parseSlow(line []byte, n int) error {
	fail := func(key string, err error) error {
		return &data.ParseError{File: k.src, Line: n, ColumnName: key, Err: err}
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		what := "does not start with {"
		if tok == json.Delim('[') {
			what = "is a JSON array"
		}
		return fail("", fmt.Errorf("%w: the line %s; in JSON lines each line must be a JSON object, {\"column\": value, ...}", ErrJSON, what))
	}
	seen := map[int]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fail("", fmt.Errorf("%w: %v", ErrJSON, err))
		}
		key := tok.(string)
		tok, err = dec.Token()
		if err != nil {
			return fail(key, fmt.Errorf("%w: %v", ErrJSON, err))
		}
		a := len(k.arena)
		var kind uint8
		switch tok := tok.(type) {
		case json.Number:
			kind, k.arena = jsonNumber|jsonArena, append(k.arena, tok...)
		case string:
			kind, k.arena = jsonString|jsonArena, append(k.arena, tok...)
		case bool:
			kind, k.arena = jsonString|jsonArena, strconv.AppendBool(k.arena, tok)
		case nil:
		default:
			return fail(key, fmt.Errorf("%w: the value is an array or an object", ErrJSON))
		}
		f, ok := k.lookup([]byte(key), -1)
		if !ok {
			return fail(key, fmt.Errorf("%w: the key is not among those of the first %d lines, which make the columns", data.ErrNoColumn, jsonBatch))
		}
		if seen[f] {
			return fail(key, fmt.Errorf("%w: the key twice on the line", data.ErrDuplicate))
		}
		seen[f] = true
		if kind != 0 {
			k.cells = append(k.cells, jsonCell{f: int32(f), kind: kind, a: uint64(a)<<32 | uint64(len(k.arena))})
		}
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return fail("", fmt.Errorf("%w: the object is not closed", ErrJSON))
	}
	if _, err := dec.Token(); err != io.EOF {
		return fail("", fmt.Errorf("%w: text after the object", ErrJSON))
	}
	return nil
}
