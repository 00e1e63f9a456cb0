package logistic

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/internal/testsupport/conformance"
	"github.com/gendisc/gendisc/internal/testsupport/refdata"
	"github.com/gendisc/gendisc/text"
)

// TestText compares a bag-of-words fit on sms_spam with scikit-learn's
// CountVectorizer and LogisticRegression: vocabulary, weights,
// probabilities and objective.
func TestText(t *testing.T) {
	var ref struct {
		TextCases []struct {
			Dataset        string
			Lambda         float64
			Classes        []string
			VocabularySize int `json:"vocabulary_size"`
			Words          map[string]float64
			Intercept      float64
			Objective      float64
			Proba          [][]float64
		} `json:"text_cases"`
	}
	refdata.ReadJSON(t, "testdata/reference.json", &ref)
	for _, rc := range ref.TextCases {
		d := bundled.Load(t, rc.Dataset, dataio.Options{Text: []string{"text"}})
		m := fit(t, Config{L2: rc.Lambda, Tol: 1e-10}, d)
		diag := m.Diagnostics()
		if !diag.Converged || diag.Solver != LBFGS {
			t.Errorf("%+v", diag)
		}
		terms := m.Terms()
		if len(terms) != rc.VocabularySize {
			t.Fatalf("%d words, scikit-learn %d", len(terms), rc.VocabularySize)
		}
		w, bias := m.Coefficients()
		index := map[string]int{}
		for j, name := range terms {
			index[name] = j
		}
		scale := 0.0
		for _, c := range rc.Words {
			scale = max(scale, math.Abs(c))
		}
		for word, c := range rc.Words {
			j, ok := index["text:"+word]
			if !ok {
				t.Errorf("word %q missing", word)
				continue
			}
			if math.Abs(w[0][j]-c) > 1e-5*scale {
				t.Errorf("w[%q] = %.8g, scikit-learn %.8g", word, w[0][j], c)
			}
		}
		if math.Abs(bias[0]-rc.Intercept) > 1e-5*scale {
			t.Errorf("intercept %.8g, scikit-learn %.8g", bias[0], rc.Intercept)
		}
		if math.Abs(diag.Objective-rc.Objective) > 1e-9*math.Abs(rc.Objective) {
			t.Errorf("objective %.12g, scikit-learn %.12g", diag.Objective, rc.Objective)
		}
		lp := m.LogProba(nil, d.Subset(firstRows(len(rc.Proba))))
		for i, row := range rc.Proba {
			for c, p := range row {
				if math.Abs(math.Exp(lp[2*i+c])-p) > 1e-5 {
					t.Errorf("row %d: P(%s) = %.8g, scikit-learn %.8g", i, rc.Classes[c], math.Exp(lp[2*i+c]), p)
				}
			}
		}
		if _, err := (Config{Solver: Newton}).Fit(d); err == nil || !strings.Contains(err.Error(), "MaxFeatures") {
			t.Errorf("newton on %d terms: %v", rc.VocabularySize, err)
		}
	}
}

// TestTextConformance runs the shared checks on a slice of sms_spam, the
// 200 most frequent terms fitted by Newton, which reaches the optimum to
// rounding: L-BFGS stops where float64 no longer resolves the objective,
// a point that moves with the order of the rows by about 1e-9 in the
// probabilities, the permutation check's tolerance (TestTextSolvers
// checks that L-BFGS reaches the same optimum to 1e-6).
func TestTextConformance(t *testing.T) {
	d := bundled.Load(t, "sms_spam", dataio.Options{Text: []string{"text"}})
	d = d.Subset(firstRows(600))
	conformance.Check(t, func(d *data.Dataset) (gendisc.Classifier, error) {
		return Config{Solver: Newton, Tol: 1e-12, Text: text.VectorizerConfig{MaxFeatures: 200}}.Fit(d)
	}, d, conformance.Decode(func(b []byte) (gendisc.Classifier, error) {
		return UnmarshalLogistic(d.Schema, b)
	}))
}

// TestTextSolvers checks that gd, sgd and lbfgs reach Newton's optimum on
// term counts (binary, and three classes: long ham messages made a class
// of their own), the vocabulary cut to the 60 most frequent terms in at
// least 2 messages so that Newton's Hessian stays small, and λ = 10 so
// that the first-order methods, which need O(condition number)
// iterations, get there within their limits.
func TestTextSolvers(t *testing.T) {
	d := bundled.Load(t, "sms_spam", dataio.Options{Text: []string{"text"}}).Subset(firstRows(400))
	three := d.Subset(firstRows(d.N))
	three.Schema = d.Schema.Clone()
	three.Schema.Target.Levels = append(three.Schema.Target.Levels, "long ham")
	for i, doc := range three.Text[0] {
		if three.Y[i] == 0 && len(doc) > 60 {
			three.Y[i] = 2
		}
	}
	vec := text.VectorizerConfig{MaxFeatures: 60, MinDF: text.DocFreq{Count: 2}}
	for name, d := range map[string]*data.Dataset{"binary": d, "three": three} {
		want := fit(t, Config{L2: 10, Text: vec, Solver: Newton, Tol: 1e-12}, d)
		if n := len(want.Terms()); n != 60 {
			t.Fatalf("%d terms", n)
		}
		for _, s := range []Solver{LBFGS, GD, SGD} {
			t.Run(name+"/"+string(s), func(t *testing.T) {
				got := fit(t, Config{L2: 10, Text: vec, Solver: s, Tol: 1e-10, Rand: rand.New(rand.NewPCG(7, 7))}, d)
				diag := got.Diagnostics()
				t.Logf("%+v", diag)
				if !diag.Converged {
					t.Errorf("not converged: %s", diag.Warning)
				}
				compareCoefficients(t, got, want, 1e-6)
			})
		}
	}
}
