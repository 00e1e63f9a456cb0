package server

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// The request bodies are read by one JSON scanner, in one pass, straight
// into the rows of a data set (table): no encoding/json, no []any or
// map[string]any in between, so that what a request costs is bounded by
// its body (see the limits in README and serve --help):
//
//	{"id": "...", "inputs": [{"name": "...", "shape": [n, d], "datatype": "FP64", "data": [...]}, ...]}
//	{"instances": [[5.1, 3.5, ...], {"sepal_length": 5.1, ...}, ...]}
//
// The scanner checks the whole of JSON's grammar (RFC 8259) and more:
// strings must be valid UTF-8 (and \u escapes no lone surrogates), an
// object may not name a key twice, and values nest at most maxDepth
// deep. Every check fails with a *jsonError, answered 400.

// maxDepth is how deep arrays and objects may nest in a request body;
// maxMembers is the most keys of an object of free keys (the parameters
// of a request or a tensor), whose keys are kept to find a duplicate.
const (
	maxDepth   = 32
	maxMembers = 1000
)

// bufPool holds the buffers of request bodies and answers.
var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooled is the largest buffer put back in bufPool.
const maxPooled = 4 << 20

func getBuf() *bytes.Buffer { b := bufPool.Get().(*bytes.Buffer); b.Reset(); return b }

func putBuf(b *bytes.Buffer) {
	if b.Cap() <= maxPooled {
		bufPool.Put(b)
	}
}

// jsonError is a body that is not JSON, or not JSON that the server
// takes: where (the byte offset) and what.
type jsonError struct {
	off int
	msg string
}

func (e *jsonError) Error() string { return fmt.Sprintf("malformed JSON at byte %d: %s", e.off, e.msg) }

// scanner reads JSON from b at i. Its first error sticks in err: the
// methods do nothing once it is set, and return zero values.
type scanner struct {
	b     []byte
	i     int
	depth int
	err   error
	keys  [][]byte // the keys of the objects open in members, for the check of duplicates
	esc   []byte   // the bytes of the last string read that had escapes
}

// failf sets the error, at the scanner's offset, unless one is set.
func (s *scanner) failf(format string, args ...any) {
	if s.err == nil {
		s.err = &jsonError{s.i, fmt.Sprintf(format, args...)}
	}
}

// fail sets err unless an error is set.
func (s *scanner) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek skips white space and returns the next byte, 0 at the end (or a
// NUL byte, which JSON has only in strings).
func (s *scanner) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// next skips white space and reports whether the next byte is c, which it
// consumes.
func (s *scanner) next(c byte) bool {
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// want fails unless next(c).
func (s *scanner) want(c byte) {
	if !s.next(c) {
		s.unexpected(fmt.Sprintf("%q", c))
	}
}

// unexpected fails with what was found where the wanted token should be.
func (s *scanner) unexpected(wanted string) {
	if s.ws(); s.i == len(s.b) {
		s.failf("the body ends where %s should be", wanted)
		return
	}
	s.failf("%q where %s should be", s.b[s.i], wanted)
}

// end fails unless nothing but white space is left.
func (s *scanner) end() {
	if s.ws(); s.i < len(s.b) {
		s.failf("more after the object")
	}
}

// enter opens an array or object, and fails beyond maxDepth.
func (s *scanner) enter() bool {
	if s.depth++; s.depth > maxDepth {
		s.failf("values nest deeper than %d", maxDepth)
		return false
	}
	return true
}

// str reads a string and returns its bytes, unescaped: a part of b, or
// for a string with escapes a buffer valid until the next call.
func (s *scanner) str() []byte {
	if !s.next('"') {
		s.unexpected("a string")
		return nil
	}
	start := s.i
	if end := bytes.IndexByte(s.b[start:], '"'); end >= 0 {
		// The common string: printable ASCII without escapes.
		v := s.b[start : start+end]
		plain := true
		for _, c := range v {
			if c < 0x20 || c == '\\' || c >= 0x80 {
				plain = false
				break
			}
		}
		if plain {
			s.i += end + 1
			return v
		}
	}
	ascii := true
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == '"':
			v := s.b[start:s.i]
			if !ascii && !utf8.Valid(v) {
				s.i = start
				s.failf("invalid UTF-8 in a string")
				return nil
			}
			s.i++
			return v
		case c == '\\':
			return s.escaped(start)
		case c < 0x20:
			s.failf("a control character in a string")
			return nil
		case c >= 0x80:
			ascii = false
		}
		s.i++
	}
	s.failf("a string without its end")
	return nil
}

// escaped reads the rest of a string from its first escape at s.i, the
// string's bytes starting at start, into s.esc.
func (s *scanner) escaped(start int) []byte {
	out := append(s.esc[:0], s.b[start:s.i]...)
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			s.esc = out
			if !utf8.Valid(out) {
				s.i = start
				s.failf("invalid UTF-8 in a string")
				return nil
			}
			return out
		case c < 0x20:
			s.failf("a control character in a string")
			return nil
		case c != '\\':
			out = append(out, c)
			s.i++
			continue
		}
		if s.i+1 >= len(s.b) {
			break
		}
		s.i += 2
		switch e := s.b[s.i-1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r := s.hex4()
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if s.i+1 < len(s.b) && s.b[s.i] == '\\' && s.b[s.i+1] == 'u' {
					s.i += 2
					r2 = s.hex4()
				}
				if r = utf16.DecodeRune(r, r2); r == utf8.RuneError {
					s.failf("a lone UTF-16 surrogate in a string")
					return nil
				}
			}
			if r < 0 {
				return nil
			}
			out = utf8.AppendRune(out, r)
		default:
			s.i--
			s.failf("the escape \\%c in a string", e)
			return nil
		}
	}
	s.failf("a string without its end")
	return nil
}

// hex4 reads the four hexadecimal digits of a \u escape, -1 if they are
// not.
func (s *scanner) hex4() rune {
	if s.i+4 > len(s.b) {
		s.failf("a short \\u escape")
		return -1
	}
	v, err := strconv.ParseUint(string(s.b[s.i:s.i+4]), 16, 16)
	if err != nil {
		s.failf("a bad \\u escape")
		return -1
	}
	s.i += 4
	return rune(v)
}

// number reads a number of JSON's grammar,
//
//	-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
//
// and returns its bytes and whether it is an integer.
func (s *scanner) number() (num []byte, integer bool) {
	s.ws()
	b, i := s.b, s.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digits(b, i+1)
	default:
		s.unexpected("a value")
		return nil, false
	}
	integer = true
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			s.i = j
			s.failf("a number without digits after its point")
			return nil, false
		}
		i, integer = j, false
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			s.i = j
			s.failf("a number without the digits of its exponent")
			return nil, false
		}
		i, integer = j, false
	}
	num, s.i = b[s.i:i], i
	return num, integer
}

// digits returns the end of the decimal digits of b from i.
func digits(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}

// literal reads true, false or null, and returns its first byte.
func (s *scanner) literal() byte {
	s.ws()
	for _, w := range [...]string{"true", "false", "null"} {
		if bytes.HasPrefix(s.b[s.i:], []byte(w)) {
			s.i += len(w)
			return w[0]
		}
	}
	s.unexpected("a value")
	return 0
}

// skip reads any value, checked as every value is, and drops it.
func (s *scanner) skip() {
	switch s.peek() {
	case '"':
		s.str()
	case '{':
		s.members(func([]byte) { s.skip() })
	case '[':
		s.elements(func(int) { s.skip() })
	case 't', 'f', 'n':
		s.literal()
	default:
		s.number()
	}
}

// span moves past an array without checking it but for its end, its
// brackets and strings: for a value to be read again, and checked
// then, from where it starts. Other values it reads with skip.
func (s *scanner) span() {
	if s.peek() != '[' {
		s.skip()
		return
	}
	depth := 0
	for b := s.b; s.i < len(b); s.i++ {
		for s.i < len(b) && !spanStop[b[s.i]] { // numbers, commas, white space
			s.i++
		}
		if s.i == len(b) {
			break
		}
		switch b[s.i] {
		case '"':
			for s.i++; s.i < len(b) && b[s.i] != '"'; s.i++ {
				if b[s.i] == '\\' {
					s.i++
				}
			}
		case '[', '{':
			depth++
		case ']', '}':
			if depth--; depth == 0 {
				s.i++
				return
			}
		}
	}
	s.failf("the body ends where ']' should be")
}

// spanStop marks the bytes that span looks at.
var spanStop = [256]bool{'"': true, '[': true, ']': true, '{': true, '}': true}

// elements reads an array, calling elem with the index of each element
// and the scanner at it; elem reads the element.
func (s *scanner) elements(elem func(i int)) {
	if !s.next('[') {
		s.unexpected("an array")
		return
	}
	if !s.enter() {
		return
	}
	if !s.next(']') {
		for i := 0; s.err == nil; i++ {
			elem(i)
			if !s.comma() {
				break
			}
		}
	}
	s.depth--
}

// comma reads what follows an element of an array: a comma, and it
// reports true, or the array's end.
func (s *scanner) comma() bool {
	if s.err != nil {
		return false
	}
	if s.i < len(s.b) { // without white space, the common case
		switch s.b[s.i] {
		case ',':
			s.i++
			return true
		case ']':
			s.i++
			return false
		}
	}
	if s.next(']') {
		return false
	}
	s.want(',')
	return s.err == nil
}

// members reads an object of at most maxMembers keys, calling member
// with each key and the scanner at its value; member reads the value. A
// key named twice fails at the end of the object.
func (s *scanner) members(member func(key []byte)) {
	if !s.next('{') {
		s.unexpected("an object")
		return
	}
	if !s.enter() {
		return
	}
	mark := len(s.keys)
	if !s.next('}') {
		for s.err == nil {
			key := s.str()
			if s.err != nil || !s.keep(mark, key) {
				break
			}
			s.want(':')
			member(s.keys[len(s.keys)-1])
			if s.err != nil || s.next('}') {
				break
			}
			s.want(',')
		}
	}
	s.checkKeys(mark)
	s.depth--
}

// duplicate returns a key that keys hold twice, nil if none; it sorts
// keys.
func duplicate(keys [][]byte) []byte {
	if len(keys) <= 8 {
		for i, k := range keys {
			for _, l := range keys[:i] {
				if bytes.Equal(k, l) {
					return k
				}
			}
		}
		return nil
	}
	slices.SortFunc(keys, bytes.Compare)
	for i := 1; i < len(keys); i++ {
		if bytes.Equal(keys[i-1], keys[i]) {
			return keys[i]
		}
	}
	return nil
}

// fields reads an object whose keys are known: it calls field with the
// index of each key in known, or -1 for another key, and the scanner at
// its value; field reads the value. A known key named twice fails at
// once; the caller deals with the others. seen is scratch of len(known)
// for more than 64 known keys, else nil.
func (s *scanner) fields(known *keyIndex, seen []bool, field func(k int, key []byte)) {
	if !s.next('{') {
		s.unexpected("an object")
		return
	}
	if !s.enter() {
		return
	}
	var small uint64
	clear(seen)
	if !s.next('}') {
		for s.err == nil {
			at := s.i
			key := s.str()
			if s.err != nil {
				break
			}
			k := known.index(key)
			if k >= 0 {
				dup := false
				if seen != nil {
					dup, seen[k] = seen[k], true
				} else {
					dup = small&(1<<k) != 0
					small |= 1 << k
				}
				if dup {
					s.i = at
					s.failf("the key %q twice in an object", key)
					break
				}
			}
			s.want(':')
			field(k, key)
			if s.err != nil || s.next('}') {
				break
			}
			s.want(',')
		}
	}
	s.depth--
}

// protocolFields is fields for an object of the Open Inference
// Protocol, whose schema allows members beside the ones it names: field
// is called with the index of a known key only; the other members are
// passed over, read as strictly as any value, their keys kept, at most
// maxMembers, so that one named twice fails at the end of the object as
// in any other.
func (s *scanner) protocolFields(known *keyIndex, field func(k int)) {
	mark := len(s.keys)
	s.fields(known, nil, func(k int, key []byte) {
		if k >= 0 {
			field(k)
		} else if s.keep(mark, key) {
			s.skip()
		}
	})
	s.checkKeys(mark)
}

// keep keeps key, the key just read, among the keys of the object whose
// keys start at mark, or fails and reports false when the object has
// maxMembers of them already.
func (s *scanner) keep(mark int, key []byte) bool {
	if len(s.keys)-mark == maxMembers {
		s.failf("an object of more than %d keys", maxMembers)
		return false
	}
	if len(s.esc) > 0 && len(key) > 0 && &key[0] == &s.esc[0] {
		key = bytes.Clone(key) // s.esc is reused
	}
	s.keys = append(s.keys, key)
	return true
}

// checkKeys fails when the keys kept from mark, an object's, hold one
// twice, and drops them.
func (s *scanner) checkKeys(mark int) {
	if s.err == nil {
		if dup := duplicate(s.keys[mark:]); dup != nil {
			s.failf("the key %q twice in an object", dup)
		}
	}
	clear(s.keys[mark:])
	s.keys = s.keys[:mark]
}

// keyIndex finds a key among names: by a linear search for a few, by a
// map for many.
type keyIndex struct {
	names []string
	m     map[string]int
}

func newKeyIndex(names ...string) *keyIndex {
	k := &keyIndex{names: names}
	if len(names) > 16 {
		k.m = make(map[string]int, len(names))
		for i, n := range names {
			k.m[n] = i
		}
	}
	return k
}

// index returns the index of key among the names, or -1.
func (k *keyIndex) index(key []byte) int {
	if k.m != nil {
		if i, ok := k.m[string(key)]; ok {
			return i
		}
		return -1
	}
	for i, n := range k.names {
		if n == string(key) {
			return i
		}
	}
	return -1
}

// pow10 holds the powers of ten that a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// exactFloat reads a number of JSON's grammar of at most 15 significant
// digits and a power of ten within ±22, the common case: its digits m
// and 10^|e| are exact float64s, so that one multiplication or division,
// rounded once,
//
//	m · 10^e  or  m / 10^-e
//
// is the float64 nearest to it, the number strconv.ParseFloat returns
// (Clinger's fast path, which ParseFloat takes too). It reports false for
// other numbers.
func exactFloat(num []byte) (float64, bool) {
	var m uint64
	digits, e, i := 0, 0, 0
	neg := num[0] == '-'
	if neg {
		i++
	}
	frac := false
	for ; i < len(num); i++ {
		switch c := num[i]; {
		case '0' <= c && c <= '9':
			if frac {
				e--
			}
			if m == 0 && c == '0' {
				continue // not significant
			}
			if digits++; digits > 15 {
				return 0, false
			}
			m = m*10 + uint64(c-'0')
		case c == '.':
			frac = true
		default: // the exponent, [eE][+-]?[0-9]+
			i++
			sign := 1
			if num[i] == '+' || num[i] == '-' {
				if num[i] == '-' {
					sign = -1
				}
				i++
			}
			x := 0
			for ; i < len(num); i++ {
				if x = x*10 + int(num[i]-'0'); x > 400 {
					return 0, false
				}
			}
			e += sign * x
		}
	}
	x := float64(m)
	switch {
	case m == 0:
	case e >= 0 && e <= 22:
		x *= pow10[e]
	case e < 0 && e >= -22:
		x /= pow10[-e]
	default:
		return 0, false
	}
	if neg {
		x = -x
	}
	return x, true
}
