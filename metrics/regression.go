package metrics

import (
	"fmt"
	"math"
)

// RegressionReport is the evaluation of predicted values against the true
// ones. With residuals r_i = y_i − ŷ_i, weights w_i (1 without weights) and
// W = Σ_i w_i:
//
//	MSE    = Σ_i w_i r_i² / W
//	RMSE   = √MSE
//	MAE    = Σ_i w_i |r_i| / W
//	R2     = 1 − Σ_i w_i r_i² / Σ_i w_i (y_i − ȳ)²,  ȳ = Σ_i w_i y_i / W
//	Sigma2 = MSE, the maximum-likelihood variance of the residuals
//	LogLikelihood = Σ_i w_i log N(y_i; ŷ_i, Sigma2) = −(W/2) (log(2π Sigma2) + 1)
//	MeanLogLikelihood = LogLikelihood / W
//
// R2 follows sklearn's r2_score when the y_i are all equal: 1 for a
// perfect prediction, else 0. A perfect prediction makes the
// log-likelihoods +Inf.
type RegressionReport struct {
	// N is the number of rows; TotalWeight is W.
	N                 int     `json:"n"`
	TotalWeight       float64 `json:"total_weight"`
	MSE               float64 `json:"mse"`
	RMSE              float64 `json:"rmse"`
	MAE               float64 `json:"mae"`
	R2                float64 `json:"r2"`
	Sigma2            float64 `json:"sigma2"`
	LogLikelihood     float64 `json:"log_likelihood"`
	MeanLogLikelihood float64 `json:"mean_log_likelihood"`
}

// Regression evaluates predictions pred of the values y, with one weight
// per row in weight, or nil for weights of 1.
//
// It returns an error wrapping ErrNoRows when y is empty, ErrLength when
// the lengths differ, ErrValue for a y or pred that is NaN or infinite, and
// ErrWeight for a weight that is negative, NaN or infinite or a total
// weight of 0; errors about one row are *RowError values.
func Regression(y, pred, weight []float64) (*RegressionReport, error) {
	n := len(y)
	switch {
	case n == 0:
		return nil, fmt.Errorf("metrics: %w", ErrNoRows)
	case len(pred) != n:
		return nil, fmt.Errorf("metrics: %w: %d predictions for %d rows", ErrLength, len(pred), n)
	}
	total, err := checkWeights(weight, n)
	if err != nil {
		return nil, err
	}
	// One pass: weighted sums of r² and |r|, and West's (1979) weighted
	// update of the mean and centred sum of squares of y.
	var sq, abs, seen, mean, m2 float64
	for i, yi := range y {
		if math.IsNaN(yi) || math.IsInf(yi, 0) {
			return nil, rowErr(i, ErrValue, "y = %v", yi)
		}
		if math.IsNaN(pred[i]) || math.IsInf(pred[i], 0) {
			return nil, rowErr(i, ErrValue, "prediction = %v", pred[i])
		}
		w := weightOf(weight, i)
		if w == 0 {
			continue
		}
		r := yi - pred[i]
		sq += w * r * r
		abs += w * math.Abs(r)
		seen += w
		d := yi - mean
		mean += d * w / seen
		m2 += w * d * (yi - mean)
	}
	mse := sq / total
	rep := &RegressionReport{
		N:           n,
		TotalWeight: total,
		MSE:         mse,
		RMSE:        math.Sqrt(mse),
		MAE:         abs / total,
		Sigma2:      mse,
	}
	switch {
	case m2 > 0:
		rep.R2 = 1 - sq/m2
	case sq == 0:
		rep.R2 = 1
	}
	rep.MeanLogLikelihood = -(math.Log(2*math.Pi*mse) + 1) / 2
	rep.LogLikelihood = total * rep.MeanLogLikelihood
	return rep, nil
}
