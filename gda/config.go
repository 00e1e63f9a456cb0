package gda

import (
	"errors"
	"fmt"
	"math"

	"github.com/gendisc/gendisc/internal/classprior"
	"github.com/gendisc/gendisc/internal/enum"
)

// CovarianceEstimator selects the divisor of the scatter matrices.
type CovarianceEstimator int

const (
	// MLE divides by the total weight: Σ = S_w / W for LDA, Σ_k = S_k / W_k
	// for QDA (the maximum-likelihood estimates; the default).
	MLE CovarianceEstimator = iota
	// Unbiased divides by W − K for LDA (K classes) and by W_k − 1 for QDA,
	// as scikit-learn's LinearDiscriminantAnalysis (solver 'svd') and
	// QuadraticDiscriminantAnalysis do.
	Unbiased
)

var estimatorNames = &enum.Names[CovarianceEstimator]{Type: "CovarianceEstimator", What: "covariance estimator", Prefix: "gda: ",
	List: []string{MLE: "mle", Unbiased: "unbiased"}}

// String returns "mle" or "unbiased".
func (e CovarianceEstimator) String() string { return estimatorNames.String(e) }

// ParseCovarianceEstimator returns the estimator named s ("mle" or
// "unbiased").
func ParseCovarianceEstimator(s string) (CovarianceEstimator, error) { return estimatorNames.Parse(s) }

// MarshalText writes the estimator's name.
func (e CovarianceEstimator) MarshalText() ([]byte, error) { return estimatorNames.MarshalText(e) }

// UnmarshalText reads an estimator's name.
func (e *CovarianceEstimator) UnmarshalText(b []byte) error {
	return estimatorNames.UnmarshalText(e, b)
}

// Default EM settings of the zero Config.
const (
	DefaultMaxIter = 200
	DefaultTol     = 1e-8
)

// Config holds the hyperparameters of LDA and QDA (LDAConfig and QDAConfig
// are this type under the name of the model they fit). The zero value
// gives the defaults: maximum-likelihood covariances without shrinkage,
// maximum-likelihood class priors.
//
// With C_k = S_k / W_k the maximum-likelihood covariance of class k
// (scatter S_k, weight W_k) and p the number of features, a shrinkage r
// replaces C_k by scikit-learn's shrunk covariance, towards the scaled
// identity (sklearn.covariance.shrunk_covariance):
//
//	shrink_r(C) = (1 − r)·C + r·(tr(C)/p)·I
//
// and ShrinkageAuto applies it on the standardised scale, as
// scikit-learn's discriminant analysis does for shrinkage='auto': with
// D = diag(σ_j), σ_j² = C_jj (σ_j = 1 for a constant feature), the
// correlation matrix R = D⁻¹ C D⁻¹ is shrunk with the Ledoit–Wolf
// intensity r_k of the standardised rows and scaled back,
//
//	D·shrink_r(R)·D = (1 − r)·C + r·(tr(R)/p)·diag(C)
//
// which blends C with its diagonal (tr(R)/p = 1 without constant
// features). LDA's covariance is the weighted mean of the shrunk class
// covariances, Σ = Σ_k (W_k/W)·shrink(C_k), which for a fixed r is the
// shrunk pooled covariance; Unbiased then multiplies by W/(W − K) (LDA) or
// W_k/(W_k − 1) (QDA).
type Config struct {
	// Estimator is the divisor of the scatter matrices; default MLE.
	Estimator CovarianceEstimator
	// Shrinkage is the fixed intensity r in [0, 1]; 0 means none.
	Shrinkage float64
	// ShrinkageAuto chooses r per class by Ledoit–Wolf on the standardised
	// rows. It excludes Shrinkage and makes the model keep third and
	// fourth moments (2·p² more numbers per class). For rows with missing
	// cells, those moments are taken of the rows completed by EM (the
	// conditional means), an approximation.
	ShrinkageAuto bool
	// PriorAlpha, when positive, smooths the class prior:
	//
	//	π_k = (W_k + α) / (W + α·K)
	//
	// 0 gives the maximum-likelihood W_k / W.
	PriorAlpha float64
	// ClassPrior, when not nil, fixes the class prior: a positive
	// probability for every class name, summing to 1 within 1e-9
	// (normalised to sum exactly). It excludes PriorAlpha.
	ClassPrior map[string]float64
	// MaxIter bounds the EM iterations over rows with missing cells;
	// 0 means DefaultMaxIter.
	MaxIter int
	// Tol stops EM when no mean or covariance entry moves by more than
	// Tol on the scale of its features' standard deviations:
	// |Δμ_j|/σ_j and |ΔΣ_jl|/(σ_j σ_l). 0 means DefaultTol.
	Tol float64
}

// LDAConfig holds the hyperparameters of linear discriminant analysis: one
// covariance matrix shared by the classes. See Config for the fields.
type LDAConfig Config

// QDAConfig holds the hyperparameters of quadratic discriminant analysis:
// one covariance matrix per class. See Config for the fields.
type QDAConfig Config

// validate checks c and returns it with its defaults applied.
func (c Config) validate() (Config, error) {
	if !estimatorNames.Valid(c.Estimator) {
		return c, fmt.Errorf("gda: unknown covariance estimator %d", int(c.Estimator))
	}
	if !(c.Shrinkage >= 0 && c.Shrinkage <= 1) {
		return c, fmt.Errorf("gda: shrinkage %v: want a number in [0, 1]", c.Shrinkage)
	}
	if c.ShrinkageAuto && c.Shrinkage != 0 {
		return c, errors.New("gda: a fixed shrinkage and automatic shrinkage exclude each other")
	}
	if c.MaxIter < 0 {
		return c, fmt.Errorf("gda: EM iterations %d: want ≥ 0", c.MaxIter)
	}
	if !(c.Tol >= 0) || math.IsInf(c.Tol, 1) {
		return c, fmt.Errorf("gda: EM tolerance %v: want a finite number ≥ 0", c.Tol)
	}
	if err := classprior.Check(c.PriorAlpha, c.ClassPrior); err != nil {
		return c, fmt.Errorf("gda: %w", err)
	}
	if c.MaxIter == 0 {
		c.MaxIter = DefaultMaxIter
	}
	if c.Tol == 0 {
		c.Tol = DefaultTol
	}
	return c, nil
}
