package cv

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/internal/testsupport/refdata"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/mixture"
	"github.com/gendisc/gendisc/naivebayes"
	"github.com/gendisc/gendisc/registry"
)

func lookupKind(t *testing.T, name string) *registry.Kind {
	t.Helper()
	k, err := registry.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestTuneParseParam(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"l2=0.01,0.1,1,10", []string{"0.01", "0.1", "1", "10"}},
		{"--variance=feature, class-feature", []string{"feature", "class-feature"}},
		{"l2=1e-4..1e2:13", []string{"0.0001", "0.000316227766017", "0.001", "0.00316227766017", "0.01", "0.0316227766017", "0.1", "0.316227766017", "1", "3.16227766017", "10", "31.6227766017", "100"}},
		{"shrinkage=0..1:11", []string{"0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1"}},
		{"components=1..10:10", []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10"}},
		{"alpha=log:1..4:3", []string{"1", "2", "4"}},
		{"l2=lin:1..100:3", []string{"1", "50.5", "100"}},
		{"alpha=2..2:1", []string{"2"}},
		{"var-smoothing=1e-12..1e20:3", []string{"1e-12", "10000", "1e20"}},
	} {
		p, err := ParseParam(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		got, err := p.Grid()
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"l2", "=1,2", "l2=1,,2", "l2=a..1:3", "l2=1..0:3", "l2=0..1:0", "l2=0..1:x", "l2=0..1:1", "l2=log:0..1:3", "l2=log:1,2", "l2=1..inf:3", "l2=0..1:100000"} {
		if _, err := ParseParam(in); err == nil || strings.Count(err.Error(), "\n") > 0 {
			t.Errorf("%s: error %v, want one line", in, err)
		}
	}
	p, _ := ParseParam("l2=0..1")
	if _, err := p.Grid(); err == nil {
		t.Error("a range without a number of values made a grid")
	}
}

func TestTuneSettings(t *testing.T) {
	a, _ := ParseParam("l2=1,2")
	b, _ := ParseParam("class-weight=balanced,none")
	s := &Search{Params: []Param{a, b}}
	got, err := s.Settings()
	if err != nil {
		t.Fatal(err)
	}
	var strs []string
	for _, set := range got {
		strs = append(strs, set.String())
	}
	want := []string{"l2=1, class-weight=balanced", "l2=1, class-weight=none", "l2=2, class-weight=balanced", "l2=2, class-weight=none"}
	if !slices.Equal(strs, want) {
		t.Errorf("grid %q, want %q", strs, want)
	}
	if _, err := (&Search{}).Settings(); err == nil {
		t.Error("an empty search has settings")
	}

	// Random draws: reproducible by seed, within the range, log-uniform
	// on a log range (about half the draws of 1e-4..1e2 below 1e-1).
	l, _ := ParseParam("l2=1e-4..1e2")
	e, _ := ParseParam("variance=feature,class-feature")
	s = &Search{Params: []Param{l, e}, Random: 2000, Seed: 3}
	d1, err := s.Settings()
	if err != nil {
		t.Fatal(err)
	}
	d2, _ := s.Settings()
	if !slices.EqualFunc(d1, d2, slices.Equal) {
		t.Error("two draws with one seed differ")
	}
	below, feature := 0, 0
	for _, set := range d1 {
		v, err := strconv.ParseFloat(set[0].Value, 64)
		if err != nil || v < 1e-4 || v > 1e2 {
			t.Fatalf("draw %s out of the range", set)
		}
		if v < 1e-1 {
			below++
		}
		if set[1].Value == "feature" {
			feature++
		}
	}
	// Binomial(2000, 1/2): SD 22; 5 SD either side.
	if below < 890 || below > 1110 || feature < 890 || feature > 1110 {
		t.Errorf("%d draws below 0.1, %d of feature, want about 1000 of 2000", below, feature)
	}
}

func TestTuneConfigErrors(t *testing.T) {
	k := lookupKind(t, logistic.Kind)
	for _, c := range []struct {
		set  Setting
		want string
	}{
		{Setting{{"l3", "1"}}, `no setting "l3"`},
		{Setting{{"l2", "-1"}, {"tol", "0"}}, `setting l2=-1, tol=0: l2 "-1":`},
		{Setting{{"l2", "1"}, {"class-weight", "heavy"}}, `setting l2=1, class-weight=heavy: class-weight "heavy":`},
	} {
		_, err := Config(k, nil, c.set)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.set, err, c.want)
		}
	}
	// The settings are checked before any fold is fitted.
	p, _ := ParseParam("l2=1,-1")
	_, err := (&Search{Kind: k, Params: []Param{p}, Metric: classMetrics[0]}).Run(classData(t), readFolds(t, classFolds, 768))
	if err == nil || !strings.Contains(err.Error(), "setting l2=-1") {
		t.Errorf("out of range: %v", err)
	}
}

func TestTuneMetrics(t *testing.T) {
	if _, err := MetricNamed(lookupKind(t, logistic.Kind), "rmse"); err == nil || !strings.Contains(err.Error(), "log-loss, error, brier, auc") {
		t.Errorf("rmse of logistic: %v", err)
	}
	if m, err := MetricNamed(lookupKind(t, "linear"), "rmse"); err != nil || m.Larger {
		t.Errorf("rmse of linear: %v %v", m, err)
	}
	if _, err := MetricNamed(lookupKind(t, mixture.Kind), "log-loss"); err == nil || !strings.Contains(err.Error(), "no held-out metric") {
		t.Errorf("gmm: %v", err)
	}
	if ms := Metrics(lookupKind(t, "ngram")); len(ms) != 5 || ms[0].Name != "perplexity" || ms[1].Path[0] != "classification" {
		t.Errorf("ngram's metrics %v", ms)
	}
}

// TestTuneOneSE checks the one-standard-error choice on results made by
// hand: within best + SE, the largest l2.
func TestTuneOneSE(t *testing.T) {
	trial := func(l2, alpha string, mean, se float64) Trial {
		return Trial{Setting: Setting{{"alpha", alpha}, {"l2", l2}}, Mean: mean, SE: se}
	}
	r := &SearchResult{Metric: classMetrics[0], Best: 1, Trials: []Trial{
		trial("0.1", "1", 0.52, 0.01),
		trial("1", "1", 0.50, 0.03), // the best; the bound is 0.53
		trial("10", "1", 0.53, 0.02),
		trial("10", "2", 0.525, 0.02), // as regularised in l2 as the last, ties broken by alpha first
		trial("100", "1", 0.531, 0.02),
	}}
	// alpha comes first in the settings, so it orders first: alpha=2 wins.
	if got := r.mostRegularised(); got != 3 {
		t.Errorf("one-SE choice %d, want 3", got)
	}
	r.Trials[3].Setting = Setting{{"alpha", "1"}, {"l2", "5"}}
	if got := r.mostRegularised(); got != 2 {
		t.Errorf("one-SE choice %d, want 2 (l2=10, within the bound)", got)
	}
	r.Metric = classMetrics[3] // larger is better: the bound is 0.58, which only the best reaches
	r.Best = 4
	r.Trials[4].Mean = 0.6
	if got := r.mostRegularised(); got != 4 {
		t.Errorf("one-SE choice with auc %d, want 4", got)
	}
	// Without a regularising flag, the best.
	for i := range r.Trials {
		r.Trials[i].Setting = Setting{{"variance", strconv.Itoa(i)}}
	}
	r.Metric, r.Best = classMetrics[0], 1
	if got := r.mostRegularised(); got != 1 {
		t.Errorf("no regularising flag: %d, want the best 1", got)
	}
}

// tuneReference is testdata/tune_reference.json: per search and scorer,
// GridSearchCV's mean score of every setting and its choice.
type tuneReference struct {
	Cases []struct {
		Name   string    `json:"name"`
		Flag   string    `json:"flag"`
		Values []float64 `json:"values"`
		Scores map[string]struct {
			Mean      []float64 `json:"mean"`
			BestIndex int       `json:"best_index"`
		} `json:"scores"`
	} `json:"cases"`
}

// TestTuneScikitLearnReference checks that Search picks the setting of
// scikit-learn's GridSearchCV with the same folds and metric, for the
// grids of testdata/tune_reference.py, and that the means it compares
// agree to 1e-9 (logistic regression run to a tolerance of 1e-12, as in
// TestScikitLearnReference, a flag set in every setting by Base).
func TestTuneScikitLearnReference(t *testing.T) {
	var ref tuneReference
	refdata.ReadJSON(t, "testdata/tune_reference.json", &ref)
	grids := map[string]struct {
		kind, grid string
		base       Setting
		tol        float64
	}{
		"GaussianNB":         {naivebayes.KindGaussian, "var-smoothing=1e-12..1:13", nil, 1e-9},
		"LogisticRegression": {logistic.Kind, "l2=1e-3..1e3:7", Setting{{"tol", "1e-12"}}, 1e-9},
	}
	scorers := map[string]struct {
		metric string
		sign   float64
	}{"neg_log_loss": {"log-loss", -1}, "neg_brier": {"brier", -1}, "accuracy": {"error", 0}, "roc_auc": {"auc", 1}}
	d := classData(t)
	folds := readFolds(t, classFolds, d.N)
	for _, c := range ref.Cases {
		g := grids[c.Name]
		k := lookupKind(t, g.kind)
		p, err := ParseParam(g.grid)
		if err != nil {
			t.Fatal(err)
		}
		vs, _ := p.Grid()
		for i, v := range vs {
			if f, _ := strconv.ParseFloat(v, 64); !nearRel(f, c.Values[i], 1e-11) {
				t.Fatalf("%s: value %d %s, scikit-learn's %g", c.Name, i, v, c.Values[i])
			}
		}
		for scorer, want := range c.Scores {
			sc := scorers[scorer]
			m, err := MetricNamed(k, sc.metric)
			if err != nil {
				t.Fatal(err)
			}
			res, err := (&Search{Kind: k, Base: g.base, Params: []Param{p}, Metric: m}).Run(d, folds)
			if err != nil {
				t.Fatal(err)
			}
			for i, tr := range res.Trials {
				got := sc.sign * tr.Mean
				if sc.sign == 0 {
					got = 1 - tr.Mean
				}
				if !nearRel(got, want.Mean[i], g.tol) {
					t.Errorf("%s %s: %s mean %.12g, scikit-learn %.12g", c.Name, scorer, tr.Setting, got, want.Mean[i])
				}
			}
			if res.Best != want.BestIndex || res.Chosen != res.Best {
				t.Errorf("%s %s: chose %s (%d), GridSearchCV %d", c.Name, scorer, res.Trials[res.Chosen].Setting, res.Best, want.BestIndex)
			}
		}
	}
}

// TestTuneJSON checks the object of a search: settings with params, mean
// and se, and the chosen params; and that the refit of the chosen setting
// is that setting's model.
func TestTuneJSON(t *testing.T) {
	k := lookupKind(t, naivebayes.KindGaussian)
	p, _ := ParseParam("var-smoothing=1e-9,0.1")
	s := &Search{Kind: k, Base: Setting{{"variance", "feature"}}, Params: []Param{p}, Metric: classMetrics[0], OneSE: true}
	d := classData(t)
	res, err := s.Run(d, readFolds(t, classFolds, d.N))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Metric   string
		Settings []struct {
			Params   map[string]string
			Mean, SE map[string]any
		}
		Best struct {
			Params   map[string]string
			Mean, SE float64
		}
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if got.Metric != "log-loss" || len(got.Settings) != 2 || got.Settings[1].Params["var-smoothing"] != "0.1" ||
		got.Settings[0].Mean["log_loss"] != res.Trials[0].Mean || got.Settings[0].SE["log_loss"] != res.Trials[0].SE {
		t.Errorf("JSON %s", b)
	}
	chosen := res.Trials[res.Chosen]
	if got.Best.Params["var-smoothing"] != chosen.Setting[0].Value || got.Best.Mean != chosen.Mean {
		t.Errorf("best %v, chosen %s", got.Best, chosen.Setting)
	}
	m, err := s.Fit(res, d)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := naivebayes.GaussianConfig{Variance: naivebayes.FeatureVariance, VarSmoothing: mustFloat(t, chosen.Setting[0].Value)}.Fit(d)
	mb, _ := json.Marshal(m)
	wb, _ := json.Marshal(want)
	if !bytes.Equal(mb, wb) {
		t.Error("the refit of the chosen setting differs from its fit")
	}
	var text bytes.Buffer
	if err := res.Text(&text); err != nil || !strings.Contains(text.String(), "var-smoothing") || strings.Count(text.String(), "\n") != 3 {
		t.Errorf("text %q %v", text.String(), err)
	}
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) {
		t.Fatal(s, err)
	}
	return v
}

// FuzzParseParam checks that ParseParam never panics, and that a parsed
// search gives at most maxValues values, those of a range numbers within
// it. Longer: go test -fuzz FuzzParseParam -fuzztime 60s ./cv
func FuzzParseParam(f *testing.F) {
	for _, s := range []string{"l2=0.01,0.1,1", "l2=1e-4..1e2:13", "shrinkage=0..1:11", "alpha=log:1..4:3", "l2=lin:0..1", "x=..:", "=", "a=-1e308..1e308:3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseParam(s)
		if err != nil {
			return
		}
		vs, err := p.Grid()
		if err != nil {
			return
		}
		if len(vs) > maxValues {
			t.Fatalf("%q: %d values", s, len(vs))
		}
		if p.Values != nil {
			return
		}
		for _, v := range vs {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || !(x >= p.Lo-1e-11*math.Abs(p.Lo) && x <= p.Hi+1e-11*math.Abs(p.Hi)) {
				t.Fatalf("%q: value %s outside %g..%g", s, v, p.Lo, p.Hi)
			}
		}
	})
}
