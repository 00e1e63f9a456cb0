package cli

import (
	"fmt"
	"io"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/modelfile"
)

// logisticReport is what inspect shows of a logistic regression: one
// weight vector per row of Weights (the second class against the first
// for two classes, one per class otherwise), on the standardised scale the
// penalty applies to and in the original units. Standardized is false
// for a fit with --no-standardize (the two sets are then the same),
// Impute whether missing cells take the training means (--impute mean),
// ClassWeight the --class-weight of the fit ("" for none; null for a
// model file written before it was kept).
type logisticReport struct {
	L2                 float64              `json:"l2"`
	Standardized       bool                 `json:"standardized"`
	Impute             bool                 `json:"impute"`
	ClassWeight        *string              `json:"class_weight"`
	Diagnostics        logistic.Diagnostics `json:"diagnostics"`
	Classes            []string             `json:"classes"`
	Vectors            []string             `json:"vectors"` // the class of each weight vector
	Terms              []string             `json:"terms"`
	Weights            []modelfile.Floats   `json:"weights"`
	Intercepts         modelfile.Floats     `json:"intercepts"`
	OriginalWeights    []modelfile.Floats   `json:"original_weights"`
	OriginalIntercepts modelfile.Floats     `json:"original_intercepts"`
}

func inspectLogistic(m gendisc.Model) report {
	lr := m.(*logistic.Model)
	r := &logisticReport{L2: lr.L2(), Standardized: lr.Standardized(), Impute: lr.Imputes(), Diagnostics: lr.Diagnostics(), Classes: lr.Classes(), Terms: lr.Terms()}
	if cw, ok := lr.ClassWeight(); ok {
		s := string(cw)
		r.ClassWeight = &s
	}
	w, b := lr.Coefficients()
	ow, ob := lr.OriginalCoefficients()
	r.Intercepts, r.OriginalIntercepts = b, ob
	for c := range w {
		r.Weights = append(r.Weights, w[c])
		r.OriginalWeights = append(r.OriginalWeights, ow[c])
	}
	r.Vectors = r.Classes
	if len(w) == 1 {
		r.Vectors = r.Classes[1:]
	}
	return r
}

func (r *logisticReport) writeText(w io.Writer) error {
	fmt.Fprintf(w, "Logistic regression\n\n")
	if len(r.Classes) == 2 {
		fmt.Fprintf(w, "\tP(y = %s | x) = σ(wᵀz + b),  σ(t) = 1/(1 + e⁻ᵗ)\n", r.Classes[1])
	} else {
		fmt.Fprintf(w, "\tP(y = k | x) = exp(w_kᵀz + b_k) / Σ_l exp(w_lᵀz + b_l)\n")
	}
	fmt.Fprintf(w, "\tz: numeric features %s; categorical ones as 0/1 indicators; text as word counts\n", numericScale(r.Standardized))
	switch {
	case r.ClassWeight == nil:
		fmt.Fprintf(w, "\tmaximised: Σ_i v_i log P(y_i | x_i) − (λ/2) Σ ‖w‖²,  λ = %s\n", num(r.L2))
		fmt.Fprintf(w, "\tv_i: the row's weight, by class if the fit used --class-weight (not recorded in this model file)\n")
	case *r.ClassWeight == string(logistic.Balanced):
		fmt.Fprintf(w, "\tmaximised: Σ_i v_i log P(y_i | x_i) − (λ/2) Σ ‖w‖²,  λ = %s\n", num(r.L2))
		fmt.Fprintf(w, "\tv_i = W/(K·W_k) for a row of class k (--class-weight balanced: every class the same total weight)\n")
	default:
		fmt.Fprintf(w, "\tmaximised: Σ_i log P(y_i | x_i) − (λ/2) Σ ‖w‖²,  λ = %s\n", num(r.L2))
	}
	if r.Impute {
		fmt.Fprintf(w, "\tmissing cells: the training mean of their design column (--impute mean), in the fit and at prediction\n\n")
	} else {
		fmt.Fprintf(w, "\tmissing cells: refused, in the fit and at prediction\n\n")
	}
	d := r.Diagnostics
	status := "converged"
	if !d.Converged {
		status = "NOT converged"
	}
	fmt.Fprintf(w, "solver: %s, %s after %d iterations (%d passes over the data)\n", d.Solver, status, d.Iterations, d.Evaluations)
	fmt.Fprintf(w, "objective %s, log-likelihood %s, gradient norm %s\n", num(d.Objective), num(d.LogLikelihood), num(d.GradNorm))
	if d.Warning != "" {
		fmt.Fprintf(w, "warning: %s\n", d.Warning)
	}
	header := []string{"term"}
	for _, v := range r.Vectors {
		if r.Standardized {
			header = append(header, "w["+v+"] std", "w["+v+"] orig")
		} else {
			header = append(header, "w["+v+"]")
		}
	}
	rows := [][]string{}
	for t, name := range append(append([]string(nil), r.Terms...), "(intercept)") {
		row := []string{name}
		for c := range r.Vectors {
			if t < len(r.Terms) {
				row = coefficientRow(r.Standardized, row, r.Weights[c][t], r.OriginalWeights[c][t])
			} else {
				row = coefficientRow(r.Standardized, row, r.Intercepts[c], r.OriginalIntercepts[c])
			}
		}
		rows = append(rows, row)
	}
	if r.Standardized {
		fmt.Fprintf(w, "\nweights (std: per standard deviation of the feature, the scale λ applies to; orig: per unit)\n")
	} else {
		fmt.Fprintf(w, "\nweights (per unit of the feature, the scale λ applies to)\n")
	}
	if len(r.Vectors) > 1 {
		fmt.Fprintf(w, "(the weights of the classes sum to zero term by term)\n")
	}
	return writeTable(w, header, rows)
}
