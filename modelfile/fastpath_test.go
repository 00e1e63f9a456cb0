package modelfile

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"testing"
)

// FuzzCompactValid checks compactValid against json.Compact on valid
// JSON. Longer:
//
//	go test -run '^$' -fuzz FuzzCompactValid -fuzztime 60s ./modelfile
func FuzzCompactValid(f *testing.F) {
	for _, s := range []string{
		`{}`, ` [1, 2 ,3 ] `, "{\n  \"a b\": \"c \\\" d\\\\\",\t\"e\": [true, null, -1.5e3]\r\n}",
		`"\\"`, `["\u0041 ", " \" ", {"k" : { } }]`, ` 0 `,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			return
		}
		var want bytes.Buffer
		if err := json.Compact(&want, b); err != nil {
			t.Fatal(err)
		}
		if got := compactValid(nil, b); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("compactValid %q, json.Compact %q", got, want.Bytes())
		}
	})
}

// FuzzAppendFloat checks appendFloat against json.Marshal of a float64,
// whole numbers first. Longer:
//
//	go test -run '^$' -fuzz FuzzAppendFloat -fuzztime 60s ./modelfile
func FuzzAppendFloat(f *testing.F) {
	for _, v := range []float64{1, -1, 3, 1e6, 1e20, 1 << 53, 1<<53 - 1, -(1<<53 - 1), 123456789, 0.5, 1e-7, 2.5e21} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return
		}
		want, _ := json.Marshal(v)
		if got := appendFloat(nil, v); !bytes.Equal(got, want) {
			t.Fatalf("%v: appendFloat %s, json.Marshal %s", v, got, want)
		}
	})
}

// FuzzSplitEnvelope checks that whatever splitEnvelope reads, it reads
// as json.Unmarshal does. Longer:
//
//	go test -run '^$' -fuzz FuzzSplitEnvelope -fuzztime 60s ./modelfile
func FuzzSplitEnvelope(f *testing.F) {
	for _, s := range []string{
		`{"format":"gendisc-model","version":1,"kind":"hmm","schema":{"a":[1,{"b":"}"}]},"params":{"x":[1, 2, "a\"]"]},"checksum":"sha256:0"}`,
		` { "format" : null , "other" : [ ] , "params" : -1.5e3 , "params" : true } `,
		`{"Kind":"x"}`, `{"k\u0069nd":"x"}`, `[]`, `{}`, `"{}"`, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, ok := splitEnvelope(b)
		if !ok {
			return
		}
		var want rawEnvelope
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatalf("split, but json.Unmarshal refuses: %v", err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("split as\n%q\njson.Unmarshal:\n%q", got, want)
		}
	})
}

// FuzzParseFloat checks parseFloat against strconv.ParseFloat on JSON
// numbers, whole ones first. Longer:
//
//	go test -run '^$' -fuzz FuzzParseFloat -fuzztime 60s ./modelfile
func FuzzParseFloat(f *testing.F) {
	for _, s := range []string{"0", "7", "123456789012345", "1234567890123456", "999999999999999", "-3", "2.5", "1e3", "10"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !isJSONNumber([]byte(s)) {
			return
		}
		want, err := strconv.ParseFloat(s, 64)
		got, gerr := parseFloat([]byte(s))
		if (err != nil) != (gerr != nil) || err == nil && math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("%q: parseFloat %v, %v; strconv.ParseFloat %v, %v", s, got, gerr, want, err)
		}
	})
}
