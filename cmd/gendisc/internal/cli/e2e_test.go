package cli

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/naivebayes"
	"github.com/gendisc/gendisc/registry"
)

// fitIris fits Gaussian naive Bayes to the bundled iris data into a model
// file in a temporary directory and returns its path.
func fitIris(t *testing.T, flags ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "iris.json")
	mustRun(t, append([]string{"fit", "--data", "iris", "--model", "gaussian-nb", "--out", path}, flags...)...)
	return path
}

// TestGolden runs the main commands on the bundled iris data and compares
// their output with the files in testdata.
func TestGolden(t *testing.T) {
	model := fitIris(t)
	b, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "fit_iris.json", string(b))
	golden(t, "predict_iris.csv", mustRun(t, "predict", "--model", model, "--data", "iris"))
	golden(t, "eval_iris.golden", mustRun(t, "eval", "--model", model, "--data", "iris"))
	golden(t, "eval_iris.json", mustRun(t, "eval", "--model", model, "--data", "iris", "--json"))
	golden(t, "inspect_iris.golden", mustRun(t, "inspect", "--model", model))
	golden(t, "inspect_iris.json", mustRun(t, "inspect", "--model", model, "--json"))
	golden(t, "datasets.golden", mustRun(t, "datasets"))
}

// TestPredictMatchesLibrary checks the prediction file against the model's
// own LogProba: the class with the highest probability, and every
// probability bit for bit.
func TestPredictMatchesLibrary(t *testing.T) {
	model := fitIris(t, "--variance", "feature", "--prior-alpha", "1")
	out := filepath.Join(t.TempDir(), "p.csv")
	mustRun(t, "predict", "--model", model, "--data", "iris", "--out", out)

	e, err := modelfile.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	m, err := naivebayes.UnmarshalGaussian(e.Schema, e.Params)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Config().Variance; got != naivebayes.FeatureVariance {
		t.Errorf("--variance feature gave tying %v", got)
	}
	d := bundled.LoadSchema(t, "iris", m.Schema(), dataio.SchemaOptions{})
	lp := m.LogProba(nil, d)

	f, _ := os.ReadFile(out)
	rows, err := csv.NewReader(bytes.NewReader(f)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	K := len(m.Classes())
	if want := append([]string{"prediction"}, "p_Iris-setosa", "p_Iris-versicolor", "p_Iris-virginica"); strings.Join(rows[0], ",") != strings.Join(want, ",") {
		t.Fatalf("header %q, want %q", rows[0], want)
	}
	if len(rows) != d.N+1 {
		t.Fatalf("%d rows, want %d", len(rows)-1, d.N)
	}
	for i, row := range rows[1:] {
		best := 0
		for k := range K {
			p, err := strconv.ParseFloat(row[k+1], 64)
			if err != nil || p != math.Exp(lp[i*K+k]) {
				t.Fatalf("row %d: p_%s = %s, want %v", i+1, m.Classes()[k], row[k+1], math.Exp(lp[i*K+k]))
			}
			if lp[i*K+k] > lp[i*K+best] {
				best = k
			}
		}
		if row[0] != m.Classes()[best] {
			t.Errorf("row %d: prediction %s, want %s", i+1, row[0], m.Classes()[best])
		}
	}
}

// TestStreams fits from standard input to standard output and predicts
// with the model read from standard input.
func TestStreams(t *testing.T) {
	r, _ := datasets.Open("iris")
	csvText, _ := readAll(r)
	fitted := runCLI(t, csvText, "fit", "--data", "-", "--model", "nb")
	if fitted.code != 0 {
		t.Fatalf("fit from stdin: exit %d: %s", fitted.code, fitted.stderr)
	}
	pred := runCLI(t, fitted.stdout, "predict", "--model", "-", "--data", "iris")
	if pred.code != 0 {
		t.Fatalf("predict with the model on stdin: exit %d: %s", pred.code, pred.stderr)
	}
	want := mustRun(t, "predict", "--model", fitIris(t), "--data", "iris")
	if pred.stdout != want {
		t.Errorf("nb from stdin predicts differently from gaussian-nb from the bundled data")
	}
}

func readAll(r interface{ Read([]byte) (int, error) }) (string, error) {
	var b bytes.Buffer
	_, err := b.ReadFrom(r)
	return b.String(), err
}

// TestDataFileFirst checks that --data NAME reads the file NAME when there
// is one, and the bundled data set otherwise.
func TestDataFileFirst(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.WriteFile("iris", []byte("x,class\n1,a\n2,a\n3,b\n5,b\n"), 0o644)
	out := mustRun(t, "fit", "--data", "iris", "--verbose")
	var env struct{ Schema data.Schema }
	if err := json.Unmarshal([]byte(out), &env); err != nil {
		t.Fatal(err)
	}
	if len(env.Schema.Features) != 1 || env.Schema.Features[0].Name != "x" {
		t.Errorf("--data iris did not read the file iris: schema %+v", env.Schema)
	}
	r := runCLI(t, "", "fit", "--data", "wine", "--verbose", "--out", "w.json")
	if r.code != 0 || !strings.Contains(r.stderr, "wine: 178 rows, 13 features, 3 classes") {
		t.Errorf("fit --data wine --verbose: exit %d, stderr %q", r.code, r.stderr)
	}
	r = runCLI(t, "", "fit", "--data", "wine", "--quiet", "--verbose", "--out", "w.json")
	if r.code != 0 || r.stderr != "" {
		t.Errorf("--quiet --verbose: exit %d, stderr %q; want nothing", r.code, r.stderr)
	}
	r = runCLI(t, "", "fit", "--data", "no-such-data")
	if r.code != 1 || !strings.Contains(r.stderr, "no-such-data: no such file, nor a bundled data set or corpus (adult, ") {
		t.Errorf("fit --data no-such-data: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestBadInput checks SPEC section 5: every data problem ends with exit
// status 1, one line on stderr that names the file and, where one applies,
// the line and column, and no output file.
func TestBadInput(t *testing.T) {
	model := fitIris(t)
	good, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	iris := "sepallength,sepalwidth,petallength,petalwidth,class\n"
	for _, tc := range []struct {
		name  string
		file  string   // written to the input file in.csv (model.json for model cases)
		args  []string // IN is replaced by the input's path, OUT by the output's
		want  string   // in the message, after "gendisc: "
		model bool     // file is a model file
	}{
		{name: "ragged row", file: "a,b,class\n1,2,x\n3,y\n",
			args: []string{"fit", "--data", "IN"}, want: "in.csv:3:3: column \"class\": wrong number of fields: line 3 has 2 fields, the header has 3"},
		{name: "empty file", file: "",
			args: []string{"fit", "--data", "IN"}, want: "in.csv: empty file"},
		{name: "header only", file: "a,b,class\n",
			args: []string{"fit", "--data", "IN"}, want: "in.csv"},
		{name: "missing target column", file: "a,b,class\n1,2,x\n3,4,y\n",
			args: []string{"fit", "--data", "IN", "--target", "label"}, want: `"label"`},
		{name: "one class only", file: "a,b,class\n1,2,x\n3,4,x\n",
			args: []string{"fit", "--data", "IN"}, want: "in.csv"},
		{name: "zero variance", file: "a,b,class\n1,2,x\n1,4,y\n1,5,x\n1,3,y\n",
			args: []string{"fit", "--data", "IN", "--var-smoothing", "0"}, want: `"a"`},
		{name: "infinity", file: "a,b,class\n1,2,x\n3,inf,y\n",
			args: []string{"fit", "--data", "IN"}, want: "in.csv:3:2"},
		{name: "overflow", file: "a,b,class\n1,2,x\n3,1e999,y\n",
			args: []string{"fit", "--data", "IN"}, want: "in.csv:3:2"},
		{name: "not a number in a numeric column", file: iris + "5.1,3.5,1.4,0.2,Iris-setosa\n4.9,three,1.4,0.2,Iris-setosa\n",
			args: []string{"predict", "--model", model, "--data", "IN"}, want: "in.csv:3:2"},
		{name: "not a number in a column forced numeric", file: "a,b,class\n1,2,x\n3,oops,y\n",
			args: []string{"fit", "--data", "IN", "--numeric", "b"}, want: `in.csv:3:2: column "b": not a number: "oops"`},
		{name: "prediction file lacks a column", file: "sepallength,sepalwidth,petallength\n5.1,3.5,1.4\n",
			args: []string{"predict", "--model", model, "--data", "IN"}, want: `"petalwidth"`},
		{name: "eval without the target", file: "sepallength,sepalwidth,petallength,petalwidth\n5.1,3.5,1.4,0.2\n",
			args: []string{"eval", "--model", model, "--data", "IN"}, want: `"class"`},
		{name: "truncated model", file: string(good[:len(good)/2]), model: true,
			args: []string{"predict", "--model", "IN", "--data", "iris"}, want: "model.json: "},
		{name: "foreign model", file: `{"hello": "world"}`, model: true,
			args: []string{"inspect", "--model", "IN"}, want: "model.json: "},
		{name: "newer model", file: strings.Replace(string(good), `"version": 1`, `"version": 99`, 1), model: true,
			args: []string{"eval", "--model", "IN", "--data", "iris"}, want: "model.json: "},
		{name: "edited model", file: strings.Replace(string(good), "Iris-setosa", "Iris-setosb", 1), model: true,
			args: []string{"predict", "--model", "IN", "--data", "iris"}, want: "model.json: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "in.csv")
			if tc.model {
				in = filepath.Join(dir, "model.json")
			}
			if err := os.WriteFile(in, []byte(tc.file), 0o644); err != nil {
				t.Fatal(err)
			}
			args := make([]string, 0, len(tc.args)+2)
			for _, a := range tc.args {
				args = append(args, strings.NewReplacer("IN", in).Replace(a))
			}
			if args[0] != "eval" && args[0] != "inspect" {
				args = append(args, "--out", filepath.Join(dir, "out"))
			}
			r := runCLI(t, "", args...)
			if r.code != 1 {
				t.Errorf("exit %d, want 1; stderr %q", r.code, r.stderr)
			}
			if !strings.HasPrefix(r.stderr, "gendisc: ") || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("stderr %q: want one line \"gendisc: ...\" containing %q", r.stderr, tc.want)
			}
			if r.stdout != "" {
				t.Errorf("stdout %q, want nothing", r.stdout)
			}
			assertFiles(t, dir, filepath.Base(in))
		})
	}
}

// TestUnseenClass checks that predict and score read a class the model
// never saw as missing, since they do not need the labels, while eval
// counts its rows as errors (TestEvalUnseenClass) and refuses data with
// no row of a class the model knows.
func TestUnseenClass(t *testing.T) {
	model := fitIris(t)
	in := filepath.Join(t.TempDir(), "x.csv")
	os.WriteFile(in, []byte("sepallength,sepalwidth,petallength,petalwidth,class\n5.1,3.5,1.4,0.2,Iris-foo\n"), 0o644)
	for _, cmd := range []string{"predict", "score"} {
		if r := runCLI(t, "", cmd, "--model", model, "--data", in); r.code != 0 || strings.Count(r.stdout, "\n") != 2 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", cmd, r.code, r.stdout, r.stderr)
		}
	}
	r := runCLI(t, "", "eval", "--model", model, "--data", in)
	if want := in + `: no row of a class the model knows: classes Iris-foo (1) are not among the model's (Iris-setosa, Iris-versicolor, Iris-virginica)`; r.code != 1 || !strings.Contains(r.stderr, want) {
		t.Errorf("eval: exit %d, stderr %q; want exit 1 and %q", r.code, r.stderr, want)
	}
}

// TestWrongKindModelFile checks that every command given a model file of a
// kind that cannot do its work fails as on bad input (exit 1, one line),
// while impute --model KIND of such a kind is a misuse (exit 2).
func TestWrongKindModelFile(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "logistic.json")
	mustRun(t, "fit", "--data", "iris", "--model", "logistic", "--out", model)
	for _, args := range [][]string{
		{"impute", "--model", model, "--data", "iris"},
		{"sample", "--model", model, "-n", "3"},
		{"transform", "--model", model, "--data", "iris"},
		{"score", "--model", model, "--data", "iris"},
		{"update", "--model", model, "--data", "iris"},
	} {
		args = append(args, "--out", filepath.Join(dir, "out"))
		r := runCLI(t, "", args...)
		if want := "gendisc: " + model + ": a logistic model "; r.code != 1 || !strings.HasPrefix(r.stderr, want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 and one line starting %q", args[0], r.code, r.stderr, want)
		}
	}
	r := runCLI(t, "", "impute", "--kind", "logistic", "--data", "iris", "--out", filepath.Join(dir, "out"))
	if r.code != 2 || !strings.Contains(r.stderr, "a logistic model does not impute missing values") {
		t.Errorf("impute --model logistic: exit %d, stderr %q; want exit 2", r.code, r.stderr)
	}
}

// TestMostlyNumericWarning checks the warning about a numeric column with
// a stray word, read as categorical, and the hint when a numeric-only kind
// refuses that column.
func TestMostlyNumericWarning(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.csv")
	var b strings.Builder
	b.WriteString("a,b,y\n")
	for i := range 40 {
		fmt.Fprintf(&b, "%d.5,%d.25,c%d\n", i, i%7, i%2)
	}
	b.WriteString("1,oops,c1\n")
	os.WriteFile(in, []byte(b.String()), 0o644)
	out := filepath.Join(dir, "m.json")
	warning := "gendisc: warning: " + in + `:42:2: column "b": read as categorical, though mostly numbers: 40 of its 41 values are numbers, the first that is not is "oops"; --numeric b reads it as numbers (and reports each cell that is not), --categorical b keeps it categorical` + "\n"
	if r := runCLI(t, "", "fit", "--data", in, "--out", out); r.code != 0 || r.stderr != warning {
		t.Errorf("fit: exit %d, stderr %q; want %q", r.code, r.stderr, warning)
	}
	if r := runCLI(t, "", "fit", "--data", in, "--out", out, "--quiet"); r.code != 0 || r.stderr != "" {
		t.Errorf("fit --quiet: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := runCLI(t, "", "fit", "--data", in, "--out", out, "--categorical", "b"); r.code != 0 || r.stderr != "" {
		t.Errorf("fit --categorical b: exit %d, stderr %q", r.code, r.stderr)
	}
	r := runCLI(t, "", "fit", "--data", in, "--out", out, "--model", "gaussian-nb", "--quiet")
	if want := in + `:42:2 is the first cell of "b" that is not a number; --numeric b reads the column as numbers, --ignore b leaves it out)` + "\n"; r.code != 1 || !strings.HasSuffix(r.stderr, want) {
		t.Errorf("gaussian-nb: exit %d, stderr %q; want exit 1 and a message ending %q", r.code, r.stderr, want)
	}
}

// TestEvalWeight checks that eval --weight weighs the rows.
func TestEvalWeight(t *testing.T) {
	model := fitIris(t)
	in := filepath.Join(t.TempDir(), "w.csv")
	os.WriteFile(in, []byte("w,sepallength,sepalwidth,petallength,petalwidth,class\n"+
		"1,5.1,3.5,1.4,0.2,Iris-setosa\n2,7.0,3.2,4.7,1.4,Iris-versicolor\n3,6.3,3.3,6.0,2.5,Iris-virginica\n0.5,6.3,2.8,5.1,1.5,Iris-virginica\n"), 0o644)
	var rep struct {
		N           int     `json:"n"`
		TotalWeight float64 `json:"total_weight"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "eval", "--model", model, "--data", in, "--weight", "w", "--json")), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.N != 4 || rep.TotalWeight != 6.5 {
		t.Errorf("eval --weight w: n %d, total weight %v; want 4 and 6.5", rep.N, rep.TotalWeight)
	}
}

// logisticFormJSON is the logistic form σ(wᵀx + w0) that inspect --json
// prints for a two-class model with linear log-odds.
type logisticFormJSON struct {
	W  modelfile.Floats
	W0 modelfile.Float
}

// inspectLogisticForm returns the logistic form that inspect --json prints
// for the model file, nil when it prints none.
func inspectLogisticForm(t *testing.T, model string) *logisticFormJSON {
	t.Helper()
	var rep struct {
		Parameters struct{ Logistic *logisticFormJSON }
	}
	if err := json.Unmarshal([]byte(mustRun(t, "inspect", "--model", model, "--json")), &rep); err != nil {
		t.Fatal(err)
	}
	return rep.Parameters.Logistic
}

// TestInspectLogisticForm checks the logistic form that inspect prints for
// two-class Gaussian naive Bayes with shared variances: σ(wᵀx + w0) must be
// the model's posterior of the second class on every row.
func TestInspectLogisticForm(t *testing.T) {
	for _, tying := range []string{"feature", "shared"} {
		model := filepath.Join(t.TempDir(), "pima.json")
		mustRun(t, "fit", "--data", "pima_indians_diabetes", "--model", "gaussian-nb", "--variance", tying, "--out", model)
		lf := inspectLogisticForm(t, model)
		if lf == nil {
			t.Fatalf("--variance %s: no logistic form", tying)
		}
		e, _ := modelfile.Load(model)
		m, err := naivebayes.UnmarshalGaussian(e.Schema, e.Params)
		if err != nil {
			t.Fatal(err)
		}
		d := bundled.LoadSchema(t, "pima_indians_diabetes", m.Schema(), dataio.SchemaOptions{})
		lp := m.LogProba(nil, d)
		for i := range d.N {
			z := float64(lf.W0)
			for j, x := range d.Row(i) {
				z += lf.W[j] * x
			}
			// log σ(z) = −log(1 + e^(−z)), against log P(y = 1 | x).
			if got, want := -math.Log1p(math.Exp(-z)), lp[2*i+1]; math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Fatalf("--variance %s, row %d: log σ(wᵀx + w0) = %v, log posterior %v", tying, i, got, want)
			}
		}
	}
	if strings.Contains(mustRun(t, "inspect", "--model", fitIris(t, "--variance", "feature")), "logistic form") {
		t.Errorf("inspect shows a logistic form for three classes")
	}
}

// kindData names the bundled data set that TestEveryKind fits a kind to,
// for kinds that cannot fit iris, and kindFitFlags the data flags of fit
// that the kind needs with it (a numeric --target).
var (
	kindData     = map[string]string{}
	kindFitFlags = map[string][]string{}
)

// kindTrainingData reads the training data of kind name in TestEveryKind
// as fit does.
func kindTrainingData(t *testing.T, name string) *data.Dataset {
	t.Helper()
	var df dataFlags
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	df.register(fs)
	if err := fs.Parse(kindFitFlags[name]); err != nil {
		t.Fatal(err)
	}
	opt := df.options()
	k, _ := registry.Lookup(name)
	opt.NumericTarget = k.Target == registry.Number
	d, err := (&Env{}).readData(cmp.Or(kindData[name], "iris"), opt)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestEveryKind runs every registered model kind through fit, predict,
// eval and inspect.
func TestEveryKind(t *testing.T) {
	for _, name := range kindNames() {
		t.Run(name, func(t *testing.T) {
			ds := cmp.Or(kindData[name], "iris")
			model := filepath.Join(t.TempDir(), "m.json")
			mustRun(t, append([]string{"fit", "--data", ds, "--model", name, "--out", model}, kindFitFlags[name]...)...)
			var rep struct{ Kind string }
			if err := json.Unmarshal([]byte(mustRun(t, "inspect", "--model", model, "--json")), &rep); err != nil {
				t.Fatalf("inspect --json: %v", err)
			}
			if _, err := registry.Lookup(rep.Kind); !isKind(rep.Kind) || err != nil {
				t.Fatalf("fit --model %s saved a model of kind %q, which cannot be read back", name, rep.Kind)
			}
			if text := mustRun(t, "inspect", "--model", model); !strings.HasPrefix(text, "kind: "+rep.Kind+"\n") {
				t.Errorf("inspect text starts %q", text[:min(len(text), 40)])
			}
			pred := mustRun(t, "predict", "--model", model, "--data", ds)
			if again := mustRun(t, "predict", "--model", model, "--data", ds); again != pred {
				t.Errorf("two predictions with one model file differ")
			}
			_, m, err := (&Env{}).loadModel(model)
			if err != nil {
				t.Fatal(err)
			}
			_, isRegressor := asRegressor(m)
			_, isTagger := m.(gendisc.Tagger)
			switch _, isClassifier := m.(gendisc.Classifier); {
			case isTagger:
				if !strings.HasPrefix(pred, "sentence,token,word,tag\n") {
					t.Errorf("prediction of a tagger starts %q", pred[:min(len(pred), 40)])
				}
			case isRegressor:
				if !strings.HasPrefix(pred, "prediction\n") {
					t.Errorf("prediction of a regression starts %q", pred[:min(len(pred), 40)])
				}
			case !isClassifier:
				if !strings.HasPrefix(pred, "cluster,p_0,") {
					t.Errorf("prediction of a mixture starts %q", pred[:min(len(pred), 40)])
				}
				return // eval needs classes or values
			}
			mustRun(t, "eval", "--model", model, "--data", ds)
		})
	}
}

// TestPredictUnseenVerbose checks that a category never seen in training
// is read as missing and counted: a warning, or with --unseen missing a
// note under --verbose.
func TestPredictUnseenVerbose(t *testing.T) {
	dir := t.TempDir()
	train, test, model := filepath.Join(dir, "train.csv"), filepath.Join(dir, "test.csv"), filepath.Join(dir, "m.json")
	os.WriteFile(train, []byte("color,x,class\nred,1,a\nblue,2,b\nred,1.5,a\nblue,2.5,b\nred,3,b\nblue,0.5,a\n"), 0o644)
	os.WriteFile(test, []byte("color,x\ngreen,1\nred,2\ngreen,3\n"), 0o644)
	mustRun(t, "fit", "--data", train, "--model", "logistic", "--out", model)
	const tail = ` of the model (green; the model has blue, red): treated as missing (--unseen error refuses them)` + "\n"
	r := runCLI(t, "", "predict", "--model", model, "--data", test, "--unseen", "missing", "--verbose")
	if want := test + `: column "color": 2 values are not levels` + tail; r.code != 0 || r.stderr != "gendisc: "+want {
		t.Errorf("exit %d, stderr %q; want gendisc: %q", r.code, r.stderr, want)
	}
	if strings.Count(r.stdout, "\n") != 4 {
		t.Errorf("predictions:\n%s", r.stdout)
	}
	if r := runCLI(t, "", "predict", "--model", model, "--data", test, "--unseen", "missing"); r.stderr != "" {
		t.Errorf("--unseen missing without --verbose, stderr %q", r.stderr)
	}
	os.WriteFile(test, []byte("color,x\ngreen,1\nred,2\n"), 0o644)
	r = runCLI(t, "", "predict", "--model", model, "--data", test)
	if want := test + `: column "color": 1 value is not a level` + tail; r.code != 0 || r.stderr != "gendisc: warning: "+want {
		t.Errorf("one unseen value: exit %d, stderr %q; want gendisc: warning: %q", r.code, r.stderr, want)
	}
}
