package metrics

import (
	"encoding/json"
	"math"
)

// The MarshalJSON methods below write the fields that may be undefined
// (NaN, ±Inf) as null, which encoding/json refuses to do for a float64:
// the field of the wrapper shadows the embedded one of the same JSON name.

// number is a float64 that marshals NaN and ±Inf as null.
type number float64

func (x number) MarshalJSON() ([]byte, error) {
	f := float64(x)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(f)
}

// MarshalJSON writes c as a JSON object, ROCAUC null when undefined.
func (c ClassMetrics) MarshalJSON() ([]byte, error) {
	type plain ClassMetrics
	return json.Marshal(struct {
		plain
		ROCAUC number `json:"roc_auc"`
	}{plain(c), number(c.ROCAUC)})
}

// MarshalJSON writes a as a JSON object, ROCAUC null when undefined.
func (a Averages) MarshalJSON() ([]byte, error) {
	type plain Averages
	return json.Marshal(struct {
		plain
		ROCAUC number `json:"roc_auc"`
	}{plain(a), number(a.ROCAUC)})
}

// MarshalJSON writes b as a JSON object, ROCAUC null when undefined.
func (b Binary) MarshalJSON() ([]byte, error) {
	type plain Binary
	return json.Marshal(struct {
		plain
		ROCAUC number `json:"roc_auc"`
	}{plain(b), number(b.ROCAUC)})
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
