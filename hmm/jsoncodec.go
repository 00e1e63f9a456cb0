package hmm

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/gendisc/gendisc/internal/jsonw"
	"github.com/gendisc/gendisc/modelfile"
)

// The parameters of a model file are written and read by hand, without
// reflection: by encoding/json, modelJSON's hundreds of thousands of
// numbers and words took a fifth of `gendisc fit`'s time to write and a
// quarter of `gendisc eval`'s to read (EWT train's model, 1.4 MB). The
// bytes written are json.Marshal's of modelJSON (TestModelJSONBytes);
// the reader takes the JSON that json.Unmarshal takes into modelJSON,
// except that a key must be spelt as the field's tag (encoding/json
// ignores case), an array element may not be null and an integer has at
// most 18 digits.

// appendJSON appends j as json.Marshal encodes it.
func (j *modelJSON) appendJSON(b []byte) []byte {
	w := objectWriter{b: append(b, '{')}
	w.key("order")
	w.b = strconv.AppendInt(w.b, int64(j.Order), 10)
	w.key("transitions")
	w.b = jsonw.String(w.b, j.Transitions)
	w.float("alpha", j.Alpha)
	w.float("emission_alpha", j.EmissionAlpha)
	w.key("unknown")
	w.b = jsonw.String(w.b, j.Unknown)
	w.key("max_suffix")
	w.b = strconv.AppendInt(w.b, int64(j.MaxSuffix), 10)
	w.key("rare")
	w.b = strconv.AppendInt(w.b, int64(j.Rare), 10)
	w.float("theta_factor", j.ThetaFactor)
	w.float("context", j.Context)
	w.key("no_capitalization")
	w.b = strconv.AppendBool(w.b, j.NoCap)
	w.key("no_end")
	w.b = strconv.AppendBool(w.b, j.NoEnd)
	w.float("beam", j.Beam)
	w.key("words")
	w.b = jsonw.Array(w.b, j.Words, jsonw.String)
	w.key("state_tag")
	w.b = jsonw.Array(w.b, j.StateTag, jsonw.Int)
	w.key("state_cap")
	w.b = jsonw.Array(w.b, j.StateCap, strconv.AppendBool)
	w.key("trans_index")
	w.b = jsonw.Array(w.b, j.TransIndex, jsonw.Int)
	w.floats("trans_count", j.TransCount)
	w.key("emit_word")
	w.b = jsonw.Array(w.b, j.EmitWord, jsonw.Int)
	w.key("emit_tag")
	w.b = jsonw.Array(w.b, j.EmitTag, jsonw.Int)
	w.floats("emit_count", j.EmitCount)
	w.key("context_word")
	w.b = jsonw.Array(w.b, j.ContextWord, jsonw.Int)
	w.key("context_prev")
	w.b = jsonw.Array(w.b, j.ContextPrev, jsonw.Int)
	w.key("context_tag")
	w.b = jsonw.Array(w.b, j.ContextTag, jsonw.Int)
	w.floats("context_count", j.ContextCount)
	return append(w.b, '}')
}

// sizeHint is about the length of appendJSON's bytes, a little more for
// most models: the words, and at most 8 bytes for each number.
func (j *modelJSON) sizeHint() int {
	n := 1024
	for _, w := range j.Words {
		n += len(w) + 3
	}
	return n + 8*(2*len(j.TransIndex)+3*len(j.EmitWord)+4*len(j.ContextWord))
}

// objectWriter appends the members of a JSON object.
type objectWriter struct{ b []byte }

// key appends the key of a member (a name that needs no escape) and its
// colon, after a comma unless it is the first.
func (w *objectWriter) key(name string) {
	if w.b[len(w.b)-1] != '{' {
		w.b = append(w.b, ',')
	}
	w.b = append(append(append(append(w.b, '"'), name...), '"'), ':')
}

// float appends a member of type modelfile.Float.
func (w *objectWriter) float(name string, x modelfile.Float) {
	w.key(name)
	b, _ := x.MarshalJSON() // never fails
	w.b = append(w.b, b...)
}

// floats appends a member of type modelfile.Floats, which a nil slice
// writes as [], as json.Marshal calls its MarshalJSON.
func (w *objectWriter) floats(name string, x modelfile.Floats) {
	w.key(name)
	b, _ := x.MarshalJSON() // never fails
	w.b = append(w.b, b...)
}

// unmarshalJSON reads the JSON object of appendJSON into j, each member
// as json.Unmarshal would, refusing members of other names.
func (j *modelJSON) unmarshalJSON(b []byte) error {
	r := jsonReader{b: b}
	err := r.object(func(key string) error {
		switch key {
		case "order":
			return r.scalar(&j.Order)
		case "transitions":
			return r.scalar(&j.Transitions)
		case "alpha":
			return r.scalar(&j.Alpha)
		case "emission_alpha":
			return r.scalar(&j.EmissionAlpha)
		case "unknown":
			return r.scalar(&j.Unknown)
		case "max_suffix":
			return r.scalar(&j.MaxSuffix)
		case "rare":
			return r.scalar(&j.Rare)
		case "theta_factor":
			return r.scalar(&j.ThetaFactor)
		case "context":
			return r.scalar(&j.Context)
		case "no_capitalization":
			return r.scalar(&j.NoCap)
		case "no_end":
			return r.scalar(&j.NoEnd)
		case "beam":
			return r.scalar(&j.Beam)
		case "words":
			return readArray(&r, &j.Words, (*jsonReader).string)
		case "state_tag":
			return readArray(&r, &j.StateTag, readInt[int])
		case "state_cap":
			return readArray(&r, &j.StateCap, (*jsonReader).bool)
		case "trans_index":
			return readArray(&r, &j.TransIndex, readInt[int])
		case "trans_count":
			return r.floats(&j.TransCount)
		case "emit_word":
			return readArray(&r, &j.EmitWord, readInt[int32])
		case "emit_tag":
			return readArray(&r, &j.EmitTag, readInt[int32])
		case "emit_count":
			return r.floats(&j.EmitCount)
		case "context_word":
			return readArray(&r, &j.ContextWord, readInt[int32])
		case "context_prev":
			return readArray(&r, &j.ContextPrev, readInt[int32])
		case "context_tag":
			return readArray(&r, &j.ContextTag, readInt[int32])
		case "context_count":
			return r.floats(&j.ContextCount)
		}
		return fmt.Errorf("json: unknown field %q", key)
	})
	if err != nil {
		return err
	}
	if r.space(); r.i != len(r.b) {
		return fmt.Errorf("offset %d: data after the parameters' object", r.i)
	}
	return nil
}

// jsonReader reads JSON from b, at b[i].
type jsonReader struct {
	b []byte
	i int
}

var errJSONEnd = errors.New("unexpected end of JSON input")

// space skips white space.
func (r *jsonReader) space() {
	for r.i < len(r.b) && (r.b[r.i] == ' ' || r.b[r.i] == '\t' || r.b[r.i] == '\n' || r.b[r.i] == '\r') {
		r.i++
	}
}

// byte consumes c, after white space.
func (r *jsonReader) byte(c byte) error {
	r.space()
	if r.i == len(r.b) {
		return errJSONEnd
	}
	if r.b[r.i] != c {
		return fmt.Errorf("offset %d: %q where %q belongs", r.i, r.b[r.i], c)
	}
	r.i++
	return nil
}

// peek returns the next byte after white space, 0 at the end.
func (r *jsonReader) peek() byte {
	if r.space(); r.i == len(r.b) {
		return 0
	}
	return r.b[r.i]
}

// object reads an object, calling member with each key to read its value.
func (r *jsonReader) object(member func(key string) error) error {
	if err := r.byte('{'); err != nil {
		return err
	}
	if r.peek() == '}' {
		r.i++
		return nil
	}
	for {
		key, err := r.string()
		if err != nil {
			return err
		}
		if err := r.byte(':'); err != nil {
			return err
		}
		if err := member(key); err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		if r.peek() == '}' {
			r.i++
			return nil
		}
		if err := r.byte(','); err != nil {
			return err
		}
	}
}

// value returns the text of the next value, which it skips: a string, a
// literal or number up to the next delimiter, or an array or object up
// to its matching bracket. It checks only the extent of the value:
// json.Unmarshal of the text checks the rest.
func (r *jsonReader) value() ([]byte, error) {
	r.space()
	start, depth := r.i, 0
	for r.i < len(r.b) {
		switch c := r.b[r.i]; c {
		case '"':
			if _, err := r.stringEnd(); err != nil {
				return nil, err
			}
			if depth == 0 {
				return r.b[start:r.i], nil
			}
			continue
		case '[', '{':
			depth++
		case ']', '}', ',':
			if depth == 0 {
				return r.b[start:r.i], nil
			}
			if c != ',' {
				depth--
			}
			if depth == 0 {
				r.i++
				return r.b[start:r.i], nil
			}
		case ' ', '\t', '\n', '\r':
			if depth == 0 {
				return r.b[start:r.i], nil
			}
		}
		r.i++
	}
	if depth > 0 || start == r.i {
		return nil, errJSONEnd
	}
	return r.b[start:r.i], nil
}

// scalar reads the next value into *v by json.Unmarshal: for the short
// members and those with an unmarshaler of their own.
func (r *jsonReader) scalar(v any) error {
	text, err := r.value()
	if err != nil {
		return err
	}
	return json.Unmarshal(text, v)
}

// floats reads the next value by modelfile.Floats' own unmarshaler,
// which checks every element.
func (r *jsonReader) floats(x *modelfile.Floats) error {
	text, err := r.value()
	if err != nil {
		return err
	}
	return x.UnmarshalJSON(text)
}

// stringEnd skips the string that starts at b[i], returning whether it
// holds a backslash.
func (r *jsonReader) stringEnd() (escaped bool, err error) {
	for r.i++; r.i < len(r.b); r.i++ {
		switch r.b[r.i] {
		case '\\':
			escaped = true
			r.i++
		case '"':
			r.i++
			return escaped, nil
		}
	}
	return false, errJSONEnd
}

// string reads a string: one of printable characters in valid UTF-8
// without escapes as it is, another by json.Unmarshal.
func (r *jsonReader) string() (string, error) {
	if r.peek() != '"' {
		return "", fmt.Errorf("offset %d: not a string", r.i)
	}
	start := r.i
	escaped, err := r.stringEnd()
	if err != nil {
		return "", err
	}
	text := r.b[start:r.i]
	inner := text[1 : len(text)-1]
	if !escaped && utf8.Valid(inner) {
		plain := true
		for _, c := range inner {
			plain = plain && c >= 0x20
		}
		if plain {
			return string(inner), nil
		}
	}
	var s string
	err = json.Unmarshal(text, &s)
	return s, err
}

// bool reads true or false.
func (r *jsonReader) bool() (bool, error) {
	text, err := r.value()
	switch {
	case err != nil:
		return false, err
	case string(text) == "true":
		return true, nil
	case string(text) == "false":
		return false, nil
	}
	return false, fmt.Errorf("%.40q is not a boolean", text)
}

// readInt reads an integer of type I, in JSON's syntax without a
// fraction or exponent and of at most 18 digits, as json.Unmarshal takes
// into I.
func readInt[I int | int32](r *jsonReader) (I, error) {
	text, err := r.value()
	if err != nil {
		return 0, err
	}
	digits := text
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	// At most 18 digits, so that the sum below cannot overflow: more are
	// refused (json.Unmarshal takes a 19th), no count or index of a
	// model file having them.
	ok := len(digits) > 0 && len(digits) <= 18 && (digits[0] != '0' || len(digits) == 1)
	n := int64(0)
	for _, c := range digits {
		ok = ok && '0' <= c && c <= '9'
		n = n*10 + int64(c-'0')
	}
	if len(text) > len(digits) {
		n = -n
	}
	if !ok || int64(I(n)) != n {
		return 0, fmt.Errorf("%.40q is not an integer of type %T", text, I(0))
	}
	return I(n), nil
}

// readArray reads an array of elements, each read by each, or null (a nil
// slice) into *xs.
func readArray[E any](r *jsonReader, xs *[]E, each func(*jsonReader) (E, error)) error {
	if r.peek() == 'n' {
		return r.scalar(xs) // null, or an error
	}
	if err := r.byte('['); err != nil {
		return err
	}
	out := make([]E, 0, 16)
	if r.peek() == ']' {
		r.i++
		*xs = out
		return nil
	}
	for {
		x, err := each(r)
		if err != nil {
			return fmt.Errorf("element %d: %w", len(out), err)
		}
		out = append(out, x)
		if r.peek() == ']' {
			r.i++
			*xs = out
			return nil
		}
		if err := r.byte(','); err != nil {
			return err
		}
	}
}
