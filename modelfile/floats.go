package modelfile

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Floats is a []float64 that reads back from JSON bit for bit. It is
// written as a JSON array: a finite value as the shortest decimal that
// parses back to the same float64 (the digits of strconv.FormatFloat with
// precision -1, in the layout encoding/json uses: plain notation for
// 1e-6 ≤ |x| < 1e21, exponent notation otherwise), -0 as -0, and the
// values JSON has no number for as strings:
//
//	NaN → "NaN"    +Inf → "+Inf"    -Inf → "-Inf"
//
// Every NaN reads back as math.NaN(): a NaN's payload bits are not kept.
// A JSON null reads as a nil slice.
type Floats []float64

// Float is a float64 written to JSON with the rules of Floats.
type Float float64

// MarshalJSON writes f as a JSON array.
func (f Floats) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 2+len(f)*24)
	b = append(b, '[')
	for i, v := range f {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendFloat(b, v)
	}
	return append(b, ']'), nil
}

// UnmarshalJSON reads a JSON array written by MarshalJSON, or null.
func (f *Floats) UnmarshalJSON(b []byte) error {
	s := bytes.TrimSpace(b)
	if string(s) == "null" {
		*f = nil
		return nil
	}
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return fmt.Errorf("not an array of numbers: %.40q", s)
	}
	s = s[1 : len(s)-1]
	if len(bytes.TrimSpace(s)) == 0 {
		*f = Floats{}
		return nil
	}
	// Elements are numbers or the three strings above, none of which holds
	// a comma, so splitting at commas finds them.
	out := make(Floats, 0, bytes.Count(s, []byte{','})+1)
	for tok := range bytes.SplitSeq(s, []byte{','}) {
		v, err := parseFloat(bytes.TrimSpace(tok))
		if err != nil {
			return fmt.Errorf("element %d: %w", len(out), err)
		}
		out = append(out, v)
	}
	*f = out
	return nil
}

// MarshalJSON writes x as a JSON number, or as "NaN", "+Inf" or "-Inf".
func (x Float) MarshalJSON() ([]byte, error) { return appendFloat(nil, float64(x)), nil }

// UnmarshalJSON reads a value written by MarshalJSON; null leaves x as it is.
func (x *Float) UnmarshalJSON(b []byte) error {
	s := bytes.TrimSpace(b)
	if string(s) == "null" {
		return nil
	}
	v, err := parseFloat(s)
	if err != nil {
		return err
	}
	*x = Float(v)
	return nil
}

// appendFloat appends v in the form Floats documents. Finite values get the
// bytes encoding/json writes for a float64.
func appendFloat(b []byte, v float64) []byte {
	switch {
	case math.IsNaN(v):
		return append(b, `"NaN"`...)
	case math.IsInf(v, 1):
		return append(b, `"+Inf"`...)
	case math.IsInf(v, -1):
		return append(b, `"-Inf"`...)
	}
	// A whole number of magnitude below 2⁵³, such as a count, is its
	// integer's digits, which strconv.AppendInt writes several times
	// faster than AppendFloat finds the shortest decimal (the same
	// digits; -0 is left to AppendFloat).
	if v == math.Trunc(v) && v != 0 && math.Abs(v) < 1<<53 {
		return strconv.AppendInt(b, int64(v), 10)
	}
	format := byte('f')
	if abs := math.Abs(v); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, v, format, -1, 64)
	if format == 'e' {
		// Shorten a two-digit negative exponent: 1e-07 → 1e-7.
		n := len(b)
		if b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

var errNotFloat = errors.New(`not a number, "NaN", "+Inf" or "-Inf"`)

// parseFloat reads one element written by appendFloat. Any decimal number
// in JSON's syntax is accepted; one beyond the float64 range is an error.
func parseFloat(tok []byte) (float64, error) {
	switch string(tok) {
	case `"NaN"`:
		return math.NaN(), nil
	case `"+Inf"`:
		return math.Inf(1), nil
	case `"-Inf"`:
		return math.Inf(-1), nil
	}
	if !isJSONNumber(tok) {
		return 0, fmt.Errorf("%.40q: %w", tok, errNotFloat)
	}
	// A whole number of at most 15 digits, such as a count, is exact
	// in a float64: its digits' sum is what ParseFloat returns, without
	// the string ParseFloat is given.
	if len(tok) <= 15 && tok[0] != '-' && !bytes.ContainsAny(tok, ".eE") {
		n := 0
		for _, c := range tok {
			n = n*10 + int(c-'0')
		}
		return float64(n), nil
	}
	v, err := strconv.ParseFloat(string(tok), 64)
	if err != nil {
		return 0, fmt.Errorf("%.40q is beyond the range of float64", tok)
	}
	return v, nil
}

// isJSONNumber reports whether s is a number in JSON's grammar:
//
//	-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
func isJSONNumber(s []byte) bool {
	digits := func() bool { // consumes a nonempty run of digits
		n := 0
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s, n = s[1:], n+1
		}
		return n > 0
	}
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	if len(s) > 1 && s[0] == '0' && '0' <= s[1] && s[1] <= '9' {
		return false // a leading zero
	}
	if !digits() {
		return false
	}
	if len(s) > 0 && s[0] == '.' {
		s = s[1:]
		if !digits() {
			return false
		}
	}
	if len(s) > 0 && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
			s = s[1:]
		}
		if !digits() {
			return false
		}
	}
	return len(s) == 0
}
