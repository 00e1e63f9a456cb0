package mixture

import (
	"fmt"
	"math"

	"github.com/gendisc/gendisc/internal/enum"
)

// Covariance is the form of the components' covariance matrices.
type Covariance int

const (
	// Full gives every component its own covariance matrix Σ_k.
	Full Covariance = iota
	// Diag gives every component its own diagonal covariance matrix.
	Diag
	// Spherical gives every component its own variance σ_k², Σ_k = σ_k² I.
	Spherical
	// Tied gives all components one shared covariance matrix Σ.
	Tied
	// Identity fixes Σ_k = I: only the means and the weights are
	// estimated (the unit-covariance example of EM).
	Identity
)

var covarianceNames = &enum.Names[Covariance]{Type: "Covariance", What: "covariance type",
	List: []string{Full: "full", Diag: "diag", Spherical: "spherical", Tied: "tied", Identity: "identity"}}

// String returns "full", "diag", "spherical", "tied" or "identity".
func (c Covariance) String() string { return covarianceNames.String(c) }

// ParseCovariance returns the covariance type named s ("full", "diag",
// "spherical", "tied" or "identity").
func ParseCovariance(s string) (Covariance, error) { return covarianceNames.Parse(s) }

// diagonal reports whether the components' covariances are diagonal.
func (c Covariance) diagonal() bool { return c == Diag || c == Spherical || c == Identity }

// nCovParams is the number of free covariance parameters of k components in
// d dimensions, as scikit-learn's GaussianMixture._n_parameters counts them.
func (c Covariance) nCovParams(k, d int) int {
	switch c {
	case Full:
		return k * d * (d + 1) / 2
	case Diag:
		return k * d
	case Spherical:
		return k
	case Tied:
		return d * (d + 1) / 2
	}
	return 0
}

// numParams is the number of free parameters of k components in d
// dimensions (GMM.NumParams): the covariances', k·d means and k − 1
// weights.
func (c Covariance) numParams(k, d int) int { return c.nCovParams(k, d) + k*d + k - 1 }

// covLen is the length of the compact covariance layout of Params.
func (c Covariance) covLen(k, d int) int {
	switch c {
	case Full:
		return k * d * d
	case Diag:
		return k * d
	case Spherical:
		return k
	case Tied:
		return d * d
	}
	return 0
}

// Init is the way EM's starting point is chosen.
type Init int

const (
	// KMeansPlusPlus picks K rows by k-means++ seeding (D² sampling with
	// scikit-learn's greedy local trials), assigns every row to its
	// nearest seed, and starts from the weights, means and covariances
	// of that hard partition (scikit-learn's init_params="k-means++").
	KMeansPlusPlus Init = iota
	// Random draws the responsibilities of every row uniformly and
	// normalises them, then starts from the M-step of those
	// responsibilities (scikit-learn's init_params="random").
	Random
)

var initNames = &enum.Names[Init]{Type: "Init", What: "initialisation",
	List: []string{KMeansPlusPlus: "kmeans++", Random: "random"}}

// String returns "kmeans++" or "random".
func (i Init) String() string { return initNames.String(i) }

// ParseInit returns the initialisation named s ("kmeans++" or "random").
func ParseInit(s string) (Init, error) { return initNames.Parse(s) }

// Regularization is the way Config.RegCovar, r, regularises the
// covariance matrices that the M-step estimates.
//
// The default is Floor, and the choice is deliberate: with Floor every EM
// iteration is the exact maximisation of a constrained likelihood, so the
// log-likelihood never decreases, at any scale of the data. Ridge, the
// regularisation of scikit-learn, is not an exact M-step: when r is not
// small next to a component's variances (raw features with small
// spreads: breast_cancer_wdbc, sonar), the log-likelihood can decrease
// from one iteration to the next (by 5e-6 relative on those data sets).
// Where every eigenvalue is at least r, Floor leaves the covariances as
// estimated and Ridge adds r to them; the fits differ by O(r).
type Regularization int

const (
	// Floor makes r a floor on the eigenvalues of every covariance
	// matrix:
	//
	//	Full, Tied:        Σ = V Λ Vᵀ  ←  V max(Λ, r) Vᵀ
	//	Diag, Spherical:   σ_j²  ←  max(σ_j², r)
	//
	// which is the maximiser of the M-step's objective
	// −½ W (log|Σ| + tr(Σ⁻¹ S/W)) over the matrices Σ ⪰ r·I: EM for the
	// maximum-likelihood problem under that constraint, whose
	// log-likelihood never decreases. A covariance whose eigenvalues are
	// all at least r is left unchanged.
	Floor Regularization = iota
	// Ridge adds r to the diagonal, Σ ← Σ + r·I, as scikit-learn's
	// GaussianMixture does with reg_covar. It is not the maximiser of
	// the M-step, and the log-likelihood may decrease between iterations
	// when r is not small next to the variances within a component.
	Ridge
)

var regularizationNames = &enum.Names[Regularization]{Type: "Regularization", What: "regularisation",
	List: []string{Floor: "floor", Ridge: "ridge"}}

// String returns "floor" or "ridge".
func (r Regularization) String() string { return regularizationNames.String(r) }

// ParseRegularization returns the regularisation named s ("floor" or
// "ridge").
func ParseRegularization(s string) (Regularization, error) { return regularizationNames.Parse(s) }

// Defaults of Config.
const (
	DefaultTol      = 1e-3
	DefaultMaxIter  = 100
	DefaultRegCovar = 1e-6
)

// Config holds the hyperparameters of a Gaussian mixture. The zero value
// fits one full-covariance component with the defaults below.
//
// By default RegCovar is a floor on the covariances' eigenvalues (Floor),
// not scikit-learn's addition to their diagonal (Ridge): the floor keeps
// EM's guarantee that the log-likelihood never decreases, which the
// ridge breaks on raw features of small spread. Set Regularization to
// Ridge to reproduce scikit-learn's GaussianMixture.
type Config struct {
	// Components is the number of mixture components K (default 1).
	Components int
	// Covariance is the covariance type (default Full).
	Covariance Covariance
	// Init chooses the starting parameters (default KMeansPlusPlus).
	Init Init
	// Restarts is the number of EM runs from different starting points;
	// the run with the largest final log-likelihood is kept (default 1).
	Restarts int
	// Tol stops EM when the change of the mean log-likelihood per row
	// between iterations is below it, as scikit-learn's tol (default
	// 1e-3). A negative Tol runs MaxIter iterations.
	Tol float64
	// MaxIter bounds the EM iterations of a run (default 100).
	MaxIter int
	// RegCovar keeps every estimated covariance matrix positive definite
	// (default 1e-6, the value of scikit-learn's reg_covar), in the way
	// Regularization says. A negative RegCovar regularises nothing.
	// Identity ignores it.
	RegCovar float64
	// Regularization is the way RegCovar enters the M-step (default
	// Floor: the least eigenvalue of every covariance matrix, which keeps
	// the log-likelihood monotone; Ridge reproduces scikit-learn).
	Regularization Regularization
	// Seed, when set, is the seed the caller made Fit's random source
	// from; Fit does not read it but records it with the model's
	// settings (GMM.Settings), so that the fit can be repeated.
	Seed *uint64
	// Start, when set, is the starting point of a single EM run: Init
	// and Restarts are then ignored. Its covariances are in the layout of
	// Covariance (see Params).
	Start *Params
	// OnIter, when set, is called after the E-step of every iteration
	// with the restart (from 0), the iteration (from 1) and the
	// log-likelihood of the parameters that entered the iteration, and
	// once more after the last M-step with iteration = Iterations()+1
	// and the final log-likelihood. It is called from the goroutine that
	// called Fit.
	OnIter func(restart, iter int, ll float64)
}

// Params are the parameters of a Gaussian mixture of K components in D
// dimensions, in the compact layout of a covariance type (scikit-learn's
// layout of covariances_):
//
//	Weights       K             π_k, non-negative, Σ_k π_k = 1
//	Means         K×D           μ_k, row-major
//	Covariances   Full: K×D×D   Σ_k
//	              Tied: D×D     Σ
//	              Diag: K×D     diag(Σ_k)
//	              Spherical: K  σ_k²
//	              Identity: empty
type Params struct {
	Weights, Means, Covariances []float64
}

// settings are a Config with its defaults filled in.
type settings struct {
	Config
	tol, reg float64
}

func (c *Config) settings() (settings, error) {
	s := settings{Config: *c}
	if s.Components == 0 {
		s.Components = 1
	}
	if s.Restarts == 0 {
		s.Restarts = 1
	}
	if s.MaxIter == 0 {
		s.MaxIter = DefaultMaxIter
	}
	switch {
	case s.Tol == 0:
		s.tol = DefaultTol
	case s.Tol > 0:
		s.tol = s.Tol
	}
	switch {
	case s.RegCovar == 0:
		s.reg = DefaultRegCovar
	case s.RegCovar > 0:
		s.reg = s.RegCovar
	}
	switch {
	case s.Components < 0:
		return s, fmt.Errorf("mixture: %d components", s.Components)
	case s.Restarts < 0:
		return s, fmt.Errorf("mixture: %d restarts", s.Restarts)
	case s.MaxIter < 0:
		return s, fmt.Errorf("mixture: %d iterations", s.MaxIter)
	case math.IsNaN(s.Tol) || math.IsNaN(s.RegCovar) || math.IsInf(s.RegCovar, 0):
		return s, fmt.Errorf("mixture: tolerance %v, reg-covar %v", s.Tol, s.RegCovar)
	case !covarianceNames.Valid(s.Covariance):
		return s, fmt.Errorf("mixture: unknown covariance type %d", int(s.Covariance))
	case !initNames.Valid(s.Init):
		return s, fmt.Errorf("mixture: unknown initialisation %d", int(s.Init))
	case !regularizationNames.Valid(s.Regularization):
		return s, fmt.Errorf("mixture: unknown regularisation %d", int(s.Regularization))
	}
	if s.Covariance == Identity {
		s.reg = 0
	}
	return s, nil
}
