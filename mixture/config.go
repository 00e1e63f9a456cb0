package mixture

import (
	"fmt"
	"math"
	"slices"
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

var covarianceNames = [...]string{Full: "full", Diag: "diag", Spherical: "spherical", Tied: "tied", Identity: "identity"}

func (c Covariance) String() string {
	if c < 0 || int(c) >= len(covarianceNames) {
		return fmt.Sprintf("Covariance(%d)", int(c))
	}
	return covarianceNames[c]
}

// ParseCovariance returns the covariance type named s ("full", "diag",
// "spherical", "tied" or "identity").
func ParseCovariance(s string) (Covariance, error) {
	i := slices.Index(covarianceNames[:], s)
	if i < 0 {
		return 0, fmt.Errorf("unknown covariance type %q (full, diag, spherical, tied, identity)", s)
	}
	return Covariance(i), nil
}

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

var initNames = [...]string{KMeansPlusPlus: "kmeans++", Random: "random"}

func (i Init) String() string {
	if i < 0 || int(i) >= len(initNames) {
		return fmt.Sprintf("Init(%d)", int(i))
	}
	return initNames[i]
}

// ParseInit returns the initialisation named s ("kmeans++" or "random").
func ParseInit(s string) (Init, error) {
	i := slices.Index(initNames[:], s)
	if i < 0 {
		return 0, fmt.Errorf("unknown initialisation %q (kmeans++, random)", s)
	}
	return Init(i), nil
}

// Defaults of Config.
const (
	DefaultTol      = 1e-3
	DefaultMaxIter  = 100
	DefaultRegCovar = 1e-6
)

// Config holds the hyperparameters of a Gaussian mixture. The zero value
// fits one full-covariance component with the defaults below.
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
	// RegCovar is added to the diagonal of every estimated covariance
	// matrix, keeping it positive definite (default 1e-6, scikit-learn's
	// reg_covar). A negative RegCovar adds nothing. Identity ignores it.
	// Added to the diagonal, it makes the M-step inexact: when it is not
	// small next to the variances of the data within a component, the
	// log-likelihood can decrease between iterations; RegFloor avoids
	// that.
	RegCovar float64
	// RegFloor makes RegCovar a floor on the eigenvalues of every
	// covariance matrix instead of an addition to its diagonal:
	//
	//	Σ = V Λ Vᵀ  ←  V max(Λ, RegCovar) Vᵀ
	//
	// This is the exact maximiser of the M-step over the matrices
	// Σ ⪰ RegCovar·I, so that the log-likelihood never decreases (EM's
	// guarantee, for a constrained maximum-likelihood problem), and it
	// leaves Σ alone where every eigenvalue is at least RegCovar. The
	// default, false, reproduces scikit-learn.
	RegFloor bool
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
	case s.Covariance < 0 || int(s.Covariance) >= len(covarianceNames):
		return s, fmt.Errorf("mixture: unknown covariance type %d", int(s.Covariance))
	case s.Init < 0 || int(s.Init) >= len(initNames):
		return s, fmt.Errorf("mixture: unknown initialisation %d", int(s.Init))
	}
	if s.Covariance == Identity {
		s.reg = 0
	}
	return s, nil
}
