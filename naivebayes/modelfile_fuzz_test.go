package naivebayes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/testsupport/modelfuzz"
)

// The fuzz tests of the model files of the naive Bayes kinds (package
// modelfuzz): the files of small fitted models, changed by the fuzzer,
// either are refused with one line or give models that predict finite
// probabilities. Under go test they run over their seeds; longer, one at
// a time:
//
//	go test -run '^$' -fuzz FuzzGaussianNBFile -fuzztime 60s ./naivebayes
//
// and likewise FuzzMixedNBFile, FuzzBernoulliNBFile,
// FuzzMultinomialNBFile, FuzzComplementNBFile, FuzzCategoricalNBFile.

func FuzzGaussianNBFile(f *testing.F) {
	iris := modelfuzz.Bundled(f, "iris", dataio.Options{})
	m, err := GaussianConfig{}.Fit(iris)
	if err != nil {
		f.Fatal(err)
	}
	modelfuzz.Run(f, modelfuzz.Target{Model: m, Rows: modelfuzz.Rows(iris, 6, true), Calls: callsNB})
}

func FuzzMixedNBFile(f *testing.F)       { fuzzFamily(f, Mixed, "x,n,colour,note,class") }
func FuzzBernoulliNBFile(f *testing.F)   { fuzzFamily(f, Bernoulli, "x,n,note,class") }
func FuzzMultinomialNBFile(f *testing.F) { fuzzFamily(f, Multinomial, "n,note,class") }
func FuzzComplementNBFile(f *testing.F)  { fuzzFamily(f, Complement, "n,note,class") }
func FuzzCategoricalNBFile(f *testing.F) { fuzzFamily(f, Categorical, "colour,size,class") }

// mixedRows are training rows of every kind of column: numbers, counts,
// categories and text.
const mixedRows = `x,n,colour,size,note,class
1.5,0,red,s,cheap pills now,spam
2.5,3,blue,m,see you at lunch,ham
0.5,1,red,l,win cheap prizes now,spam
3.1,2,green,m,lunch at noon,ham
1.1,0,red,s,prizes and pills,spam
2.9,4,blue,l,see the report,ham
0.7,1,green,s,cheap cheap now,spam
3.3,5,blue,m,report at noon,ham
`

// fuzzFamily fuzzes the model files of the family fitted on the columns
// of mixedRows.
func fuzzFamily(f *testing.F, fam Family, columns string) {
	var ignore []string
	for _, c := range strings.Split("x,n,colour,size,note,class", ",") {
		if !strings.Contains(","+columns+",", ","+c+",") {
			ignore = append(ignore, c)
		}
	}
	opt := dataio.Options{Ignore: ignore}
	if strings.Contains(columns, "note") {
		opt.Text = []string{"note"}
	}
	d, err := dataio.Read(strings.NewReader(mixedRows), "mixed.csv", opt)
	if err != nil {
		f.Fatal(err)
	}
	m, err := Config{Family: fam}.Fit(d)
	if err != nil {
		f.Fatal(err)
	}
	modelfuzz.Run(f, modelfuzz.Target{Model: m, Rows: modelfuzz.Rows(d, 4, true), Calls: callsNB})
}

// callsNB makes the calls of inspect, sample, impute and score on a naive
// Bayes model, and checks that their numbers are finite.
func callsNB(t *testing.T, m gendisc.Model, rows *data.Dataset) {
	finite := func(what string, x []float64) {
		t.Helper()
		for i, v := range x {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%s[%d] = %v", what, i, v)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	switch m := m.(type) {
	case *Gaussian:
		finite("priors", m.Priors())
		for k := range m.Means() {
			finite("means", m.Means()[k])
			finite("variances", m.Variances()[k])
		}
		m.LogisticForm()
		x, _ := m.Sample(nil, rng)
		finite("sample", x)
		finite("impute", m.Impute(nil, rows))
	case *Model:
		finite("priors", m.Priors())
		for _, s := range m.ScoreSamples(nil, rows) {
			if math.IsNaN(s) || math.IsInf(s, 1) {
				t.Fatalf("score %v", s)
			}
		}
		for _, name := range m.TextFeatures() {
			if _, err := m.TopTerms(name, 3); err != nil {
				t.Fatal(err)
			}
		}
		for _, name := range m.CategoricalFeatures() {
			p, err := m.LevelProbabilities(name)
			if err != nil {
				t.Fatal(err)
			}
			for _, row := range p {
				finite("level probabilities", row)
			}
		}
		_, mean, variance := m.GaussianFeatures()
		for k := range mean {
			finite("means", mean[k])
			finite("variances", variance[k])
		}
		m.CountWeights()
		m.Warnings()
		m.UnseenWords(rows)
		m.Impute(nil, rows)
		m.Sample(nil, rng)
	}
}

// TestUnmarshalOutOfDomain checks the one-line refusals, naming the
// field, of model files whose parameters are of the right type but out of
// their domain. Before, alpha -1 (Config's marker of no smoothing, which
// a file does not hold: it holds 0) was taken as no smoothing, and the
// others gave infinite or NaN probabilities.
func TestUnmarshalOutOfDomain(t *testing.T) {
	d, err := dataio.Read(strings.NewReader(mixedRows), "mixed.csv", dataio.Options{Text: []string{"note"}, Ignore: []string{"colour", "size"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		fam      Family
		old, new string
		want     string
	}{
		{Bernoulli, `"alpha":1,`, `"alpha":-1,`, "alpha: -1 is outside [0, 1e100]"},
		{Multinomial, `"alpha":1,`, `"alpha":1e308,`, "alpha: 1e308 is outside [0, 1e100]"},
		{Mixed, `"var_smoothing":1e-9,`, `"var_smoothing":-1,`, "var_smoothing: -1 is outside [0, 1e100]"},
		{Bernoulli, `"n":[[4,4],[4,4]]`, `"n":[[4,4],[4,1]]`, "parts[0]: s[1][1]: 2 present of 1 observed: more presences than observations"},
		{Bernoulli, `"docs":[4,4]`, `"docs":[4,1]`, "parts[1]: s[1][0]: 3 present of 1 observed: more presences than observations"},
		{Multinomial, `"s":[[14],[2]]`, `"s":[[14],[1e300]]`, "parts[0]: s[1][0]: 1e300 is outside [0, 1e250]: the sums of larger counts overflow float64"},
		{Multinomial, `"class_weight":[4,4]`, `"class_weight":[4,-4]`, "class_weight[1]: -4 is outside [0, 1e250]: the sums of larger counts overflow float64"},
	} {
		columns := "x,n,note"
		if tc.fam == Multinomial {
			columns = "n,note"
		}
		dd := d
		if columns != "x,n,note" {
			dd, _ = dataio.Read(strings.NewReader(mixedRows), "mixed.csv", dataio.Options{Text: []string{"note"}, Ignore: []string{"x", "colour", "size"}})
		}
		m, err := Config{Family: tc.fam}.Fit(dd)
		if err != nil {
			t.Fatal(err)
		}
		params, _ := m.MarshalJSON()
		if !strings.Contains(string(params), tc.old) {
			t.Fatalf("%v parameters %s lack %s", tc.fam, params, tc.old)
		}
		_, err = UnmarshalModel(dd.Schema, []byte(strings.Replace(string(params), tc.old, tc.new, 1)))
		if want := "naivebayes: model parameters: " + tc.want; err == nil || err.Error() != want {
			t.Errorf("%v with %s: error %v,\nwant %s", tc.fam, tc.new, err, want)
		}
	}
}

// TestUnmarshalGaussianMemory checks that the decoder refuses statistics
// of the wrong size before allocating the K·D values the schema calls
// for: it allocated 24 MB for 1,000 classes and 1,000 features whose
// statistics the file did not hold.
func TestUnmarshalGaussianMemory(t *testing.T) {
	s := &data.Schema{Target: &data.Column{Name: "y", Kind: data.Categorical}}
	for j := range 1000 {
		s.Features = append(s.Features, data.Column{Name: fmt.Sprint("x", j), Kind: data.Numeric})
		s.Target.Levels = append(s.Target.Levels, fmt.Sprint("c", j))
	}
	weights := strings.Repeat("1,", 999) + "1"
	params := []byte(`{"var_smoothing":1e-9,"variance":"class-feature","class_weight":[` + weights + `],"weight":[[1]],"mean":[[1]],"m2":[[1]]}`)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := UnmarshalGaussian(s, params)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "weight: 1 rows for 1000 classes") {
		t.Errorf("error %v, want one about the sizes", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("UnmarshalGaussian allocated %d MB", grew>>20)
	}
}
