package dataio

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// logicalKind is a Parquet logical type whose values are integers (or
// bytes) that gendisc converts: a DECIMAL, a DATE, a TIME or a TIMESTAMP.
type logicalKind uint8

const (
	logicalNone logicalKind = iota
	// logicalDecimal: unscaled × 10^−scale, read as that number, or as
	// its text ("12.30" at scale 2) in a categorical column.
	logicalDecimal
	// logicalDate: days since 1970-01-01, read as that number, or as
	// "2006-01-02" in a categorical column.
	logicalDate
	// logicalTime: units of 10^−scale seconds since midnight, read as
	// seconds, or as "15:04:05" (with the fraction when there is one).
	logicalTime
	// logicalTimestamp: units of 10^−scale seconds since the Unix epoch,
	// read as seconds, or as RFC 3339 text: with Z when the timestamp is
	// adjusted to UTC, without an offset (a local time) otherwise.
	logicalTimestamp
)

// namedRemedy ends the error for a DATE, TIME or TIMESTAMP column that
// is not named numeric or categorical.
const namedRemedy = "(name it in Options.Numeric or Options.Categorical, or in Options.Ignore)"

// maxDecimalScale bounds the scale of a DECIMAL that is read: the text of
// each value holds at least scale digits.
const maxDecimalScale = 1000

// maxDecimalBytes bounds the bytes of a DECIMAL's unscaled integer (a
// precision of about 2.4 digits a byte: 16 bytes hold DECIMAL(38)), so
// that its decimal text costs little.
const maxDecimalBytes = 64

// parquetLogical is how the values of a column of a logical type are
// converted (kind logicalNone: they are not).
type parquetLogical struct {
	kind logicalKind
	// scale: the digits after the decimal point of a DECIMAL; 3, 6 or 9
	// for a TIME or TIMESTAMP in milli-, micro- or nanoseconds.
	scale int
	// utc: a TIMESTAMP adjusted to UTC.
	utc bool
}

// named reports whether the column is read only when its kind is named
// (a date or a time: days or seconds as numbers, or text as categories,
// are equally plausible readings); a DECIMAL is a number unless named
// categorical.
func (l parquetLogical) named() bool {
	return l.kind == logicalDate || l.kind == logicalTime || l.kind == logicalTimestamp
}

// parquetLogicalType returns how the column of logical type lt, physical
// kind k and length bytes (of a FIXED_LEN_BYTE_ARRAY) is read, or the
// reason it is refused.
func parquetLogicalType(lt *format.LogicalType, k parquet.Kind, length int) (l parquetLogical, refused string) {
	switch v := lt.Value.(type) {
	case *format.DecimalType:
		if k != parquet.Int32 && k != parquet.Int64 && k != parquet.FixedLenByteArray && k != parquet.ByteArray {
			return l, fmt.Sprintf("a DECIMAL of physical type %v", k)
		}
		if v.Scale < 0 || v.Scale > maxDecimalScale {
			return l, fmt.Sprintf("a DECIMAL of scale %d (at most %d is read)", v.Scale, maxDecimalScale)
		}
		if k == parquet.FixedLenByteArray && length > maxDecimalBytes {
			return l, fmt.Sprintf("a DECIMAL of %d bytes (at most %d are read)", length, maxDecimalBytes)
		}
		return parquetLogical{kind: logicalDecimal, scale: int(v.Scale)}, ""
	case *format.DateType:
		if k != parquet.Int32 {
			return l, fmt.Sprintf("a DATE of physical type %v", k)
		}
		return parquetLogical{kind: logicalDate}, ""
	case *format.TimeType:
		scale := timeUnitDigits(v.Unit)
		if scale == 3 && k != parquet.Int32 || scale > 3 && k != parquet.Int64 || scale == 0 {
			return l, fmt.Sprintf("a TIME in %s of physical type %v", &v.Unit, k)
		}
		return parquetLogical{kind: logicalTime, scale: scale}, ""
	case *format.TimestampType:
		scale := timeUnitDigits(v.Unit)
		if k != parquet.Int64 || scale == 0 {
			return l, fmt.Sprintf("a TIMESTAMP in %s of physical type %v", &v.Unit, k)
		}
		return parquetLogical{kind: logicalTimestamp, scale: scale, utc: v.IsAdjustedToUTC}, ""
	}
	return l, ""
}

// timeUnitDigits returns the digits after the decimal point of seconds
// in unit u: 3, 6 or 9 (0 for an unknown unit).
func timeUnitDigits(u format.TimeUnit) int {
	switch u.Value.(type) {
	case *format.MilliSeconds:
		return 3
	case *format.MicroSeconds:
		return 6
	case *format.NanoSeconds:
		return 9
	}
	return 0
}

// what names the logical type in the error for a date or time column
// that is not named, with its two readings.
func (l parquetLogical) what() string {
	switch l.kind {
	case logicalDate:
		return "a DATE: it is read as numbers (days since 1970-01-01) or as categories (such as 2024-01-02)"
	case logicalTime:
		return "a TIME: it is read as numbers (seconds since midnight) or as categories (such as 03:04:05.25)"
	case logicalTimestamp:
		if !l.utc {
			return "a TIMESTAMP (a local time): it is read as numbers (seconds since 1970-01-01T00:00:00) or as categories (such as 2024-01-02T03:04:05)"
		}
		return "a TIMESTAMP: it is read as numbers (seconds since 1970-01-01T00:00:00Z) or as categories (such as 2024-01-02T03:04:05Z)"
	}
	return "a DECIMAL"
}

// putLogical stores value v, not null, of column c of a logical type in
// field f of row i: as a number, or as text in a categorical column (see
// logicalKind). text is scratch space.
func (t *parquetTable) putLogical(r *reader, c *parquetColumn, f, i int, v parquet.Value, text *[]byte) error {
	l := c.logical
	if (c.kind == parquet.ByteArray || c.kind == parquet.FixedLenByteArray) && len(v.ByteArray()) > maxDecimalBytes {
		return r.cellError(i, f, fmt.Errorf("a DECIMAL of %d bytes: at most %d are read", len(v.ByteArray()), maxDecimalBytes))
	}
	if r.plans[f].mode == cellString {
		*text = l.appendText((*text)[:0], c.kind, v)
		return r.putString(f, i, *text)
	}
	if l.kind == logicalDate {
		return r.putNumber(f, i, float64(v.Int32()), nil)
	}
	// The decimal text of the exact value, parsed: the float64 nearest it.
	*text = l.appendDecimal((*text)[:0], c.kind, v)
	x, _ := strconv.ParseFloat(string(*text), 64) // ±Inf out of range: putNumber's to judge
	return r.putNumber(f, i, x, nil)
}

// appendText appends the text of value v of physical kind k, as a
// categorical column holds it (see logicalKind).
func (l parquetLogical) appendText(dst []byte, k parquet.Kind, v parquet.Value) []byte {
	switch l.kind {
	case logicalDate:
		return time.Unix(int64(v.Int32())*86400, 0).UTC().AppendFormat(dst, "2006-01-02")
	case logicalTime:
		return l.instant(k, v).AppendFormat(dst, "15:04:05.999999999")
	case logicalTimestamp:
		if l.utc {
			return l.instant(k, v).AppendFormat(dst, "2006-01-02T15:04:05.999999999Z07:00")
		}
		return l.instant(k, v).AppendFormat(dst, "2006-01-02T15:04:05.999999999")
	}
	return l.appendDecimal(dst, k, v)
}

// instant returns the time of value v, an integer count of 10^−scale
// seconds since the epoch (or since midnight), in UTC.
func (l parquetLogical) instant(k parquet.Kind, v parquet.Value) time.Time {
	n := v.Int64()
	if k == parquet.Int32 {
		n = int64(v.Int32())
	}
	unit := int64(1)
	for range l.scale {
		unit *= 10
	}
	sec, frac := n/unit, n%unit
	if frac < 0 {
		sec, frac = sec-1, frac+unit
	}
	return time.Unix(sec, frac*(1e9/unit)).UTC()
}

// appendDecimal writes into buf (from its start) the decimal text of
// unscaled × 10^−scale, where unscaled is value v: an INT32 or INT64, or
// the big-endian two's complement bytes of a FIXED_LEN_BYTE_ARRAY or
// BYTE_ARRAY. At scale s the text has s digits after the point ("-0.05",
// "12.30"), and no point at 0.
func (l parquetLogical) appendDecimal(buf []byte, k parquet.Kind, v parquet.Value) []byte {
	var unscaled []byte // its decimal text
	switch k {
	case parquet.Int32:
		unscaled = strconv.AppendInt(buf[:0], int64(v.Int32()), 10)
	case parquet.Int64:
		unscaled = strconv.AppendInt(buf[:0], v.Int64(), 10)
	default:
		b := v.ByteArray()
		if len(b) > 8 {
			x := new(big.Int).SetBytes(b)
			if b[0]&0x80 != 0 {
				x.Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
			}
			unscaled = x.Append(buf[:0], 10)
			break
		}
		var n int64
		for _, c := range b {
			n = n<<8 | int64(c)
		}
		if len(b) > 0 && len(b) < 8 && b[0]&0x80 != 0 {
			n -= 1 << (8 * len(b)) // sign-extended
		}
		unscaled = strconv.AppendInt(buf[:0], n, 10)
	}
	if l.scale == 0 {
		return unscaled
	}
	sign, mag := "", string(unscaled)
	if mag[0] == '-' {
		sign, mag = "-", mag[1:]
	}
	if len(mag) <= l.scale {
		mag = strings.Repeat("0", l.scale+1-len(mag)) + mag
	}
	out := append(append(unscaled[:0], sign...), mag[:len(mag)-l.scale]...)
	return append(append(out, '.'), mag[len(mag)-l.scale:]...)
}
