package modelfile

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// specials are the float64 values with their own encoding or edge-case
// digits.
var specials = []float64{
	0, math.Copysign(0, -1), 1, -1, math.NaN(), math.Inf(1), math.Inf(-1),
	math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64,
	0x1p-1022, math.Nextafter(0x1p-1022, 0), 1e-6, math.Nextafter(1e-6, 0), 1e21, math.Nextafter(1e21, 0),
	1e-7, 1e-300, 1e300, 0.1, 1.0 / 3, 5e-324, 2.2250738585072014e-308, 9007199254740993,
}

// randomFloats returns n float64 values from uniformly random bit
// patterns, random subnormals and values spread over all magnitudes.
func randomFloats(rng *rand.Rand, n int) []float64 {
	out := make([]float64, 0, n)
	for len(out) < n {
		switch len(out) % 3 {
		case 0:
			out = append(out, math.Float64frombits(rng.Uint64()))
		case 1: // subnormal: biased exponent 0
			out = append(out, math.Float64frombits(rng.Uint64()&(1<<63|1<<52-1)))
		default:
			out = append(out, rng.NormFloat64()*math.Pow(10, float64(rng.IntN(40)-20)))
		}
	}
	return out
}

// sameFloat reports whether a and b have the same bits, or are both NaN.
func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

func TestFloatsRoundTrip(t *testing.T) {
	want := append(Floats{}, specials...)
	want = append(want, randomFloats(rand.New(rand.NewPCG(1, 2)), 30000)...)
	// Through encoding/json, inside a struct, as a model's MarshalJSON does.
	type params struct {
		V Floats `json:"v"`
		S Float  `json:"s"`
	}
	for i, v := range want {
		b, err := json.Marshal(params{V: Floats{v}, S: Float(v)})
		if err != nil {
			t.Fatalf("%v (%#x): %v", v, math.Float64bits(v), err)
		}
		var got params
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if len(got.V) != 1 || !sameFloat(got.V[0], v) || !sameFloat(float64(got.S), v) {
			t.Fatalf("value %d: %v (%#x) wrote %s, read %v", i, v, math.Float64bits(v), b, got)
		}
	}
	b, _ := want.MarshalJSON()
	var got Floats
	if err := got.UnmarshalJSON(b); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("read %d values, wrote %d", len(got), len(want))
	}
	for i := range want {
		if !sameFloat(got[i], want[i]) {
			t.Fatalf("value %d: wrote %v, read %v", i, want[i], got[i])
		}
	}
}

func TestFloatsEncoding(t *testing.T) {
	b, _ := Floats{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, 1e-7, 1.5e300, 0.1, 1e21, 123456789}.MarshalJSON()
	want := `["NaN","+Inf","-Inf",-0,0,1e-7,1.5e+300,0.1,1e+21,123456789]`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	// Finite values are written as encoding/json writes a float64.
	for _, v := range randomFloats(rand.New(rand.NewPCG(3, 4)), 3000) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		std, _ := json.Marshal(v)
		if got := appendFloat(nil, v); string(got) != string(std) {
			t.Fatalf("%v: wrote %s, encoding/json writes %s", v, got, std)
		}
	}
}

func TestFloatsDecoding(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Floats
	}{
		{"null", nil},
		{"[]", Floats{}},
		{" [ ] ", Floats{}},
		{"[ 1 , -2.5e3 ,\n\"NaN\" ]", Floats{1, -2500, math.NaN()}},
		{"[1E2, 0.5e-1, -0.0]", Floats{100, 0.05, math.Copysign(0, -1)}},
		{"[1e-400]", Floats{0}}, // underflow rounds to zero, as strconv does
	} {
		var got Floats
		if err := got.UnmarshalJSON([]byte(tc.in)); err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if (got == nil) != (tc.want == nil) || len(got) != len(tc.want) {
			t.Errorf("%s: got %#v, want %#v", tc.in, got, tc.want)
			continue
		}
		for i := range got {
			if !sameFloat(got[i], tc.want[i]) {
				t.Errorf("%s: got %v, want %v", tc.in, got, tc.want)
			}
		}
	}
	for _, in := range []string{
		"", "1", `"NaN"`, "{}", "[", "[1,]", "[,1]", "[1,,2]", `["Inf"]`, `["nan"]`, "[NaN]", "[Inf]",
		"[1e400]", "[-1e400]", "[0x1p3]", "[01]", "[1.]", "[.5]", "[+1]", "[1e]", "[null]", "[true]",
		`["1"]`, `["a,b"]`, "[[1]]", "[1 2]", "[1_000]",
	} {
		var f Floats
		if err := f.UnmarshalJSON([]byte(in)); err == nil {
			t.Errorf("%q read as %v, want an error", in, f)
		} else if strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: multi-line error %q", in, err)
		}
	}
}

func TestFloatDecoding(t *testing.T) {
	x := Float(7)
	if err := x.UnmarshalJSON([]byte("null")); err != nil || x != 7 {
		t.Errorf("null: %v, %v; want 7 unchanged", x, err)
	}
	if err := x.UnmarshalJSON([]byte(` "-Inf" `)); err != nil || !math.IsInf(float64(x), -1) {
		t.Errorf(`"-Inf": %v, %v`, x, err)
	}
	for _, in := range []string{"", "[1]", `"inf"`, "1e999", "abc"} {
		if err := x.UnmarshalJSON([]byte(in)); err == nil {
			t.Errorf("%q read as %v, want an error", in, x)
		}
	}
}

func FuzzFloats(f *testing.F) {
	for _, v := range specials {
		f.Add(math.Float64bits(v))
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		v := math.Float64frombits(bits)
		b, _ := Floats{v}.MarshalJSON()
		if !json.Valid(b) {
			t.Fatalf("%v: invalid JSON %s", v, b)
		}
		var got Floats
		if err := got.UnmarshalJSON(b); err != nil || len(got) != 1 || !sameFloat(got[0], v) {
			t.Fatalf("%v (%#x): wrote %s, read %v, %v", v, bits, b, got, err)
		}
	})
}

// FuzzFloatsDecode checks that decoding never panics and that whatever
// decodes is written back in a form that decodes to the same values.
func FuzzFloatsDecode(f *testing.F) {
	for _, s := range []string{"[1,2]", `["NaN", -0, 1e-7]`, "null", "[]", "[1e400]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var v Floats
		if v.UnmarshalJSON(b) != nil {
			return
		}
		out, _ := v.MarshalJSON()
		var w Floats
		if err := w.UnmarshalJSON(out); err != nil || len(w) != len(v) {
			t.Fatalf("%q read as %v, written as %s, read back as %v, %v", b, v, out, w, err)
		}
		for i := range v {
			if !sameFloat(v[i], w[i]) {
				t.Fatalf("%q: element %d changed from %v to %v", b, i, v[i], w[i])
			}
		}
	})
}

// TestFieldError checks the one-line messages of the refusals of Check and
// CheckValue.
func TestFieldError(t *testing.T) {
	bounded := Interval{Lo: -1e150, Hi: 1e150, Why: "the squares of larger values overflow float64"}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{bounded.Check("means[2]", []float64{1, -3, 1e308}), "means[2][2]: 1e308 is outside [-1e150, 1e150]: the squares of larger values overflow float64"},
		{Finite.Check("w", []float64{0, math.NaN()}), "w[1]: NaN is not a finite number"},
		{Finite.CheckValue("b", math.Inf(-1)), "b: -Inf is not a finite number"},
		{NonNegative.CheckValue("alpha", -1), "alpha: -1 is not a finite number ≥ 0"},
		{NonNegative.CheckValue("alpha", math.Inf(1)), "alpha: +Inf is not a finite number"},
		{bounded.CheckValue("mean", math.NaN()), "mean: NaN is not a finite number"},
		{Interval{Lo: 5e-324, Hi: 1}.CheckValue("p", 0), "p: 0 is outside [5e-324, 1]"},
	} {
		if tc.err == nil || tc.err.Error() != tc.want {
			t.Errorf("error %v, want %q", tc.err, tc.want)
		}
	}
	if err := bounded.Check("x", []float64{-1e150, 0, 1e150}); err != nil {
		t.Errorf("values at the bounds: %v", err)
	}
	if err := NonNegative.CheckValue("x", 0); err != nil {
		t.Errorf("0 ≥ 0: %v", err)
	}
}
