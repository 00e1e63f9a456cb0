package data

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// ErrJSON is wrapped by the errors about a line of JSON lines that is not
// a flat JSON object.
var ErrJSON = errors.New("not a flat JSON object")

// jsonBatch is the number of lines read at a time; the columns are the
// keys met in the first batch.
const jsonBatch = 1 << 16

// jsonTable reads JSON lines a batch of lines at a time.
type jsonTable struct {
	in    *bufio.Reader
	src   string
	line  int // lines read
	eof   bool
	index map[string]int // field of each key
	first []jsonRecord   // the first batch, read to find the keys
}

// jsonRecord is one line's object: its values by field, in key order.
type jsonRecord struct {
	line   int
	fields []int
	values []jsonValue
}

// jsonValue is a scalar JSON value.
type jsonValue struct {
	kind byte   // 'n' number, 's' string, 'b' boolean, '0' null
	text []byte // the number's text, the string, "true" or "false"
}

// openJSONLines reads the first batch of lines and sets the header from
// their keys, in the order they are first met.
func openJSONLines(r *reader, in *Input) (*jsonTable, error) {
	t := &jsonTable{in: bufio.NewReaderSize(in.Reader, 1<<16), src: r.src, index: map[string]int{}}
	recs, err := t.batch(func(key string) (int, bool) {
		f, ok := t.index[key]
		if !ok {
			f = len(r.header)
			t.index[key] = f
			r.header = append(r.header, key)
		}
		return f, true
	})
	if err != nil {
		return nil, err
	}
	if len(r.header) == 0 {
		return nil, &ParseError{File: r.src, Err: ErrEmpty}
	}
	t.first = recs
	return t, nil
}

// next stores the next batch of lines.
func (t *jsonTable) next(r *reader) (more bool, err error) {
	recs := t.first
	if recs == nil {
		if recs, err = t.batch(t.known); err != nil {
			return false, err
		}
	}
	t.first = nil
	lo := r.addRows(len(recs))
	nf := len(r.header)
	for k, rec := range recs {
		i := lo + k
		r.lines[i] = rec.line
		for f := range nf {
			r.putMissing(f, i)
		}
		for m, f := range rec.fields {
			v := rec.values[m]
			switch v.kind {
			case 'n':
				err = r.putNumber(f, i, 0, v.text)
			case 's', 'b':
				err = r.putString(f, i, v.text)
			}
			if err != nil {
				return false, err
			}
		}
	}
	return !t.eof, nil
}

// known returns the field of a key of the first batch.
func (t *jsonTable) known(key string) (int, bool) {
	f, ok := t.index[key]
	return f, ok
}

// batch reads up to jsonBatch non-blank lines; field gives the field of a
// key, false when the key is not a column.
func (t *jsonTable) batch(field func(string) (int, bool)) ([]jsonRecord, error) {
	var recs []jsonRecord
	for len(recs) < jsonBatch && !t.eof {
		line, err := t.in.ReadBytes('\n')
		if err == io.EOF {
			t.eof = true
		} else if err != nil {
			return nil, fmt.Errorf("%s: %w", t.src, err)
		}
		t.line++
		if t.line == 1 {
			line = bytes.TrimPrefix(line, bom)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		rec, err := t.parse(line, field)
		if err != nil {
			return nil, err
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

// parse reads one line's object.
func (t *jsonTable) parse(line []byte, field func(string) (int, bool)) (jsonRecord, error) {
	rec := jsonRecord{line: t.line}
	fail := func(key string, err error) (jsonRecord, error) {
		return jsonRecord{}, &ParseError{File: t.src, Line: t.line, ColumnName: key, Err: err}
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return fail("", fmt.Errorf("%w: the line does not start with {", ErrJSON))
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
		var v jsonValue
		switch tok := tok.(type) {
		case json.Number:
			v = jsonValue{'n', []byte(tok)}
		case string:
			v = jsonValue{'s', []byte(tok)}
		case bool:
			v = jsonValue{'b', strconv.AppendBool(nil, tok)}
		case nil:
			v = jsonValue{kind: '0'}
		default:
			return fail(key, fmt.Errorf("%w: the value is an array or an object", ErrJSON))
		}
		f, ok := field(key)
		if !ok {
			return fail(key, fmt.Errorf("%w: the key is not among those of the first %d lines, which make the columns", ErrNoColumn, jsonBatch))
		}
		if seen[f] {
			return fail(key, fmt.Errorf("%w: the key twice on the line", ErrDuplicate))
		}
		seen[f] = true
		rec.fields = append(rec.fields, f)
		rec.values = append(rec.values, v)
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return fail("", fmt.Errorf("%w: the object is not closed", ErrJSON))
	}
	if _, err := dec.Token(); err != io.EOF {
		return fail("", fmt.Errorf("%w: text after the object", ErrJSON))
	}
	return rec, nil
}
