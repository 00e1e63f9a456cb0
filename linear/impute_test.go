package linear

import (
	"encoding/json"
	"testing"
)

// TestImputes: a model says whether its fit imputed missing cells, after
// a save and load too; a model file without statistics (written before
// models kept them) leaves it unknown.
func TestImputes(t *testing.T) {
	for _, c := range []struct {
		cfg   Config
		holes bool
	}{{Config{}, false}, {Config{Impute: true}, true}, {Config{Impute: true, L2: 1, NoStandardize: true}, false}} {
		m, err := c.cfg.Fit(wineClass(t, false, c.holes))
		if err != nil {
			t.Fatal(err)
		}
		if impute, known := m.Imputes(); impute != c.cfg.Impute || !known {
			t.Errorf("%+v: Imputes() = %v, %v", c.cfg, impute, known)
		}
		raw, err := m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		back, err := UnmarshalLinear(m.Schema(), raw)
		if err != nil {
			t.Fatal(err)
		}
		if impute, known := back.Imputes(); impute != c.cfg.Impute || !known {
			t.Errorf("%+v: Imputes() = %v, %v after loading", c.cfg, impute, known)
		}
		var p map[string]json.RawMessage
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatal(err)
		}
		delete(p, "statistics")
		old, _ := json.Marshal(p)
		om, err := UnmarshalLinear(m.Schema(), old)
		if err != nil {
			t.Fatal(err)
		}
		if impute, known := om.Imputes(); impute || known {
			t.Errorf("%+v: Imputes() = %v, %v for a file without statistics", c.cfg, impute, known)
		}
	}
}
