package hmm

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/gendisc/gendisc/seq"
)

// oddWords are training sentences whose words need JSON's escapes: HTML
// characters, quotes, backslashes, control characters, invalid UTF-8 and
// the line separators json.Marshal escapes.
var oddWords = append([]seq.Sentence{
	{Tokens: []string{"<b>", "&amp;", `"quoted"`, `back\slash`}, Tags: []string{"X", "X", "NOUN", "NOUN"}},
	{Tokens: []string{"tab\there", "bell\x07", "bad\xffutf8", "sep\u2028ar", "été"}, Tags: []string{"X", "X", "X", "X", "ADJ"}},
}, toy...)

// TestModelJSONBytes checks that the hand-written encoding of the
// parameters is json.Marshal's, and that the hand-written reader reads
// it back as json.Unmarshal does, for every configuration.
func TestModelJSONBytes(t *testing.T) {
	for name, cfg := range configs {
		m, err := cfg.Fit(oddWords)
		if err != nil {
			t.Fatal(name, err)
		}
		_, j := encode(m.cfg, m.sp, &m.c)
		want, err := json.Marshal(j)
		if err != nil {
			t.Fatal(name, err)
		}
		got := j.appendJSON(nil)
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: appendJSON\n%s\njson.Marshal\n%s", name, got, want)
		}
		var mine, theirs modelJSON
		if err := mine.unmarshalJSON(got); err != nil {
			t.Fatal(name, err)
		}
		if err := json.Unmarshal(got, &theirs); err != nil {
			t.Fatal(name, err)
		}
		if !reflect.DeepEqual(mine, theirs) {
			t.Fatalf("%s: read back as\n%+v\njson.Unmarshal:\n%+v", name, mine, theirs)
		}
	}
}

// TestModelJSONRefused checks that the reader refuses what json.Unmarshal
// into modelJSON refuses, and the few things it documents refusing
// besides.
func TestModelJSONRefused(t *testing.T) {
	for _, params := range []string{
		``, `{`, `[]`, `null`, `{"order":2`, `{"order":2,}`, `{"order" 2}`,
		`{"order":2.5}`, `{"order":1e2}`, `{"order":"2"}`, `{"order":01}`, `{"order":-}`,
		`{"emit_word":[1,2,]}`, `{"emit_word":[1 2]}`, `{"emit_word":[3000000000]}`, `{"emit_word":[1],"x":1}`,
		`{"words":["a",1]}`, `{"words":["a\u00"]}`, "{\"words\":[\"a\x01\"]}", `{"words":["a"`,
		`{"state_cap":[true,1]}`, `{"trans_count":[1,"x"]}`, `{"trans_count":[[1]]}`, `{"no_end":nul}`,
		`{"unknown_field":1}`,
		// Refused here, taken by json.Unmarshal:
		`{"ORDER":2}`, `{"emit_word":[1,null]}`, `{"order":2} {}`, `{"trans_index":[1234567890123456789]}`,
	} {
		var j modelJSON
		if err := j.unmarshalJSON([]byte(params)); err == nil {
			t.Errorf("%q: read as %+v", params, j)
		}
	}
}

// FuzzModelJSON checks that whatever the hand-written reader takes,
// json.Unmarshal into modelJSON takes too and reads the same. Longer:
//
//	go test -run '^$' -fuzz FuzzModelJSON -fuzztime 60s ./hmm
func FuzzModelJSON(f *testing.F) {
	for _, cfg := range []Config{{}, nltkConfig(0.1)} {
		m, err := cfg.Fit(oddWords)
		if err != nil {
			f.Fatal(err)
		}
		b, _ := m.MarshalJSON()
		f.Add(b)
	}
	f.Add([]byte(`{"order": 2, "words": ["a", "b\n"], "emit_word": [0, 1], "emit_count": [1, 2.5], "state_cap": null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var mine, theirs modelJSON
		if mine.unmarshalJSON(b) != nil {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&theirs); err != nil {
			t.Fatalf("read, but json.Unmarshal refuses: %v", err)
		}
		if !reflect.DeepEqual(mine, theirs) {
			t.Fatalf("read as\n%+v\njson.Unmarshal:\n%+v", mine, theirs)
		}
	})
}
