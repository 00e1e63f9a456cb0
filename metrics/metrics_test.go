package metrics

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// tiny is a binary example checked by hand: predictions 0 1 0 1 0 (the last
// row ties at 0.5 and goes to class 0), so TN 1, FP 1, FN 2, TP 1. Positive
// scores 0.7 0.4 0.5 against negative 0.1 0.8: 3 of the 6 pairs ordered
// right, AUC 1/2.
var tiny = struct {
	classes []string
	y       []int
	proba   []float64
}{
	[]string{"no", "yes"},
	[]int{0, 1, 1, 0, 1},
	[]float64{.9, .1, .3, .7, .6, .4, .2, .8, .5, .5},
}

func TestClassificationByHand(t *testing.T) {
	r, err := Classification(tiny.classes, tiny.y, tiny.proba, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]float64{{1, 1}, {2, 1}}; !slices.EqualFunc(r.Confusion, want, slices.Equal) {
		t.Errorf("Confusion = %v, want %v", r.Confusion, want)
	}
	b := r.Binary
	logLoss := -(math.Log(.9) + math.Log(.7) + math.Log(.4) + math.Log(.2) + math.Log(.5)) / 5
	brierPos := (.01 + .09 + .36 + .64 + .25) / 5
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"Accuracy", r.Accuracy, 2. / 5},
		{"Error", r.Error, 3. / 5},
		{"LogLoss", r.LogLoss, logLoss},
		{"LogLossBits", r.LogLossBits, logLoss / math.Ln2},
		{"Brier", r.Brier, 2 * brierPos},
		{"BrierScoreLoss", b.BrierScoreLoss, brierPos},
		{"TP", b.TP, 1}, {"FP", b.FP, 1}, {"FN", b.FN, 2}, {"TN", b.TN, 1},
		{"Precision", b.Precision, 1. / 2},
		{"Recall", b.Recall, 1. / 3},
		{"Specificity", b.Specificity, 1. / 2},
		{"F1", b.F1, 2. / 5},
		{"TypeIErrorRate", b.TypeIErrorRate, 1. / 2},
		{"TypeIIErrorRate", b.TypeIIErrorRate, 2. / 3},
		{"ROCAUC", b.ROCAUC, 1. / 2},
		{"Macro.F1", r.Macro.F1, 2. / 5},
		{"Weighted.Precision", r.Weighted.Precision, (2*(1./3) + 3*(1./2)) / 5},
	} {
		if math.Abs(c.got-c.want) > 1e-15 {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if b.Positive != "yes" {
		t.Errorf("Positive = %q, want yes", b.Positive)
	}
}

func TestROCAUCByHand(t *testing.T) {
	for _, c := range []struct {
		name  string
		rows  []scored
		want  float64
		undef bool
	}{
		{"perfect", []scored{{.9, 1, true}, {.8, 1, true}, {.2, 1, false}}, 1, false},
		{"reversed", []scored{{.1, 1, true}, {.8, 1, false}}, 0, false},
		// All scores tied: the curve is the diagonal.
		{"all tied", []scored{{.5, 1, true}, {.5, 1, false}, {.5, 1, false}}, .5, false},
		// Positive .6 beats negative .2 and ties negative .6 (one half):
		// (1 + 1/2) / 2.
		{"one tie", []scored{{.6, 1, true}, {.6, 1, false}, {.2, 1, false}}, .75, false},
		// A weight of 3 on the negative that ties counts three times:
		// (1 + 3/2) / 4.
		{"weighted tie", []scored{{.6, 1, true}, {.6, 3, false}, {.2, 1, false}}, 2.5 / 4, false},
		{"no positive", []scored{{.6, 1, false}, {.2, 1, false}}, 0, true},
		{"zero-weight negatives", []scored{{.6, 1, true}, {.2, 0, false}}, 0, true},
	} {
		got := rocAUC(c.rows)
		if c.undef != math.IsNaN(got) || (!c.undef && math.Abs(got-c.want) > 1e-15) {
			t.Errorf("%s: AUC = %v, want %v (undefined %v)", c.name, got, c.want, c.undef)
		}
	}
}

func TestRegressionByHand(t *testing.T) {
	// Residuals 1, −1, 1, −1 with y = 0 1 2 3: MSE 1, MAE 1,
	// SS_tot = 5, R² = 1 − 4/5.
	r, err := Regression([]float64{0, 1, 2, 3}, []float64{-1, 2, 1, 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ll := -2 * (math.Log(2*math.Pi) + 1)
	want := RegressionReport{N: 4, TotalWeight: 4, MSE: 1, RMSE: 1, MAE: 1, R2: 0.2, Sigma2: 1,
		LogLikelihood: ll, MeanLogLikelihood: ll / 4}
	if math.Abs(r.R2-want.R2) > 1e-15 {
		t.Errorf("R2 = %v, want %v", r.R2, want.R2)
	}
	r.R2 = want.R2
	if *r != want {
		t.Errorf("Regression = %+v, want %+v", *r, want)
	}

	// Constant y: sklearn's r2_score gives 1 for a perfect fit, else 0. A
	// perfect fit has an infinite likelihood.
	r, _ = Regression([]float64{2, 2}, []float64{2, 2}, nil)
	if r.R2 != 1 || !math.IsInf(r.LogLikelihood, 1) || !math.IsInf(r.MeanLogLikelihood, 1) {
		t.Errorf("perfect constant fit: R2 %v, log-likelihood %v, %v", r.R2, r.LogLikelihood, r.MeanLogLikelihood)
	}
	r, _ = Regression([]float64{2, 2}, []float64{1, 2}, nil)
	if r.R2 != 0 {
		t.Errorf("constant y, imperfect fit: R2 = %v, want 0", r.R2)
	}
}

// randomInput returns n rows of K-class probabilities on a coarse grid (so
// that scores tie), classes drawn from them, and weights.
func randomInput(rng *rand.Rand, n, K int) (y []int, proba, weight []float64) {
	y, proba, weight = make([]int, n), make([]float64, n*K), make([]float64, n)
	for i := range n {
		p := proba[i*K : (i+1)*K]
		left := 10
		for k := range K - 1 {
			c := rng.IntN(left + 1)
			p[k] = float64(c) / 10
			left -= c
		}
		p[K-1] = float64(left) / 10
		y[i] = rng.IntN(K)
		weight[i] = float64(rng.IntN(4))
	}
	return y, proba, weight
}

// An integer weight w on a row is the same as w copies of the row, and the
// order of the rows does not matter.
func TestWeightsAreRepeatsAndOrderIsFree(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, K := range []int{2, 3, 5} {
		classes := []string{"a", "b", "c", "d", "e"}[:K]
		y, proba, weight := randomInput(rng, 300, K)
		weighted, err := Classification(classes, y, proba, weight)
		if err != nil {
			t.Fatal(err)
		}
		var ry []int
		var rp []float64
		for i, w := range weight {
			for range int(w) {
				ry = append(ry, y[i])
				rp = append(rp, proba[i*K:(i+1)*K]...)
			}
		}
		// Shuffle the repeated rows.
		perm := rng.Perm(len(ry))
		sy, sp := make([]int, len(ry)), make([]float64, len(rp))
		for to, from := range perm {
			sy[to] = ry[from]
			copy(sp[to*K:(to+1)*K], rp[from*K:(from+1)*K])
		}
		repeated, err := Classification(classes, sy, sp, nil)
		if err != nil {
			t.Fatal(err)
		}
		repeated.N = weighted.N // the only figure that differs
		a, _ := json.Marshal(weighted)
		b, _ := json.Marshal(repeated)
		if !sameNumbers(t, a, b) {
			t.Errorf("K=%d: weighted\n%s\nrepeated and shuffled\n%s", K, a, b)
		}
	}
}

// sameNumbers compares two JSON documents, numbers within 1e-12.
func sameNumbers(t *testing.T, a, b []byte) bool {
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	var same func(x, y any) bool
	same = func(x, y any) bool {
		switch x := x.(type) {
		case float64:
			y, ok := y.(float64)
			return ok && near(x, y)
		case []any:
			y, ok := y.([]any)
			return ok && slices.EqualFunc(x, y, same)
		case map[string]any:
			y, ok := y.(map[string]any)
			if !ok || len(x) != len(y) {
				return false
			}
			for k, v := range x {
				if !same(v, y[k]) {
					return false
				}
			}
			return true
		default:
			return x == y
		}
	}
	return same(x, y)
}

func TestClassificationInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, K := range []int{2, 4} {
		y, proba, weight := randomInput(rng, 200, K)
		r, err := Classification([]string{"a", "b", "c", "d"}[:K], y, proba, weight)
		if err != nil {
			t.Fatal(err)
		}
		total := 0.0
		for _, row := range r.Confusion {
			for _, v := range row {
				total += v
			}
		}
		support := 0.0
		for _, c := range r.PerClass {
			support += c.Support
		}
		if !near(total, r.TotalWeight) || !near(support, r.TotalWeight) {
			t.Errorf("K=%d: confusion sums to %v, supports to %v, total weight %v", K, total, support, r.TotalWeight)
		}
		if r.Brier < 0 || r.Brier > 2 || r.LogLoss < 0 || !near(r.Accuracy+r.Error, 1) {
			t.Errorf("K=%d: Brier %v, log-loss %v, accuracy %v + error %v", K, r.Brier, r.LogLoss, r.Accuracy, r.Error)
		}
		if b := r.Binary; b != nil {
			if !near(2*b.BrierScoreLoss, r.Brier) || !near(b.TypeIErrorRate, 1-b.Specificity) ||
				!near(b.TypeIIErrorRate, 1-b.Recall) || !near(b.ROCAUC, r.PerClass[0].ROCAUC) {
				t.Errorf("binary identities fail: %+v, Brier %v, AUC of class 0 %v", *b, r.Brier, r.PerClass[0].ROCAUC)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	two := []string{"a", "b"}
	for _, c := range []struct {
		name    string
		classes []string
		y       []int
		proba   []float64
		weight  []float64
		want    error
		row     int // -1: not a RowError
	}{
		{"one class", []string{"a"}, []int{0}, []float64{1}, nil, ErrClasses, -1},
		{"no rows", two, nil, nil, nil, ErrNoRows, -1},
		{"proba length", two, []int{0, 1}, []float64{1, 0, 1}, nil, ErrLength, -1},
		{"weight length", two, []int{0, 1}, []float64{1, 0, 0, 1}, []float64{1}, ErrLength, -1},
		{"class too big", two, []int{0, 2}, []float64{1, 0, 0, 1}, nil, ErrClass, 1},
		{"class negative", two, []int{-1, 0}, []float64{1, 0, 0, 1}, nil, ErrClass, 0},
		{"NaN probability", two, []int{0, 1}, []float64{1, 0, math.NaN(), 1}, nil, ErrProbability, 1},
		{"negative probability", two, []int{0, 1}, []float64{1.5, -.5, 0, 1}, nil, ErrProbability, 0},
		{"sum not 1", two, []int{0, 1}, []float64{.5, .4, 0, 1}, nil, ErrProbability, 0},
		{"negative weight", two, []int{0, 1}, []float64{1, 0, 0, 1}, []float64{1, -1}, ErrWeight, 1},
		{"NaN weight", two, []int{0, 1}, []float64{1, 0, 0, 1}, []float64{math.NaN(), 1}, ErrWeight, 0},
		{"infinite weight", two, []int{0, 1}, []float64{1, 0, 0, 1}, []float64{1, math.Inf(1)}, ErrWeight, 1},
		{"zero total weight", two, []int{0, 1}, []float64{1, 0, 0, 1}, []float64{0, 0}, ErrWeight, -1},
	} {
		_, err := Classification(c.classes, c.y, c.proba, c.weight)
		checkErr(t, c.name, err, c.want, c.row)
	}
	for _, c := range []struct {
		name         string
		y, p, weight []float64
		want         error
		row          int
	}{
		{"no rows", nil, nil, nil, ErrNoRows, -1},
		{"lengths", []float64{1, 2}, []float64{1}, nil, ErrLength, -1},
		{"weight length", []float64{1, 2}, []float64{1, 2}, []float64{1, 1, 1}, ErrLength, -1},
		{"NaN y", []float64{1, math.NaN()}, []float64{1, 2}, nil, ErrValue, 1},
		{"infinite prediction", []float64{1, 2}, []float64{math.Inf(-1), 2}, nil, ErrValue, 0},
		{"negative weight", []float64{1, 2}, []float64{1, 2}, []float64{-1, 1}, ErrWeight, 0},
	} {
		_, err := Regression(c.y, c.p, c.weight)
		checkErr(t, "Regression "+c.name, err, c.want, c.row)
	}
}

func checkErr(t *testing.T, name string, err, want error, row int) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Errorf("%s: error %v, want %v", name, err, want)
		return
	}
	if !strings.HasPrefix(err.Error(), "metrics: ") {
		t.Errorf("%s: error %q lacks the package prefix", name, err)
	}
	var re *RowError
	if isRow := errors.As(err, &re); isRow != (row >= 0) || (isRow && re.Row != row) {
		t.Errorf("%s: error %v: RowError %v, want row %d", name, err, re, row)
	}
}

func TestJSON(t *testing.T) {
	// Class "c" never occurs: its AUC and the averages' are undefined.
	r, err := Classification([]string{"a", "b", "c"}, []int{0, 1, 0},
		[]float64{.5, .5, 0, .2, .8, 0, .6, .3, .1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"classes", "n", "total_weight", "confusion", "accuracy", "error",
		"log_loss", "log_loss_bits", "brier", "per_class", "macro_avg", "weighted_avg"} {
		if _, ok := m[key]; !ok {
			t.Errorf("JSON lacks %q: %s", key, b)
		}
	}
	if _, ok := m["binary"]; ok {
		t.Errorf("JSON of three classes has a binary block: %s", b)
	}
	perClass := m["per_class"].([]any)
	if got := perClass[2].(map[string]any)["roc_auc"]; got != nil {
		t.Errorf("undefined AUC marshals as %v, want null", got)
	}
	if got := perClass[0].(map[string]any)["roc_auc"]; got != 1.0 {
		t.Errorf("AUC of class a = %v, want 1", got)
	}
	if got, ok := m["macro_avg"].(map[string]any)["roc_auc"]; !ok || got != nil {
		t.Errorf("undefined macro AUC marshals as %v (present %v), want null", got, ok)
	}
	// Class "c" is neither true nor predicted: precision, recall and F1
	// are 0/0, and the averages are those of a and b.
	for _, key := range []string{"precision", "recall", "f1"} {
		if got, ok := perClass[2].(map[string]any)[key]; !ok || got != nil {
			t.Errorf("undefined %s of class c marshals as %v (present %v), want null", key, got, ok)
		}
	}
	if got := m["macro_avg"].(map[string]any)["recall"]; got != 1.0 {
		t.Errorf("macro recall = %v, want 1 (a and b; c undefined, not a 0 that makes it 2/3)", got)
	}

	// No negative row: specificity and the type I error rate are 0/0;
	// nothing predicted positive: precision is 0/0, F1 = 0.
	r3, _ := Classification(tiny.classes, []int{1, 1}, []float64{.6, .4, .7, .3}, nil)
	if b := r3.Binary; !math.IsNaN(b.Specificity) || !math.IsNaN(b.TypeIErrorRate) || !math.IsNaN(b.Precision) ||
		b.Recall != 0 || b.F1 != 0 || b.TypeIIErrorRate != 1 {
		t.Errorf("binary without negatives or positive predictions: %+v", *b)
	}
	b, err = json.Marshal(r3.Binary)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`"specificity":null`, `"type_i_error_rate":null`, `"precision":null`, `"f1":0`, `"recall":0`} {
		if !strings.Contains(string(b), s) {
			t.Errorf("binary JSON lacks %s: %s", s, b)
		}
	}

	r2, _ := Classification(tiny.classes, tiny.y, tiny.proba, nil)
	b, _ = json.Marshal(r2)
	if !strings.Contains(string(b), `"binary":{"positive":"yes","tp":1,"fp":1,"fn":2,"tn":1,`) {
		t.Errorf("binary JSON: %s", b)
	}

	g, _ := Regression([]float64{1, 2}, []float64{1, 2}, nil)
	b, err = json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"n":2,"total_weight":2,"mse":0,"rmse":0,"mae":0,"r2":1,"sigma2":0,"log_likelihood":null,"mean_log_likelihood":null}`
	if string(b) != want {
		t.Errorf("regression JSON\n%s\nwant\n%s", b, want)
	}
}
