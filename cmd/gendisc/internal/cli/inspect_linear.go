package cli

import (
	"fmt"
	"io"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/linear"
	"github.com/gendisc/gendisc/modelfile"
)

// linearReport is what inspect shows of a linear regression: θ on the
// standardised scale the penalty applies to and in the original units
// (the same when Standardized is false: --no-standardize), whether the
// fit imputed missing cells (--impute mean; null for a model file
// without its statistics, which do not record it), and the fit
// statistics of the training data.
// The log-likelihood of an exact fit (σ² = 0) is +Inf, which JSON
// holds as the string "+Inf" (modelfile.Float).
type linearReport struct {
	L2                modelfile.Float  `json:"l2"`
	Standardized      bool             `json:"standardized"`
	Impute            *bool            `json:"impute"`
	Sigma2            modelfile.Float  `json:"sigma2"`
	LogLikelihood     modelfile.Float  `json:"log_likelihood"`
	R2                modelfile.Float  `json:"r2"`
	Terms             []string         `json:"terms"`
	Weights           modelfile.Floats `json:"weights"`
	Intercept         modelfile.Float  `json:"intercept"`
	OriginalWeights   modelfile.Floats `json:"original_weights"`
	OriginalIntercept modelfile.Float  `json:"original_intercept"`
}

func inspectLinear(m gendisc.Model) report {
	lm := m.(*linear.Model)
	w, b := lm.Coefficients()
	ow, ob := lm.OriginalCoefficients()
	r := &linearReport{
		L2: modelfile.Float(lm.L2()), Standardized: lm.Standardized(), Sigma2: modelfile.Float(lm.Sigma2()),
		LogLikelihood: modelfile.Float(lm.LogLikelihood()), R2: modelfile.Float(lm.R2()),
		Terms: lm.Terms(), Weights: w, Intercept: modelfile.Float(b), OriginalWeights: ow, OriginalIntercept: modelfile.Float(ob),
	}
	if impute, ok := lm.Imputes(); ok {
		r.Impute = &impute
	}
	return r
}

func (r *linearReport) writeText(w io.Writer) error {
	fmt.Fprintf(w, "Linear regression\n\n")
	fmt.Fprintf(w, "\ty = θᵀz + b + ε,  ε ~ N(0, σ²)\n")
	fmt.Fprintf(w, "\tz: numeric features %s; categorical ones as 0/1 indicators (first level dropped)\n", numericScale(r.Standardized))
	if r.L2 == 0 {
		fmt.Fprintf(w, "\tθ, b: least squares by QR, the maximum-likelihood estimate\n")
	} else {
		fmt.Fprintf(w, "\tθ, b: minimise Σ_i (y_i − θᵀz_i − b)² + λ‖θ‖² (ridge),  λ = %s\n", num(float64(r.L2)))
	}
	switch {
	case r.Impute == nil:
		fmt.Fprintf(w, "\tmissing cells: the training mean of their design column at prediction; in the fit, refused unless --impute mean (not recorded in this model file)\n\n")
	case *r.Impute:
		fmt.Fprintf(w, "\tmissing cells: the training mean of their design column (--impute mean), in the fit and at prediction\n\n")
	default:
		fmt.Fprintf(w, "\tmissing cells: refused, in the fit and at prediction\n\n")
	}
	fmt.Fprintf(w, "σ² = %s (MLE: mean squared residual), log-likelihood %s, R² %s (training data)\n",
		num(float64(r.Sigma2)), num(float64(r.LogLikelihood)), num(float64(r.R2)))
	rows := make([][]string, 0, len(r.Terms)+1)
	for t, name := range r.Terms {
		rows = append(rows, coefficientRow(r.Standardized, []string{name}, r.Weights[t], r.OriginalWeights[t]))
	}
	rows = append(rows, coefficientRow(r.Standardized, []string{"(intercept)"}, float64(r.Intercept), float64(r.OriginalIntercept)))
	if !r.Standardized {
		fmt.Fprintf(w, "\ncoefficients (per unit of the feature, the scale λ applies to)\n")
		return writeTable(w, []string{"term", "θ"}, rows)
	}
	fmt.Fprintf(w, "\ncoefficients (std: per standard deviation of the feature, the scale λ applies to; orig: per unit)\n")
	return writeTable(w, []string{"term", "θ std", "θ orig"}, rows)
}

// numericScale says how the design of a linear or logistic model holds
// its numeric features.
func numericScale(standardized bool) string {
	if standardized {
		return "standardised, (x − mean)/sd"
	}
	return "in their own units (not standardised)"
}

// coefficientRow appends to row a coefficient on the standardised scale
// and in original units, or the one coefficient when the model is not
// standardised (the two are then the same).
func coefficientRow(standardized bool, row []string, std, orig float64) []string {
	if !standardized {
		return append(row, num(orig))
	}
	return append(row, num(std), num(orig))
}
