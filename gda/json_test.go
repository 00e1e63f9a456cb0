package gda

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
)

// TestUnmarshalRefuses edits saved parameters and checks that loading
// refuses them.
func TestUnmarshalRefuses(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
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

// TestUnmarshalOutOfDomain checks the one-line errors, naming the field,
// of parameters that pass their type but not their meaning. Before they
// were checked, a class mean of 1e308 in an LDA file made UnmarshalLDA
// panic ("eigendecomposition of a symmetric matrix failed"), and a tiny
// weight gave infinite covariances.
func TestUnmarshalOutOfDomain(t *testing.T) {
	d := bundled.Load(t, "iris", dataio.Options{})
	m, err := QDAConfig{ShrinkageAuto: true}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	good, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(c map[string]any)) []byte {
		var p map[string]any
		if err := json.Unmarshal(good, &p); err != nil {
			t.Fatal(err)
		}
		f(p["classes"].([]any)[2].(map[string]any))
		b, _ := json.Marshal(p)
		return b
	}
	const class2 = `classes[2] (class "Iris-virginica"): `
	for _, tc := range []struct {
		name   string
		params []byte
		want   string
	}{
		{"huge mean", edit(func(c map[string]any) { c["mean"].([]any)[0] = 1e308 }),
			"gda: lda parameters: " + class2 + "mean[0]: 1e308 is outside [-1e153, 1e153]: the squared differences of larger means overflow float64"},
		{"asymmetric scatter", edit(func(c map[string]any) { c["scatter"].([]any)[1] = 3.5 }),
			"gda: lda parameters: " + class2 + "scatter[4] = 4.594399999999999 and scatter[1] = 3.5: the matrix is not symmetric"},
		{"negative fourth moment", edit(func(c map[string]any) { c["m4"].([]any)[3] = -2 }),
			"gda: lda parameters: " + class2 + "m4[3]: -2 is not a finite number ≥ 0"},
		{"tiny weight", edit(func(c map[string]any) { c["weight"] = 1e-320 }),
			"gda: lda parameters: " + class2 + "scatter[0] / weight = 19.812799999999996 / 1e-320, a variance, overflows float64"},
	} {
		_, err := UnmarshalLDA(d.Schema, tc.params)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v,\nwant %s", tc.name, err, tc.want)
		}
	}
}

// TestFitTooLarge checks that LDA and QDA on data whose squares overflow
// float64 say so, naming the column, where they said that the column had
// zero variance (the overflowed variance failing the factorisation).
func TestFitTooLarge(t *testing.T) {
	x := [][]float64{{1e155, 1}, {3e155, 2}, {2e155, 4}, {5e155, 3}, {4e155, 7}, {6e155, 5}, {2e155, 1}, {7e155, 3}}
	d := matrix([]string{"a", "b"}, x, []int{0, 1, 0, 1, 0, 1, 0, 1})
	for _, fit := range []func(*data.Dataset) error{
		func(d *data.Dataset) error { _, err := LDAConfig{}.Fit(d); return err },
		func(d *data.Dataset) error { _, err := QDAConfig{}.Fit(d); return err },
	} {
		err := fit(d)
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), `column "x0": values too large for float64`) {
			t.Errorf("error %v, want ErrTooLarge naming column x0", err)
		}
	}
	// Spread around 0, the mean is small and the variance overflows.
	for i, v := range []float64{-1, 1, -2, 2, -3, 3, -4, 4} {
		x[i][0] = v * 1e155
	}
	d = matrix([]string{"a", "b"}, x, []int{0, 0, 0, 0, 1, 1, 1, 1})
	_, err := LDAConfig{}.Fit(d)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), `column "x0": values too large for float64: the variance within class "a" overflows`) {
		t.Errorf("error %v, want ErrTooLarge for the variance of column x0", err)
	}
}

// TestUnmarshalMemory checks that the decoder refuses statistics of the
// wrong size before allocating the K·D² values the schema calls for: a
// schema of 3,000 features (60 kB of JSON) made it allocate 216 MB for
// three classes whose statistics the file did not hold.
func TestUnmarshalMemory(t *testing.T) {
	s := &data.Schema{Target: &data.Column{Name: "y", Kind: data.Categorical, Levels: []string{"a", "b", "c"}}}
	for j := range 3000 {
		s.Features = append(s.Features, data.Column{Name: fmt.Sprint("x", j), Kind: data.Numeric})
	}
	params := []byte(`{"estimator":"mle","em_max_iter":200,"em_tol":1e-8,"classes":[` +
		`{"rows":5,"weight":5,"mean":[1],"scatter":[1]},{"rows":5,"weight":5,"mean":[1],"scatter":[1]},{"rows":5,"weight":5,"mean":[1],"scatter":[1]}]}`)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := UnmarshalLDA(s, params)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "mean of 1 and scatter of 1 values, want 3000 and 9000000") {
		t.Errorf("error %v, want one about the sizes", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 20<<20 {
		t.Errorf("UnmarshalLDA allocated %d MB", grew>>20)
	}
}
