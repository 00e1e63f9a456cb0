package stats

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// The binary encodings of Moments, Scatter and Classes, so that partial
// statistics can travel between processes: a four-byte tag naming the type
// and its version, then little-endian 64-bit words, integers as uint64 and
// floats by their IEEE 754 bits (math.Float64bits), so that a decoded value
// equals the encoded one bit for bit.
//
//	Moments:  "GSM1" D K ClassWeight[K] W[K·D] M[K·D] S[K·D]
//	Scatter:  "GSS1" D fourth N W Mean[D] S[D·D] (M3[D·D] M4[D·D] if fourth)
//	Classes:  "GSC1" D K fourth, then for each class: N W Mean S (M3 M4)
const (
	tagMoments = "GSM1"
	tagScatter = "GSS1"
	tagClasses = "GSC1"
)

// ErrEncoding is wrapped by the errors of UnmarshalBinary: bytes that are
// not an encoding of the statistics.
var ErrEncoding = errors.New("stats: invalid encoding")

// encoder appends words to a byte slice.
type encoder struct{ b []byte }

func (e *encoder) int(v int)       { e.b = binary.LittleEndian.AppendUint64(e.b, uint64(v)) }
func (e *encoder) float(v float64) { e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v)) }
func (e *encoder) floats(v []float64) {
	for _, f := range v {
		e.float(f)
	}
}

func newEncoder(tag string, words int) *encoder {
	e := &encoder{b: make([]byte, 0, len(tag)+8*words)}
	e.b = append(e.b, tag...)
	return e
}

// decoder reads the words of an encoding; the first error sticks.
type decoder struct {
	b   []byte
	err error
}

// newDecoder checks the tag of b and returns a decoder of the words after it.
func newDecoder(b []byte, tag, what string) *decoder {
	if len(b) < len(tag) || string(b[:len(tag)]) != tag || (len(b)-len(tag))%8 != 0 {
		return &decoder{err: fmt.Errorf("%w: not an encoding of %s", ErrEncoding, what)}
	}
	return &decoder{b: b[len(tag):]}
}

// words is the number of words left.
func (d *decoder) words() int { return len(d.b) / 8 }

func (d *decoder) fail(format string, a ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: "+format, append([]any{ErrEncoding}, a...)...)
	}
}

func (d *decoder) uint64() uint64 {
	if d.err != nil {
		return 0
	}
	if len(d.b) < 8 {
		d.fail("truncated")
		return 0
	}
	v := binary.LittleEndian.Uint64(d.b)
	d.b = d.b[8:]
	return v
}

// int reads a count, which must be at most limit.
func (d *decoder) int(what string, limit int) int {
	v := d.uint64()
	if v > uint64(limit) {
		d.fail("%s %d out of range", what, v)
		return 0
	}
	return int(v)
}

func (d *decoder) bool() bool {
	v := d.uint64()
	if v > 1 {
		d.fail("flag %d", v)
	}
	return v == 1
}

// float reads a float; statistics of finite data are finite, so NaN and
// ±Inf are refused.
func (d *decoder) float() float64 {
	v := math.Float64frombits(d.uint64())
	if math.IsNaN(v) || math.IsInf(v, 0) {
		d.fail("a statistic is %v", v)
	}
	return v
}

func (d *decoder) floats(v []float64) {
	for i := range v {
		v[i] = d.float()
	}
}

// need checks that exactly n words are left.
func (d *decoder) need(n int) {
	if d.err == nil && d.words() != n {
		d.fail("%d words for %d", d.words(), n)
	}
}

// end checks that every word was read.
func (d *decoder) end() error {
	if d.err == nil && len(d.b) != 0 {
		d.fail("%d bytes left over", len(d.b))
	}
	return d.err
}

// MarshalBinary encodes m (see the package's encodings); it never fails.
func (m *Moments) MarshalBinary() ([]byte, error) {
	e := newEncoder(tagMoments, 2+len(m.ClassWeight)+3*len(m.W))
	e.int(m.D)
	e.int(m.K())
	e.floats(m.ClassWeight)
	e.floats(m.W)
	e.floats(m.M)
	e.floats(m.S)
	return e.b, nil
}

// UnmarshalBinary sets m to the statistics that b encodes (MarshalBinary).
// It returns an error that wraps ErrEncoding, and leaves m unchanged, if b
// is not such an encoding.
func (m *Moments) UnmarshalBinary(b []byte) error {
	d := newDecoder(b, tagMoments, "Moments")
	dim := d.int("feature count", math.MaxInt32)
	k := d.int("class count", d.words())
	if k > 0 {
		// K + 3·K·D words follow.
		if dim > (d.words()/k-1)/3 {
			d.fail("%d×%d statistics in %d words", k, dim, d.words())
		}
	}
	d.need(k + 3*k*dim)
	if d.err != nil {
		return d.err
	}
	o := NewMoments(k, dim)
	d.floats(o.ClassWeight)
	d.floats(o.W)
	d.floats(o.M)
	d.floats(o.S)
	if err := d.end(); err != nil {
		return err
	}
	*m = *o
	return nil
}

// scatterWords is the number of words of the statistics of one Scatter
// after its dimension and flag: N, W, the mean and the matrices.
func scatterWords(d int, fourth bool) int {
	m := 1
	if fourth {
		m = 3
	}
	return 2 + d + m*d*d
}

func (s *Scatter) encode(e *encoder) {
	e.int(s.N)
	e.float(s.W)
	e.floats(s.Mean)
	e.floats(s.S)
	e.floats(s.M3)
	e.floats(s.M4)
}

func (s *Scatter) decode(d *decoder) {
	s.N = d.int("row count", math.MaxInt)
	s.W = d.float()
	d.floats(s.Mean)
	d.floats(s.S)
	d.floats(s.M3)
	d.floats(s.M4)
}

// square checks that the d×d matrices of dimension dim can fit in the words
// left, so that the word counts computed from dim do not overflow.
func (d *decoder) square(dim int) {
	if dim > d.words() || (dim > 0 && dim > d.words()/dim) {
		d.fail("dimension %d in %d words", dim, d.words())
	}
}

// MarshalBinary encodes s (see the package's encodings); it never fails.
func (s *Scatter) MarshalBinary() ([]byte, error) {
	e := newEncoder(tagScatter, 2+scatterWords(s.D, s.Fourth()))
	e.int(s.D)
	e.int(b2i(s.Fourth()))
	s.encode(e)
	return e.b, nil
}

// UnmarshalBinary sets s to the statistics that b encodes (MarshalBinary).
// It returns an error that wraps ErrEncoding, and leaves s unchanged, if b
// is not such an encoding.
func (s *Scatter) UnmarshalBinary(b []byte) error {
	d := newDecoder(b, tagScatter, "Scatter")
	dim := d.int("dimension", math.MaxInt32)
	fourth := d.bool()
	d.square(dim)
	d.need(scatterWords(dim, fourth))
	if d.err != nil {
		return d.err
	}
	o := NewScatter(dim, fourth)
	o.decode(d)
	if err := d.end(); err != nil {
		return err
	}
	*s = *o
	return nil
}

// MarshalBinary encodes c (see the package's encodings); it never fails.
// Statistics of no class keep no fourth moments (Fourth is false).
func (c *Classes) MarshalBinary() ([]byte, error) {
	e := newEncoder(tagClasses, 3+c.K()*scatterWords(c.D, c.Fourth()))
	e.int(c.D)
	e.int(c.K())
	e.int(b2i(c.Fourth()))
	for _, s := range c.Class {
		s.encode(e)
	}
	return e.b, nil
}

// UnmarshalBinary sets c to the statistics that b encodes (MarshalBinary).
// It returns an error that wraps ErrEncoding, and leaves c unchanged, if b
// is not such an encoding.
func (c *Classes) UnmarshalBinary(b []byte) error {
	d := newDecoder(b, tagClasses, "Classes")
	dim := d.int("dimension", math.MaxInt32)
	k := d.int("class count", d.words())
	fourth := d.bool()
	if k > 0 {
		d.square(dim)
	}
	per := scatterWords(dim, fourth)
	if d.err == nil && k > d.words()/per {
		d.fail("%d classes of dimension %d in %d words", k, dim, d.words())
	}
	d.need(k * per)
	if d.err != nil {
		return d.err
	}
	o := NewClasses(k, dim, fourth)
	for _, s := range o.Class {
		s.decode(d)
	}
	if err := d.end(); err != nil {
		return err
	}
	*c = *o
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
