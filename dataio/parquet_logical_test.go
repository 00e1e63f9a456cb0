package dataio

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/big"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gendisc/gendisc/data"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
)

// logicalColumns are the columns of testdata/duckdb/logical.parquet
// before the class.
var logicalColumns = []string{"day", "tod", "ts_ms", "ts_us", "ts_ns", "ts_tz", "dec9", "dec18", "dec38"}

// logicalCell is the cell of row i (from 0) and column j of
// logicalColumns in testdata/duckdb/logical.parquet, by the formulas of
// make.mjs: as a categorical level, the number (an exact rational whose
// nearest float64 gendisc must read), or null.
func logicalCell(i, j int) (level string, number *big.Rat, null bool) {
	if i%[]int{7, 11, 13, 5, 17, 19, 23, 29, 31}[j] == 0 {
		return "", nil, true
	}
	us := int64(i-200)*12345678901234 + int64(i)*7
	rat := func(unscaled int64, digits int) *big.Rat {
		return new(big.Rat).SetFrac(big.NewInt(unscaled), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(digits)), nil))
	}
	decimal := func(text string) (string, *big.Rat, bool) {
		r, ok := new(big.Rat).SetString(text)
		if !ok {
			panic(text)
		}
		return text, r, false
	}
	switch logicalColumns[j] {
	case "day":
		days := int64(i-200) * 97
		return time.Date(1970, 1, 1+int(days), 0, 0, 0, 0, time.UTC).Format(time.DateOnly), new(big.Rat).SetInt64(days), false
	case "tod":
		micros := int64(i) * 1234567891 % 86400000000
		return time.UnixMicro(micros).UTC().Format("15:04:05.999999"), rat(micros, 6), false
	case "ts_ms":
		ms := int64(i-200)*12345678901 + int64(i)
		return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.999"), rat(ms, 3), false
	case "ts_us":
		return time.UnixMicro(us).UTC().Format("2006-01-02T15:04:05.999999"), rat(us, 6), false
	case "ts_ns":
		ns := us*1000 + int64(i)*13%1000
		return time.Unix(0, ns).UTC().Format("2006-01-02T15:04:05.999999999"), rat(ns, 9), false
	case "ts_tz":
		return time.UnixMicro(us).UTC().Format("2006-01-02T15:04:05.999999Z"), rat(us, 6), false
	case "dec9":
		return decimal(fmt.Sprintf("%d.%02d", (i-200)*49999%10000000, i*7%100))
	case "dec18":
		return decimal(fmt.Sprintf("%d.%04d", int64(i-200)*123456789012, i*37%10000))
	}
	a, _ := new(big.Int).SetString("123456789012345678901", 10)
	a.Mul(a, big.NewInt(int64(i-200)))
	return decimal(fmt.Sprintf("%s.%06d", a, i*1234567%1000000))
}

// TestDuckDBLogical reads testdata/duckdb/logical.parquet, written by
// DuckDB: DATE, TIME, TIMESTAMP in milli-, micro- and nanoseconds with
// and without a time zone, and DECIMAL(9,2), (18,4) and (38,6) (INT32,
// INT64 and FIXED_LEN_BYTE_ARRAY), each cell checked against make.mjs's
// formulas read as numbers and as categories; a date or time named
// neither is refused, naming the two readings.
func TestDuckDBLogical(t *testing.T) {
	const path = "testdata/duckdb/logical.parquet"
	numeric, err := ReadFile(path, Options{Numeric: logicalColumns})
	if err != nil {
		t.Fatal(err)
	}
	categorical, err := ReadFile(path, Options{Categorical: logicalColumns})
	if err != nil {
		t.Fatal(err)
	}
	if numeric.N != 400 || categorical.N != 400 || numeric.D() != len(logicalColumns) || categorical.D() != len(logicalColumns) {
		t.Fatalf("%d and %d rows, %d and %d columns", numeric.N, categorical.N, numeric.D(), categorical.D())
	}
	for j, name := range logicalColumns {
		if f := numeric.Schema.Features[j]; f.Name != name || f.Kind != data.Numeric {
			t.Fatalf("numeric column %d: %+v", j, f)
		}
		if f := categorical.Schema.Features[j]; f.Name != name || f.Kind != data.Categorical {
			t.Fatalf("categorical column %d: %+v", j, f)
		}
		bad := 0
		for i := range 400 {
			level, number, null := logicalCell(i, j)
			x, c := numeric.X[i*numeric.D()+j], categorical.X[i*categorical.D()+j]
			got := ""
			if c == c {
				got = categorical.Schema.Features[j].Levels[int(c)]
			}
			var want float64
			if !null {
				want, _ = number.Float64()
			}
			if null && (x == x || c == c) || !null && (x != want || got != level) {
				if bad++; bad <= 3 {
					t.Errorf("%s row %d: %v and %q, want %v (%s) and %q", name, i, x, got, want, number.FloatString(9), level)
				}
			}
		}
	}
	// Decimals are numbers unless named categorical; dates and times
	// must be named.
	decimals, err := ReadFile(path, Options{Ignore: logicalColumns[:6]})
	if err != nil || decimals.D() != 3 || decimals.Schema.Features[0].Kind != data.Numeric || !sameFloats(decimals.X, colsOf(numeric, 6, 7, 8)) {
		t.Errorf("decimals by default: %v", err)
	}
	for j, name := range logicalColumns[:6] {
		ignore := slices.Delete(slices.Clone(logicalColumns[:6]), j, j+1)
		_, err := ReadFile(path, Options{Ignore: ignore})
		var pe *data.ParseError
		what := map[string]string{"day": "DATE", "tod": "TIME", "ts_tz": "TIMESTAMP:"}[name]
		if what == "" {
			what = "TIMESTAMP (a local time)"
		}
		if !errors.As(err, &pe) || pe.ColumnName != name || !errors.Is(err, ErrParquetType) ||
			!strings.Contains(err.Error(), "is a "+what) || !strings.HasSuffix(err.Error(), namedRemedy) {
			t.Errorf("%s named neither: %v", name, err)
		}
	}
	want := path + `: column "day": column type not read: the column is a DATE: it is read as numbers (days since 1970-01-01) or as categories (such as 2024-01-02) when named so, or ignored ` + namedRemedy
	if _, err := ReadFile(path, Options{}); err == nil || err.Error() != want {
		t.Errorf("error %v\nwant %s", err, want)
	}
	// The schema of each reading reads the file the same (as a model's
	// schema does when it predicts).
	for _, d := range []*data.Dataset{numeric, categorical, decimals} {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		e, err := ReadWithSchema(f, path, d.Schema, SchemaOptions{RequireTarget: true})
		f.Close()
		if err != nil || !sameFloats(e.X, d.X) || !slices.Equal(e.Y, d.Y) || slices.ContainsFunc(e.Source.Unseen, func(n int) bool { return n != 0 }) {
			t.Errorf("with the schema: %v", err)
		}
	}
}

// colsOf returns columns js of the rows of d, row by row.
func colsOf(d *data.Dataset, js ...int) []float64 {
	var x []float64
	for i := range d.N {
		for _, j := range js {
			x = append(x, d.X[i*d.D()+j])
		}
	}
	return x
}

// TestParquetDecimalText: the decimal text of unscaled integers of every
// physical type, at the edges of the sign, the width and the scale.
func TestParquetDecimalText(t *testing.T) {
	for _, c := range []struct {
		kind  parquet.Kind
		v     parquet.Value
		scale int
		want  string
	}{
		{parquet.Int32, parquet.Int32Value(-5), 2, "-0.05"},
		{parquet.Int32, parquet.Int32Value(math.MinInt32), 0, "-2147483648"},
		{parquet.Int32, parquet.Int32Value(1230), 2, "12.30"},
		{parquet.Int64, parquet.Int64Value(math.MinInt64), 3, "-9223372036854775.808"},
		{parquet.Int64, parquet.Int64Value(7), 4, "0.0007"},
		{parquet.FixedLenByteArray, parquet.FixedLenByteArrayValue([]byte{0xff, 0xfe}), 1, "-0.2"},
		{parquet.FixedLenByteArray, parquet.FixedLenByteArrayValue([]byte{0x80, 0, 0, 0, 0, 0, 0, 0}), 0, "-9223372036854775808"},
		{parquet.FixedLenByteArray, parquet.FixedLenByteArrayValue([]byte{0x7f, 0xff, 0xff}), 2, "83886.07"},
		{parquet.ByteArray, parquet.ByteArrayValue(nil), 2, "0.00"},
		{parquet.ByteArray, parquet.ByteArrayValue([]byte{0xff, 0, 0, 0, 0, 0, 0, 0, 0}), 2, "-184467440737095516.16"},
		{parquet.ByteArray, parquet.ByteArrayValue([]byte{1, 0, 0, 0, 0, 0, 0, 0, 0}), 21, "0.018446744073709551616"},
	} {
		l := parquetLogical{kind: logicalDecimal, scale: c.scale}
		if got := string(l.appendDecimal(nil, c.kind, c.v)); got != c.want {
			t.Errorf("%v %v scale %d: %s, want %s", c.kind, c.v, c.scale, got, c.want)
		}
	}
}

// TestParquetByteArrayDecimal reads a DECIMAL of BYTE_ARRAY values (which
// DuckDB does not write), as a numeric target, of widths up to the limit,
// and refuses a wider one by row and column.
func TestParquetByteArrayDecimal(t *testing.T) {
	write := func(vals ...[]byte) []byte {
		schema := parquet.NewSchema("t", parquet.Group{"d": parquet.Optional(parquet.Decimal(3, 200, parquet.ByteArrayType))})
		var buf bytes.Buffer
		w := parquet.NewWriter(&buf, schema)
		for _, v := range vals {
			val := parquet.ValueOf(nil).Level(0, 0, 0)
			if v != nil {
				val = parquet.ByteArrayValue(v).Level(0, 1, 0)
			}
			if _, err := w.WriteRows([]parquet.Row{{val}}); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	wide := append([]byte{0xff}, make([]byte, maxDecimalBytes-1)...) // −2^504
	d, err := Read(bytes.NewReader(write([]byte{0x30, 0x39}, nil, []byte{0xcf, 0xc7}, wide)), "d.parquet", Options{NumericTarget: true})
	want, _ := new(big.Rat).SetFrac(new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 8*maxDecimalBytes-8)), big.NewInt(1000)).Float64()
	if err != nil || !sameFloats(d.Y, []float64{12.345, math.NaN(), -12.345, want}) {
		t.Errorf("%v %v", d, err)
	}
	_, err = Read(bytes.NewReader(write([]byte{1}, make([]byte, maxDecimalBytes+1))), "d.parquet", Options{NumericTarget: true})
	var pe *data.ParseError
	if !errors.As(err, &pe) || pe.ColumnName != "d" || pe.Line != 2 || !strings.Contains(err.Error(), "a DECIMAL of 65 bytes: at most 64 are read") {
		t.Errorf("too wide: %v", err)
	}
}

// TestParquetInt96Refused: an INT96 timestamp is refused, naming the
// column and why, unless ignored.
func TestParquetInt96Refused(t *testing.T) {
	schema := parquet.NewSchema("t", parquet.Group{"t": parquet.Leaf(parquet.Int96Type), "x": parquet.Leaf(parquet.DoubleType)})
	var buf bytes.Buffer
	w := parquet.NewWriter(&buf, schema)
	if _, err := w.WriteRows([]parquet.Row{{parquet.Int96Value(deprecated.Int96{1, 2, 2440588}).Level(0, 0, 0), parquet.DoubleValue(1).Level(0, 0, 1)}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	_, err := Read(bytes.NewReader(buf.Bytes()), "t.parquet", Options{NumericTarget: true, Numeric: []string{"t"}})
	if want := `t.parquet: column "t": column type not read: the column is INT96 (a legacy timestamp of no stated time zone: write it as a TIMESTAMP); numbers, strings and booleans are read (ignore the column to read the others)`; err == nil || err.Error() != want {
		t.Errorf("error %v\nwant %s", err, want)
	}
	if d, err := Read(bytes.NewReader(buf.Bytes()), "t.parquet", Options{NumericTarget: true, Ignore: []string{"t"}}); err != nil || d.Y[0] != 1 {
		t.Errorf("t ignored: %v", err)
	}
}
