package data

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// jsonReads are JSON-lines inputs and what Read gives for them: the error,
// or the Dataset as readSummary writes it. The texts are those that the
// reader by encoding/json's Decoder alone gave.
var jsonReads = []struct{ in, want string }{
	{`[1]`,
		"t.jsonl:1: no data rows after the header"},
	{`"a"`,
		"t.jsonl:1: no data rows after the header"},
	{`{"a":1`,
		"t.jsonl:1: not a flat JSON object: the object is not closed"},
	{`{"a":1,}`,
		"t.jsonl:1: not a flat JSON object: invalid character '}' looking for beginning of object key string"},
	{`{"a":1 "b":2}`,
		"t.jsonl:1: not a flat JSON object: invalid character '\"' after object key:value pair"},
	{`{"a":1}x`,
		"t.jsonl:1: not a flat JSON object: text after the object"},
	{`{"a":1} {"b":2}`,
		"t.jsonl:1: not a flat JSON object: text after the object"},
	{`{"a":1}}`,
		"t.jsonl:1: not a flat JSON object: text after the object"},
	{`{"a":[1]}`,
		"t.jsonl:1: column \"a\": not a flat JSON object: the value is an array or an object"},
	{`{"a":{}}`,
		"t.jsonl:1: column \"a\": not a flat JSON object: the value is an array or an object"},
	{`{"a":1,"a":2}`,
		"t.jsonl:1: column \"a\": duplicate column name: the key twice on the line"},
	{`{"a":1,"b":[1,2],"a":3}`,
		"t.jsonl:1: column \"b\": not a flat JSON object: the value is an array or an object"},
	{`{"a":NaN}`,
		"t.jsonl:1: column \"a\": not a flat JSON object: invalid character 'N' looking for beginning of value"},
	{`{"a":01}`,
		"t.jsonl:1: not a flat JSON object: invalid character '1' after object key:value pair"},
	{`{"a":1.}`,
		"t.jsonl:1: column \"a\": not a flat JSON object: invalid character '}' after decimal point in numeric literal"},
	{`{"a":+1}`,
		"t.jsonl:1: column \"a\": not a flat JSON object: invalid character '+' looking for beginning of value"},
	{`{"a":-}`,
		"t.jsonl:1: column \"a\": not a flat JSON object: invalid character '}' in numeric literal"},
	{`{"a":.5}`,
		"t.jsonl:1: column \"a\": not a flat JSON object: invalid character '.' looking for beginning of value"},
	{`{"a":1e}`,
		"t.jsonl:1: column \"a\": not a flat JSON object: invalid character '}' in exponent of numeric literal"},
	{`{"a":1e+}`,
		"t.jsonl:1: column \"a\": not a flat JSON object: invalid character '}' in exponent of numeric literal"},
	{`{"a":tru}`,
		"t.jsonl:1: column \"a\": not a flat JSON object: invalid character '}' in literal true (expecting 'e')"},
	{`{"a":truex}`,
		"t.jsonl:1: not a flat JSON object: invalid character 'x' after object key:value pair"},
	{`{"a":nul}`,
		"t.jsonl:1: column \"a\": not a flat JSON object: invalid character '}' in literal null (expecting 'l')"},
	{`{"a":Infinity}`,
		"t.jsonl:1: column \"a\": not a flat JSON object: invalid character 'I' looking for beginning of value"},
	{`{"a":"x` + "\x01" + `y"}`,
		"t.jsonl:1: column \"a\": not a flat JSON object: invalid character '\\x01' in string literal"},
	{`{"a":"\q"}`,
		"t.jsonl:1: column \"a\": not a flat JSON object: invalid character 'q' in string escape code"},
	{`{"a":"\u12"}`,
		"t.jsonl:1: column \"a\": not a flat JSON object: invalid character '\"' in \\u hexadecimal character escape"},
	{`{a:1}`,
		"t.jsonl:1: not a flat JSON object: invalid character 'a'"},
	{`{1:1}`,
		"t.jsonl:1: not a flat JSON object: invalid character '1'"},
	{`{"a" 1}`,
		"t.jsonl:1: column \"a\": not a flat JSON object: invalid character '1' after object key"},
	{`{"a":}`,
		"t.jsonl:1: column \"a\": not a flat JSON object: invalid character '}' looking for beginning of value"},
	{"\v{\"a\":1}",
		"t.jsonl:1:1: bad quoting: \" in an unquoted field"},
	{`{"a":1}` + "\v",
		"t.jsonl:1: not a flat JSON object: text after the object"},
	{`{"a":1}` + "\n" + `{"b":2}`,
		"{\"features\":[{\"name\":\"a\",\"kind\":\"numeric\",\"integral\":true,\"range\":[1,1]}],\"target\":{\"name\":\"b\",\"kind\":\"categorical\",\"levels\":[\"2\"]}} [1 NaN] [NaN 0] [] [1 2] []"},
	{`{"a":1}` + "\n\n" + `{"a":2,"c":3}`,
		"{\"features\":[{\"name\":\"a\",\"kind\":\"numeric\",\"integral\":true,\"range\":[1,2]}],\"target\":{\"name\":\"c\",\"kind\":\"categorical\",\"levels\":[\"3\"]}} [1 2] [NaN 0] [] [1 3] []"},
	{`{"a":1,"b":"x"}` + "\n" + `{"a":1,"b":"x","b":"y"}`,
		"t.jsonl:2: column \"b\": duplicate column name: the key twice on the line"},
	{`{"a":1}` + "\n" + `{"a":"x"}` + "\n" + `{"a":[2]}`,
		"t.jsonl:3: column \"a\": not a flat JSON object: the value is an array or an object"},
	{`{"a":1e999}`,
		"{\"features\":null,\"target\":{\"name\":\"a\",\"kind\":\"categorical\",\"levels\":[\"1e999\"]}} [] [0] [] [1] []"},
	{`{"a":1,"w":-1,"y":"p"}`,
		"t.jsonl:1: column \"w\": weight must be a finite number >= 0: -1"},
	{`{"a":1,"w":2,"y":"p"}` + "\n" + `{"a":"x","w":null,"y":true}` + "\n" + `{"y":false,"a":3.50,"w":1e0}`,
		"{\"features\":[{\"name\":\"a\",\"kind\":\"categorical\",\"levels\":[\"1\",\"3.50\",\"x\"]}],\"target\":{\"name\":\"y\",\"kind\":\"categorical\",\"levels\":[\"false\",\"p\",\"true\"]}} [0 2 1] [1 2 0] [2 NaN 1] [1 2 3] []"},
	{`{"a":"1","b":1.50,"c":"x\"y\\z\u00e9\ud83d\ude00","d":"\/","e":"` + "\xff\xfe" + `"}` + "\n" + `{"b":"x","a":2,"c":"NA","d":null,"e":" 1 "}`,
		"{\"features\":[{\"name\":\"a\",\"kind\":\"categorical\",\"levels\":[\"1\",\"2\"]},{\"name\":\"b\",\"kind\":\"categorical\",\"levels\":[\"1.50\",\"x\"]},{\"name\":\"c\",\"kind\":\"categorical\",\"levels\":[\"x\\\"y\\\\zé😀\"]},{\"name\":\"d\",\"kind\":\"categorical\",\"levels\":[\"/\"]}],\"target\":{\"name\":\"e\",\"kind\":\"categorical\",\"levels\":[\" 1 \",\"��\"]}} [0 0 0 0 1 1 NaN NaN] [1 0] [] [1 2] []"},
	{" \t{ \"a\" : 1 , \"b\" : \"x\" } \r\n\n" + `{"a":-0,"b":true}`,
		"{\"features\":[{\"name\":\"a\",\"kind\":\"numeric\",\"integral\":true,\"range\":[-0,1]}],\"target\":{\"name\":\"b\",\"kind\":\"categorical\",\"levels\":[\"true\",\"x\"]}} [1 -0] [1 0] [] [1 3] []"},
	{`{}`,
		"t.jsonl: empty file"},
	{"\n \n",
		"t.jsonl:2: no data rows after the header"},
	{`{"a":1}` + "\n" + `{"a":1} x`,
		"t.jsonl:2: not a flat JSON object: text after the object"},
	{`{"a":"\ud800"}` + "\n" + `{"a":2}`,
		"{\"features\":null,\"target\":{\"name\":\"a\",\"kind\":\"categorical\",\"levels\":[\"2\",\"�\"]}} [] [1 0] [] [1 2] []"},
	{`{"a":1,"b":2}` + "\n" + `{"b":3,"a":4,"c":5}`,
		"{\"features\":[{\"name\":\"a\",\"kind\":\"numeric\",\"integral\":true,\"range\":[1,4]},{\"name\":\"b\",\"kind\":\"numeric\",\"integral\":true,\"range\":[2,3]}],\"target\":{\"name\":\"c\",\"kind\":\"categorical\",\"levels\":[\"5\"]}} [1 2 4 3] [NaN 0] [] [1 2] []"},
	{`{"é":1,"\u00e9":2}`,
		"t.jsonl:1: column \"é\": duplicate column name: the key twice on the line"},
}

// readSummary is the error of Read of in (with weight column "w" when
// the input has that key), or the schema and arrays of its Dataset.
func readSummary(in string, cfg readConfig) string {
	opt := Options{}
	if bytes.Contains([]byte(in), []byte(`"w"`)) {
		opt.Weight = "w"
	}
	d, err := readInferred(bytes.NewReader([]byte(in)), "t.jsonl", opt, cfg)
	if err != nil {
		return err.Error()
	}
	s, _ := json.Marshal(d.Schema)
	return fmt.Sprintf("%s %v %v %v %v %v", s, d.X, d.Y, d.Weight, d.Lines, d.Warnings)
}

// TestJSONLinesReads reads each of jsonReads, in one block and in blocks
// of a line or so.
func TestJSONLinesReads(t *testing.T) {
	for _, cfg := range []readConfig{defaultConfig, {chunk: 1, blocks: 1}, {chunk: 1, blocks: 5}} {
		for _, tc := range jsonReads {
			if got := readSummary(tc.in, cfg); got != tc.want {
				t.Errorf("config %+v, %q:\n got %s\nwant %s", cfg, tc.in, got, tc.want)
			}
		}
	}
}
