package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/mixture"
)

// parseScores reads the score CSV, checking its header and that the bits
// column is the nats column over ln 2.
func parseScores(t *testing.T, text string) []float64 {
	t.Helper()
	rows := readCSV(t, text)
	if h := strings.Join(rows[0], ","); h != "log_p_nats,log_p_bits" {
		t.Fatalf("header %q", h)
	}
	var out []float64
	for i, r := range rows[1:] {
		nats, err1 := strconv.ParseFloat(r[0], 64)
		bits, err2 := strconv.ParseFloat(r[1], 64)
		if err1 != nil || err2 != nil || bits != nats/math.Ln2 {
			t.Fatalf("row %d: %q", i+1, r)
		}
		out = append(out, nats)
	}
	return out
}

// TestScoreByHand checks score on a one-feature Gaussian naive Bayes model
// against the density computed by hand, with a missing cell marginalised.
func TestScoreByHand(t *testing.T) {
	dir := t.TempDir()
	train := filepath.Join(dir, "train.csv")
	os.WriteFile(train, []byte("x,class\n0,a\n2,a\n4,b\n6,b\n8,b\n"), 0o644)
	test := filepath.Join(dir, "test.csv")
	os.WriteFile(test, []byte("x\n3\n\n-1\nNA\n"), 0o644)
	model := filepath.Join(dir, "m.json")
	mustRun(t, "fit", "--data", train, "--model", "gaussian-nb", "--var-smoothing", "0", "--out", model)
	got := parseScores(t, mustRun(t, "score", "--model", model, "--data", test, "--quiet"))
	// Class a: π 2/5, μ 1, σ² 1; class b: π 3/5, μ 6, σ² 8/3.
	normal := func(x, mu, v float64) float64 { return math.Exp(-(x-mu)*(x-mu)/(2*v)) / math.Sqrt(2*math.Pi*v) }
	want := []float64{
		math.Log(0.4*normal(3, 1, 1) + 0.6*normal(3, 6, 8.0/3)),
		math.Log(0.4*normal(-1, 1, 1) + 0.6*normal(-1, 6, 8.0/3)),
		0, // nothing observed: log Σ_k π_k
	}
	if len(got) != len(want) {
		t.Fatalf("%d scores, want %d", len(got), len(want))
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-14*math.Max(1, math.Abs(want[i])) {
			t.Errorf("row %d: log p(x) = %v, want %v", i+1, got[i], want[i])
		}
	}
}

// TestScoreEveryGenerativeKind checks the scores of every generative kind
// on wine with missing cells: a mixture's scores are its ScoreSamples bit
// for bit; a classifier's satisfy Bayes' rule with its own posteriors,
// log p(x) = log p(x, y=k) − log P(y=k | x) for every class k, and their
// exponentials are the sum of the joint densities.
func TestScoreEveryGenerativeKind(t *testing.T) {
	dir := t.TempDir()
	header, rows := bundledRows(t, "wine")
	for i := range rows {
		if i%4 == 0 {
			cells := strings.Split(rows[i], ",")
			cells[i%13] = ""
			rows[i] = strings.Join(cells, ",")
		}
	}
	in := writeRows(t, dir, "wine.csv", header, rows)
	for _, kind := range []string{"gaussian-nb", "lda", "qda", "mda", "gmm"} {
		t.Run(kind, func(t *testing.T) {
			model := filepath.Join(dir, kind+".json")
			mustRun(t, "fit", "--data", "wine", "--model", kind, "--out", model)
			got := parseScores(t, mustRun(t, "score", "--model", model, "--data", in, "--quiet"))
			_, m, err := (&Env{}).loadModel(model)
			if err != nil {
				t.Fatal(err)
			}
			d, err := dataio.ReadFile(in, dataio.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != d.N {
				t.Fatalf("%d scores, want %d", len(got), d.N)
			}
			d.Y = nil
			if g, ok := m.(*mixture.GMM); ok {
				want := g.ScoreSamples(nil, d)
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("row %d: %v, ScoreSamples %v", i+1, got[i], want[i])
					}
				}
				return
			}
			c := m.(gendisc.Generative)
			K := len(c.Classes())
			joint, post := c.JointLogLikelihood(nil, d), c.LogProba(nil, d)
			for i := range d.N {
				sum := 0.0
				for k := range K {
					sum += math.Exp(joint[i*K+k])
					if v := joint[i*K+k] - post[i*K+k]; math.Abs(v-got[i]) > 1e-9*math.Max(1, math.Abs(got[i])) {
						t.Fatalf("row %d, class %d: log p(x, y) − log P(y | x) = %v, score %v", i+1, k, v, got[i])
					}
				}
				if want := math.Log(sum); math.Abs(want-got[i]) > 1e-12*math.Max(1, math.Abs(want)) {
					t.Fatalf("row %d: log Σ_k p(x, y=k) = %v, score %v", i+1, want, got[i])
				}
			}
		})
	}
}

// TestScoreGolden keeps the scores, the summary line and the JSON summary
// of Gaussian naive Bayes on iris, and checks that the summary is the
// mean of the rows.
func TestScoreGolden(t *testing.T) {
	model := fitIris(t)
	r := runCLI(t, "", "score", "--model", model, "--data", "iris")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	golden(t, "score_iris.csv", r.stdout)
	golden(t, "score_iris.golden", r.stderr)
	out := filepath.Join(t.TempDir(), "s.csv")
	js := mustRun(t, "score", "--model", model, "--data", "iris", "--json", "--out", out)
	golden(t, "score_iris.json", js)
	b, err := os.ReadFile(out)
	if err != nil || string(b) != r.stdout {
		t.Errorf("score --json --out wrote %q (%v), want the scores", b, err)
	}
	var s struct {
		Rows     int
		MeanNats float64 `json:"mean_log_likelihood_nats"`
	}
	if err := json.Unmarshal([]byte(js), &s); err != nil {
		t.Fatal(err)
	}
	total := 0.0
	for _, v := range parseScores(t, r.stdout) {
		total += v
	}
	if s.Rows != 150 || s.MeanNats != total/150 {
		t.Errorf("summary %+v, want 150 rows of mean %v", s, total/150)
	}
}

// TestScoreBadInput checks the failures of score: one line, exit status 1
// (2 for misuse), no output file.
func TestScoreBadInput(t *testing.T) {
	dir := t.TempDir()
	nb, logistic := filepath.Join(dir, "nb.json"), filepath.Join(dir, "logistic.json")
	mustRun(t, "fit", "--data", "iris", "--model", "gaussian-nb", "--out", nb)
	mustRun(t, "fit", "--data", "iris", "--model", "logistic", "--out", logistic)
	header := "sepallength,sepalwidth,petallength,petalwidth\n"
	for _, tc := range []struct {
		name  string
		model string
		file  string
		args  []string
		code  int
		want  string
	}{
		{"discriminative model", logistic, header + "1,2,3,4\n", nil, 1, "a logistic model is not generative: it has no density p(x) to score"},
		{"missing column", nb, "sepallength,sepalwidth,petallength\n1,2,3\n", nil, 1, `"petalwidth"`},
		{"not a number", nb, header + "1,2,3,4\n1,2,x,4\n", nil, 1, "in.csv:3:3"},
		{"header only", nb, header, nil, 1, "in.csv"},
		{"json to stdout twice", nb, header + "1,2,3,4\n", []string{"--json", "--out", "-"}, 2, "--json and --out - would both write to standard output"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "in.csv")
			os.WriteFile(in, []byte(tc.file), 0o644)
			args := append([]string{"score", "--model", tc.model, "--data", in}, tc.args...)
			if tc.args == nil {
				args = append(args, "--out", filepath.Join(dir, "s.csv"))
			}
			r := runCLI(t, "", args...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.want) || tc.code == 1 && strings.Count(r.stderr, "\n") != 1 || r.stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q", r.code, r.stdout, r.stderr, tc.code, tc.want)
			}
			assertFiles(t, dir, "in.csv")
		})
	}
}

// TestScoreReference checks the scores of Gaussian naive Bayes on iris
// against scikit-learn's GaussianNB (testdata/gen_score_reference.py).
func TestScoreReference(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "score_reference_iris.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		LogP []float64 `json:"log_p"`
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	got := parseScores(t, mustRun(t, "score", "--model", fitIris(t), "--data", "iris", "--quiet"))
	if len(got) != len(ref.LogP) {
		t.Fatalf("%d scores, want %d", len(got), len(ref.LogP))
	}
	for i, want := range ref.LogP {
		if math.Abs(got[i]-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("row %d: log p(x) = %v, scikit-learn %v", i+1, got[i], want)
		}
	}
}

// TestScoreUnseenWords: under naive Bayes models of text, a document of
// words outside the vocabulary scores below an ordinary one (it scored
// 0 nats, the highest possible, when such words were left out), and an
// empty document, no observation, scores 0 with a warning.
func TestScoreUnseenWords(t *testing.T) {
	dir := t.TempDir()
	docs := filepath.Join(dir, "docs.csv")
	os.WriteFile(docs, []byte("text,class\nok lor see you later,ham\nzzqx qqvw blorf,ham\n\"\",ham\nok zzqx,ham\n"), 0o644)
	for _, kind := range []string{"multinomial-nb", "nb"} {
		model := filepath.Join(dir, kind+".json")
		mustRun(t, "fit", "--data", "sms_spam", "--model", kind, "--quiet", "--out", model)
		r := runCLI(t, "", "score", "--model", model, "--data", docs)
		warning := "gendisc: warning: " + docs + `: column "text": 1 empty document is no observation, adding 0 nats to the score of its row as a missing cell` + "\n"
		if r.code != 0 || !strings.HasPrefix(r.stderr, warning) {
			t.Fatalf("%s: exit %d, stderr %q; want the warning %q", kind, r.code, r.stderr, warning)
		}
		golden(t, "score_unseen_words.csv", r.stdout)
		got := parseScores(t, r.stdout)
		if !(got[1] < got[0] && got[1] < -30 && got[3] < -10 && math.Abs(got[2]) < 1e-15) {
			t.Errorf("%s: scores %v: want the unseen words low, the empty document 0", kind, got)
		}
	}
}

// TestScoreAndPredictFarRows checks score and predict on rows so far out
// that their log-likelihood is below float64's range: score writes
// -1.7976931348623157e+308 in both columns and warns how many rows, its
// JSON summary holds numbers only; predict writes finite probabilities,
// the wider class winning far out. Before, score wrote -Inf and predict
// NaN.
func TestScoreAndPredictFarRows(t *testing.T) {
	dir := t.TempDir()
	train := filepath.Join(dir, "train.csv")
	os.WriteFile(train, []byte("x,class\n0,a\n2,a\n4,b\n8,b\n12,b\n"), 0o644)
	test := filepath.Join(dir, "test.csv")
	os.WriteFile(test, []byte("x\n3\n1e300\n-1e200\n"), 0o644)
	model := filepath.Join(dir, "m.json")
	mustRun(t, "fit", "--data", train, "--model", "gaussian-nb", "--out", model)
	r := runCLI(t, "", "score", "--model", model, "--data", test)
	rows := readCSV(t, r.stdout)
	if r.code != 0 || len(rows) != 4 {
		t.Fatalf("exit %d, output:\n%s%s", r.code, r.stdout, r.stderr)
	}
	if v, err := strconv.ParseFloat(rows[1][0], 64); err != nil || math.IsInf(v, 0) || v != v {
		t.Errorf("ordinary row: %q", rows[1])
	}
	for _, row := range rows[2:] {
		if row[0] != "-1.7976931348623157e+308" || row[1] != "-1.7976931348623157e+308" {
			t.Errorf("far row: %q, want -1.7976931348623157e+308 twice", row)
		}
	}
	if !strings.Contains(r.stderr, "2 of 3 rows have a log-likelihood below -1.8e308") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	js := mustRun(t, "score", "--model", model, "--data", test, "--json", "--quiet")
	var summary map[string]any
	if err := json.Unmarshal([]byte(js), &summary); err != nil {
		t.Fatal(err)
	}
	for k, v := range summary {
		if _, ok := v.(float64); !ok {
			t.Errorf("summary %s = %v, not a number", k, v)
		}
	}
	want := [][]string{{"prediction", "p_a", "p_b"}, nil, {"b", "0", "1"}, {"b", "0", "1"}}
	for i, row := range readCSV(t, mustRun(t, "predict", "--model", model, "--data", test)) {
		if want[i] != nil && strings.Join(row, ",") != strings.Join(want[i], ",") {
			t.Errorf("predict row %d: %q, want %q", i, row, want[i])
		}
	}
}
