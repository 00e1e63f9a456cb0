package modelfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/atomicfile"
)

// Format is the value of the "format" field of every model file.
const Format = "gendisc-model"

// Version is the version of the file layout this build writes. It counts
// incompatible changes of the envelope or of any model kind's parameters; a
// build reads every version up to its own and refuses newer files.
const Version = 1

// Persistent is a fitted model that can be saved: MarshalJSON gives its
// parameters, which the model's package reads back together with the
// schema.
type Persistent interface {
	gendisc.Model
	json.Marshaler
}

// CompactMarshaler is implemented by a Persistent model whose parameters'
// JSON is valid and compact by construction, as json.Marshal writes it,
// and which its package tests against json.Marshal's bytes: Write takes
// MarshalCompactJSON's bytes as they are, without checking and compacting
// them again (json.Compact), which on the megabytes of a large model's
// parameters costs about as much as making them. A file that a faulty
// writer made invalid would still be refused by Read.
type CompactMarshaler interface {
	MarshalCompactJSON() ([]byte, error)
}

// Envelope is a model file as read: what every model file holds, with the
// model's own parameters left as JSON for its package to read.
type Envelope struct {
	Format   string          `json:"format"`  // always Format
	Version  int             `json:"version"` // 1 to Version
	Kind     string          `json:"kind"`    // the model's Kind
	Schema   *data.Schema    `json:"schema"`
	Params   json.RawMessage `json:"params"`   // compact JSON
	Checksum string          `json:"checksum"` // "sha256:" and 64 hex digits
	Source   string          `json:"-"`        // the file name given to Read
}

// Sentinel errors for the refusals of Read and Expect; the *Error they
// come in matches one of them under errors.Is.
var (
	ErrEmpty     = errors.New("empty model file")
	ErrTruncated = errors.New("truncated or not JSON")
	ErrForeign   = errors.New("not a gendisc model file")
	ErrNewer     = errors.New("model file of a newer version")
	ErrEdited    = errors.New("model file edited")
	ErrMalformed = errors.New("model file field missing or malformed")
	ErrKind      = errors.New("wrong model kind")
)

// Error is a refusal to read a model file: a one-line Msg about the file
// named File.
type Error struct {
	File string
	Err  error // one of the sentinel errors
	Msg  string
}

func (e *Error) Error() string {
	if e.File == "" {
		return e.Msg
	}
	return e.File + ": " + e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

// rawEnvelope is the envelope with every field as raw JSON: what Read
// checks field by field and what Write encodes.
type rawEnvelope struct {
	Format   json.RawMessage `json:"format"`
	Version  json.RawMessage `json:"version"`
	Kind     json.RawMessage `json:"kind"`
	Schema   json.RawMessage `json:"schema"`
	Params   json.RawMessage `json:"params"`
	Checksum json.RawMessage `json:"checksum"`
}

// checksum returns the envelope's checksum, "sha256:" and the hex digest of
//
//	format ⏎ version ⏎ kind ⏎ schema ⏎ params ⏎
//
// where each field is its JSON text compacted (json.Compact) and ⏎ is a
// newline, which compact JSON cannot contain. Any change to a value is
// detected; reformatting the file's white space is not a change. The
// fields must be valid JSON.
func (r *rawEnvelope) checksum() string {
	h := sha256.New()
	var buf []byte
	for _, field := range [][]byte{r.Format, r.Version, r.Kind, r.Schema, r.Params} {
		if bytes.ContainsAny(field, " \t\n\r") { // else compact already
			buf = compactValid(buf[:0], field)
			field = buf
		}
		h.Write(field)
		h.Write([]byte{'\n'})
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// splitEnvelope reads b as json.Unmarshal reads it into a rawEnvelope
// (the values of the fields as they are written, unknown fields skipped,
// the last of a repeated field kept), and reports whether it could: b is
// valid JSON, an object, and its keys are written without escapes and
// with the fields' names in lower case (json.Unmarshal takes any case).
// json.Valid and this one pass take half the time of json.Unmarshal,
// which scans the megabytes of a large model's parameters twice.
func splitEnvelope(b []byte) (rawEnvelope, bool) {
	var r rawEnvelope
	if !json.Valid(b) {
		return r, false
	}
	fields := r.fields()
	i := skipSpace(b, 0)
	if b[i] != '{' {
		return r, false
	}
	if i = skipSpace(b, i+1); b[i] == '}' {
		return r, true
	}
	for {
		end := skipValue(b, i) // the key, a string
		key := b[i+1 : end-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			return r, false
		}
		i = skipSpace(b, skipSpace(b, end)+1) // after the colon
		end = skipValue(b, i)
		for _, f := range fields {
			switch {
			case f.name == string(key):
				*f.value = b[i:end]
			case strings.EqualFold(f.name, string(key)):
				return r, false
			}
		}
		if i = skipSpace(b, end); b[i] == '}' {
			return r, true
		}
		i = skipSpace(b, i+1) // after the comma
	}
}

// skipSpace returns the index of the first byte of b from i on that is
// not JSON's white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the index just after the value that starts at b[i],
// b being valid JSON.
func skipValue(b []byte, i int) int {
	depth := 0
	for {
		switch c := b[i]; {
		case c == '"':
			for i++; b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			i++
		case c == '{' || c == '[':
			depth++
			i++
		case c == '}' || c == ']':
			depth--
			i++
		case depth == 0: // a number or a literal
			for i < len(b) && !strings.ContainsRune(",}] \t\n\r", rune(b[i])) {
				i++
			}
			return i
		default:
			i++
		}
		if depth == 0 {
			return i
		}
	}
}

// compactValid appends the valid JSON src to dst without its white space
// outside strings, as json.Compact does, without checking src again:
// several times faster than json.Compact on the megabytes of parameters
// of a large model.
func compactValid(dst, src []byte) []byte {
	n := len(dst)
	dst = slices.Grow(dst, len(src))[:n+len(src)]
	out, j := dst[n:], 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case ' ', '\t', '\n', '\r':
		case '"': // copy the string, up to its closing quote
			end := closingQuote(src, i)
			j += copy(out[j:], src[i:end+1])
			i = end
		default:
			out[j] = c
			j++
		}
	}
	return dst[:n+j]
}

// field is a field of rawEnvelope: its name in the file and its value.
type field struct {
	name  string
	value *json.RawMessage
}

// fields returns r's fields in their order in a file.
func (r *rawEnvelope) fields() []field {
	return []field{{"format", &r.Format}, {"version", &r.Version}, {"kind", &r.Kind}, {"schema", &r.Schema}, {"params", &r.Params}, {"checksum", &r.Checksum}}
}

// appendCompact appends the envelope as compact JSON, its fields in
// order: what json.Marshal writes of r without HTML escapes when every
// field is compact JSON.
func (r *rawEnvelope) appendCompact(dst []byte) []byte {
	for i, f := range r.fields() {
		if i == 0 {
			dst = append(dst, '{')
		} else {
			dst = append(dst, ',')
		}
		dst = append(append(append(append(dst, '"'), f.name...), '"', ':'), *f.value...)
	}
	return append(dst, '}')
}

// Write writes the model file of m to w: the envelope, with m's parameters
// (MarshalJSON, with json.Marshal's escapes of <, > and & undone) under
// "params", as indented JSON ending in a newline.
// Nothing is written if m cannot be encoded.
func Write(w io.Writer, m Persistent) error {
	b, err := encode(m)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// encode returns the model file of m.
func encode(m Persistent) ([]byte, error) {
	kind, schema := m.Kind(), m.Schema()
	if kind == "" || schema == nil {
		return nil, fmt.Errorf("modelfile: model %T has no kind or no schema", m)
	}
	if cm, ok := m.(CompactMarshaler); ok {
		params, err := cm.MarshalCompactJSON()
		if err != nil {
			return nil, fmt.Errorf("modelfile: encoding the parameters of the %s model: %w", kind, err)
		}
		return envelope(kind, schema, params)
	}
	params, err := m.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("modelfile: encoding the parameters of the %s model: %w", kind, err)
	}
	return Encode(kind, schema, params)
}

// Encode returns the model file of a model of the given kind and schema
// whose parameters are the JSON params, with its checksum: what Write
// writes for a model whose MarshalJSON returns params. It is for programs
// that make model files of their own, such as the fuzz tests of the model
// families, which edit a file's parameters and need the file to pass the
// checksum so that the kind's decoder reads them: the checksum guards
// against accidents, not against a writer who means it, and a decoder
// checks the meaning of what it reads.
func Encode(kind string, schema *data.Schema, params []byte) ([]byte, error) {
	if kind == "" || schema == nil {
		return nil, errors.New("modelfile: a model file needs a kind and a schema")
	}
	var buf bytes.Buffer
	buf.Grow(len(params))
	if err := json.Compact(&buf, params); err != nil {
		return nil, fmt.Errorf("modelfile: the parameters of the %s model are not valid JSON: %v", kind, err)
	}
	return envelope(kind, schema, buf.Bytes())
}

// envelope returns the model file of a model of the given kind and
// schema whose parameters are the valid, compact JSON params.
func envelope(kind string, schema *data.Schema, params []byte) ([]byte, error) {
	var err error
	var r rawEnvelope
	r.Params = unescapeHTML(params)
	// Strings and ints always encode.
	r.Format, _ = marshal(Format)
	r.Version, _ = marshal(Version)
	r.Kind, _ = marshal(kind)
	if r.Schema, err = marshal(schema); err != nil {
		return nil, fmt.Errorf("modelfile: encoding the schema of the %s model: %w", kind, err)
	}
	r.Checksum, _ = marshal(r.checksum())
	compact := r.appendCompact(make([]byte, 0, len(r.Params)+len(r.Schema)+256)) // every field compact
	return append(indent(make([]byte, 0, len(compact)+len(compact)/8), compact), '\n'), nil
}

// marshal encodes v as compact JSON without escaping <, > and &, so class
// names such as "<=50K" stay readable.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}

// unescapeHTML replaces the escapes \u003c, \u003e and \u0026 in the valid
// JSON b by the characters <, > and & they stand for. json.Marshal writes
// them to make JSON safe inside HTML; a model file is not HTML, and class
// names such as "<=50K" read better as they are.
func unescapeHTML(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u00`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' {
			out = append(out, b[i])
			continue
		}
		// Backslashes occur only in strings, each starting an escape
		// of at least two bytes.
		if b[i+1] == 'u' {
			if c, ok := htmlEscapes[string(b[i+2:i+6])]; ok {
				out = append(out, c)
				i += 5
				continue
			}
		}
		out = append(out, b[i], b[i+1])
		i++
	}
	return out
}

var htmlEscapes = map[string]byte{"003c": '<', "003e": '>', "0026": '&'}

// Save writes the model file of m to path atomically: to a temporary file in
// the same directory, synced to disk, then renamed over path. On any error
// no file is left behind and an existing file at path is untouched. The new
// file keeps the permissions of the file it replaces, or gets 0644. The
// gendisc command, stopped by SIGINT or SIGTERM during the write, removes
// the temporary file too. A path of "-" writes to standard output.
func Save(path string, m Persistent) error {
	if path == "-" {
		return Write(os.Stdout, m)
	}
	b, err := encode(m)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, b); err != nil {
		return fmt.Errorf("saving model to %s: %w", path, err)
	}
	return nil
}

// Load reads the model file at path, or standard input for "-"; see Read.
func Load(path string) (*Envelope, error) {
	if path == "-" {
		return Read(os.Stdin, "<stdin>")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// Read reads a model file from r; source names it in errors and becomes the
// envelope's Source. It refuses, with an *Error that names source, a file
// that is empty (ErrEmpty), truncated or not JSON (ErrTruncated), not a
// gendisc model file (ErrForeign), of a version newer than Version
// (ErrNewer), changed since it was written (ErrEdited: the checksum does not
// match), or lacking a field (ErrMalformed). The parameters are left for the
// model's package to read and check.
func Read(r io.Reader, source string) (*Envelope, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	refuse := func(sentinel error, format string, args ...any) (*Envelope, error) {
		return nil, &Error{File: source, Err: sentinel, Msg: fmt.Sprintf(format, args...)}
	}
	// A byte order mark, which some editors put at the start of a UTF-8
	// file, is not part of the JSON text (RFC 8259 §8.1 lets a parser
	// ignore it) and not covered by the checksum, which is computed on
	// the values of the fields.
	b = bytes.TrimPrefix(b, utf8BOM)
	if len(bytes.TrimSpace(b)) == 0 {
		return refuse(ErrEmpty, "empty file, not a gendisc model")
	}
	raw, ok := splitEnvelope(b)
	if !ok {
		raw = rawEnvelope{}
		err = json.Unmarshal(b, &raw)
	}
	if err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			line, col := position(b, syntax.Offset)
			return refuse(ErrTruncated, "truncated or not a gendisc model file (line %d, column %d: %v)", line, col, err)
		}
		return refuse(ErrForeign, "not a gendisc model file (the JSON is not an object)")
	}

	var e Envelope
	if !isPresent(raw.Format) {
		return refuse(ErrForeign, "not a gendisc model file (no %q field)", "format")
	}
	if json.Unmarshal(raw.Format, &e.Format) != nil || e.Format != Format {
		return refuse(ErrForeign, "not a gendisc model file (format %s, want %q)", excerpt(raw.Format), Format)
	}
	if !isPresent(raw.Version) {
		return refuse(ErrMalformed, "model file without a %q", "version")
	}
	if json.Unmarshal(raw.Version, &e.Version) != nil || e.Version < 1 {
		return refuse(ErrMalformed, "invalid model file version %s", excerpt(raw.Version))
	}
	if e.Version > Version {
		return refuse(ErrNewer, "model file version %d is newer than this build of gendisc reads (up to version %d); upgrade gendisc to read it", e.Version, Version)
	}
	for _, f := range []struct {
		name string
		raw  json.RawMessage
	}{{"kind", raw.Kind}, {"schema", raw.Schema}, {"params", raw.Params}, {"checksum", raw.Checksum}} {
		if !isPresent(f.raw) {
			return refuse(ErrMalformed, "model file without a %q", f.name)
		}
	}
	if json.Unmarshal(raw.Kind, &e.Kind) != nil || e.Kind == "" {
		return refuse(ErrMalformed, "model kind %s is not a name", excerpt(raw.Kind))
	}
	if json.Unmarshal(raw.Checksum, &e.Checksum) != nil {
		return refuse(ErrMalformed, "checksum %s is not a string", excerpt(raw.Checksum))
	}
	// The parameters compacted once, for the checksum and for the model.
	raw.Params = compactValid(make([]byte, 0, len(raw.Params)), raw.Params) // valid: part of a valid document
	if e.Checksum != raw.checksum() {
		return refuse(ErrEdited, "checksum mismatch: the file was edited or damaged after it was written")
	}
	if err := json.Unmarshal(raw.Schema, &e.Schema); err != nil {
		return refuse(ErrMalformed, "invalid schema: %v", err)
	}
	if err := checkNames(e.Schema); err != nil {
		return refuse(ErrMalformed, "invalid schema: %v", err)
	}
	e.Params = raw.Params
	e.Source = source
	return &e, nil
}

// utf8BOM is the byte order mark U+FEFF in UTF-8.
var utf8BOM = []byte("\uFEFF")

// checkNames checks that the names of a schema identify what they name,
// as the model and the data read for it take them to: the features and
// the target have distinct names, and so have the levels of each
// categorical column (the classes, for the target).
func checkNames(s *data.Schema) error {
	names := make(map[string]bool, len(s.Features)+1)
	columns := slices.Clone(s.Features)
	if s.Target != nil {
		columns = append(columns, *s.Target)
	}
	for i, c := range columns {
		what := "feature"
		if i == len(s.Features) {
			what = "target"
		}
		if names[c.Name] {
			return fmt.Errorf("%s %q is named twice in the model's schema", what, c.Name)
		}
		names[c.Name] = true
		levels := make(map[string]bool, len(c.Levels))
		for _, l := range c.Levels {
			if levels[l] {
				return fmt.Errorf("%s %q has the level %q twice", what, c.Name, l)
			}
			levels[l] = true
		}
	}
	return nil
}

// isPresent reports whether a field was in the file with a value other
// than null.
func isPresent(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }

// excerpt returns the JSON text raw on one line, shortened to 40 bytes.
func excerpt(raw json.RawMessage) string {
	var buf bytes.Buffer
	json.Compact(&buf, raw) // valid: part of a valid document
	s := buf.String()
	if len(s) <= 40 {
		return s
	}
	n := 37
	for !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// position returns the 1-based line and column of the byte at which a
// json.SyntaxError with the given Offset occurred: the last byte read.
func position(b []byte, offset int64) (line, col int) {
	before := b[:min(max(int(offset)-1, 0), len(b))]
	line = 1 + bytes.Count(before, []byte{'\n'})
	col = len(before) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// Expect returns nil if the model is of one of kinds, and otherwise an
// *Error matching ErrKind that names the file, such as
//
//	m.json: model is of kind "qda", expected "lda" or "gaussian-nb"
//
// It panics if kinds is empty.
func (e *Envelope) Expect(kinds ...string) error {
	if len(kinds) == 0 {
		panic("modelfile: Expect needs at least one kind")
	}
	if slices.Contains(kinds, e.Kind) {
		return nil
	}
	quoted := make([]string, len(kinds))
	for i, k := range kinds {
		quoted[i] = strconv.Quote(k)
	}
	return &Error{
		File: e.Source,
		Err:  ErrKind,
		Msg:  fmt.Sprintf("model is of kind %q, expected %s", e.Kind, strings.Join(quoted, " or ")),
	}
}
