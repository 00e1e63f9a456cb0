package logistic

import (
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/design"
)

// Imputes reports whether the model was fitted with Config.Impute, so
// that a missing cell takes its column's training mean at prediction as
// in the fit.
func (m *Model) Imputes() bool { return m.impute }

// CheckMissing applies the fit's rule on missing cells to rows to be
// predicted: for a model fitted without Config.Impute, the error that
// Fit gives for the first missing feature cell of d (a *data.ParseError
// wrapping a *data.MissingError, positioned at the row's line); nil when
// the model imputes or d has no missing cell.
func (m *Model) CheckMissing(d *data.Dataset) error {
	if m.impute {
		return nil
	}
	return design.CheckComplete(d)
}

// Converged reports whether the fit met its stopping criterion
// (Diagnostics().Converged): false when it stopped at the iteration limit
// or on separable data without a penalty.
func (m *Model) Converged() bool { return m.diag.Converged }

// Warnings returns what a user of the model must know about how its fit
// ended, one line each: why a fit that did not converge stopped (the
// iteration limit, weights that grow without bound on separable data with
// λ = 0, a failed line search), from Diagnostics().Warning. Nil when the
// fit converged. The model keeps its diagnostics in its model file, so a
// decoded model reports the same.
func (m *Model) Warnings() []string {
	switch {
	case m.diag.Warning != "":
		return []string{"logistic regression: " + m.diag.Warning}
	case !m.diag.Converged:
		return []string{"logistic regression did not converge"}
	}
	return nil
}
