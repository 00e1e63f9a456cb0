package cli

import (
	"bytes"
	"errors"
	"io"
	"iter"
	"os"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/modelfile"
)

// streamChunk is about the number of bytes of rows that fit --stream reads
// and parses at a time; tests make it small.
var streamChunk = 8 << 20

// fitChunks fits the model with the kind's streaming fit to the training
// data read in chunks (fit --stream), and shows the progress on a
// terminal.
func (o *fitOptions) fitChunks(env *Env) (modelfile.Persistent, error) {
	r, source, err := env.openData(o.data)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	size := int64(-1)
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			size = st.Size()
		}
	}
	c := &chunkReader{in: r, src: source, opt: o.read.options(), size: streamChunk}
	bar := env.progress()
	var rows, chunks int
	var schema *data.Schema
	seq := func(yield func(*data.Dataset, error) bool) {
		for d, err := range c.chunks() {
			if err == nil {
				rows, chunks, schema = rows+d.N, chunks+1, d.Schema
				if size > 0 {
					bar("fit --stream: %d%% of %s read, %d rows", 100*c.consumed/size, source, rows)
				} else {
					bar("fit --stream: %d MB of %s read, %d rows", c.consumed>>20, source, rows)
				}
			}
			if !yield(d, err) {
				return
			}
		}
	}
	m, err := o.fitStream(seq)
	bar("")
	if err == nil {
		env.verbosef("%s: %d rows in %d chunks, %d features, %d classes", source, rows, chunks, len(schema.Features), len(schema.Classes()))
	}
	return m, err
}

// A chunkReader splits a delimited file into chunks of whole rows, of
// about size bytes each, and reads every chunk as a Dataset: the first
// with data.Read, which infers the column types, the others with
// data.ReadWithSchema and the schema of the chunk before, extended with
// the classes and categories they add (SchemaOptions.Extend), so the
// indices of earlier ones never change. A later value that does not fit
// the first chunk's types, such as a word in a numeric column, is an
// error. Each chunk is parsed as the header line followed by its rows; its
// line numbers, in Dataset.Lines and in errors, are shifted to those of
// the file.
//
// The row boundaries are found as package data finds them: a line end
// outside quoted fields, where a quote opens a quoted field only at the
// start of a field. The delimiter is detected from the header as data
// does and then given to every read, so that both agree.
type chunkReader struct {
	in   io.Reader
	src  string
	opt  data.Options
	size int

	buf         []byte // the header, then the pending rows
	prefix      int    // bytes of buf holding the header line (after any BOM and blank lines)
	prefixLines int    // line ends in buf[:prefix]
	eof         bool
	line        int   // the file's line number of buf[prefix]
	consumed    int64 // bytes of the input handed to data so far
	schema      *data.Schema
}

// chunks returns the chunks of the input in order; after an error the
// sequence ends.
func (c *chunkReader) chunks() iter.Seq2[*data.Dataset, error] {
	return func(yield func(*data.Dataset, error) bool) {
		if err := c.readHeader(); err != nil {
			yield(nil, err)
			return
		}
		for {
			d, err := c.next()
			if d == nil && err == nil {
				return
			}
			if !yield(d, err) || err != nil {
				return
			}
		}
	}
}

// fill reads until buf is full or the input ends.
func (c *chunkReader) fill() error {
	for len(c.buf) < cap(c.buf) && !c.eof {
		n, err := c.in.Read(c.buf[len(c.buf):cap(c.buf)])
		c.buf = c.buf[:len(c.buf)+n]
		if err == io.EOF {
			c.eof = true
		} else if err != nil {
			return &data.ParseError{File: c.src, Err: err}
		}
	}
	return nil
}

// grow gives buf at least n bytes of capacity.
func (c *chunkReader) grow(n int) {
	if n > cap(c.buf) {
		c.buf = append(make([]byte, 0, n), c.buf...)
	}
}

// readHeader reads up to the end of the header line, detects the
// delimiter unless it is set, and leaves room for a chunk of rows. At the
// end of the input without a complete header, the prefix is all there
// is: the first read reports what is wrong with it.
func (c *chunkReader) readHeader() error {
	c.grow(64 << 10)
	for {
		if err := c.fill(); err != nil {
			return err
		}
		end, counts := headerEnd(c.buf)
		if end >= 0 || c.eof {
			if end < 0 {
				end = len(c.buf)
			}
			if c.opt.Comma == 0 {
				c.opt.Comma = rune(detectComma(counts))
			}
			c.prefix, c.prefixLines = end, bytes.Count(c.buf[:end], []byte{'\n'})
			c.line = c.prefixLines + 1
			c.grow(c.prefix + c.size)
			return nil
		}
		c.grow(2 * cap(c.buf))
	}
}

// next reads and parses the next chunk; it returns nil, nil at the end of
// the input.
func (c *chunkReader) next() (*data.Dataset, error) {
	for {
		if err := c.fill(); err != nil {
			return nil, err
		}
		rows := c.buf[c.prefix:]
		end := len(rows)
		if !c.eof || end > c.size {
			comma := byte(c.opt.Comma)
			// The rows that end in the first size bytes; with none
			// there (a long row), in twice, four times... as many.
			for w := c.size; ; w *= 2 {
				if end = lastRowEnd(rows[:min(w, len(rows))], comma); end > 0 || w >= len(rows) {
					break
				}
			}
			if end == 0 && !c.eof { // a row longer than the buffer
				c.grow(2 * cap(c.buf))
				continue
			}
			if end == 0 {
				end = len(rows)
			}
		}
		first := c.schema == nil
		if !first && len(bytes.Trim(rows[:end], "\r\n")) == 0 {
			if end == 0 {
				return nil, nil
			}
			c.advance(end)
			continue
		}
		d, err := c.parse(c.buf[:c.prefix+end])
		c.advance(end)
		return d, err
	}
}

// advance drops the first n bytes of the pending rows.
func (c *chunkReader) advance(n int) {
	rows := c.buf[c.prefix:]
	c.line += bytes.Count(rows[:n], []byte{'\n'})
	c.consumed += int64(n)
	c.buf = c.buf[:c.prefix+copy(rows, rows[n:])]
}

// parse reads the header and rows in b as a Dataset and moves its line
// numbers to those of the file.
func (c *chunkReader) parse(b []byte) (*data.Dataset, error) {
	var (
		d   *data.Dataset
		err error
	)
	if c.schema == nil {
		d, err = data.Read(bytes.NewReader(b), c.src, c.opt)
	} else {
		d, err = data.ReadWithSchema(bytes.NewReader(b), c.src, c.schema,
			data.SchemaOptions{Weight: c.opt.Weight, Comma: c.opt.Comma, Extend: true, RequireTarget: true})
	}
	// In b, the rows start on line prefixLines + 1; in the file, on c.line.
	shift := c.line - (c.prefixLines + 1)
	if err != nil {
		var pe *data.ParseError
		if errors.As(err, &pe) && pe.Line > c.prefixLines {
			pe.Line += shift
		}
		return nil, err
	}
	for i := range d.Lines {
		d.Lines[i] += shift
	}
	c.schema = d.Schema
	return d, nil
}

// delimiters are the delimiters that data.Read detects, in order of
// preference on a tie.
const delimiters = ",\t;"

// headerEnd returns the offset after the line end that ends the header
// row of b (after a byte order mark and blank lines), or -1 when b holds
// no complete header row, and the number of each of the delimiters
// outside quotes on the header row.
func headerEnd(b []byte) (end int, counts [3]int) {
	i := 0
	if bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
		i = 3
	}
	for i < len(b) && (b[i] == '\n' || b[i] == '\r') {
		i++
	}
	in := false
	for ; i < len(b); i++ {
		switch ch := b[i]; {
		case ch == '"':
			in = !in
		case in:
		case ch == '\n':
			return i + 1, counts
		default:
			if k := bytes.IndexByte([]byte(delimiters), ch); k >= 0 {
				counts[k]++
			}
		}
	}
	return -1, counts
}

// detectComma picks the delimiter that occurs most often outside quotes
// on the header row, the comma when there is none.
func detectComma(counts [3]int) byte {
	best := 0
	for k := range counts {
		if counts[k] > counts[best] {
			best = k
		}
	}
	return delimiters[best]
}

// lastRowEnd returns the offset after the last line end of b that ends a
// row, b starting at the start of a row: a line end outside quoted
// fields, a quote opening a quoted field only at the start of a field. It
// returns 0 when there is none. A quoted field still open at the end of b
// (or closed by its last byte, which may be the first of a doubled quote)
// ends the scan.
func lastRowEnd(b []byte, comma byte) int {
	last := 0
	for pos := 0; pos < len(b); {
		q := bytes.IndexByte(b[pos:], '"')
		if q < 0 {
			q = len(b)
		} else {
			q += pos
		}
		if i := bytes.LastIndexByte(b[pos:q], '\n'); i >= 0 {
			last = pos + i + 1
		}
		if q == len(b) {
			break
		}
		if q > 0 && b[q-1] != comma && b[q-1] != '\n' {
			pos = q + 1 // a quote inside a field: data reports it
			continue
		}
		// Skip the quoted field: doubled quotes inside it are escaped.
		p := q + 1
		for {
			i := bytes.IndexByte(b[p:], '"')
			if i < 0 || p+i+1 == len(b) {
				return last
			}
			p += i + 1
			if b[p] != '"' {
				break
			}
			p++
		}
		pos = p
	}
	return last
}
