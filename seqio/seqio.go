// Package seqio reads sequence data (package seq) from the file formats
// that taggers use, plain or compressed (gzip, zstd, bzip2, xz, removed by
// dataio.Open):
//
//   - CoNLL-U (Universal Dependencies): ten tab-separated fields a word
//     line, "#" comment lines, a blank line after each sentence. The
//     tokens are the word lines (an integer ID); multiword-token lines
//     (ID "1-2") and empty nodes (ID "1.1") are skipped, as the format
//     says their words are the word lines. The comment "# sent_id = X"
//     gives the sentence's ID. Options.Tags chooses the tag: upos
//     (default), xpos, deprel, or misc:KEY, the value of KEY=value in the
//     MISC field ("_", CoNLL-U's "unspecified", when the word has none).
//     A sentence whose UPOS, XPOS or DEPREL (the one chosen) is "_" on
//     every word is untagged, as a treebank without XPOS is for --tags
//     xpos; "_" on some words of a sentence and a tag on others is an
//     error at the first "_".
//   - The column format of CoNLL-2000 and CoNLL-2003: "word [more columns]
//     tag", fields separated by spaces or tabs, a blank line between
//     sentences, "-DOCSTART-" lines skipped. Options.TagColumn chooses the
//     tag's column (from 1; the last by default). A file whose lines all
//     have one field is untagged.
//   - JSON lines: one object a line, {"tokens": [...], "tags": [...]},
//     with an optional "id"; "tags" may be left out for untagged data.
//     Other members are ignored.
//   - CRFsuite's data format (crfsuite.go): "label<TAB>attribute..." a
//     line, a blank line between sentences. Its sentences are given as
//     the attributes of their tokens (seq.Sentence's Attributes), made
//     for CRFsuite, not as words; only a model trained on such
//     attributes tags them.
//
// The format is chosen by Options.Format, else by the file name's
// extension (after a compression's: .conllu; .conll, .iob, .bio, .txt
// for columns; .jsonl, .json for JSON lines; .crfsuite for CRFsuite's),
// else by sniffing the first bytes (never CRFsuite's, whose lines look
// like columns): '{' is JSON lines, a first word line of ten tab-separated fields
// is CoNLL-U, anything else columns.
//
// A bad input is a *data.ParseError, one line "file:line:column: message"
// as gendisc gives for CSV: Column is the 1-based field of the line
// (CoNLL-U and columns) or the byte of the line (JSON lines), 0 when the
// error is the whole line's. A sentence without tokens, a wrong number of
// fields, a tag column out of range, text that is not UTF-8 and a line
// longer than MaxLine are errors.
package seqio

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/enum"
	"github.com/gendisc/gendisc/seq"
)

// Format is a file format of sequence data.
type Format int

const (
	// Auto tells the format by the file name and the first bytes.
	Auto Format = iota
	// CoNLLU is the CoNLL-U format of Universal Dependencies.
	CoNLLU
	// Columns is the column format of CoNLL-2000 and CoNLL-2003.
	Columns
	// JSONLines is one JSON object a sentence.
	JSONLines
	// CRFsuite is CRFsuite's data format: sentences given as attributes.
	CRFsuite
)

var formatNames = &enum.Names[Format]{Type: "Format", What: "sequence format", Prefix: "", List: []string{"auto", "conllu", "conll", "jsonl", "crfsuite"}}

// String returns "auto", "conllu", "conll", "jsonl" or "crfsuite".
func (v Format) String() string { return formatNames.String(v) }

// ParseFormat returns the format named name (as String writes it).
func ParseFormat(name string) (Format, error) { return formatNames.Parse(name) }

// Options are the settings of Read; the zero Options read any format,
// CoNLL-U's UPOS tags and the columns' last column.
type Options struct {
	Format Format
	// Tags is CoNLL-U's tag field: "upos" (the default when empty),
	// "xpos", "deprel" or "misc:KEY".
	Tags string
	// TagColumn is the column format's tag field, from 1; 0 means the
	// last.
	TagColumn int
	// Limits.MaxRecord is the most bytes of one sentence: of its lines
	// (comments included) in CoNLL-U and columns, of its line in JSON
	// lines; 0 means dataio.DefaultMaxRecord. A longer sentence is a
	// *data.ParseError wrapping dataio.ErrTooLong at the line that
	// passes the limit, so that no input makes Sentences hold more than
	// that. (Limits.MaxMemory is not read: Read holds the sentences of
	// a file, Sentences one at a time.)
	Limits dataio.Limits
}

// MaxLine is the longest line, in bytes, that Read accepts.
const MaxLine = 1 << 20

// Errors wrapped in the *data.ParseError of Read.
var (
	ErrNoTokens  = errors.New("sentence without tokens")
	ErrTagCount  = errors.New("number of tags differs from the number of tokens")
	ErrTagColumn = errors.New("tag column out of range")
	ErrWordID    = errors.New("bad word ID")
	ErrTagField  = errors.New("unknown CoNLL-U tag field")
	// ErrUnspecifiedTag is a CoNLL-U tag field "_" (unspecified) on
	// some words of a sentence whose other words have tags.
	ErrUnspecifiedTag = errors.New("unspecified tag")
	ErrLineLength     = fmt.Errorf("line longer than %d bytes", MaxLine)
)

// ReadFile reads the sequence data in the file at path.
func ReadFile(path string, opt Options) (*seq.Corpus, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path, opt)
}

// Read reads the sequence data of r, source naming it in errors and
// choosing the format by its extension (see the package documentation):
// every sentence, in memory (Sentences gives them one at a time).
func Read(r io.Reader, source string, opt Options) (*seq.Corpus, error) {
	c := &seq.Corpus{Source: source}
	err := scan(r, source, opt, func(s seq.Sentence) bool {
		c.Sentences = append(c.Sentences, s)
		return true
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// FormatOfData returns the format of the sequence data of r as Read
// tells it with opt: opt.Format, else by source's extension, else by the
// first bytes.
func FormatOfData(r io.Reader, source string, opt Options) (Format, error) {
	in, err := open(r, source, opt)
	if err != nil {
		return Auto, err
	}
	defer in.close()
	return in.format, nil
}

// input is sequence data being read: its lines, decompressed, its format
// and CoNLL-U's tag field.
type input struct {
	lr     *lineReader
	format Format
	field  conlluTag
	close  func()
}

// open checks opt and opens the sequence data of r for reading (Read,
// Retag), telling its format when opt does not.
func open(r io.Reader, source string, opt Options) (*input, error) {
	field, err := tagField(opt.Tags)
	if err != nil {
		return nil, err
	}
	if opt.TagColumn < 0 {
		return nil, fmt.Errorf("%w: tag column %d (columns count from 1)", ErrTagColumn, opt.TagColumn)
	}
	in, err := dataio.Open(r, source)
	if err != nil {
		return nil, err
	}
	ahead := newReadAhead(in)
	br := bufio.NewReaderSize(ahead, 64<<10)
	format := opt.Format
	if format == Auto {
		head, _ := br.Peek(4096)
		format = Detect(source, head)
	}
	lr := &lineReader{r: br, ahead: ahead, source: source, maxSentence: opt.Limits.MaxRecord, lineSentences: format == JSONLines}
	if lr.maxSentence <= 0 {
		lr.maxSentence = dataio.DefaultMaxRecord
	}
	return &input{lr: lr, format: format, field: field, close: ahead.Close}, nil
}

// Detect tells the format of a file named source whose first bytes
// (decompressed) are head: by the extension, else by head.
func Detect(source string, head []byte) Format {
	if f := FormatOf(source); f != Auto {
		return f
	}
	trimmed := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '{' {
		return JSONLines
	}
	for line := range bytes.Lines(head) {
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if bytes.Count(line, []byte("\t")) == conlluFields-1 {
			return CoNLLU
		}
		break
	}
	return Columns
}

// FormatOf returns the format that the extension of the file name source
// tells (after a compression's: see the package documentation), or Auto
// for another.
func FormatOf(source string) Format {
	name := strings.ToLower(source)
	for _, z := range []string{".gz", ".zst", ".bz2", ".xz"} {
		name = strings.TrimSuffix(name, z)
	}
	switch filepath.Ext(name) {
	case ".conllu":
		return CoNLLU
	case ".conll", ".iob", ".bio", ".txt":
		return Columns
	case ".jsonl", ".json":
		return JSONLines
	case ".crfsuite":
		return CRFsuite
	}
	return Auto
}

// lineReader gives the lines of a file with their numbers, checked for
// length and encoding.
type lineReader struct {
	r      *bufio.Reader
	ahead  *readAhead // r's source, which checks the UTF-8 of the lines
	source string
	line   int
	buf    []byte // the last line of nextBytes longer than r's buffer

	// maxSentence is the most bytes of the lines of a sentence
	// (Options.Limits.MaxRecord): the lines since the last blank one, or
	// with lineSentences (JSON lines) the line alone; sentenceBytes
	// counts them.
	maxSentence, sentenceBytes int
	lineSentences              bool
}

// next returns the next line without its line end, or io.EOF.
func (lr *lineReader) next() (string, error) {
	line, err := lr.nextBytes()
	return string(line), err
}

// nextBytes is next with the line in a buffer that the next call
// overwrites: the reader's own buffer when the line fits in it, which
// saves copying every line of a file once more.
func (lr *lineReader) nextBytes() ([]byte, error) {
	line, err := lr.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull { // a line longer than the buffer: gathered in lr.buf
		buf := append(lr.buf[:0], line...)
		for err == bufio.ErrBufferFull && len(buf) <= MaxLine {
			line, err = lr.r.ReadSlice('\n')
			buf = append(buf, line...)
		}
		line, lr.buf = buf, buf
	}
	if len(line) > MaxLine {
		lr.line++
		return nil, lr.errorf(0, "%w", ErrLineLength)
	}
	if err != nil && (err != io.EOF || len(line) == 0) {
		if err != io.EOF {
			err = fmt.Errorf("%s: %w", lr.source, err)
		}
		return nil, err
	}
	lr.line++
	if err := lr.countSentence(line); err != nil {
		return nil, err
	}
	line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
	if lr.line == 1 {
		line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
	}
	if lr.ahead.invalid && !utf8.Valid(line) { // else checked by lr.ahead
		return nil, lr.errorf(0, "%w", data.ErrEncoding)
	}
	return line, nil
}

// countSentence adds the line, with its line end, to the bytes of its
// sentence (a blank line ends a sentence), or returns the error of a sentence longer than maxSentence.
func (lr *lineReader) countSentence(line []byte) error {
	switch {
	case len(bytes.TrimSpace(line)) == 0:
		lr.sentenceBytes = 0 // between sentences
		return nil
	case lr.lineSentences:
		lr.sentenceBytes = 0
	}
	lr.sentenceBytes += len(line)
	if lr.sentenceBytes > lr.maxSentence {
		return lr.errorf(0, "%w: a sentence of more than %s (raise Limits.MaxRecord)", dataio.ErrTooLong, dataio.FormatSize(int64(lr.maxSentence)))
	}
	return nil
}

// errorf returns the *data.ParseError of the current line at column.
func (lr *lineReader) errorf(column int, format string, args ...any) error {
	return &data.ParseError{File: lr.source, Line: lr.line, Column: column, Err: fmt.Errorf(format, args...)}
}
