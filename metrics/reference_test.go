package metrics

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/gendisc/gendisc/internal/testsupport/refdata"
)

// The reference values come from scikit-learn 1.2.1 through
// testdata/gen_reference.py; see that script for the cases.

const tol = 1e-12

// maybe is a reference value that may be null (undefined: NaN here).
type maybe struct{ v float64 }

func (m *maybe) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		m.v = math.NaN()
		return nil
	}
	return json.Unmarshal(b, &m.v)
}

type refAverages struct {
	Precision maybe `json:"precision"`
	Recall    maybe `json:"recall"`
	F1        maybe `json:"f1"`
	ROCAUC    maybe `json:"roc_auc"`
}

type refClassification struct {
	Name      string      `json:"name"`
	Classes   []string    `json:"classes"`
	Y         []int       `json:"y"`
	Proba     []float64   `json:"proba"`
	Weight    []float64   `json:"weight"`
	Accuracy  float64     `json:"accuracy"`
	LogLoss   float64     `json:"log_loss"`
	Brier     float64     `json:"brier"`
	Confusion [][]float64 `json:"confusion"`
	Precision []maybe     `json:"precision"`
	Recall    []maybe     `json:"recall"`
	F1        []maybe     `json:"f1"`
	Support   []float64   `json:"support"`
	ROCAUC    []maybe     `json:"roc_auc"`
	Macro     refAverages `json:"macro"`
	Weighted  refAverages `json:"weighted"`
	Binary    *struct {
		TP, FP, FN, TN  float64
		Precision       maybe   `json:"precision"`
		Recall          maybe   `json:"recall"`
		Specificity     maybe   `json:"specificity"`
		F1              maybe   `json:"f1"`
		TypeIErrorRate  maybe   `json:"type_i_error_rate"`
		TypeIIErrorRate maybe   `json:"type_ii_error_rate"`
		ROCAUC          maybe   `json:"roc_auc"`
		BrierScoreLoss  float64 `json:"brier_score_loss"`
	} `json:"binary"`
}

type refRegression struct {
	Name              string    `json:"name"`
	Y                 []float64 `json:"y"`
	Pred              []float64 `json:"pred"`
	Weight            []float64 `json:"weight"`
	MSE               float64   `json:"mse"`
	RMSE              float64   `json:"rmse"`
	MAE               float64   `json:"mae"`
	R2                float64   `json:"r2"`
	Sigma2            float64   `json:"sigma2"`
	LogLikelihood     float64   `json:"log_likelihood"`
	MeanLogLikelihood float64   `json:"mean_log_likelihood"`
}

type reference struct {
	Classification []refClassification `json:"classification"`
	Regression     []refRegression     `json:"regression"`
}

func loadReference(t testing.TB) *reference {
	t.Helper()
	var ref reference
	refdata.ReadJSON(t, "testdata/reference.json", &ref)
	if len(ref.Classification) == 0 || len(ref.Regression) == 0 {
		t.Fatal("reference.json has no cases")
	}
	return &ref
}

// near reports whether got equals want within tol, relative to |want| when
// it exceeds 1; NaN equals NaN (both undefined).
func near(got, want float64) bool {
	if math.IsNaN(want) || math.IsNaN(got) {
		return math.IsNaN(want) && math.IsNaN(got)
	}
	return math.Abs(got-want) <= tol*max(1, math.Abs(want))
}

func check(t *testing.T, name string, got, want float64) {
	t.Helper()
	if !near(got, want) {
		t.Errorf("%s = %.17g, sklearn %.17g (diff %.3g)", name, got, want, got-want)
	}
}

func TestClassificationReference(t *testing.T) {
	for _, c := range loadReference(t).Classification {
		t.Run(c.Name, func(t *testing.T) {
			r, err := Classification(c.Classes, c.Y, c.Proba, c.Weight)
			if err != nil {
				t.Fatal(err)
			}
			check(t, "Accuracy", r.Accuracy, c.Accuracy)
			check(t, "Error", r.Error, 1-c.Accuracy)
			check(t, "LogLoss", r.LogLoss, c.LogLoss)
			check(t, "LogLossBits", r.LogLossBits, c.LogLoss/math.Ln2)
			check(t, "Brier", r.Brier, c.Brier)
			for i, row := range c.Confusion {
				for j, v := range row {
					check(t, "Confusion", r.Confusion[i][j], v)
				}
			}
			for k, m := range r.PerClass {
				if m.Class != c.Classes[k] {
					t.Errorf("PerClass[%d].Class = %q, want %q", k, m.Class, c.Classes[k])
				}
				check(t, "Precision "+m.Class, m.Precision, c.Precision[k].v)
				check(t, "Recall "+m.Class, m.Recall, c.Recall[k].v)
				check(t, "F1 "+m.Class, m.F1, c.F1[k].v)
				check(t, "Support "+m.Class, m.Support, c.Support[k])
				check(t, "ROCAUC "+m.Class, m.ROCAUC, c.ROCAUC[k].v)
			}
			for _, a := range []struct {
				name string
				got  Averages
				want refAverages
			}{{"Macro", r.Macro, c.Macro}, {"Weighted", r.Weighted, c.Weighted}} {
				check(t, a.name+".Precision", a.got.Precision, a.want.Precision.v)
				check(t, a.name+".Recall", a.got.Recall, a.want.Recall.v)
				check(t, a.name+".F1", a.got.F1, a.want.F1.v)
				check(t, a.name+".ROCAUC", a.got.ROCAUC, a.want.ROCAUC.v)
			}
			if (r.Binary == nil) != (c.Binary == nil) {
				t.Fatalf("Binary = %v, want one iff two classes", r.Binary)
			}
			if b, want := r.Binary, c.Binary; b != nil {
				check(t, "TP", b.TP, want.TP)
				check(t, "FP", b.FP, want.FP)
				check(t, "FN", b.FN, want.FN)
				check(t, "TN", b.TN, want.TN)
				check(t, "Binary.Precision", b.Precision, want.Precision.v)
				check(t, "Binary.Recall", b.Recall, want.Recall.v)
				check(t, "Specificity", b.Specificity, want.Specificity.v)
				check(t, "Binary.F1", b.F1, want.F1.v)
				check(t, "TypeIErrorRate", b.TypeIErrorRate, want.TypeIErrorRate.v)
				check(t, "TypeIIErrorRate", b.TypeIIErrorRate, want.TypeIIErrorRate.v)
				check(t, "Binary.ROCAUC", b.ROCAUC, want.ROCAUC.v)
				check(t, "BrierScoreLoss", b.BrierScoreLoss, want.BrierScoreLoss)
			}
		})
	}
}

func TestRegressionReference(t *testing.T) {
	for _, c := range loadReference(t).Regression {
		t.Run(c.Name, func(t *testing.T) {
			r, err := Regression(c.Y, c.Pred, c.Weight)
			if err != nil {
				t.Fatal(err)
			}
			check(t, "MSE", r.MSE, c.MSE)
			check(t, "RMSE", r.RMSE, c.RMSE)
			check(t, "MAE", r.MAE, c.MAE)
			check(t, "R2", r.R2, c.R2)
			check(t, "Sigma2", r.Sigma2, c.Sigma2)
			check(t, "LogLikelihood", r.LogLikelihood, c.LogLikelihood)
			check(t, "MeanLogLikelihood", r.MeanLogLikelihood, c.MeanLogLikelihood)
		})
	}
}
