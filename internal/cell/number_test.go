package cell

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// checkNumber compares Scan on s (followed by a comma) with
// strconv.ParseFloat, bit for bit, and checks that a canonical text is
// what strconv.FormatFloat writes.
func checkNumber(t *testing.T, s string) {
	t.Helper()
	b := []byte(s + ",")
	v, end, ok, canon := Scan(b, 0)
	want, err := strconv.ParseFloat(s, 64)
	if err != nil && !strings.Contains(err.Error(), "out of range") {
		if ok && end == len(s) {
			t.Errorf("%q: read as %v, strconv: %v", s, v, err)
		}
		return
	}
	if !ok || end != len(s) {
		t.Errorf("%q: ok %v end %d, want the whole text", s, ok, end)
		return
	}
	if math.Float64bits(v) != math.Float64bits(want) {
		t.Errorf("%q = %v (%b), want %v (%b)", s, v, math.Float64bits(v), want, math.Float64bits(want))
	}
	if canon && strconv.FormatFloat(v, 'f', -1, 64) != s {
		t.Errorf("%q: canonical, but FormatFloat gives %q", s, strconv.FormatFloat(v, 'f', -1, 64))
	}
}

func TestScanNumber(t *testing.T) {
	for _, s := range []string{
		"0", "-0", "1", "-1", "+1", "007", "0.5", ".5", "5.", "-.5", "1.50", "12345678901234567890",
		"0.1", "0.30000000000000004", "123456789012345", "1234567890123456", "9007199254740993",
		"1e5", "1E-5", "1e+5", "1e22", "1e23", "1e-22", "1e-23", "4.9e-324", "2e-324", "1e-400", "1e308", "1.8e308",
		"1e999", "-1e999", "0e999", "0.000000000000000000000000001", "123.456e-7", "1e", "1e+", "-", ".", "", "e5",
		"1.2.3", "--1", "1e1000000000",
		"179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368",
	} {
		checkNumber(t, s)
	}
	// strconv reads these, but they are not decimal numbers.
	for _, s := range []string{"0x10", "1_000", "inf", "NaN", "0b1"} {
		if _, end, ok, _ := Scan([]byte(s), 0); ok && end == len(s) {
			t.Errorf("%q read as a number", s)
		}
	}
}

// TestScanNumberRandom checks random decimal texts of every shape.
func TestScanNumberRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	digits := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(byte('0' + rng.IntN(10)))
		}
		return b.String()
	}
	for range 20000 {
		var s string
		if rng.IntN(4) == 0 {
			s = "-"
		}
		s += digits(rng.IntN(12))
		if rng.IntN(2) == 0 {
			s += "." + digits(rng.IntN(20))
		}
		if rng.IntN(4) == 0 {
			s += "e" + strconv.Itoa(rng.IntN(700)-350)
		}
		checkNumber(t, s)
	}
	// Shortest forms of random floats are canonical and exact.
	for range 20000 {
		v := math.Float64frombits(rng.Uint64())
		if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e20 || math.Abs(v) < 1e-20 {
			v = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(20)-10))
		}
		s := strconv.FormatFloat(v, 'f', -1, 64)
		got, _, ok, canon := Scan([]byte(s), 0)
		if !ok || got != v {
			t.Fatalf("%q = %v, want %v", s, got, v)
		}
		if !canon && len(strings.Trim(strings.NewReplacer("-", "", ".", "").Replace(s), "0")) <= 15 {
			t.Errorf("%q not canonical", s)
		}
	}
}

func TestParseCell(t *testing.T) {
	for _, tc := range []struct {
		s         string
		v         float64
		ok, canon bool
	}{
		{"1.5", 1.5, true, true},
		{" 1.5 ", 1.5, true, false},
		{"inf", math.Inf(1), true, false},
		{"-Infinity", math.Inf(-1), true, false},
		{"+INF", math.Inf(1), true, false},
		{"infinit", 0, false, false},
		{"1 2", 0, false, false},
		{"", 0, false, false},
		{"  ", 0, false, false},
	} {
		v, ok, canon := Parse([]byte(tc.s))
		if ok != tc.ok || canon != tc.canon || ok && v != tc.v {
			t.Errorf("Parse(%q) = %v %v %v, want %v %v %v", tc.s, v, ok, canon, tc.v, tc.ok, tc.canon)
		}
	}
}
