// Package jsonw appends JSON values to byte slices by hand, with
// json.Marshal's bytes, for the writers that make large JSON without
// reflection: a model family's parameters (hmm) and the server's answers.
package jsonw

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// String appends s as a JSON string as json.Marshal writes it: a string
// of printable ASCII without a quote, a backslash or the HTML characters
// <, > and & as it is, another by json.Marshal (its escapes, invalid
// UTF-8 as U+FFFD).
func String(b []byte, s string) []byte {
	for i := range len(s) {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	return append(append(append(b, '"'), s...), '"')
}

// Int appends x as a JSON number.
func Int[I int | int32 | int64](b []byte, x I) []byte { return strconv.AppendInt(b, int64(x), 10) }

// Array appends xs as a JSON array of the elements that each appends, or
// null for a nil slice, as json.Marshal does.
func Array[E any](b []byte, xs []E, each func([]byte, E) []byte) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	return List(b, xs, each)
}

// List appends xs as a JSON array of the elements that each appends, []
// for a nil slice too.
func List[E any](b []byte, xs []E, each func([]byte, E) []byte) []byte {
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = each(b, x)
	}
	return append(b, ']')
}
