package server

import (
	"bytes"
	"strconv"
	"sync"

	"github.com/gendisc/gendisc/data"
)

// The fast path of the request bodies. encoding/json passes over a body
// twice before the numbers of a tensor are read (once to find the value's
// end, once to decode it into the request) and the numbers a third time;
// a batch of 1,000 rows spends most of its time there. The scanner below
// reads the common requests in one pass, straight into the rows:
//
//	{"id": "...", "inputs": [{"name": "...", "shape": [n, d], "datatype": "FP64", "data": [...]}, ...]}
//	{"instances": [[5.1, 3.5, ...], ...]}
//	{"instances": [{"sepal_length": 5.1, ...}, ...]}    (every feature numeric)
//
// It accepts only a strict subset of JSON: strings without escapes, data
// of numbers only, no duplicate keys, no other field. Anything else, and
// every error, it leaves to encoding/json and data.Schema.Rows, which
// answer as they always have: the fast path changes no answer and no
// error message. BenchmarkDecode compares the two.

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

// scanner reads JSON from b at i.
type scanner struct {
	b []byte
	i int
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

// end reports whether nothing but white space is left.
func (s *scanner) end() bool {
	s.ws()
	return s.i == len(s.b)
}

// str reads a string without escapes or control characters and returns
// its bytes.
func (s *scanner) str() ([]byte, bool) {
	if !s.next('"') {
		return nil, false
	}
	start := s.i
	for ; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			return s.b[start : s.i-1], true
		case c == '\\' || c < 0x20:
			return nil, false
		}
	}
	return nil, false
}

// numSpan reads a number of JSON's grammar,
//
//	-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
//
// and returns its bytes and whether it is an integer.
func (s *scanner) numSpan() (num []byte, integer, ok bool) {
	s.ws()
	b, i := s.b, s.i
	digits := func() bool {
		j := i
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
		return i > j
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case !digits():
		return nil, false, false
	}
	integer = true
	if i < len(b) && b[i] == '.' {
		i++
		integer = false
		if !digits() {
			return nil, false, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		integer = false
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			return nil, false, false
		}
	}
	num, s.i = b[s.i:i], i
	return num, integer, true
}

// float reads a finite number: the float64 nearest to it, as
// strconv.ParseFloat reads it.
func (s *scanner) float() (float64, bool) {
	num, _, ok := s.numSpan()
	if !ok {
		return 0, false
	}
	if x, ok := exactFloat(num); ok {
		return x, true
	}
	x, err := strconv.ParseFloat(string(num), 64)
	return x, err == nil
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

// floats appends to dst the numbers of an array, flat (unless nested is
// set) or of rows of k numbers, and returns the array's bytes.
func (s *scanner) floats(dst []float64, k int, nested bool) ([]float64, []byte, bool) {
	s.ws()
	start := s.i
	if !s.next('[') {
		return dst, nil, false
	}
	if s.next(']') {
		return dst, s.b[start:s.i], true
	}
	if dst == nil {
		dst = make([]float64, 0, (len(s.b)-s.i)/4) // a guess, of 4 bytes a number
	}
	if s.next('[') {
		s.i--
		nested = true
	} else if nested {
		return dst, nil, false
	}
	for {
		if nested {
			if !s.next('[') {
				return dst, nil, false
			}
			for j := range k {
				if j > 0 && !s.next(',') {
					return dst, nil, false
				}
				x, ok := s.float()
				if !ok {
					return dst, nil, false
				}
				dst = append(dst, x)
			}
			if !s.next(']') {
				return dst, nil, false
			}
		} else {
			x, ok := s.float()
			if !ok {
				return dst, nil, false
			}
			dst = append(dst, x)
		}
		if s.next(']') {
			return dst, s.b[start:s.i], true
		}
		if !s.next(',') {
			return dst, nil, false
		}
	}
}

// ints reads an array of integers.
func (s *scanner) ints() ([]int, bool) {
	if !s.next('[') {
		return nil, false
	}
	var out []int
	if s.next(']') {
		return []int{}, true
	}
	for {
		num, integer, ok := s.numSpan()
		if !ok || !integer {
			return nil, false
		}
		n, err := strconv.Atoi(string(num))
		if err != nil {
			return nil, false
		}
		out = append(out, n)
		if s.next(']') {
			return out, true
		}
		if !s.next(',') {
			return nil, false
		}
	}
}

// fields reads an object, calling field for each key with the scanner at
// its value; it fails on a repeated key (of the first 64 of known) or when
// field fails. known lists the keys field takes.
func (s *scanner) fields(known []string, field func(k int) bool) bool {
	if !s.next('{') {
		return false
	}
	if s.next('}') {
		return true
	}
	var seen uint64
	for {
		key, ok := s.str()
		if !ok || !s.next(':') {
			return false
		}
		k := -1
		for j, name := range known {
			if string(key) == name {
				k = j
				break
			}
		}
		if k < 0 || k < 64 && seen&(1<<k) != 0 || !field(k) {
			return false
		}
		if k < 64 {
			seen |= 1 << k
		}
		if s.next('}') {
			return true
		}
		if !s.next(',') {
			return false
		}
	}
}

var (
	inferKeys  = []string{"id", "inputs"}
	tensorKeys = []string{"name", "shape", "datatype", "data"}
)

// fastInfer reads an inference request of the fast path's subset into
// req, the numbers of each tensor's data in tensor.floats, and reports
// whether the body was of the subset. D is the number of features: the
// data of a tensor of shape [n, D] may come as rows of D numbers.
func fastInfer(b []byte, req *inferRequest, D int) bool {
	s := &scanner{b: b}
	ok := s.fields(inferKeys, func(k int) bool {
		if k == 0 {
			id, ok := s.str()
			req.ID = string(id)
			return ok
		}
		if !s.next('[') {
			return false
		}
		if s.next(']') {
			req.Inputs = []tensor{}
			return true
		}
		for {
			var t tensor
			ok := s.fields(tensorKeys, func(k int) bool {
				var (
					v  []byte
					ok bool
				)
				switch k {
				case 0:
					v, ok = s.str()
					t.Name = string(v)
				case 1:
					t.Shape, ok = s.ints()
				case 2:
					v, ok = s.str()
					t.Datatype = string(v)
				case 3:
					t.floats, t.Data, ok = s.floats(nil, D, false)
					if ok && bytes.HasPrefix(bytes.TrimLeft(t.Data[1:], " \t\n\r"), []byte("[")) {
						t.rowLen = D
					}
				}
				return ok
			})
			if !ok || t.Data == nil {
				return false
			}
			req.Inputs = append(req.Inputs, t)
			if s.next(']') {
				return true
			}
			if !s.next(',') {
				return false
			}
		}
	})
	return ok && s.end()
}

// fastInstances reads {"instances": [...]} of the fast path's subset for
// a schema of numeric features only: rows as arrays of one number per
// feature, or as objects holding every feature once and nothing else,
// straight into the rows of a data set; it reports whether the body was
// of the subset, and returns nil, true for rows of no value.
func fastInstances(b []byte, schema *data.Schema) (*data.Dataset, bool) {
	D := len(schema.Features)
	if D == 0 || D > 64 || !allNumeric(schema) {
		return nil, false
	}
	names := make([]string, D)
	for j := range schema.Features {
		names[j] = schema.Features[j].Name
	}
	s := &scanner{b: b}
	var X []float64
	present := false
	ok := s.fields([]string{"instances"}, func(int) bool {
		present = true
		s.ws()
		if s.i < len(s.b) && s.b[s.i] == '[' {
			// Peek at the first row's opening.
			t := *s
			t.i++
			if t.next('{') {
				return s.objectRows(&X, names)
			}
		}
		var ok bool
		X, _, ok = s.floats(nil, D, true)
		return ok
	})
	if !ok || !present || !s.end() || len(X) == 0 {
		return nil, false
	}
	return &data.Dataset{Schema: schema, N: len(X) / D, X: X}, true
}

// objectRows reads an array of objects each holding every one of names
// once, with a finite number, into X in the order of names.
func (s *scanner) objectRows(X *[]float64, names []string) bool {
	D := len(names)
	if !s.next('[') {
		return false
	}
	// Every row opens with '{', so their count bounds the rows: one
	// allocation of the right size, small for the common single row.
	*X = make([]float64, 0, D*max(1, bytes.Count(s.b[s.i:], []byte{'{'})))
	for {
		row := len(*X)
		*X = append(*X, make([]float64, D)...)
		n := 0
		ok := s.fields(names, func(j int) bool {
			x, ok := s.float()
			(*X)[row+j] = x
			n++
			return ok
		})
		if !ok || n != D {
			return false
		}
		if s.next(']') {
			return true
		}
		if !s.next(',') {
			return false
		}
	}
}

// tensorFloats reads the numbers of t's data into dst as readFloats does,
// from the numbers the fast path read when it has.
func tensorFloats(t *tensor, dst []float64, k int) bool {
	if t.floats == nil || t.rowLen != 0 && t.rowLen != k {
		return readFloats(t.Data, dst, k)
	}
	return len(t.floats) == len(dst) && copy(dst, t.floats) > 0
}
