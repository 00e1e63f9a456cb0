package dataio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio/compress"
)

// Format is a file format that the readers of this package tell by the
// first bytes of the input, not by the file's name.
type Format uint8

const (
	// CSV is delimited text with a header line (see Read).
	CSV Format = iota
	// Parquet is Apache Parquet (see Read on Parquet).
	Parquet
	// JSONLines is one JSON object per line (see Read on JSON lines).
	JSONLines
)

func (f Format) String() string {
	switch f {
	case Parquet:
		return "Parquet"
	case JSONLines:
		return "JSON lines"
	}
	return "CSV"
}

// ErrFormat is wrapped by the error for an input in a binary format that
// the readers cannot read, such as a ZIP archive or an Excel workbook; the
// message says what the input looks like.
var ErrFormat = errors.New("not a format gendisc reads (CSV, TSV, Parquet or JSON lines, optionally compressed with gzip, zstd, bzip2 or xz)")

// Input is an input after Open: decompressed, its format known.
type Input struct {
	io.Reader        // the decompressed bytes, from the start
	Format    Format // what they hold
	// Compression names the compression that was removed ("gzip",
	// "zstd", "bzip2", "xz"), "" for none.
	Compression string
	// at and size give random access to a Parquet file (from its first
	// byte), which Parquet needs for its footer.
	at   io.ReaderAt
	size int64
	// length is the input's size in bytes as Open found it, -1 when it
	// cannot tell (standard input); for a compressed input, the
	// compressed size. packed then counts the compressed bytes the
	// decompressor has read and unpacked the bytes it gave (nil when
	// length is unknown).
	length           int64
	packed, unpacked *counter
}

// expectedSize returns the size in bytes of the decompressed input, -1
// when it cannot tell: the input's length when it is not compressed, and
// for a compressed file an estimate from the bytes decompressed so far
// and the compressed bytes they took,
//
//	size ≈ unpacked · length / packed,
//
// good only to size arrays by. The decompressor reads ahead of what it
// has given (some KB), which makes the estimate low at the start: it is
// made once packed reaches estimateAfter bytes, or the whole input. It
// may be called while another goroutine reads the input.
func (in *Input) expectedSize() int64 {
	if in.Compression == "" {
		return in.length
	}
	if in.packed == nil {
		return -1
	}
	packed, unpacked := in.packed.n.Load(), in.unpacked.n.Load()
	if packed < min(estimateAfter, in.length) {
		return -1
	}
	return int64(float64(unpacked) * float64(in.length) / float64(packed))
}

// estimateAfter is the compressed bytes after which expectedSize
// estimates: a decompressor's read-ahead of some KB is then under 1% of
// what it has read.
const estimateAfter = 4 << 20

// counter is a reader that counts the bytes read through it, safely for
// other goroutines to look at.
type counter struct {
	r io.Reader
	n atomic.Int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// sniffLen is how many bytes Open looks at.
const sniffLen = 4096

// Open is the one place where every reader of this package tells the
// format of its input: it looks at the first bytes of in, removes a gzip,
// zstd, bzip2 or xz compression (recognised by its magic number, once:
// a compressed file inside a compressed file is refused), and tells
// Parquet (starts with "PAR1"), JSON lines (the first byte that is not
// white space or a byte order mark is '{') and CSV (anything else that is
// not binary). Input that holds a NUL byte in its first 4 KB, or that
// starts like a known binary format (ZIP, Excel, PDF, Arrow, ...), is an
// error wrapping ErrFormat that names what it looks like; source names in
// in it.
//
// When in is an io.Seeker, Open seeks back to where in was, so that the
// returned Input (in itself for uncompressed CSV and JSON lines) can seek
// as in could. A Parquet file needs random access: when in is an
// io.ReaderAt or an io.Seeker its size is taken from it; otherwise (standard
// input, a compressed Parquet file) it is read into memory.
//
// A Parquet file read into memory larger than the default memory budget
// (DefaultMaxMemory) is an error wrapping ErrMemory.
func Open(in io.Reader, source string) (*Input, error) {
	return open(in, source, Limits{}.maxMemory())
}

// open is Open with a memory budget (-1 for none) for a Parquet file read
// into memory.
func open(in io.Reader, source string, budget int64) (*Input, error) {
	size := inputSize(in)
	head, rest, err := sniff(in, source)
	if err != nil {
		return nil, err
	}
	if name, dec := compress.Method(head); dec != nil {
		var packed, unpacked *counter
		if size > 0 {
			packed = &counter{r: rest}
			rest = packed
		}
		z, err := dec(rest)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", source, name, err)
		}
		if packed != nil {
			unpacked = &counter{r: z}
			z = unpacked
		}
		inner, inRest, err := sniff(z, source)
		if err != nil {
			return nil, err
		}
		if nested, _ := compress.Method(inner); nested != "" {
			return nil, fmt.Errorf("%s: %s inside %s: %w", source, nested, name, ErrFormat)
		}
		in, err := classify(inner, inRest, source, budget)
		if err != nil {
			return nil, err
		}
		in.Compression = name
		in.length, in.packed, in.unpacked = size, packed, unpacked
		return in, nil
	}
	input, err := classify(head, rest, source, budget)
	if err != nil {
		return nil, err
	}
	input.length = size
	return input, nil
}

// sniff reads the first sniffLen bytes of in (fewer when it is shorter)
// and returns them with a reader of the whole input from its start.
func sniff(in io.Reader, source string) (head []byte, rest io.Reader, err error) {
	seeker, start := seekStart(in)
	head = make([]byte, sniffLen)
	n, err := io.ReadFull(in, head)
	head = head[:n]
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, nil, fmt.Errorf("%s: %w", source, err)
	}
	if seeker != nil {
		if _, err := seeker.Seek(start, io.SeekStart); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", source, err)
		}
		return head, in, nil
	}
	return head, io.MultiReader(bytes.NewReader(head), in), nil
}

// binaryFormats are the magic numbers of formats that are not data
// gendisc reads, with what to call them.
var binaryFormats = []struct {
	magic, what string
}{
	{"PK\x03\x04", "a ZIP archive"},
	{"PK\x05\x06", "an empty ZIP archive"},
	{"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "a Microsoft Office file of the old format (an Excel .xls workbook or a Word .doc): save it as CSV"},
	{"%PDF-", "a PDF document"},
	{"ARROW1", "an Arrow IPC (Feather) file: write it as Parquet"},
	{"Obj\x01", "an Avro file: write it as Parquet"},
	{"\x89HDF\r\n\x1a\n", "an HDF5 file"},
	{"\x93NUMPY", "a NumPy .npy array"},
	{"SQLite format 3\x00", "an SQLite database"},
	{"\x89PNG", "a PNG image"},
	{"\xff\xd8\xff", "a JPEG image"},
	{"\x04\x22\x4d\x18", "LZ4-compressed data (gzip, zstd, bzip2 and xz are read)"},
	{"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"},
	{"Rar!\x1a\x07", "a RAR archive"},
	{"\x7fELF", "an executable program"},
}

// classify tells the format of the (decompressed) input whose first
// bytes are head; rest reads it from its start. budget bounds a Parquet
// file read into memory (-1 for no bound).
func classify(head []byte, rest io.Reader, source string, budget int64) (*Input, error) {
	if bytes.HasPrefix(head, []byte("PAR1")) {
		at, size, err := randomAccess(rest, source, budget)
		if err != nil {
			return nil, err
		}
		return &Input{Reader: rest, Format: Parquet, at: at, size: size}, nil
	}
	for _, b := range binaryFormats {
		if !bytes.HasPrefix(head, []byte(b.magic)) {
			continue
		}
		what := b.what
		if b.magic == "PK\x03\x04" {
			switch {
			case bytes.Contains(head, []byte("xl/")):
				what = "an Excel workbook (.xlsx): save it as CSV, or export it as Parquet"
			case bytes.Contains(head, []byte("word/")):
				what = "a Word document"
			}
		}
		return nil, fmt.Errorf("%s: looks like %s: %w", source, what, ErrFormat)
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return nil, fmt.Errorf("%s: binary data of an unknown format (it holds NUL bytes): %w", source, ErrFormat)
	}
	text := bytes.TrimLeft(bytes.TrimPrefix(head, bom), " \t\r\n")
	if len(text) > 0 && text[0] == '{' {
		return &Input{Reader: rest, Format: JSONLines}, nil
	}
	if jsonArray(text) {
		line := 1 + bytes.Count(head[:len(head)-len(text)], []byte{'\n'})
		return nil, &data.ParseError{File: source, Line: line,
			Err: fmt.Errorf("%w: the line is a JSON array; in JSON lines each line must be a JSON object, {\"column\": value, ...}", ErrJSON)}
	}
	return &Input{Reader: rest, Format: CSV}, nil
}

// jsonArray reports whether the first line of text, which starts with
// something other than white space, is a whole JSON array (such as
// [1, "a"]): the start of JSON lines of arrays rather than objects, which
// a header line of a CSV file is not.
func jsonArray(text []byte) bool {
	if len(text) == 0 || text[0] != '[' {
		return false
	}
	line, _, _ := bytes.Cut(text, []byte{'\n'})
	return json.Valid(line)
}

// randomAccess returns random access to the input r from its current
// offset: r itself when it can seek (through seeks and reads when it is
// not an io.ReaderAt), else its bytes in memory, at most budget of them
// (-1 for no bound).
func randomAccess(r io.Reader, source string, budget int64) (io.ReaderAt, int64, error) {
	if s, start := seekStart(r); s != nil {
		end, err := s.Seek(0, io.SeekEnd)
		if err == nil {
			_, err = s.Seek(start, io.SeekStart)
		}
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", source, err)
		}
		if at, ok := r.(io.ReaderAt); ok {
			return io.NewSectionReader(at, start, end-start), end - start, nil
		}
		return &seekReaderAt{s: r.(io.ReadSeeker), base: start}, end - start, nil
	}
	if budget >= 0 {
		r = io.LimitReader(r, budget+1)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", source, err)
	}
	if budget >= 0 && int64(len(b)) > budget {
		return nil, 0, &data.ParseError{File: source, Err: fmt.Errorf("%w: a Parquet file that is compressed or not a regular file is read into memory, and this one is larger than the budget of %s %s",
			ErrMemory, FormatSize(budget), maxMemoryRemedy)}
	}
	return bytes.NewReader(b), int64(len(b)), nil
}

// seekReaderAt reads at offsets of a reader that can seek but has no
// ReadAt, one read at a time.
type seekReaderAt struct {
	mu   sync.Mutex
	s    io.ReadSeeker
	base int64
}

func (s *seekReaderAt) ReadAt(p []byte, off int64) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.s.Seek(s.base+off, io.SeekStart); err != nil {
		return 0, err
	}
	n, err := io.ReadFull(s.s, p)
	if err == io.ErrUnexpectedEOF {
		err = io.EOF
	}
	return n, err
}
