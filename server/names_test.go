package server

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"testing"
)

// TestAnswersValidForAnyName: a model whose name (its file's) holds DEL
// or bytes that are not UTF-8 is answered with valid JSON, where the Go
// quoting of strconv.AppendQuote gave \x7f and \xff escapes.
func TestAnswersValidForAnyName(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "iris.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, name := range []string{"a\x7fb", "c\xffd"} {
		if err := os.WriteFile(filepath.Join(dir, name+".json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := newServer(t, Options{Dirs: []string{dir}})
	for _, name := range s.Models() {
		name := url.PathEscape(name)
		body := []byte(`{"instances":[[5.1,3.5,1.4,0.2]]}`)
		for _, path := range []string{"/v1/models/" + name + "/predict", "/v1/models/" + name + "/score"} {
			code, out := do(t, s, "POST", path, "application/json", body)
			if code != 200 || !json.Valid(out) {
				t.Errorf("%q: %d, valid JSON %v: %q", path, code, json.Valid(out), out)
			}
		}
		code, out := do(t, s, "POST", "/v2/models/"+name+"/infer", "application/json",
			[]byte(`{"inputs":[{"name":"x","shape":[1,4],"datatype":"FP64","data":[5.1,3.5,1.4,0.2]}]}`))
		if code != 200 || !json.Valid(out) {
			t.Errorf("infer of %q: %d, valid JSON %v: %q", name, code, json.Valid(out), out)
		}
	}
	if code, out := do(t, s, "GET", "/v1/models", "", nil); code != 200 || !json.Valid(out) {
		t.Errorf("models: %d %q", code, out)
	}
}
