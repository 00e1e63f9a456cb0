package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/naivebayes"
	"github.com/gendisc/gendisc/text"
)

func init() {
	kindData["categorical-nb"] = "mushroom"
}

// TestNBFlags checks that the flags of the naive Bayes kinds reach
// naivebayes.Config: the saved parameters are those of the library fit
// with the same settings.
func TestNBFlags(t *testing.T) {
	sms, err := (&Env{}).readData("sms_spam", dataio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	votes, err := (&Env{}).readData("house_votes84", dataio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		kind  string
		flags []string
		d     *data.Dataset
		cfg   naivebayes.Config
	}{
		{"multinomial-nb", []string{"--alpha", "0.5", "--ngrams", "1-2", "--min-df", "2", "--stop-words", "english", "--prior-alpha", "1"}, sms,
			naivebayes.Config{Family: naivebayes.Multinomial, Alpha: 0.5, PriorAlpha: 1,
				Text: text.VectorizerConfig{NGrams: text.NGrams{Min: 1, Max: 2}, MinDF: text.DocFreq{Count: 2}, StopWords: "english"}}},
		{"bernoulli-nb", []string{"--max-features", "500", "--max-df", "0.5", "--class-prior", "ham=0.5,spam=0.5"}, sms,
			naivebayes.Config{Family: naivebayes.Bernoulli, ClassPrior: map[string]float64{"ham": 0.5, "spam": 0.5},
				Text: text.VectorizerConfig{MaxFeatures: 500, MaxDF: text.DocFreq{Fraction: 0.5}}}},
		{"complement-nb", []string{"--norm", "--alpha", "2"}, sms, naivebayes.Config{Family: naivebayes.Complement, Norm: true, Alpha: 2}},
		{"nb", []string{"--text-model", "bernoulli"}, sms, naivebayes.Config{TextModel: naivebayes.TextBernoulli}},
		{"categorical-nb", []string{"--alpha", "0"}, votes, naivebayes.Config{Family: naivebayes.Categorical, Alpha: naivebayes.NoAlpha}},
		{"bernoulli-nb", []string{"--binarize", "0.5"}, votes, naivebayes.Config{Family: naivebayes.Bernoulli, Binarize: 0.5}},
	} {
		t.Run(tc.kind+" "+strings.Join(tc.flags, " "), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "m.json")
			mustRun(t, append([]string{"fit", "--data", tc.d.Source.Name, "--model", tc.kind, "--out", path}, tc.flags...)...)
			e, err := modelfile.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			m, err := tc.cfg.Fit(tc.d)
			if err != nil {
				t.Fatal(err)
			}
			want, err := m.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			var a, b bytes.Buffer
			json.Compact(&a, e.Params)
			json.Compact(&b, want)
			if a.String() != b.String() {
				t.Errorf("saved parameters differ from the library's fit")
			}
		})
	}
}

// TestNBUpdateEqualsFit: fit on a part and update with the rest gives the
// model fit on the whole, through the files, bit for bit (counts add
// exactly), with classes, category levels and words that only the second
// part has.
func TestNBUpdateEqualsFit(t *testing.T) {
	for _, tc := range []struct {
		kind, data string
		second     func(fields []string) bool // rows only the second part has
		flags      []string
	}{
		{kind: "multinomial-nb", data: "sms_spam", flags: []string{"--min-df", "2"}},
		{kind: "multinomial-nb", data: "iris", second: func(f []string) bool { return f[4] == "Iris-setosa" }},
		{kind: "bernoulli-nb", data: "house_votes84"},
		{kind: "categorical-nb", data: "mushroom", second: func(f []string) bool { return f[4] == "m" || f[4] == "c" }},
		{kind: "complement-nb", data: "breast_cancer_wisconsin", flags: []string{"--norm"}},
		{kind: "nb", data: "house_votes84", flags: []string{"--alpha", "0.5"}},
	} {
		t.Run(tc.kind+"/"+tc.data, func(t *testing.T) {
			updated, whole, all := updateAndFitAll(t, tc.kind, tc.data, tc.flags, func(i int, r string) bool {
				return i%3 == 0 || tc.second != nil && tc.second(strings.Split(r, ","))
			})
			equal, total := sameJoint(t, updated, whole, all, 1e-12)
			if equal != total {
				t.Errorf("%d of %d joint log-likelihoods equal bit for bit; counts add exactly", equal, total)
			}
		})
	}
}

// TestNBVerboseAndAlphaZero: predict --verbose counts the words the model
// has not seen; fit --alpha 0 warns, and a row that no class can produce
// is an error naming its line.
func TestNBVerboseAndAlphaZero(t *testing.T) {
	dir := t.TempDir()
	train := filepath.Join(dir, "train.csv")
	os.WriteFile(train, []byte("colour,note,class\nred,cheap pills,spam\nblue,see you soon,ham\nred,soon cheap,spam\n"), 0o644)
	test := filepath.Join(dir, "test.csv")
	os.WriteFile(test, []byte("colour,note,class\nred,brand new words soon,spam\nblue,cheap,ham\n"), 0o644)
	model := filepath.Join(dir, "m.json")
	mustRun(t, "fit", "--data", train, "--model", "nb", "--text", "note", "--out", model)
	r := runCLI(t, "", "predict", "--model", model, "--data", test, "--verbose")
	if r.code != 0 || !strings.Contains(r.stderr, `column "note": 3 words not in the model's vocabulary, ignored`) {
		t.Errorf("predict --verbose: exit %d, stderr %q", r.code, r.stderr)
	}
	one := filepath.Join(dir, "one.csv")
	os.WriteFile(one, []byte("colour,note,class\nred,brand soon,spam\n"), 0o644)
	r = runCLI(t, "", "predict", "--model", model, "--data", one, "--verbose")
	if r.code != 0 || !strings.Contains(r.stderr, `column "note": 1 word not in the model's vocabulary, ignored`) {
		t.Errorf("predict --verbose, one unseen word: exit %d, stderr %q", r.code, r.stderr)
	}
	r = runCLI(t, "", "fit", "--data", train, "--model", "nb", "--text", "note", "--alpha", "0", "--out", model)
	if r.code != 0 || !strings.Contains(r.stderr, "warning: alpha 0") {
		t.Fatalf("fit --alpha 0: exit %d, stderr %q", r.code, r.stderr)
	}
	// Row 3 of test.csv: blue (only ham) and cheap (only spam).
	for _, cmd := range []string{"predict", "eval"} {
		r = runCLI(t, "", cmd, "--model", model, "--data", test)
		if r.code != 1 || !strings.Contains(r.stderr, "test.csv:3") || !strings.Contains(r.stderr, "no class can produce this row") {
			t.Errorf("%s with alpha 0: exit %d, stderr %q", cmd, r.code, r.stderr)
		}
	}
}

// TestNBBadInput: a negative count names its file, line and column.
func TestNBBadInput(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "neg.csv")
	os.WriteFile(path, []byte("a,b,class\n1,2,x\n3,-1,y\n"), 0o644)
	r := runCLI(t, "", "fit", "--data", path, "--model", "multinomial-nb", "--out", filepath.Join(dir, "m.json"))
	if r.code != 1 || !strings.Contains(r.stderr, `neg.csv:3:2: column "b": negative count`) {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "m.json")); err == nil {
		t.Errorf("left a model file")
	}
	r = runCLI(t, "", "fit", "--data", "iris", "--model", "categorical-nb")
	if r.code != 1 || !strings.Contains(r.stderr, "categorical-nb takes categorical columns only") {
		t.Errorf("categorical-nb on iris: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestNBInspect: inspect shows the words of largest log-ratio of a text
// model and the value probabilities of categorical features.
func TestNBInspect(t *testing.T) {
	dir := t.TempDir()
	sms, votes := filepath.Join(dir, "sms.json"), filepath.Join(dir, "votes.json")
	mustRun(t, "fit", "--data", "sms_spam", "--model", "multinomial-nb", "--out", sms)
	mustRun(t, "fit", "--data", "house_votes84", "--model", "nb", "--out", votes)
	out := mustRun(t, "inspect", "--model", sms)
	for _, s := range []string{"features (1): text (text)\n", "text: 8750 words", "spam: claim (", "ham: gt ("} {
		if !strings.Contains(out, s) {
			t.Errorf("inspect lacks %q:\n%s", s, out)
		}
	}
	out = mustRun(t, "inspect", "--model", votes)
	if !strings.Contains(out, "physician-fee-freeze: P(value | class)") {
		t.Errorf("inspect lacks the value probabilities:\n%s", out)
	}
	var wrap struct{ Parameters nbReport }
	if err := json.Unmarshal([]byte(mustRun(t, "inspect", "--model", votes, "--json")), &wrap); err != nil {
		t.Fatal(err)
	}
	rep := wrap.Parameters
	if len(rep.Categorical) != 16 || len(rep.Categorical[0].Probabilities) != 2 {
		t.Errorf("inspect --json: %d categorical features", len(rep.Categorical))
	}
	for _, c := range rep.Categorical {
		for _, p := range c.Probabilities {
			if s := p[0] + p[1]; s < 1-1e-12 || s > 1+1e-12 {
				t.Errorf("%s: probabilities sum to %v", c.Feature, s)
			}
		}
	}
}

// TestNBFitStreamEqualsFit: fit --stream in small chunks, in which classes,
// category levels and words first appear in later chunks, gives the model
// of fit bit for bit.
func TestNBFitStreamEqualsFit(t *testing.T) {
	smallChunks(t, 2000)
	for _, tc := range []struct {
		kind, data string
		rows       int // the first rows of the data set
		flags      []string
	}{
		{kind: "multinomial-nb", data: "sms_spam", rows: 600, flags: []string{"--ngrams", "1-2", "--min-df", "2"}},
		{kind: "bernoulli-nb", data: "sms_spam", rows: 600},
		{kind: "categorical-nb", data: "mushroom", rows: 800},
		{kind: "nb", data: "house_votes84", rows: 435},
	} {
		t.Run(tc.kind+"/"+tc.data, func(t *testing.T) {
			dir := t.TempDir()
			header, rows := bundledRows(t, tc.data)
			in := writeRows(t, dir, "in.csv", header, rows[:tc.rows])
			whole, streamed := filepath.Join(dir, "whole.json"), filepath.Join(dir, "streamed.json")
			mustRun(t, append([]string{"fit", "--model", tc.kind, "--data", in, "--out", whole}, tc.flags...)...)
			r := runCLI(t, "", append([]string{"fit", "--model", tc.kind, "--data", in, "--out", streamed, "--stream", "--verbose"}, tc.flags...)...)
			if r.code != 0 || strings.Contains(r.stderr, " in 1 chunks") {
				t.Fatalf("fit --stream: exit %d: %s", r.code, r.stderr)
			}
			equal, total := sameJoint(t, loadGenerative(t, streamed), loadGenerative(t, whole), in, 0)
			if equal != total {
				t.Errorf("%d of %d joint log-likelihoods equal bit for bit", equal, total)
			}
		})
	}
}
