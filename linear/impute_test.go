package linear

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/gendisc/gendisc/data"
)

// TestImputes: a model says whether its fit imputed missing cells, after
// a save and load too; a model file without statistics (written before
// models kept them) leaves it unknown. CheckMissing applies the fit's
// rule to rows to predict: a model fitted without Impute refuses a missing
// cell with Fit's error; one fitted with Impute, or one whose file does not
// say, takes it.
func TestImputes(t *testing.T) {
	holed := wineClass(t, false, true)
	_, fitErr := Config{}.Fit(holed)
	var me *data.MissingError
	if !errors.As(fitErr, &me) {
		t.Fatalf("Fit without Impute of missing cells: %v, want a *data.MissingError", fitErr)
	}
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
		err = m.CheckMissing(holed)
		if c.cfg.Impute && err != nil || !c.cfg.Impute && (err == nil || err.Error() != fitErr.Error()) {
			t.Errorf("%+v: CheckMissing = %v, want Fit's error %v exactly when not imputing", c.cfg, err, fitErr)
		}
		if err := m.CheckMissing(wineClass(t, false, false)); err != nil {
			t.Errorf("%+v: CheckMissing of complete rows: %v", c.cfg, err)
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
		if err := om.CheckMissing(holed); err != nil {
			t.Errorf("%+v: CheckMissing = %v for a file without statistics, want nil", c.cfg, err)
		}
	}
}
