package registry_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/registry"
)

// constModel is a model of the test kinds: its parameters are one number.
type constModel struct {
	kind   string
	schema *data.Schema
	Value  float64 `json:"value"`
}

func (m *constModel) Kind() string         { return m.kind }
func (m *constModel) Schema() *data.Schema { return m.schema }
func (m *constModel) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]float64{"value": m.Value})
}

// mergeableModel is a constModel that claims to keep its statistics.
type mergeableModel struct{ constModel }

func (m *mergeableModel) Accumulator() gendisc.Accumulator { return nil }

// decodeAs returns the decoder of constModels of kind.
func decodeAs(kind string) func(*data.Schema, []byte) (*constModel, error) {
	return func(s *data.Schema, params []byte) (*constModel, error) {
		m := &constModel{kind: kind, schema: s}
		if err := json.Unmarshal(params, m); err != nil {
			return nil, fmt.Errorf("registry-test: %w", err)
		}
		return m, nil
	}
}

func init() {
	registry.Register(registry.Kind{Name: "registry-test-b"}, decodeAs("registry-test-b"))
	registry.Register(registry.Kind{Name: "registry-test-a"}, decodeAs("registry-test-a"))
	registry.Register(registry.Kind{Name: "registry-test-liar"}, decodeAs("registry-test-a")) // decodes models of another kind
	registry.Register(registry.Kind{Name: "registry-test-panic"}, func(s *data.Schema, params []byte) (*constModel, error) {
		var v []float64
		return nil, fmt.Errorf("never: %v", v[len(params)]) // an index out of range
	})
	registry.Register(registry.Kind{Name: "registry-test-mergeable"}, func(s *data.Schema, params []byte) (*mergeableModel, error) {
		return &mergeableModel{constModel{kind: "registry-test-mergeable", schema: s}}, nil
	})
}

var schema = &data.Schema{Features: []data.Column{{Name: "x", Kind: data.Numeric}}}

// save writes the model file of m to a temporary directory.
func save(t *testing.T, m modelfile.Persistent) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), m.Kind()+".json")
	if err := modelfile.Save(path, m); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadReadDecode(t *testing.T) {
	path := save(t, &constModel{kind: "registry-test-a", schema: schema, Value: 2.5})
	check := func(how string, m gendisc.Model, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", how, err)
		}
		c, ok := m.(*constModel)
		if !ok || c.kind != "registry-test-a" || c.Value != 2.5 || !c.schema.Equal(schema) {
			t.Errorf("%s = %#v, want the saved model", how, m)
		}
	}
	m, err := registry.Load(path)
	check("Load", m, err)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err = registry.Read(bytes.NewReader(b), "a.json")
	check("Read", m, err)
	e, err := modelfile.Read(bytes.NewReader(b), "a.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err = registry.Decode(e)
	check("Decode", m, err)
}

func TestKinds(t *testing.T) {
	var ours []string
	for _, name := range registry.Kinds() {
		if strings.HasPrefix(name, "registry-test-") {
			ours = append(ours, name)
		}
	}
	want := []string{"registry-test-a", "registry-test-b", "registry-test-format", "registry-test-liar", "registry-test-mergeable", "registry-test-panic"}
	if !slices.Equal(ours, want) {
		t.Errorf("Kinds() has %q, want %q", ours, want)
	}
	k, err := registry.Lookup("registry-test-b")
	if err != nil || k.Name != "registry-test-b" || k.Type != reflect.TypeFor[*constModel]() {
		t.Errorf("Lookup = %+v, %v", k, err)
	}
	if k.Mergeable() {
		t.Errorf("kind %s is mergeable", k.Name)
	}
	if k, _ := registry.Lookup("registry-test-mergeable"); !k.Mergeable() {
		t.Errorf("kind %s is not mergeable", k.Name)
	}
}

func TestUnknownKind(t *testing.T) {
	path := save(t, &constModel{kind: "registry-test-unknown", schema: schema})
	_, err := registry.Load(path)
	var uk *registry.UnknownKindError
	if !errors.As(err, &uk) {
		t.Fatalf("Load of an unknown kind: %v, want an *UnknownKindError", err)
	}
	if uk.Kind != "registry-test-unknown" || uk.Source != path || !slices.Equal(uk.Known, registry.Kinds()) {
		t.Errorf("error %+v", uk)
	}
	want := path + `: unknown model kind "registry-test-unknown" (known kinds: ` + strings.Join(registry.Kinds(), ", ") + ")"
	if err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if _, err := registry.Lookup("nope"); !errors.As(err, &uk) || uk.Source != "" || !strings.HasPrefix(err.Error(), `unknown model kind "nope" (known kinds: `) {
		t.Errorf("Lookup(nope): %v", err)
	}
}

func TestDecodeErrors(t *testing.T) {
	e := &modelfile.Envelope{Kind: "registry-test-a", Schema: schema, Params: []byte(`{"value": "x"}`), Source: "a.json"}
	if _, err := registry.Decode(e); err == nil || !strings.HasPrefix(err.Error(), "a.json: registry-test: ") {
		t.Errorf("Decode of bad parameters: %v", err)
	}
	e = &modelfile.Envelope{Kind: "registry-test-liar", Schema: schema, Params: []byte(`{}`), Source: "l.json"}
	want := "l.json: the parameters of the model file are those of a registry-test-a model, not of its kind registry-test-liar"
	if _, err := registry.Decode(e); err == nil || err.Error() != want {
		t.Errorf("Decode of a model of another kind: %v, want %s", err, want)
	}
}

func TestRegisterPanics(t *testing.T) {
	for _, c := range []struct {
		name     string
		register func()
		want     string
	}{
		{"twice", func() { registry.Register(registry.Kind{Name: "registry-test-a"}, decodeAs("registry-test-a")) }, "registry: model kind registry-test-a registered twice"},
		{"no name", func() { registry.Register(registry.Kind{Name: ""}, decodeAs("")) }, "registry: Register of a kind without a name or a decoder"},
		{"no decoder", func() { registry.Register[*constModel](registry.Kind{Name: "registry-test-nil"}, nil) }, "registry: Register of a kind without a name or a decoder"},
	} {
		func() {
			defer func() {
				if r := recover(); r != c.want {
					t.Errorf("%s: panic %v, want %q", c.name, r, c.want)
				}
			}()
			c.register()
		}()
	}
}

// TestDecodePanic checks that a decoder's panic is recovered into a
// *PanicError naming the file and the kind, so that a model file cannot
// take down the program that loads it.
func TestDecodePanic(t *testing.T) {
	path := save(t, &constModel{kind: "registry-test-panic", schema: schema, Value: 1})
	m, err := registry.Load(path)
	if m != nil {
		t.Errorf("Load = %v, want no model", m)
	}
	var pe *registry.PanicError
	if !errors.As(err, &pe) {
		t.Fatalf("Load: error %v, want a *registry.PanicError", err)
	}
	if pe.Kind != "registry-test-panic" || !bytes.Contains(pe.Stack, []byte("registry_test")) {
		t.Errorf("PanicError{Kind: %q, Stack: %s}, want the kind and the stack of the decoder", pe.Kind, pe.Stack)
	}
	want := path + ": the decoder of registry-test-panic model files failed: runtime error: index out of range"
	if msg := err.Error(); !strings.HasPrefix(msg, want) || strings.Contains(msg, "\n") {
		t.Errorf("error %q, want one line beginning %q", msg, want)
	}
}

// formatKind is the kind of the files of a format of another tool,
// "RTF1 " then the model's value.
const formatKind = "registry-test-format"

func init() {
	registry.Register(registry.Kind{Name: formatKind}, func(s *data.Schema, params []byte) (*constModel, error) {
		v, err := strconv.ParseFloat(strings.TrimPrefix(string(params), "RTF1 "), 64)
		return &constModel{kind: formatKind, schema: schema, Value: v}, err
	})
	registry.RegisterFormat(formatKind, func(head []byte) bool { return bytes.HasPrefix(head, []byte("RTF1 ")) })
}

// TestSetDecompressor checks that a file of a registered format is
// recognised inside a compression only once SetDecompressor has set a
// decompressor (the registry reads none itself), and that its checksum is
// that of the file's bytes as they are.
func TestSetDecompressor(t *testing.T) {
	// "ZZ" then the bytes: a compression that only this test knows.
	unzz := func(b []byte, source string) ([]byte, string, error) {
		if rest, ok := bytes.CutPrefix(b, []byte("ZZ")); ok {
			return rest, "zz", nil
		}
		return b, "", nil
	}
	t.Cleanup(func() { registry.SetDecompressor(nil) })
	const packed = "ZZRTF1 2.5"
	if _, _, err := registry.ReadFile(strings.NewReader(packed), "m.zz"); err == nil {
		t.Error("a compressed file read without a decompressor")
	}
	registry.SetDecompressor(unzz)
	for _, in := range []string{"RTF1 2.5", packed} {
		e, m, err := registry.ReadFile(strings.NewReader(in), "m")
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		sum := sha256.Sum256([]byte(in))
		if m.(*constModel).Value != 2.5 || e.Kind != formatKind || e.Checksum != "sha256:"+hex.EncodeToString(sum[:]) {
			t.Errorf("%q: value %v, envelope %+v", in, m.(*constModel).Value, e)
		}
	}
}

// constAcc is an accumulator of the test kind registry-test-onepass: it
// counts the rows added.
type constAcc struct{ rows float64 }

func (a *constAcc) Add(d *data.Dataset) error         { a.rows += float64(d.N); return nil }
func (a *constAcc) Merge(o gendisc.Accumulator) error { a.rows += o.(*constAcc).rows; return nil }
func (a *constAcc) MarshalBinary() ([]byte, error)    { return json.Marshal(a.rows) }
func (a *constAcc) UnmarshalBinary(b []byte) error    { return json.Unmarshal(b, &a.rows) }
func (a *constAcc) Model() (gendisc.Model, error) {
	return &constModel{kind: "registry-test-onepass", Value: a.rows}, nil
}
func fitConst(d *data.Dataset) (*constModel, error) {
	return &constModel{kind: "x", schema: d.Schema, Value: float64(d.N)}, nil
}
func failConst(*data.Dataset) (*constModel, error) { return nil, errors.New("no fit") }
func newConstAcc() (*constAcc, error)              { return &constAcc{}, nil }
func failConstAcc() (*constAcc, error)             { return nil, errors.New("no accumulator") }
func constFlags(fs *flag.FlagSet) func() (registry.Config, error) {
	scale := fs.Float64("scale", 1, "`s`")
	return func() (registry.Config, error) {
		if *scale <= 0 {
			return nil, errors.New("scale must be positive")
		}
		return registry.OnePass(fitConst, newConstAcc), nil
	}
}

// TestKindDeclaration checks what package registry derives from a kind's
// declaration: its type, whether it is fitted and in one pass, the
// defaults of Input and Target, and the configuration of its flags'
// defaults; and that Unregister forgets it.
func TestKindDeclaration(t *testing.T) {
	registry.Register(registry.Kind{Name: "registry-test-onepass", Short: "test", Flags: constFlags}, func(s *data.Schema, params []byte) (*constModel, error) {
		return &constModel{kind: "registry-test-onepass", schema: s}, nil
	})
	k, err := registry.Lookup("registry-test-onepass")
	if err != nil {
		t.Fatal(err)
	}
	if k.Type != reflect.TypeFor[*constModel]() || !k.Fitted() || !k.OnePass() || k.Input != registry.Table || k.Target != registry.Classes {
		t.Errorf("kind %+v: want type *constModel, fitted in one pass, a table, classes", k)
	}
	c, err := k.DefaultConfig()
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.Fit(&data.Dataset{N: 3, Schema: schema})
	if err != nil || m.(*constModel).Value != 3 {
		t.Errorf("Fit: %v, %v", m, err)
	}
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	cfg := k.Flags(fs)
	if err := fs.Parse([]string{"-scale", "0"}); err != nil {
		t.Fatal(err)
	}
	if c, err := cfg(); c != nil || err == nil {
		t.Errorf("a scale of 0: %v, %v; want an error", c, err)
	}
	if a, _ := registry.Lookup("registry-test-a"); a.Fitted() || a.OnePass() {
		t.Errorf("a kind without flags is fitted")
	}
	registry.Unregister("registry-test-onepass")
	if _, err := registry.Lookup("registry-test-onepass"); err == nil {
		t.Error("Unregister: the kind is still known")
	}
}

// TestConfigErrorsAreNil checks that a Config's Fit and NewAccumulator
// return nil interfaces with their errors, not typed nil pointers.
func TestConfigErrorsAreNil(t *testing.T) {
	d := &data.Dataset{Schema: schema}
	if m, err := registry.FitConfig(failConst).Fit(d); m != nil || err == nil {
		t.Errorf("FitConfig: %#v, %v", m, err)
	}
	if m, err := registry.OnePass(failConst, newConstAcc).Fit(d); m != nil || err == nil {
		t.Errorf("OnePass Fit: %#v, %v", m, err)
	}
	if a, err := registry.OnePass(fitConst, failConstAcc).NewAccumulator(); a != nil || err == nil {
		t.Errorf("OnePass NewAccumulator: %#v, %v", a, err)
	}
	if _, ok := registry.FitConfig(fitConst).(registry.OnePassConfig); ok {
		t.Error("a FitConfig is a OnePassConfig")
	}
}

// TestSettings checks that a Config keeps the family's configuration of
// OnePassSettings, and that the others keep none.
func TestSettings(t *testing.T) {
	type settings struct{ Alpha float64 }
	c := registry.OnePassSettings(settings{2}, fitConst, newConstAcc)
	if s, ok := registry.Settings(c).(settings); !ok || s.Alpha != 2 {
		t.Errorf("Settings of OnePassSettings: %#v", registry.Settings(c))
	}
	if s := registry.Settings(registry.OnePass(fitConst, newConstAcc)); s != nil {
		t.Errorf("Settings of OnePass: %#v, want nil", s)
	}
	if s := registry.Settings(registry.FitConfig(fitConst)); s != nil {
		t.Errorf("Settings of FitConfig: %#v, want nil", s)
	}
}
