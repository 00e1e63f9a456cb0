package metrics

import (
	"encoding/json"
	"math"
)

// The MarshalJSON methods below write the fields that may be undefined
// (NaN, ±Inf) as null, which encoding/json refuses to do for a float64,
// keeping the order of the struct's fields.

// number is a float64 that marshals NaN and ±Inf as null.
type number float64

func (x number) MarshalJSON() ([]byte, error) {
	f := float64(x)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(f)
}

// MarshalJSON writes c as a JSON object, the undefined figures null.
func (c ClassMetrics) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Class     string  `json:"class"`
		Precision number  `json:"precision"`
		Recall    number  `json:"recall"`
		F1        number  `json:"f1"`
		Support   float64 `json:"support"`
		ROCAUC    number  `json:"roc_auc"`
	}{c.Class, number(c.Precision), number(c.Recall), number(c.F1), c.Support, number(c.ROCAUC)})
}

// MarshalJSON writes a as a JSON object, the undefined figures null.
func (a Averages) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Precision number `json:"precision"`
		Recall    number `json:"recall"`
		F1        number `json:"f1"`
		ROCAUC    number `json:"roc_auc"`
	}{number(a.Precision), number(a.Recall), number(a.F1), number(a.ROCAUC)})
}

// MarshalJSON writes b as a JSON object, the undefined figures null.
func (b Binary) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Positive        string  `json:"positive"`
		TP              float64 `json:"tp"`
		FP              float64 `json:"fp"`
		FN              float64 `json:"fn"`
		TN              float64 `json:"tn"`
		TypeIErrorRate  number  `json:"type_i_error_rate"`
		TypeIIErrorRate number  `json:"type_ii_error_rate"`
		Precision       number  `json:"precision"`
		Recall          number  `json:"recall"`
		Specificity     number  `json:"specificity"`
		F1              number  `json:"f1"`
		BrierScoreLoss  float64 `json:"brier_score_loss"`
		ROCAUC          number  `json:"roc_auc"`
	}{b.Positive, b.TP, b.FP, b.FN, b.TN, number(b.TypeIErrorRate), number(b.TypeIIErrorRate), number(b.Precision),
		number(b.Recall), number(b.Specificity), number(b.F1), b.BrierScoreLoss, number(b.ROCAUC)})
}

// MarshalJSON writes r as a JSON object, the log-likelihoods null when
// infinite (a perfect prediction).
func (r RegressionReport) MarshalJSON() ([]byte, error) {
	type plain RegressionReport
	return json.Marshal(struct {
		plain
		LogLikelihood     number `json:"log_likelihood"`
		MeanLogLikelihood number `json:"mean_log_likelihood"`
	}{plain(r), number(r.LogLikelihood), number(r.MeanLogLikelihood)})
}
