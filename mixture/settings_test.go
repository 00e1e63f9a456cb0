package mixture

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestSettings: a fitted GMM keeps the settings of its fit with the
// defaults filled in (no tolerance and no regularisation as 0, a given
// start as such, the seed only when the caller gave it), SelectK's model
// those of its fits, and MDA the one set of its classes.
func TestSettings(t *testing.T) {
	d := standardized(loadDataset(t, "iris"))
	seed := uint64(7)
	start, _ := fitIris(t, Diag, false)
	p := start.Params()
	for _, c := range []struct {
		name string
		cfg  Config
		want Settings
	}{
		{"defaults", Config{Components: 2},
			Settings{Init: KMeansPlusPlus, Restarts: 1, Tol: DefaultTol, MaxIter: DefaultMaxIter, RegCovar: DefaultRegCovar, Regularization: Floor}},
		{"set", Config{Components: 2, Init: Random, Restarts: 3, Tol: 1e-5, MaxIter: 50, RegCovar: 1e-3, Regularization: Ridge, Seed: &seed},
			Settings{Init: Random, Restarts: 3, Tol: 1e-5, MaxIter: 50, RegCovar: 1e-3, Regularization: Ridge, Seed: &seed}},
		{"none", Config{Components: 2, Tol: -1, MaxIter: 5, RegCovar: -1},
			Settings{Init: KMeansPlusPlus, Restarts: 1, MaxIter: 5, Regularization: Floor}},
		{"identity", Config{Components: 2, Covariance: Identity, RegCovar: 0.5},
			Settings{Init: KMeansPlusPlus, Restarts: 1, Tol: DefaultTol, MaxIter: DefaultMaxIter, Regularization: Floor}},
		{"start", Config{Components: 3, Covariance: Diag, Restarts: 4, Start: &p},
			Settings{GivenStart: true, Restarts: 1, Tol: DefaultTol, MaxIter: DefaultMaxIter, RegCovar: DefaultRegCovar, Regularization: Floor}},
	} {
		g, err := c.cfg.Fit(d, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		if got, known := g.Settings(); !known || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: settings %+v (known %v), want %+v", c.name, got, known, c.want)
		}
	}
	g, _, err := SelectK(d, rand.New(rand.NewPCG(1, 2)), Config{Restarts: 2, Seed: &seed}, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := Settings{Init: KMeansPlusPlus, Restarts: 2, Tol: DefaultTol, MaxIter: DefaultMaxIter, RegCovar: DefaultRegCovar, Regularization: Floor, Seed: &seed}
	if got, known := g.Settings(); !known || !reflect.DeepEqual(got, want) {
		t.Errorf("SelectK: settings %+v (known %v), want %+v", got, known, want)
	}
	m, err := MDAConfig{ComponentsPerClass: 2, Mixture: Config{Init: Random, RegCovar: 1e-4, Seed: &seed}}.Fit(d, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	want = Settings{Init: Random, Restarts: 1, Tol: DefaultTol, MaxIter: DefaultMaxIter, RegCovar: 1e-4, Regularization: Floor, Seed: &seed}
	if got, known := m.Settings(); !known || !reflect.DeepEqual(got, want) {
		t.Errorf("MDA: settings %+v (known %v), want %+v", got, known, want)
	}
	// The settings returned are a copy: the seed too.
	got, _ := g.Settings()
	*got.Seed = 8
	if again, _ := g.Settings(); *again.Seed != 7 {
		t.Error("GMM.Settings shares the seed of the model")
	}
}

// TestSettingsFile: the model file holds the settings under snake_case
// keys and reads them back; a file written before models kept them (no
// "settings") loads, predicts as before and says they are unknown; bad
// settings are refused.
func TestSettingsFile(t *testing.T) {
	d := standardized(loadDataset(t, "iris"))
	seed := uint64(7)
	g, err := Config{Components: 2, Init: Random, Restarts: 3, Tol: 1e-5, MaxIter: 50, RegCovar: 1e-3, Regularization: Ridge, Seed: &seed}.
		Fit(d, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := g.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	const key = `"settings":{"init":"random","restarts":3,"tol":0.00001,"max_iter":50,"reg_covar":0.001,"reg_covar_mode":"ridge","seed":7}`
	if !bytes.Contains(raw, []byte(key)) {
		t.Fatalf("model file without %s:\n%s", key, raw)
	}
	back, err := UnmarshalGMM(g.Schema(), raw)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := g.Settings()
	if got, known := back.Settings(); !known || !reflect.DeepEqual(got, want) {
		t.Errorf("settings after loading %+v (known %v), want %+v", got, known, want)
	}
	old := bytes.Replace(raw, []byte(","+key), nil, 1)
	if bytes.Contains(old, []byte("settings")) {
		t.Fatalf("settings left in %s", old)
	}
	h, err := UnmarshalGMM(g.Schema(), old)
	if err != nil {
		t.Fatal(err)
	}
	if s, known := h.Settings(); known {
		t.Errorf("a file without settings: %+v, known", s)
	}
	a, b := g.ScoreSamples(nil, d), h.ScoreSamples(nil, d)
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			t.Fatalf("row %d: log density %v from the file without settings, %v", i, b[i], a[i])
		}
	}
	given, err := Config{Components: 2, Start: &Params{Weights: []float64{0.5, 0.5}, Means: g.Means(), Covariances: g.Params().Covariances}}.
		Fit(d, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if raw, _ := given.MarshalJSON(); !bytes.Contains(raw, []byte(`"settings":{"init":"given","restarts":1,`)) || bytes.Contains(raw, []byte(`"seed"`)) {
		t.Errorf("a fit from given parameters without a seed:\n%s", raw)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"init":"random"`, `"init":"farthest"`, `unknown initialisation "farthest"`},
		{`"reg_covar_mode":"ridge"`, `"reg_covar_mode":"lasso"`, `unknown regularisation "lasso"`},
		{`"restarts":3`, `"restarts":0`, "0 restarts"},
		{`"max_iter":50`, `"max_iter":0`, "at most 0 iterations"},
		{`"tol":0.00001`, `"tol":-1`, "tolerance -1"},
		{`"reg_covar":0.001`, `"reg_covar":"NaN"`, "reg-covar NaN"},
		{`"seed":7`, `"seed":-7`, "seed"},
		{`"seed":7`, `"seed":7,"shuffle":true`, `unknown field "shuffle"`},
	} {
		bad := bytes.Replace(raw, []byte(c.from), []byte(c.to), 1)
		if _, err := UnmarshalGMM(g.Schema(), bad); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one about %q", c.to, err, c.want)
		}
	}
}

// TestMDASettingsFile: an MDA model file keeps the settings in every
// class's mixture; without them (an older file) the model loads and its
// settings are unknown.
func TestMDASettingsFile(t *testing.T) {
	d := standardized(loadDataset(t, "iris"))
	seed := uint64(3)
	m, err := MDAConfig{ComponentsPerClass: 2, Mixture: Config{Restarts: 2, RegCovar: 1e-4, Seed: &seed}}.Fit(d, rand.New(rand.NewPCG(3, 0)))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := UnmarshalMDA(m.Schema(), raw)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := m.Settings()
	if got, known := back.Settings(); !known || !reflect.DeepEqual(got, want) {
		t.Errorf("settings after loading %+v (known %v), want %+v", got, known, want)
	}
	var p struct{ Mixtures []map[string]json.RawMessage }
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	old := raw
	for _, mix := range p.Mixtures {
		old = bytes.Replace(old, append([]byte(`,"settings":`), mix["settings"]...), nil, 1)
	}
	if bytes.Contains(old, []byte("settings")) || len(p.Mixtures) != 3 {
		t.Fatalf("settings left in %s", old)
	}
	h, err := UnmarshalMDA(m.Schema(), old)
	if err != nil {
		t.Fatal(err)
	}
	if s, known := h.Settings(); known {
		t.Errorf("a file without settings: %+v, known", s)
	}
}
