package linear

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/design"
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
}

// Fit fits the model to d, whose target must be numeric (read with
// data.Options.NumericTarget). It returns an error for a missing target
// value, a missing feature cell (unless Impute is set), a text column,
// bad weights, a negative or non-finite L2, fewer rows than unknowns, and
// ErrRankDeficient for collinear columns when L2 is 0.
func (c Config) Fit(d *data.Dataset) (*Model, error) {
	if !(c.L2 >= 0) || math.IsInf(c.L2, 0) {
		return nil, fmt.Errorf("linear: L2 must be a finite non-negative number, got %v", c.L2)
	}
	t := d.Schema.Target
	if t == nil || d.Y == nil || t.Kind != data.Numeric {
		return nil, fmt.Errorf("%s: linear regression needs a numeric target (read with a numeric target)", d.Source)
	}
	for i, y := range d.Y {
		if y != y {
			return nil, &data.ParseError{File: d.Source, Line: d.Line(i), ColumnName: t.Name, Err: data.ErrMissingTarget}
		}
	}
	enc, err := design.Fit(d, design.Options{Impute: c.Impute, DropFirst: true, NoStandardize: c.NoStandardize})
	if err != nil {
		return nil, err
	}
	P := enc.P()
	q := P + 1
	rows := d.N
	if c.L2 > 0 {
		rows += P
	}
	if rows < q {
		return nil, fmt.Errorf("%s: %d rows for %d coefficients: too few to fit", d.Source, d.N, q)
	}
	a := mat.NewDense(rows, q, nil)
	b := mat.NewDense(rows, 1, nil)
	ad, bd := a.RawMatrix().Data, b.RawMatrix().Data
	parallel.For(d.N, 1024, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			s := math.Sqrt(weight(d, i))
			row := ad[i*q : (i+1)*q]
			enc.EncodeRow(row[:P], d.Row(i))
			row[P] = 1
			floats.Scale(s, row)
			bd[i] = s * d.Y[i]
		}
	})
	for j := range rows - d.N {
		ad[(d.N+j)*q+j] = math.Sqrt(c.L2)
	}
	theta, err := solve(a, b, q)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Source, err)
	}
	m := &Model{schema: d.Schema, enc: enc, theta: theta, lambda: c.L2}
	m.fitStatistics(d)
	return m, nil
}

// solve returns the least-squares solution of a θ ≈ b by QR, refusing a
// numerically rank-deficient a.
func solve(a, b *mat.Dense, q int) ([]float64, error) {
	var qr mat.QR
	qr.Factorize(a)
	var r mat.Dense
	qr.RTo(&r)
	big := 0.0
	for j := range q {
		big = max(big, math.Abs(r.At(j, j)))
	}
	for j := range q {
		if !(math.Abs(r.At(j, j)) > 1e-12*big) {
			return nil, ErrRankDeficient
		}
	}
	var x mat.Dense
	if err := qr.SolveTo(&x, false, b); err != nil {
		return nil, err
	}
	return mat.Col(nil, 0, &x), nil
}

// fitStatistics computes σ² = Σ v_i r_i² / Σ v_i (the MLE), the
// log-likelihood at the MLE,
//
//	log L = Σ_i v_i log N(y_i; ŷ_i, σ²) = −(W/2)(log(2πσ²) + 1),
//
// (with the residuals of the fitted θ, penalised or not) and
// R² = 1 − Σ v_i r_i² / Σ v_i (y_i − ȳ)².
func (m *Model) fitStatistics(d *data.Dataset) {
	pred := m.Predict(nil, d)
	W, ybar := 0.0, 0.0
	for i, y := range d.Y {
		W += weight(d, i)
		ybar += weight(d, i) * y
	}
	ybar /= W
	rss, tss := 0.0, 0.0
	for i, y := range d.Y {
		v := weight(d, i)
		rss += v * (y - pred[i]) * (y - pred[i])
		tss += v * (y - ybar) * (y - ybar)
	}
	m.sigma2 = rss / W
	m.logLik = -W / 2 * (math.Log(2*math.Pi*m.sigma2) + 1)
	m.r2 = 1 - rss/tss
}

func weight(d *data.Dataset, i int) float64 {
	if d.Weight == nil {
		return 1
	}
	return d.Weight[i]
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
// training, takes its design column's training mean. It panics if dst
// has the wrong length or d's features differ from the model's schema by
// name, kind or order.
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
		}
	})
	return dst
}
