package cell

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
	"strconv"
	"unsafe"
)

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// Scan reads a decimal number at b[p:],
//
//	[+-] digits [. digits] [(e|E) [+-] digits]   (digits may be empty on one side of the point)
//
// and returns its value, the position after it, whether there was a number
// there at all, and whether the text is canonical: exactly what
// strconv.FormatFloat(v, 'f', -1, 64) writes for v, so that the text can be
// rebuilt from the value. The canonical test is conservative: it may say no
// for some texts that would round-trip (it requires at most 15 significant
// digits, which every float64 reproduces, and no exponent).
//
// The common shape, [-] digits [. digits] with at most 15 digits, is
// computed here: its digits m are below 2^53 and the d digits after the
// point give an exact power of ten, so
//
//	v = m / 10^d
//
// is correctly rounded (both operands are exact, one rounding: Clinger's
// fast path). Other numbers go on to scanExponent.
func Scan(b []byte, p int) (v float64, end int, ok, canon bool) {
	n, q := len(b), p
	neg := false
	canon = true
	if q < n && (b[q] == '-' || b[q] == '+') {
		neg = b[q] == '-'
		canon = neg
		q++
	}
	// m holds the digits; it is only used when there are at most 19.
	i0 := q
	var m uint64
	for q < n && b[q]-'0' < 10 {
		m = m*10 + uint64(b[q]-'0')
		q++
	}
	id, fd := q-i0, 0
	canon = canon && (id == 1 || id > 1 && b[i0] != '0')
	if q < n && b[q] == '.' {
		q++
		f0 := q
		m, q = readDigits(b, q, m)
		fd = q - f0
		canon = canon && fd > 0 && b[q-1] != '0'
	}
	if id+fd == 0 {
		return 0, q, false, false
	}
	if id+fd > 15 || q < n && b[q]|0x20 == 'e' {
		return scanExponent(b, p, q, m, id+fd, fd, neg, canon)
	}
	v = float64(m)
	if fd > 0 {
		v /= pow10[fd]
	}
	if neg {
		v = -v
	}
	return v, q, true, canon
}

// scanExponent finishes Scan for the number at b[start:] whose
// digits (digits of them, frac after the point, m their value when there
// are at most 19) end at b[q]: it reads the exponent, if any, and
// converts. Numbers of at most 19 digits whose mantissa m is at most 2^53
// and whose decimal exponent e has |e| <= 22 are computed exactly as
//
//	v = m * 10^e   or   v = m / 10^-e
//
// (Clinger's fast path again); everything else goes to
// strconv.ParseFloat, which is correctly rounded too. An overflow gives
// ±Inf.
func scanExponent(b []byte, start, q int, m uint64, digits, frac int, neg, canon bool) (v float64, end int, ok, canonical bool) {
	n := len(b)
	exp := -frac
	if q < n && b[q]|0x20 == 'e' {
		canon = false
		q++
		eneg := false
		if q < n && (b[q] == '-' || b[q] == '+') {
			eneg = b[q] == '-'
			q++
		}
		if q == n || b[q]-'0' >= 10 {
			return 0, q, false, false
		}
		e := 0
		for ; q < n && b[q]-'0' < 10; q++ {
			if e < 1e6 {
				e = e*10 + int(b[q]-'0')
			}
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if canon && significant(b[start:q]) > 15 {
		canon = false
	}
	fast := digits <= 19 && m <= 1<<53
	switch {
	case fast && exp >= 0 && exp <= 22:
		v = float64(m) * pow10[exp]
	case fast && exp < 0 && exp >= -22:
		v = float64(m) / pow10[-exp]
	case fast && m == 0:
	default:
		v, canon = slowNumber(b[start:q], canon)
		return v, q, true, canon
	}
	if neg {
		v = -v
	}
	return v, q, true, canon
}

// readDigits reads the decimal digits at b[p:] and returns
//
//	mant·10^k + (the k digits as a number)
//
// (wrapping around beyond 19 digits) and the position after them. It reads
// eight bytes at a time where it can (SWAR, as in Lemire's number
// parsers): a byte t = c ^ '0' is a digit when t < 10, and eight digits
// combine in three multiplications.
func readDigits(b []byte, p int, mant uint64) (uint64, int) {
	for p+8 <= len(b) {
		t := binary.LittleEndian.Uint64(b[p:]) ^ 0x3030303030303030
		// Bit 7 of a byte of m is set when the byte is not a digit;
		// carries only come from such bytes, so the first is exact.
		m := ((t + 0x7676767676767676) | t) & 0x8080808080808080
		k := bits.TrailingZeros64(m) >> 3 // leading digits, 0..8
		if k == 0 {
			return mant, p
		}
		v := t << (64 - 8*k) // the k digits, after 8-k zero digits
		v = (v & 0x0F0F0F0F0F0F0F0F) * 2561 >> 8
		v = (v & 0x00FF00FF00FF00FF) * 6553601 >> 16
		v = (v & 0x0000FFFF0000FFFF) * 42949672960001 >> 32
		mant = mant*pow10u[k] + v
		p += k
		if k < 8 {
			return mant, p
		}
	}
	for p < len(b) && b[p]-'0' < 10 {
		mant = mant*10 + uint64(b[p]-'0')
		p++
	}
	return mant, p
}

var pow10u = [...]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8}

// slowNumber converts the number text s, whose syntax Scan checked,
// with strconv.ParseFloat: the only possible error is ErrRange, with ±Inf
// on overflow (and 0 on underflow).
func slowNumber(s []byte, canon bool) (float64, bool) {
	v, _ := strconv.ParseFloat(unsafe.String(&s[0], len(s)), 64)
	if v != 0 && math.Abs(v) < 0x1p-1022 {
		canon = false // subnormal: fewer than 15 digits survive
	}
	return v, canon && !math.IsInf(v, 0)
}

// significant counts the digits of the number text s from its first
// non-zero digit to its last.
func significant(s []byte) int {
	first, last := -1, -1
	for i, c := range s {
		if c-'1' < 9 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return 0
	}
	n := last - first + 1
	if bytes.IndexByte(s[first:last], '.') >= 0 {
		n--
	}
	return n
}

// isInfText reports whether s names an infinity as strconv.ParseFloat
// would read it: an optional sign, then "inf" or "infinity" in any case.
func isInfText(s []byte) (inf bool, neg bool) {
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if len(s) != 3 && len(s) != 8 {
		return false, false
	}
	const word = "infinity"
	for i, c := range s {
		if c|0x20 != word[i] {
			return false, false
		}
	}
	return true, neg
}

// missingTokens are the cell texts read as a missing value (besides the
// empty cell), after spaces around them are trimmed.
var missingTokens = [...]string{"NA", "N/A", "NaN", "nan", "?", "null", "NULL"}

// Missing reports whether the trimmed cell s is a missing value.
func Missing(s []byte) bool {
	if len(s) == 0 {
		return true
	}
	for _, t := range missingTokens {
		if string(s) == t {
			return true
		}
	}
	return false
}

// TrimSpace removes ASCII spaces from both ends of s.
func TrimSpace(s []byte) []byte {
	for len(s) > 0 && s[0] == ' ' {
		s = s[1:]
	}
	for len(s) > 0 && s[len(s)-1] == ' ' {
		s = s[:len(s)-1]
	}
	return s
}

// Parse reads the text of a whole cell, with spaces around it, as a
// number: ok is false when it is not one. An infinity or an overflowing
// number gives ±Inf with ok true. Canonical is as for Scan.
func Parse(s []byte) (v float64, ok, canon bool) {
	t := TrimSpace(s)
	if len(t) == 0 {
		return 0, false, false
	}
	v, end, ok, canon := Scan(t, 0)
	if ok && end == len(t) {
		return v, true, canon && len(t) == len(s)
	}
	if inf, neg := isInfText(t); inf {
		if neg {
			return math.Inf(-1), true, false
		}
		return math.Inf(1), true, false
	}
	return 0, false, false
}
