package dataio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
)

// jsonReads are JSON-lines inputs and what Read gives for them: the error,
// or the Dataset as readSummary writes it. The texts are those that the
// reader by encoding/json's Decoder alone gave.
var jsonReads = []struct{ in, want string }{
	{`[1]`,
		`t.jsonl:1: not a flat JSON object: the line is a JSON array; in JSON lines each line must be a JSON object, {"column": value, ...}`},
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
	var src io.Reader = bytes.NewReader([]byte(in))
	if cfg.chunk == 1 {
		// Of unknown size, read a byte at a time: the buffer grows.
		src = oneByteSeeker{bytes.NewReader([]byte(in))}
	}
	d, err := readInferred(src, "t.jsonl", opt, cfg)
	if err != nil {
		return err.Error()
	}
	s, _ := json.Marshal(d.Schema)
	return fmt.Sprintf("%s %v %v %v %v %v", s, d.X, d.Y, d.Weight, d.Source.Lines, d.Source.Warnings)
}

// oneByteSeeker reads a byte at a time and seeks, without telling its
// size.
type oneByteSeeker struct{ r *bytes.Reader }

func (o oneByteSeeker) Read(p []byte) (int, error) { return o.r.Read(p[:min(len(p), 1)]) }

func (o oneByteSeeker) Seek(off int64, whence int) (int64, error) { return o.r.Seek(off, whence) }

// TestJSONLinesReads reads each of jsonReads, in one block and in blocks
// of a line or so, from a buffer and a byte at a time.
func TestJSONLinesReads(t *testing.T) {
	for _, cfg := range []readConfig{defaultConfig, {chunk: 1, blocks: 1}, {chunk: 1, blocks: 5}} {
		for _, tc := range jsonReads {
			if got := readSummary(tc.in, cfg); got != tc.want {
				t.Errorf("config %+v, %q:\n got %s\nwant %s", cfg, tc.in, got, tc.want)
			}
		}
	}
}

// jsonLineCells reads line as the first line of a block, by the scanner
// (slow false) or by encoding/json's Decoder, and returns its cells as
// key, kind and text ("n" number, "s" string), or ok false when it is
// refused.
func jsonLineCells(line []byte, slow bool) (cells []string, ok bool) {
	k := &jsonBlock{b: line, line0: 1, src: "t", keys: map[string]int{}, serial: 1}
	if slow {
		ok = k.parseSlow(line, 1) == nil
	} else {
		var end int
		end, ok = k.scan(0)
		if ok && end != len(line) {
			panic(fmt.Sprintf("%q: the line ends at %d", line, end))
		}
	}
	if !ok {
		return nil, false
	}
	for _, c := range k.cells {
		var text []byte
		switch {
		case c.kind == jsonValue:
			text = strconv.AppendFloat(nil, math.Float64frombits(c.a), 'f', -1, 64)
		case c.kind&jsonArena != 0:
			text = k.arena[c.a>>32 : c.a&math.MaxUint32]
		default:
			text = line[c.a>>32 : c.a&math.MaxUint32]
		}
		kind := "s"
		if c.kind&^jsonArena != jsonString {
			kind = "n"
		}
		cells = append(cells, fmt.Sprintf("%q %s %q", k.names[c.f], kind, text))
	}
	return cells, true
}

// checkJSONLine fails unless the scanner and encoding/json's Decoder read
// line (up to its first newline) alike: the same cells, or both refuse
// it.
func checkJSONLine(t *testing.T, line []byte) {
	t.Helper()
	if e := bytes.IndexByte(line, '\n'); e >= 0 {
		line = line[:e+1] // the reader's lines end at a newline
	}
	fast, fok := jsonLineCells(line, false)
	slow, sok := jsonLineCells(line, true)
	if fok != sok || !slices.Equal(fast, slow) {
		t.Fatalf("%q: the scanner reads %v (%v), the Decoder %v (%v)", line, fast, fok, slow, sok)
	}
}

// jsonSeeds are lines that the differential tests start from.
func jsonSeeds() [][]byte {
	seeds := [][]byte{
		[]byte(`{"a":1,"b":"x","class":"p"}`),
		[]byte(`{"b":true,"a":"NA"}` + "\r\n"),
		[]byte(`{"a":1e400,"c":"one two three four","d":-0.000e-7,"e":123456789012345678901234567890}`),
		[]byte(`{"a":[1],"b":{}}`),
		[]byte(`{"a":1,"a":2}`),
		[]byte("\xef\xbb\xbf{\"x\":\"\\u00e9\",\"y\":-0}"),
		[]byte(`{"\u0061":"\ud83d\ude00\ud800x\/\b\f\n\r\t","b":"` + "\xff\xed\xa0\x80\xef\xbf\xbd" + `"}`),
		[]byte(" \t{ \"a\" : 1.5 , \"b\" : null , \"c\" : false } \r\n"),
	}
	for _, tc := range jsonReads {
		seeds = append(seeds, bytes.SplitAfter([]byte(tc.in), []byte("\n"))...)
	}
	return seeds
}

// TestJSONScanDifferential mutates the seed lines at random (bytes
// replaced, inserted and deleted, by JSON's special characters among
// others) and checks that the scanner and the Decoder read each alike.
func TestJSONScanDifferential(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const special = "{}[]:,\" \t\r\n\\/-+.eE0123456789truefalsenullu\x00\x1f\x7f\xc3\xa9\xff"
	for _, seed := range jsonSeeds() {
		checkJSONLine(t, seed)
		for range 2000 {
			line := slices.Clone(seed)
			for range 1 + rng.IntN(3) {
				c := special[rng.IntN(len(special))]
				if rng.IntN(4) == 0 {
					c = byte(rng.IntN(256))
				}
				p := rng.IntN(len(line) + 1)
				switch rng.IntN(3) {
				case 0:
					if p < len(line) {
						line[p] = c
					}
				case 1:
					line = slices.Insert(line, p, c)
				default:
					if p < len(line) {
						line = slices.Delete(line, p, p+1)
					}
				}
			}
			checkJSONLine(t, line)
		}
	}
}

// FuzzJSONScan: the scanner and encoding/json's Decoder read any line
// alike.
func FuzzJSONScan(f *testing.F) {
	for _, seed := range jsonSeeds() {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		checkJSONLine(t, line)
	})
}

// TestJSONLinesBatches reads more lines than a batch, in blocks of
// several sizes: the Dataset is that of the same cells as CSV (keys in
// any order, absent keys and nulls missing, a column that turns into
// strings in the second batch), with the lines of the rows; a key first
// met after the first batch is an error at its line.
func TestJSONLinesBatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	rows := jsonBatch + 5000
	var jl, csv bytes.Buffer
	csv.WriteString("a,b,c,d,class\n")
	var lines []int
	line := 0
	for i := range rows {
		cells := []string{
			strconv.Itoa(rng.IntN(100) - 50),
			strconv.FormatFloat(float64(rng.IntN(20000)-10000)/100, 'f', -1, 64),
			[]string{"u", "v", "w x"}[rng.IntN(3)],
			strconv.Itoa(rng.IntN(10)),
			[]string{"p", "q"}[rng.IntN(2)],
		}
		if i == rows-100 {
			cells[3] = "z"
		}
		keys := []string{"a", "b", "c", "d", "class"}
		var obj []string
		order := rng.Perm(5)
		if i == 0 {
			order = []int{0, 1, 2, 3, 4} // the columns' order
		}
		for _, j := range order {
			v := cells[j]
			switch {
			case i > 0 && j == 1 && rng.IntN(10) == 0:
				cells[j] = ""
				if rng.IntN(2) == 0 {
					obj = append(obj, `"b":null`)
				}
				continue
			case j == 2 || j == 4 || j == 3 && v == "z":
				v = strconv.Quote(v)
			}
			obj = append(obj, strconv.Quote(keys[j])+":"+v)
		}
		if i > 0 && rng.IntN(1000) == 0 {
			jl.WriteString(" \r\n")
			line++
		}
		jl.WriteString("{" + strings.Join(obj, ",") + "}\n")
		line++
		lines = append(lines, line)
		csv.WriteString(strings.Join(cells, ",") + "\n")
	}
	want, err := Read(bytes.NewReader(csv.Bytes()), "t.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want.Schema.Features[3].Kind != data.Categorical {
		t.Fatalf("column d is %v", want.Schema.Features[3].Kind)
	}
	for _, cfg := range []readConfig{defaultConfig, {chunk: 1 << 10, blocks: 1}, {chunk: 1 << 10, blocks: 7}} {
		var src io.Reader = bytes.NewReader(jl.Bytes())
		if cfg.blocks == 7 {
			src = struct{ io.Reader }{src} // of unknown size
		}
		got, err := readInferred(src, "t.jsonl", Options{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if diff := datasetDiff(want, got); diff != "" {
			t.Fatalf("config %+v: %s", cfg, diff)
		}
		if !slices.Equal(got.Source.Lines, lines) {
			t.Fatalf("config %+v: the lines differ", cfg)
		}
		bad := append(slices.Clone(jl.Bytes()), `{"a":1,"e":2}`+"\n"...)
		_, err = readInferred(bytes.NewReader(bad), "t.jsonl", Options{}, cfg)
		if want := fmt.Sprintf(`t.jsonl:%d: column "e": no such column: the key is not among those of the first 65536 lines, which make the columns`, line+1); err == nil || err.Error() != want || !errors.Is(err, data.ErrNoColumn) {
			t.Fatalf("config %+v: error %v, want %s", cfg, err, want)
		}
	}
}

// TestJSONLineBound: a line longer than Limits.MaxRecord (lowered here;
// a line can never pass the cells' 32-bit offsets) is an error naming its
// line, not wrong values.
func TestJSONLineBound(t *testing.T) {
	long := `{"a": 1, "b": "` + strings.Repeat("x", 2000) + `"}`
	in := "{\"a\": 1, \"b\": \"y\"}\n" + long + "\n"
	// Read whole, and (of unknown size) in a buffer that grows.
	for _, r := range []io.Reader{strings.NewReader(in), struct{ io.Reader }{strings.NewReader(in)}} {
		_, err := readInferred(r, "long.jsonl", Options{Limits: Limits{MaxRecord: 1 << 10}}, readConfig{chunk: 1 << 8})
		var pe *data.ParseError
		if !errors.As(err, &pe) || pe.Line != 2 || !errors.Is(err, ErrTooLong) || !strings.Contains(err.Error(), "long.jsonl:2: record too long: more than 1 KiB in one record") {
			t.Errorf("%T: err = %v, want line 2's length refused", r, err)
		}
	}
}
