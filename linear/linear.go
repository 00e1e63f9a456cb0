package linear

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/design"
	"github.com/gendisc/gendisc/internal/mathx"
	"github.com/gendisc/gendisc/internal/parallel"
)

// Kind is the model kind of linear regression in model files.
const Kind = "linear"

// ErrRankDeficient is returned when the columns of the design matrix are
// linearly dependent and there is no ridge penalty to make the solution
// unique.
var ErrRankDeficient = errors.New("the design matrix is rank deficient (collinear or constant columns)")

// Config holds the hyperparameters of linear regression. The zero value is
// ordinary least squares with missing values refused.
type Config struct {
	// L2 is the ridge penalty λ on the standardised weights (the
	// intercept is not penalised); 0 is ordinary least squares. The
	// optimum is scikit-learn's Ridge(alpha=λ) on StandardScaler output.
	L2 float64
	// NoStandardize applies the ridge penalty to the coefficients of the
	// numeric features in their own units (scikit-learn's Ridge on
	// unscaled data); it changes nothing without a penalty.
	NoStandardize bool
	// Impute fills missing feature cells with their column's training
	// mean instead of returning an error.
	Impute bool
}

// Model is a fitted linear regression. It is immutable and safe for
// concurrent use.
type Model struct {
	schema *data.Schema
	enc    *design.Encoder
	theta  []float64 // standardised weights, then the intercept
	lambda float64
	sigma2 float64
	logLik float64
	r2     float64
	stats  *Accumulator // nil for a model saved without its statistics
}

// Fit fits the model to d, whose target must be numeric (read with
// dataio.Options.NumericTarget): it adds d's rows to a new accumulator and
// finishes it (Accumulator). It returns an error for a missing target
// value, a missing feature cell (unless Impute is set), a text column,
// bad weights, a negative or non-finite L2, fewer rows than unknowns, and
// ErrRankDeficient for collinear columns when L2 is 0.
func (c Config) Fit(d *data.Dataset) (*Model, error) {
	a, err := c.NewAccumulator()
	if err != nil {
		return nil, err
	}
	if err := a.Add(d); err != nil {
		return nil, err
	}
	m, err := a.finish()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Source, err)
	}
	return m, nil
}

// Accumulator returns a new accumulator holding the model's statistics
// (gendisc.Mergeable): adding rows to it and finishing refits the model
// on its rows and the new ones; merging another model's accumulator into
// it fits the rows of both. A model read from a file without statistics
// gives an accumulator whose every method returns ErrNoStatistics.
func (m *Model) Accumulator() gendisc.Accumulator {
	if m.stats == nil {
		return &Accumulator{err: ErrNoStatistics}
	}
	return m.stats.clone()
}

// Kind returns "linear".
func (m *Model) Kind() string { return Kind }

// Schema returns the schema of the training data.
func (m *Model) Schema() *data.Schema { return m.schema }

// L2 returns the ridge penalty λ of the fit.
func (m *Model) L2() float64 { return m.lambda }

// Sigma2 returns σ², the MLE of the noise variance: the weighted mean
// squared residual on the training data (divide by n, not n − p).
func (m *Model) Sigma2() float64 { return m.sigma2 }

// LogLikelihood returns the Gaussian log-likelihood of the training data
// at the fitted θ and σ² (+Inf when the fit is exact, σ² = 0).
func (m *Model) LogLikelihood() float64 { return m.logLik }

// R2 returns the coefficient of determination on the training data.
func (m *Model) R2() float64 { return m.r2 }

// Terms returns the names of the design columns, the order of the
// weights.
func (m *Model) Terms() []string {
	names := make([]string, m.enc.P())
	for t := range names {
		names[t] = m.enc.Name(t)
	}
	return names
}

// Coefficients returns θ on the standardised scale: the weight of each
// design column and the intercept.
func (m *Model) Coefficients() (w []float64, b float64) {
	P := m.enc.P()
	return append([]float64(nil), m.theta[:P]...), m.theta[P]
}

// Standardized reports whether the weight of some numeric feature is on
// the standardised scale, z = (x − mean)/sd: false for a model fitted
// with Config.NoStandardize (or without numeric features), whose
// Coefficients and OriginalCoefficients are then the same.
func (m *Model) Standardized() bool { return m.enc.Standardized() }

// Imputes reports whether the fit filled missing cells with their
// column's training mean (Config.Impute) rather than refusing them;
// known is false for a model read from a file without its statistics
// (written before models kept them), which hold the setting. Predict
// fills missing cells either way; CheckMissing applies the fit's rule.
func (m *Model) Imputes() (impute, known bool) {
	if m.stats == nil {
		return false, false
	}
	return m.stats.cfg.Impute, true
}

// CheckMissing applies the fit's rule on missing cells to rows to be
// predicted: for a model fitted without Config.Impute, the error that
// Fit gives for the first missing feature cell of d (a *data.ParseError
// wrapping a *data.MissingError, positioned at the row's line); nil when
// the model imputes, d has no missing cell, or the model's file did not
// record the setting (Imputes' known is false), whose missing cells
// take the training means as before.
func (m *Model) CheckMissing(d *data.Dataset) error {
	if impute, known := m.Imputes(); impute || !known {
		return nil
	}
	return design.CheckComplete(d)
}

// OriginalCoefficients returns θ in the units of the original features:
// w/s for a numeric column standardised as (x − m)/s, and the intercept
// b − Σ w m/s; indicator weights are unchanged.
func (m *Model) OriginalCoefficients() (w []float64, b float64) {
	w, b = m.Coefficients()
	for t, term := range m.enc.Terms() {
		if term.Level < 0 {
			w[t] /= term.Scale
			b -= w[t] * term.Center
		}
	}
	return w, b
}

// Predict writes ŷ_i = θᵀz̃_i for every row of d to dst and returns it; a
// nil dst is allocated. A missing cell, and a category never seen in
// training, takes its design column's training mean. A prediction
// beyond float64's range is ±Inf (farPredict), never NaN. It panics if
// dst has the wrong length or d's features differ from the model's schema
// by name, kind or order.
func (m *Model) Predict(dst []float64, d *data.Dataset) []float64 {
	if dst == nil {
		dst = make([]float64, d.N)
	}
	if len(dst) != d.N {
		panic("linear: Predict: dst has the wrong length")
	}
	if err := m.schema.SameFeatures(d.Schema); err != nil {
		panic("linear: Predict: " + err.Error())
	}
	P := m.enc.P()
	parallel.For(d.N, 1024, func(_, lo, hi int) {
		z := make([]float64, P)
		for i := lo; i < hi; i++ {
			dst[i] = floats.Dot(m.enc.EncodeRow(z, d.Row(i)), m.theta[:P]) + m.theta[P]
			if v := dst[i]; math.IsInf(v, 0) || v != v {
				dst[i] = m.farPredict(d.Row(i))
			}
		}
	})
	return dst
}

// farPredict returns ŷ for the row x whose prediction overflowed (a cell
// so large that its standardised value, or its product with a weight, is
// beyond float64; NaN where such terms of both signs met): the design row
// split as C·z̃ + z_d (design.Encoder.EncodeRowScaled), ŷ = C·θᵀz̃ +
// (θᵀz_d + b) evaluated without intermediate overflow, so that it is
// finite where ŷ is, and ±Inf only where |ŷ| is beyond float64's range,
// never NaN.
func (m *Model) farPredict(x []float64) float64 {
	P := m.enc.P()
	scale := mathx.RowScale(x)
	zs, zw := make([]float64, P), make([]float64, P)
	m.enc.EncodeRowScaled(zs, zw, x, scale)
	return mathx.Scaled{Lin: floats.Dot(zs, m.theta[:P]), Const: floats.Dot(zw, m.theta[:P]) + m.theta[P]}.Value(scale.C)
}
