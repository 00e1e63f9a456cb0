package cli

import (
	"bytes"
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/linear"
	"github.com/gendisc/gendisc/metrics"
	"github.com/gendisc/gendisc/modelfile"
)

// wineAlcohol are the fit flags that regress wine's alcohol content on
// the other measurements.
var wineAlcohol = []string{"--data", "wine", "--target", "alcohol", "--ignore", "class"}

func init() {
	kindData[linear.Kind] = "wine"
	kindFitFlags[linear.Kind] = wineAlcohol[2:]
}

// fitWineLinear fits linear regression of wine's alcohol with the extra
// flags into a model file and returns its path.
func fitWineLinear(t *testing.T, flags ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "linear.json")
	mustRun(t, slices.Concat([]string{"fit", "--model", "linear", "--out", path}, wineAlcohol, flags)...)
	return path
}

// TestLinearGolden runs predict, eval and inspect on a linear regression
// of wine's alcohol.
func TestLinearGolden(t *testing.T) {
	model := fitWineLinear(t)
	golden(t, "predict_linear_wine.csv", mustRun(t, "predict", "--model", model, "--data", "wine"))
	golden(t, "eval_linear_wine.golden", mustRun(t, "eval", "--model", model, "--data", "wine"))
	golden(t, "eval_linear_wine.json", mustRun(t, "eval", "--model", model, "--data", "wine", "--json"))
	golden(t, "inspect_linear_wine.golden", mustRun(t, "inspect", "--model", model))
	golden(t, "inspect_linear_wine.json", mustRun(t, "inspect", "--model", model, "--json"))
}

// TestLinearMatchesLibrary checks fit's flags against linear.Config on
// the same data: the coefficients inspect reports and the predictions
// bit for bit, and eval's figures against metrics.Regression.
func TestLinearMatchesLibrary(t *testing.T) {
	d := kindTrainingData(t, linear.Kind)
	for _, tc := range []struct {
		flags []string
		cfg   linear.Config
	}{
		{nil, linear.Config{}},
		{[]string{"--l2", "2.5"}, linear.Config{L2: 2.5}},
		{[]string{"--l2", "30", "--no-standardize", "--impute", "mean"}, linear.Config{L2: 30, NoStandardize: true, Impute: true}},
	} {
		t.Run(cmp.Or(strings.Join(tc.flags, " "), "defaults"), func(t *testing.T) {
			want, err := tc.cfg.Fit(d)
			if err != nil {
				t.Fatal(err)
			}
			model := fitWineLinear(t, tc.flags...)

			var rep struct {
				Parameters struct {
					L2, Sigma2, R2, Intercept modelfile.Float
					LogLikelihood             modelfile.Float `json:"log_likelihood"`
					Terms                     []string
					Weights                   modelfile.Floats
					OriginalWeights           modelfile.Floats `json:"original_weights"`
					OriginalIntercept         modelfile.Float  `json:"original_intercept"`
				}
			}
			if err := json.Unmarshal([]byte(mustRun(t, "inspect", "--model", model, "--json")), &rep); err != nil {
				t.Fatal(err)
			}
			p := rep.Parameters
			w, b := want.Coefficients()
			ow, ob := want.OriginalCoefficients()
			if float64(p.L2) != tc.cfg.L2 || float64(p.Sigma2) != want.Sigma2() || float64(p.LogLikelihood) != want.LogLikelihood() ||
				float64(p.R2) != want.R2() || !slices.Equal(p.Terms, want.Terms()) {
				t.Errorf("inspect --json: λ %v σ² %v log L %v R² %v terms %q; want %v %v %v %v %q", p.L2, p.Sigma2,
					p.LogLikelihood, p.R2, p.Terms, tc.cfg.L2, want.Sigma2(), want.LogLikelihood(), want.R2(), want.Terms())
			}
			if !slices.Equal(p.Weights, w) || float64(p.Intercept) != b {
				t.Errorf("θ %v, b %v; want %v, %v", p.Weights, p.Intercept, w, b)
			}
			if !slices.Equal(p.OriginalWeights, ow) || float64(p.OriginalIntercept) != ob {
				t.Errorf("θ in original units %v, b %v; want %v, %v", p.OriginalWeights, p.OriginalIntercept, ow, ob)
			}

			pred := want.Predict(nil, d)
			lines := strings.Split(strings.TrimSuffix(mustRun(t, "predict", "--model", model, "--data", "wine"), "\n"), "\n")
			if lines[0] != "prediction" || len(lines) != d.N+1 {
				t.Fatalf("predict: header %q and %d rows, want prediction and %d", lines[0], len(lines)-1, d.N)
			}
			for i, s := range lines[1:] {
				if v, err := strconv.ParseFloat(s, 64); err != nil || v != pred[i] || s != strconv.FormatFloat(v, 'g', -1, 64) {
					t.Fatalf("row %d: prediction %q, want %v", i+1, s, pred[i])
				}
			}

			wantEval, err := metrics.Regression(d.Y, pred, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got metrics.RegressionReport
			if err := json.Unmarshal([]byte(mustRun(t, "eval", "--model", model, "--data", "wine", "--json")), &got); err != nil {
				t.Fatal(err)
			}
			if got != *wantEval {
				t.Errorf("eval --json: %+v, want %+v", got, *wantEval)
			}
		})
	}
}

// TestLinearEvalWeight checks that eval --weight weighs the rows of a
// regression, as metrics.Regression does.
func TestLinearEvalWeight(t *testing.T) {
	dir := t.TempDir()
	train, test, model := filepath.Join(dir, "train.csv"), filepath.Join(dir, "test.csv"), filepath.Join(dir, "m.json")
	os.WriteFile(train, []byte("x,y\n0,1.1\n1,2.9\n2,5.2\n3,6.8\n"), 0o644)
	os.WriteFile(test, []byte("w,x,y\n1,0.5,2\n2,1.5,4.5\n0.5,2.5,5\n"), 0o644)
	mustRun(t, "fit", "--data", train, "--model", "linear", "--out", model)
	_, m, err := (&Env{}).loadModel(model)
	if err != nil {
		t.Fatal(err)
	}
	d, err := dataio.ReadFile(test, dataio.Options{Target: "y", NumericTarget: true, Weight: "w"})
	if err != nil {
		t.Fatal(err)
	}
	want, err := metrics.Regression(d.Y, m.(*linear.Model).Predict(nil, d), d.Weight)
	if err != nil {
		t.Fatal(err)
	}
	var got metrics.RegressionReport
	if err := json.Unmarshal([]byte(mustRun(t, "eval", "--model", model, "--data", test, "--weight", "w", "--json")), &got); err != nil {
		t.Fatal(err)
	}
	if got != *want || got.TotalWeight != 3.5 {
		t.Errorf("eval --weight w: %+v, want %+v", got, *want)
	}
}

// TestLinearBadInput checks that data problems of a regression end with
// one positioned line and exit status 1, misuse with status 2, and
// nothing on standard output.
func TestLinearBadInput(t *testing.T) {
	model := fitWineLinear(t)
	for _, tc := range []struct {
		name string
		file string   // written to in.csv
		args []string // IN is replaced by the input's path
		code int
		want string // in the message, after "gendisc: "
	}{
		{name: "categorical target", args: []string{"fit", "--model", "linear", "--data", "iris"},
			code: 1, want: `iris:2:5: column "class": not a number: "Iris-setosa" (--model linear regresses a numeric target; --target names it)`},
		{name: "word in the target", file: "x,y\n1,2\n2,3.5\n3,many\n",
			args: []string{"fit", "--model", "linear", "--data", "IN"}, code: 1, want: `in.csv:4:2: column "y": not a number`},
		{name: "missing feature", file: "x,y\n1,2\n,3\n3,4\n",
			args: []string{"fit", "--model", "linear", "--data", "IN"}, code: 1, want: "in.csv"},
		{name: "collinear", file: "a,b,y\n1,2,1\n2,4,3\n3,6,2\n4,8,5\n",
			args: []string{"fit", "--model", "linear", "--data", "IN"}, code: 1, want: "rank deficient"},
		{name: "eval: word in the target", file: "malic_acid,ash,alcalinity_of_ash,magnesium,total_phenols,flavanoids,nonflavanoid_phenols,proanthocyanins,color_intensity,hue,od280_od315_of_diluted_wines,proline,alcohol\n" +
			"1.71,2.43,15.6,127,2.8,3.06,0.28,2.29,5.64,1.04,3.92,1065,14.23\n1.78,2.14,11.2,100,2.65,2.76,0.26,1.28,4.38,1.05,3.4,1050,strong\n",
			args: []string{"eval", "--model", model, "--data", "IN"}, code: 1, want: `in.csv:3:13: column "alcohol": not a number`},
		{name: "eval: missing target", file: "malic_acid,ash,alcalinity_of_ash,magnesium,total_phenols,flavanoids,nonflavanoid_phenols,proanthocyanins,color_intensity,hue,od280_od315_of_diluted_wines,proline,alcohol\n" +
			"1.71,2.43,15.6,127,2.8,3.06,0.28,2.29,5.64,1.04,3.92,1065,14.23\n1.78,2.14,11.2,100,2.65,2.76,0.26,1.28,4.38,1.05,3.4,1050,\n",
			args: []string{"eval", "--model", model, "--data", "IN"}, code: 1, want: "in.csv:3: missing target value"},
		{name: "eval without the target", args: []string{"eval", "--model", model, "--data", "iris"}, code: 1, want: `"malic_acid"`},
		{name: "impute median", args: slices.Concat([]string{"fit", "--model", "linear", "--impute", "median"}, wineAlcohol),
			code: 2, want: "the only method is mean"},
		{name: "negative l2", args: slices.Concat([]string{"fit", "--model", "linear", "--l2", "-1"}, wineAlcohol),
			code: 2, want: "flag --l2: want a finite number ≥ 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := filepath.Join(t.TempDir(), "in.csv")
			if err := os.WriteFile(in, []byte(tc.file), 0o644); err != nil {
				t.Fatal(err)
			}
			args := make([]string, len(tc.args))
			for i, a := range tc.args {
				args[i] = strings.ReplaceAll(a, "IN", in)
			}
			r := runCLI(t, "", args...)
			if r.code != tc.code || !strings.HasPrefix(r.stderr, "gendisc") || !strings.Contains(r.stderr, tc.want) || r.stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and a message containing %q", r.code, r.stdout, r.stderr, tc.code, tc.want)
			}
			if tc.code == 1 && strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("stderr %q: want one line", r.stderr)
			}
		})
	}
}

// TestLinearWeightImpute checks that --weight and --impute mean reach
// the fit: the model file equals linear.Config's fit of the same rows.
func TestLinearWeightImpute(t *testing.T) {
	dir := t.TempDir()
	train, model := filepath.Join(dir, "train.csv"), filepath.Join(dir, "m.json")
	os.WriteFile(train, []byte("w,x1,color,x2,y\n1,0,red,1.5,1.1\n2,1,blue,,2.9\n0.5,2,red,0.3,5.2\n1,3,blue,2.2,6.8\n3,4,red,1.1,8.1\n1,,blue,0.7,9.5\n"), 0o644)
	mustRun(t, "fit", "--data", train, "--model", "linear", "--weight", "w", "--impute", "mean", "--l2", "0.1", "--out", model)
	d, err := dataio.ReadFile(train, dataio.Options{NumericTarget: true, Weight: "w"})
	if err != nil {
		t.Fatal(err)
	}
	want, err := linear.Config{Impute: true, L2: 0.1}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, err := want.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	e, err := modelfile.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	var got, wantBuf bytes.Buffer
	if err := json.Compact(&got, e.Params); err != nil {
		t.Fatal(err)
	}
	json.Compact(&wantBuf, wantJSON)
	if got.String() != wantBuf.String() {
		t.Errorf("fit --weight w --impute mean saved\n%s\nwant\n%s", got.String(), wantBuf.String())
	}
}

// TestInspectNoStandardize: a linear or logistic model fitted with
// --no-standardize has its numeric weights in their own units, so inspect
// says so and shows the one set of coefficients, with no "std" column.
func TestInspectNoStandardize(t *testing.T) {
	dir := t.TempDir()
	lin := fitWineLinear(t, "--l2", "3", "--no-standardize")
	lr := filepath.Join(dir, "logistic.json")
	mustRun(t, "fit", "--model", "logistic", "--data", "iris", "--no-standardize", "--out", lr)
	for _, tc := range []struct{ model, golden string }{
		{lin, "inspect_linear_wine_nostd.golden"},
		{lr, "inspect_logistic_iris_nostd.golden"},
	} {
		got := mustRun(t, "inspect", "--model", tc.model)
		golden(t, tc.golden, got)
		if strings.Contains(got, "std") || strings.Contains(got, "standardised,") {
			t.Errorf("%s: inspect claims standardisation:\n%s", tc.golden, got)
		}
		var rep struct{ Parameters struct{ Standardized *bool } }
		if err := json.Unmarshal([]byte(mustRun(t, "inspect", "--model", tc.model, "--json")), &rep); err != nil {
			t.Fatal(err)
		}
		if s := rep.Parameters.Standardized; s == nil || *s {
			t.Errorf("%s: inspect --json standardized = %v, want false", tc.golden, s)
		}
	}
	// The default fit keeps both sets and says it standardised.
	if got := mustRun(t, "inspect", "--model", fitWineLinear(t)); !strings.Contains(got, "θ std") || !strings.Contains(got, "standardised, (x − mean)/sd") {
		t.Errorf("standardised fit:\n%s", got)
	}
}
