package gda

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/bundled"
)

// TestUnmarshalRefuses edits saved parameters and checks that loading
// refuses them.
func TestUnmarshalRefuses(t *testing.T) {
	d := bundled.Load(t, "iris", data.Options{})
	m, err := QDAConfig{ShrinkageAuto: true}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	good, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := UnmarshalQDA(d.Schema, good); err != nil {
		t.Fatalf("the saved parameters do not load: %v", err)
	}
	if _, err := UnmarshalLDA(d.Schema, good); err != nil {
		t.Fatalf("QDA statistics do not load as LDA: %v", err) // the same statistics
	}
	edit := func(f func(p map[string]any)) []byte {
		var p map[string]any
		if err := json.Unmarshal(good, &p); err != nil {
			t.Fatal(err)
		}
		f(p)
		b, _ := json.Marshal(p)
		return b
	}
	class0 := func(p map[string]any) map[string]any { return p["classes"].([]any)[0].(map[string]any) }
	for name, b := range map[string][]byte{
		"not JSON":        []byte(`{"estimator":`),
		"unknown field":   edit(func(p map[string]any) { p["bandwidth"] = 1 }),
		"bad estimator":   edit(func(p map[string]any) { p["estimator"] = "biased" }),
		"bad shrinkage":   edit(func(p map[string]any) { p["shrinkage"] = 2 }),
		"no EM settings":  edit(func(p map[string]any) { p["em_max_iter"] = 0 }),
		"missing class":   edit(func(p map[string]any) { p["classes"] = p["classes"].([]any)[:2] }),
		"short mean":      edit(func(p map[string]any) { class0(p)["mean"] = []any{1, 2} }),
		"negative weight": edit(func(p map[string]any) { class0(p)["weight"] = -1 }),
		"NaN scatter":     edit(func(p map[string]any) { class0(p)["scatter"].([]any)[0] = "NaN" }),
		"negative square": edit(func(p map[string]any) { class0(p)["scatter"].([]any)[0] = -1 }),
		"no moments":      edit(func(p map[string]any) { delete(class0(p), "m4") }),
		"empty class":     edit(func(p map[string]any) { class0(p)["weight"] = 0 }),
	} {
		if _, err := UnmarshalQDA(d.Schema, b); err == nil {
			t.Errorf("%s: accepted", name)
		} else if !strings.HasPrefix(err.Error(), "gda: ") && !strings.Contains(err.Error(), "gda") {
			t.Errorf("%s: error %q does not name the package", name, err)
		}
	}
	s := d.Schema.Clone()
	s.Features = nil
	if _, err := UnmarshalQDA(s, good); err == nil {
		t.Error("a schema without features accepted")
	}
	s = d.Schema.Clone()
	s.Target = nil
	if _, err := UnmarshalLDA(s, good); err == nil {
		t.Error("a schema without target accepted")
	}
}
