package logistic

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/internal/design"
)

// TestUnmarshalBound checks the criterion of UnmarshalLogistic for
// weights that are finite but too large: a weight of 1e308 (which gave
// NaN probabilities) is refused naming the field, and a model whose
// every parameter lies at design.Bound, the worst a file may hold, gives
// finite probabilities that sum to one for rows of numbers up to the
// bound in magnitude.
func TestUnmarshalBound(t *testing.T) {
	iris := bundled.Load(t, "iris", dataio.Options{})
	m, err := Config{L2: 1}.Fit(iris)
	if err != nil {
		t.Fatal(err)
	}
	good, _ := m.MarshalJSON()
	edit := func(f func(p map[string]any)) []byte {
		var p map[string]any
		if err := json.Unmarshal(good, &p); err != nil {
			t.Fatal(err)
		}
		f(p)
		b, _ := json.Marshal(p)
		return b
	}
	huge := edit(func(p map[string]any) { p["weights"].([]any)[1].([]any)[2] = 1e308 })
	want := "logistic: weights[1][2]: 1e308 is outside [-1e100, 1e100]: beyond, finite rows could get infinite or NaN scores (design.Bound)"
	if _, err := UnmarshalLogistic(iris.Schema, huge); err == nil || err.Error() != want {
		t.Errorf("a weight of 1e308: error %v, want %s", err, want)
	}
	tiny := edit(func(p map[string]any) { p["design"].([]any)[0].(map[string]any)["scale"] = 1e-300 })
	want = "logistic: design: column 0 (sepallength): scale: 1e-300 is outside [1e-100, 1e100]: beyond, finite rows could get infinite or NaN scores (design.Bound)"
	if _, err := UnmarshalLogistic(iris.Schema, tiny); err == nil || err.Error() != want {
		t.Errorf("a scale of 1e-300: error %v, want %s", err, want)
	}

	// The worst case within the bound: weights of alternating signs at
	// the bound, the smallest scale and centres at the bound.
	b := design.Bound
	worst := edit(func(p map[string]any) {
		for c, row := range p["weights"].([]any) {
			for j := range row.([]any) {
				row.([]any)[j] = b * float64(1-2*((c+j)%2))
			}
			p["intercepts"].([]any)[c] = -b * float64(1-2*(c%2))
		}
		for j, col := range p["design"].([]any) {
			col.(map[string]any)["scale"] = 1 / b
			col.(map[string]any)["center"] = b * float64(1-2*(j%2))
		}
	})
	wm, err := UnmarshalLogistic(iris.Schema, worst)
	if err != nil {
		t.Fatalf("parameters at the bound refused: %v", err)
	}
	rows := &data.Dataset{Schema: iris.Schema, N: 3, X: []float64{
		b, -b, b, -b,
		-b, b, -b, b,
		0, 5e99, -1, 3,
	}}
	lp := wm.LogProba(nil, rows)
	for i := range rows.N {
		sum := 0.0
		for _, l := range lp[i*3 : i*3+3] {
			if math.IsNaN(l) || l > 0 {
				t.Fatalf("row %d: log-probabilities %v", i, lp[i*3:i*3+3])
			}
			sum += math.Exp(l)
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("row %d: probabilities sum to %v", i, sum)
		}
	}
}
