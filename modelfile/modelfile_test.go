package modelfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// gaussParams stands for a model package's parameters.
type gaussParams struct {
	Prior     Floats `json:"prior"`
	Mean      Floats `json:"mean"`
	Var       Floats `json:"var"`
	Smoothing Float  `json:"smoothing"`
	Vocab     []string
}

// fakeModel is a Persistent model whose parameters are a gaussParams, or
// an error from MarshalJSON.
type fakeModel struct {
	kind   string
	schema *data.Schema
	params gaussParams
	err    error
}

func (m *fakeModel) Kind() string         { return m.kind }
func (m *fakeModel) Schema() *data.Schema { return m.schema }
func (m *fakeModel) MarshalJSON() ([]byte, error) {
	if m.err != nil {
		return nil, m.err
	}
	return json.Marshal(m.params)
}

// rawModel is a Persistent model made from an envelope, its parameters
// kept as read.
type rawModel struct{ env *Envelope }

func (m rawModel) Kind() string                 { return m.env.Kind }
func (m rawModel) Schema() *data.Schema         { return m.env.Schema }
func (m rawModel) MarshalJSON() ([]byte, error) { return m.env.Params, nil }

func testModel() *fakeModel {
	return &fakeModel{
		kind: "gaussian-nb",
		schema: &data.Schema{
			Features: []data.Column{
				{Name: "petal_length", Kind: data.Numeric},
				{Name: "age", Kind: data.Numeric, Integral: true},
				{Name: "colour", Kind: data.Categorical, Levels: []string{"blue", "red & green"}},
				{Name: "note", Kind: data.Text},
			},
			Target: &data.Column{Name: "income", Kind: data.Categorical, Levels: []string{"<=50K", ">50K"}},
		},
		params: gaussParams{
			Prior:     Floats{0.75, 0.25},
			Mean:      Floats{1.462, 4.26, math.Copysign(0, -1), 5e-324},
			Var:       Floats{math.NaN(), math.Inf(1), math.Inf(-1), 1e-7},
			Smoothing: 1e-9,
			Vocab:     []string{"<b>", "a,b", "x\ny", `\u003c`},
		},
	}
}

func write(t testing.TB, m Persistent) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestWriteGolden checks the layout of a model file against
// testdata/model.json; go test -update rewrites it.
func TestWriteGolden(t *testing.T) {
	got := write(t, testModel())
	golden := filepath.Join("testdata", "model.json")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Write output differs from %s:\n%s", golden, got)
	}
	for _, s := range []string{"\"<=50K\"", "\"red & green\"", "\n  \"format\": \"gendisc-model\",\n", "\"mean\": [1.462, 4.26, -0, 5e-324]", `"Vocab": ["<b>", "a,b", "x\ny", "\\u003c"]`} {
		if !bytes.Contains(got, []byte(s)) {
			t.Errorf("output lacks %q", s)
		}
	}
	if !bytes.HasSuffix(got, []byte("}\n")) {
		t.Error("output does not end in a newline")
	}
}

func TestRoundTrip(t *testing.T) {
	m := testModel()
	b := write(t, m)
	env, err := Read(bytes.NewReader(b), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	if env.Format != Format || env.Version != Version || env.Kind != m.kind || env.Source != "m.json" ||
		!strings.HasPrefix(env.Checksum, "sha256:") || len(env.Checksum) != 7+64 {
		t.Errorf("envelope %+v", env)
	}
	if !env.Schema.Equal(m.schema) {
		t.Errorf("schema %+v, want %+v", env.Schema, m.schema)
	}
	var p gaussParams
	if err := json.Unmarshal(env.Params, &p); err != nil {
		t.Fatal(err)
	}
	for i, pair := range [][2]Floats{{p.Prior, m.params.Prior}, {p.Mean, m.params.Mean}, {p.Var, m.params.Var}} {
		for j := range pair[1] {
			if !sameFloat(pair[0][j], pair[1][j]) {
				t.Errorf("vector %d element %d: read %v, wrote %v", i, j, pair[0][j], pair[1][j])
			}
		}
	}
	if p.Smoothing != m.params.Smoothing || !reflect.DeepEqual(p.Vocab, m.params.Vocab) {
		t.Errorf("params %+v", p)
	}
	if again := write(t, &fakeModel{kind: env.Kind, schema: env.Schema, params: p}); !bytes.Equal(again, b) {
		t.Errorf("second Write differs:\n%s\nfirst:\n%s", again, b)
	}
	if again := write(t, rawModel{env}); !bytes.Equal(again, b) {
		t.Errorf("Write of the read envelope differs:\n%s", again)
	}
}

// TestReformatted checks that a file whose white space was changed still
// loads, with the same envelope.
func TestReformatted(t *testing.T) {
	b := write(t, testModel())
	want, err := Read(bytes.NewReader(b), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	var compact, tabs bytes.Buffer
	json.Compact(&compact, b)
	json.Indent(&tabs, compact.Bytes(), "\t", "\t")
	for name, text := range map[string][]byte{
		"compact": compact.Bytes(),
		"tabs":    tabs.Bytes(),
		"crlf":    bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")),
		"spaces":  bytes.ReplaceAll(b, []byte(": "), []byte(" :  ")),
	} {
		got, err := Read(bytes.NewReader(text), "m.json")
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: envelope %+v, want %+v", name, got, want)
		}
	}
}

// reseal returns the model file text with its checksum recomputed, as a
// writer with a bug would produce it.
func reseal(t *testing.T, text string) string {
	b, ok := resealed([]byte(text))
	if !ok {
		t.Fatalf("cannot reseal %s", text)
	}
	return string(b)
}

// resealed returns the JSON object b with a "checksum" that matches it, and
// false if b is not a JSON object.
func resealed(b []byte) ([]byte, bool) {
	var r rawEnvelope
	if json.Unmarshal(b, &r) != nil {
		return nil, false
	}
	r.Checksum, _ = marshal(r.checksum())
	b, err := marshal(r)
	return b, err == nil
}

func TestRefusals(t *testing.T) {
	valid := string(write(t, testModel()))
	edit := func(old, new string) string {
		if !strings.Contains(valid, old) {
			t.Fatalf("model file lacks %q", old)
		}
		return strings.Replace(valid, old, new, 1)
	}
	// cut ends after `"mean": [1.462,` at cutLine, cutCol.
	cut := valid[:strings.Index(valid, "1.462,")+6]
	cutLine, cutCol := strings.Count(cut, "\n")+1, len(cut)-strings.LastIndex(cut, "\n")-1
	for _, tc := range []struct {
		name, text string
		err        error
		msg        string
	}{
		{"empty", "", ErrEmpty, "empty file"},
		{"blank", " \n\t\n", ErrEmpty, "empty file"},
		{"truncated", cut, ErrTruncated, fmt.Sprintf("truncated or not a gendisc model file (line %d, column %d: unexpected end of JSON input)", cutLine, cutCol)},
		{"truncated end", valid[:len(valid)-3], ErrTruncated, "truncated or not a gendisc model file"},
		{"not JSON", "sepal_length,class\n1,a\n", ErrTruncated, "truncated or not a gendisc model file (line 1, column 1: invalid character 's'"},
		{"trailing", valid + "x", ErrTruncated, "truncated or not a gendisc model file"},
		{"array", "[1, 2]", ErrForeign, "not a gendisc model file (the JSON is not an object)"},
		{"null", "null", ErrForeign, `not a gendisc model file (no "format" field)`},
		{"other JSON", `{"name": "x", "version": 1}`, ErrForeign, `no "format" field`},
		{"other format", edit(`"gendisc-model"`, `"sklearn"`), ErrForeign, `(format "sklearn", want "gendisc-model")`},
		{"format number", edit(`"gendisc-model"`, `3`), ErrForeign, `(format 3, want "gendisc-model")`},
		{"newer", edit(`"version": 1`, `"version": 2`), ErrNewer,
			"model file version 2 is newer than this build of gendisc reads (up to version 1); upgrade gendisc to read it"},
		{"version 0", edit(`"version": 1`, `"version": 0`), ErrMalformed, "invalid model file version 0"},
		{"version text", edit(`"version": 1`, `"version": "1"`), ErrMalformed, `invalid model file version "1"`},
		{"version fraction", edit(`"version": 1`, `"version": 1.5`), ErrMalformed, "invalid model file version 1.5"},
		{"no version", edit(`"version": 1,`, ``), ErrMalformed, `without a "version"`},
		{"no kind", edit(`"kind": "gaussian-nb",`, ``), ErrMalformed, `without a "kind"`},
		{"null schema", reseal(t, edit(`"schema": {`, `"schema": null, "x": {`)), ErrMalformed, `without a "schema"`},
		{"no params", edit(`"params"`, `"parameters"`), ErrMalformed, `without a "params"`},
		{"no checksum", edit(`"checksum"`, `"sum"`), ErrMalformed, `without a "checksum"`},
		{"empty kind", edit(`"kind": "gaussian-nb"`, `"kind": ""`), ErrMalformed, `model kind "" is not a name`},
		{"kind object", edit(`"kind": "gaussian-nb"`, `"kind": {"a": [1, 2]}`), ErrMalformed, `model kind {"a":[1,2]} is not a name`},
		{"checksum number", edit(`"checksum": "`, `"checksum": 1, "x": "`), ErrMalformed, "checksum 1 is not a string"},
		{"edited param", edit("1.462", "1.463"), ErrEdited, "checksum mismatch: the file was edited or damaged after it was written"},
		{"edited -0", edit("-0,", "0,"), ErrEdited, "checksum mismatch"},
		{"edited schema", edit(`"petal_length"`, `"petal length"`), ErrEdited, "checksum mismatch"},
		{"edited kind", edit(`"gaussian-nb"`, `"qda"`), ErrEdited, "checksum mismatch"},
		{"edited key order", edit(`"name": "age",
        "kind": "numeric"`, `"kind": "numeric",
        "name": "age"`), ErrEdited, "checksum mismatch"},
		{"edited checksum", edit(`"sha256:`, `"sha256:0`), ErrEdited, "checksum mismatch"},
		{"bad schema", reseal(t, edit(`"kind": "text"`, `"kind": "txt"`)), ErrMalformed, `invalid schema: unknown column kind "txt"`},
		{"feature twice", reseal(t, edit(`"name": "age"`, `"name": "petal_length"`)), ErrMalformed,
			`invalid schema: feature "petal_length" is named twice in the model's schema`},
		{"target a feature", reseal(t, edit(`"name": "income"`, `"name": "age"`)), ErrMalformed,
			`invalid schema: target "age" is named twice in the model's schema`},
		{"class twice", reseal(t, edit(`"levels": ["<=50K", ">50K"]`, `"levels": ["<=50K", "<=50K"]`)), ErrMalformed,
			`invalid schema: target "income" has the level "<=50K" twice`},
		{"level twice", reseal(t, edit(`"levels": ["blue", "red & green"]`, `"levels": ["blue", "blue"]`)), ErrMalformed,
			`invalid schema: feature "colour" has the level "blue" twice`},
		{"BOM then garbage", "\uFEFFx", ErrTruncated, "truncated or not a gendisc model file (line 1, column 1: invalid character 'x'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, err := Read(strings.NewReader(tc.text), "dir/m.json")
			if err == nil {
				t.Fatalf("read %+v, want an error", env)
			}
			if !errors.Is(err, tc.err) {
				t.Errorf("error %q does not match %v", err, tc.err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "dir/m.json: ") || !strings.Contains(msg, tc.msg) || strings.Contains(msg, "\n") {
				t.Errorf("error %q, want one line naming the file and containing %q", msg, tc.msg)
			}
		})
	}
}

// TestByteOrderMark checks that a model file that an editor saved with a
// UTF-8 byte order mark reads as the file without it: the mark is not
// JSON, and the checksum covers the values of the fields, not the bytes.
func TestByteOrderMark(t *testing.T) {
	valid := write(t, testModel())
	want, err := Read(bytes.NewReader(valid), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Read(bytes.NewReader(append([]byte("\uFEFF"), valid...)), "m.json")
	if err != nil {
		t.Fatalf("with a byte order mark: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("with a byte order mark read %+v, want %+v", got, want)
	}
}

// TestEncode checks that Encode of a model's kind, schema and parameters
// gives the file that Write writes, and that an edited file made by
// Encode passes the checksum with the edit.
func TestEncode(t *testing.T) {
	m := testModel()
	params, _ := m.MarshalJSON()
	got, err := Encode(m.Kind(), m.Schema(), params)
	if err != nil {
		t.Fatal(err)
	}
	if want := write(t, m); !bytes.Equal(got, want) {
		t.Errorf("Encode wrote\n%s\nwant, as Write,\n%s", got, want)
	}
	edited := bytes.Replace(unescapeHTML(params), []byte("1.462"), []byte("1e308"), 1)
	b, err := Encode(m.Kind(), m.Schema(), edited)
	if err != nil {
		t.Fatal(err)
	}
	env, err := Read(bytes.NewReader(b), "m.json")
	if err != nil {
		t.Fatalf("reading the edited file: %v", err)
	}
	if !bytes.Equal(env.Params, edited) {
		t.Errorf("params %s, want %s", env.Params, edited)
	}
	if _, err := Encode("", m.Schema(), params); err == nil {
		t.Error("Encode without a kind: no error")
	}
}

func TestWriteErrors(t *testing.T) {
	broken := errors.New("broken model")
	for _, tc := range []struct {
		name string
		m    Persistent
		msg  string
	}{
		{"marshal", &fakeModel{kind: "x", schema: &data.Schema{}, err: broken}, "encoding the parameters of the x model: broken model"},
		{"no kind", &fakeModel{schema: &data.Schema{}}, "has no kind or no schema"},
		{"no schema", &fakeModel{kind: "x"}, "has no kind or no schema"},
		{"invalid JSON", rawModel{&Envelope{Kind: "x", Schema: &data.Schema{}, Params: []byte("{")}}, "the parameters of the x model are not valid JSON"},
		{"bad schema", &fakeModel{kind: "x", schema: &data.Schema{Features: []data.Column{{Kind: 7}}}}, "encoding the schema of the x model"},
	} {
		var buf bytes.Buffer
		err := Write(&buf, tc.m)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.msg)
		}
		if buf.Len() > 0 {
			t.Errorf("%s: wrote %q despite the error", tc.name, buf.Bytes())
		}
	}
}

func TestExpect(t *testing.T) {
	env := &Envelope{Kind: "qda", Source: "m.json"}
	if err := env.Expect("lda", "qda"); err != nil {
		t.Error(err)
	}
	err := env.Expect("lda", "gaussian-nb")
	if !errors.Is(err, ErrKind) || err.Error() != `m.json: model is of kind "qda", expected "lda" or "gaussian-nb"` {
		t.Errorf("error %q", err)
	}
	env.Source = ""
	if err := env.Expect("lda"); err == nil || err.Error() != `model is of kind "qda", expected "lda"` {
		t.Errorf("error %q", err)
	}
	defer func() {
		if r := recover(); r == nil || !strings.HasPrefix(r.(string), "modelfile: ") {
			t.Errorf("Expect() recovered %v, want a modelfile panic", r)
		}
	}()
	env.Expect()
}

// dirEntries returns the names of the files in dir.
func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestSave(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	m := testModel()
	if err := Save(path, m); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if want := write(t, m); !bytes.Equal(got, want) {
		t.Errorf("saved file differs from Write output")
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("new file mode %v, want 0644", fi.Mode())
	}
	env, err := Load(path)
	if err != nil || env.Source != path {
		t.Fatalf("Load: %+v, %v", env, err)
	}

	// Replacing a file keeps its permissions.
	os.Chmod(path, 0o600)
	m.kind = "other"
	if err := Save(path, m); err != nil {
		t.Fatal(err)
	}
	if env, err := Load(path); err != nil || env.Kind != "other" {
		t.Errorf("Load after replacing: %+v, %v", env, err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("replaced file mode %v, want 0600", fi.Mode())
	}
	if names := dirEntries(t, dir); !reflect.DeepEqual(names, []string{"m.json"}) {
		t.Errorf("directory holds %v", names)
	}
	if _, err := Load(filepath.Join(dir, "missing.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load of a missing file: %v", err)
	}
}

// TestSaveFailure checks that a failed Save leaves no file behind and an
// existing file untouched.
func TestSaveFailure(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "old.json")
	os.WriteFile(existing, []byte("old"), 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	broken := &fakeModel{kind: "x", schema: &data.Schema{}, err: errors.New("broken")}
	for _, tc := range []struct {
		name, path string
		m          Persistent
	}{
		{"marshal error, new file", filepath.Join(dir, "new.json"), broken},
		{"marshal error, existing file", existing, broken},
		{"missing directory", filepath.Join(dir, "nowhere", "m.json"), testModel()},
		{"path is a directory", filepath.Join(dir, "sub"), testModel()},
	} {
		if err := Save(tc.path, tc.m); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
		if names := dirEntries(t, dir); !reflect.DeepEqual(names, []string{"old.json", "sub"}) {
			t.Errorf("%s: directory holds %v", tc.name, names)
		}
		if names := dirEntries(t, filepath.Join(dir, "sub")); len(names) > 0 {
			t.Errorf("%s: sub holds %v", tc.name, names)
		}
		if b, _ := os.ReadFile(existing); string(b) != "old" {
			t.Errorf("%s: existing file now holds %q", tc.name, b)
		}
	}
	if os.Geteuid() == 0 {
		return // root may write into a read-only directory
	}
	ro := filepath.Join(dir, "sub")
	os.Chmod(ro, 0o555)
	defer os.Chmod(ro, 0o755)
	if err := Save(filepath.Join(ro, "m.json"), testModel()); err == nil {
		t.Error("Save into a read-only directory: no error")
	}
	if names := dirEntries(t, ro); len(names) > 0 {
		t.Errorf("read-only directory holds %v", names)
	}
}

// TestStdio checks that "-" means standard output for Save and standard
// input for Load.
func TestStdio(t *testing.T) {
	dir := t.TempDir()
	out, err := os.Create(filepath.Join(dir, "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = out
	err = Save("-", testModel())
	os.Stdout = stdout
	out.Close()
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(out.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	stdin := os.Stdin
	os.Stdin = in
	env, err := Load("-")
	os.Stdin = stdin
	if err != nil || env.Kind != "gaussian-nb" || env.Source != "<stdin>" {
		t.Errorf("Load(-): %+v, %v", env, err)
	}
}

// FuzzRead checks that Read never panics, refuses with one line naming
// the file, and that a file it accepts is written back byte for byte as
// Write first wrote it. Each input is read as it is and, since a random
// edit almost never keeps the checksum right, with its checksum resealed.
func FuzzRead(f *testing.F) {
	valid := write(f, testModel())
	f.Add(valid)
	f.Add(valid[:len(valid)/3])
	f.Add(bytes.Replace(valid, []byte(`"version": 1`), []byte(`"version": 2`), 1))
	f.Add([]byte(`{"format":"gendisc-model","version":1}`))
	f.Add([]byte(`{"format":"gendisc-model","version":1,"kind":"k","schema":{"features":[]},"params":{},"checksum":"sha256:00"}`))
	f.Add([]byte(`[]`))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		readWriteRead(t, b)
		if sealed, ok := resealed(b); ok {
			readWriteRead(t, sealed)
		}
	})
}

func readWriteRead(t *testing.T, b []byte) {
	env, err := Read(bytes.NewReader(b), "fuzz.json")
	if err != nil {
		if msg := err.Error(); !strings.HasPrefix(msg, "fuzz.json: ") || strings.Contains(msg, "\n") {
			t.Fatalf("error %q is not one line naming the file", msg)
		}
		return
	}
	first := write(t, rawModel{env})
	env2, err := Read(bytes.NewReader(first), "fuzz.json")
	if err != nil {
		t.Fatalf("reading back %s: %v", first, err)
	}
	if second := write(t, rawModel{env2}); !bytes.Equal(first, second) {
		t.Fatalf("Write→Read→Write changed the file:\n%s\n%s", first, second)
	}
}

// compactModel is a fakeModel that declares its JSON compact.
type compactModel struct{ *fakeModel }

func (m compactModel) MarshalCompactJSON() ([]byte, error) { return m.MarshalJSON() }

// TestCompactMarshaler checks that a model that declares its parameters'
// JSON compact gets the file of one that does not, byte for byte: the
// HTML escapes of json.Marshal undone, the checksum the same.
func TestCompactMarshaler(t *testing.T) {
	m := testModel()
	want := write(t, m)
	got := write(t, compactModel{m})
	if !bytes.Equal(got, want) {
		t.Errorf("a CompactMarshaler wrote\n%s\nwant\n%s", got, want)
	}
	if _, err := Read(bytes.NewReader(got), "m.json"); err != nil {
		t.Error(err)
	}
}
