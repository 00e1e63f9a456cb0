package modelfile

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestIndent(t *testing.T) {
	src := `{"a":[1,2,"x,y\"]"],"b":{},"c":[],"d":[{"e":null,"f":[true,false]},[3]],"g":"{[:,]}","h":[[]]}`
	want := `{
  "a": [1, 2, "x,y\"]"],
  "b": {},
  "c": [],
  "d": [
    {
      "e": null,
      "f": [true, false]
    },
    [3]
  ],
  "g": "{[:,]}",
  "h": [
    []
  ]
}`
	if got := indent(nil, []byte(src)); string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for _, s := range []string{`1`, `"a"`, `[]`, `{}`, `null`} {
		if got := indent(nil, []byte(s)); string(got) != s {
			t.Errorf("indent(%s) = %s", s, got)
		}
	}
}

// FuzzIndent checks that indent keeps every value: compacting its output
// gives back its input.
func FuzzIndent(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":"\\\"["}],"c":{"d":[]}}`, `[[1,[2]],"]"]`, `"\u005d"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var src bytes.Buffer
		if json.Compact(&src, b) != nil {
			return
		}
		out := indent(nil, src.Bytes())
		var back bytes.Buffer
		if err := json.Compact(&back, out); err != nil || !bytes.Equal(back.Bytes(), src.Bytes()) {
			t.Fatalf("indent(%s) = %s, compacted %s, %v", src.Bytes(), out, back.Bytes(), err)
		}
	})
}
