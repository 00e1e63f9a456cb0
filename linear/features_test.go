package linear

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
)

// TestFeatureNamesChecked: data whose first two features are swapped by
// name (the count and the values unchanged) panics instead of being
// scored against the wrong columns; the training schema's data, and a
// copy of it, pass.
func TestFeatureNamesChecked(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{Target: "petalwidth", NumericTarget: true, Ignore: []string{"class"}})
	m, err := Config{}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	same := *d
	same.Schema = d.Schema.Clone()
	m.Predict(nil, &same)
	swapped := *d
	swapped.Schema = d.Schema.Clone()
	f := swapped.Schema.Features
	f[0].Name, f[1].Name = f[1].Name, f[0].Name
	defer func() {
		msg := fmt.Sprint(recover())
		if want := fmt.Sprintf("feature 0 is %q, the model's is %q", f[0].Name, f[1].Name); !strings.HasPrefix(msg, "linear: ") || !strings.Contains(msg, want) {
			t.Errorf("panic %q, want linear: … %s", msg, want)
		}
	}()
	m.Predict(nil, &swapped)
}
