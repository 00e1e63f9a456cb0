package logistic

import (
	"fmt"
	"math/rand/v2"

	"github.com/gendisc/gendisc/internal/design"
	"github.com/gendisc/gendisc/text"
)

// Solver names an optimisation method.
type Solver string

// The solvers. The zero value, Auto, picks Newton for problems with at most
// newtonMaxParams parameters (the Hessian is small enough that a few
// Newton steps, each one pass over the data building it, beat many cheap
// gradient steps) and L-BFGS otherwise.
const (
	Auto Solver = ""
	// GD is batch gradient ascent with a fixed step (halved whenever a
	// step would lower the objective), the update of the material:
	//
	//	θ ← θ + η ∇F(θ)/W
	//
	// It stops when the largest change of a coefficient, η max_j |∂F/∂θ_j|/W,
	// falls under Tol.
	GD Solver = "gd"
	// SGD makes shuffled passes (epochs) over the rows, one stochastic
	// step per row, with the step decaying over the epochs. The stochastic
	// gradient is variance-reduced (SVRG: each epoch starts from the full
	// gradient at a snapshot), so the iterates converge to the exact
	// optimum instead of hovering around it. It stops when the largest
	// change of a coefficient over an epoch falls under Tol.
	SGD Solver = "sgd"
	// Newton is iteratively reweighted least squares: Newton steps
	// Δθ = −H⁻¹∇J from the exact Hessian, with a backtracking line search.
	Newton Solver = "newton"
	// LBFGS is limited-memory BFGS: directions from the last 30
	// correction pairs, steps from gonum/optimize's More–Thuente line
	// search. On 100,000 rows or more (and λ > 0) it warms up on a random
	// sixteenth of the rows, whose objective is about a sixteenth of J,
	// and starts the fit on every row from that fit's minimiser with its
	// correction pairs rescaled and, for up to 512 parameters without text
	// columns, a Hessian there as the initial inverse-Hessian
	// approximation: a handful of passes over all the rows then suffice.
	LBFGS Solver = "lbfgs"
)

// newtonMaxParams is the largest number of parameters for which Auto picks
// Newton.
const newtonMaxParams = 40

// newtonMaxText is the largest number of parameters Newton accepts with
// text columns: it writes the term counts out as dense columns (N × V)
// and factorises the dim × dim Hessian at every step, where L-BFGS works
// on the sparse counts in O(dim) memory.
const newtonMaxText = 2000

// ClassWeight says how rows are weighted by class.
type ClassWeight string

const (
	// Unweighted classes: every row weighs its sample weight.
	Unweighted ClassWeight = ""
	// Balanced weighs the rows of class k by W/(K W_k), W the total
	// sample weight and W_k that of class k, so that every class carries
	// the same total weight (scikit-learn's class_weight="balanced" when
	// there are no sample weights).
	Balanced ClassWeight = "balanced"
)

// Config holds the hyperparameters of logistic regression. The zero value
// is the default: λ = 1, the solver chosen by the shape of the data,
// missing values refused.
type Config struct {
	// L2 is λ, the weight of the Gaussian prior (λ/2)‖w‖² on the
	// standardised coefficients; the intercepts are not penalised. Zero
	// means the default, 1. The optimum is scikit-learn's with C = 1/λ.
	L2 float64
	// NoPenalty sets λ = 0 (plain maximum conditional likelihood, MCLE),
	// whatever L2 says. On separable data the maximum does not exist; the
	// fit then stops with a warning in Diagnostics.
	NoPenalty bool
	// Solver is the optimisation method; Auto by default.
	Solver Solver
	// MaxIter caps the iterations of gd, newton and lbfgs; zero means
	// 10000 for gd and 1000 otherwise.
	MaxIter int
	// Epochs caps the epochs of sgd; zero means 1000.
	Epochs int
	// Tol is the stopping tolerance; zero means 1e-6 (the gradient
	// criterion is scikit-learn's, whose default is 1e-4). Newton and L-BFGS
	// stop when the gradient of the mean objective is small,
	// max_j |∂F/∂θ_j| / W < Tol; gd and sgd when the largest change of a
	// coefficient in an iteration (an epoch) is under Tol. With λ = 0,
	// Newton and L-BFGS use at most 1e-10, so that weights running off to
	// infinity along a flat direction are caught before the gradient
	// vanishes.
	Tol float64
	// Step is η0, the step size of gd and the first step of sgd; zero
	// means 1/L for gd, with L a bound on the curvature of F/W found by
	// power iteration, and 1/L_max for sgd, with L_max the largest
	// curvature of one row's term N v_i ℓ_i / W. sgd's step decays as
	// η_e = η0 / (1 + e/100) in epoch e.
	Step float64
	// Rand shuffles the rows of sgd; nil means a PCG source with seed 1,
	// so that fits are reproducible.
	Rand *rand.Rand
	// ClassWeight weighs the rows by class.
	ClassWeight ClassWeight
	// NoStandardize fits the weights of the numeric features in their
	// own units instead of standardising them first, so that λ applies
	// to the raw coefficients: scikit-learn's LogisticRegression(C = 1/λ)
	// on the unscaled data. Slower to converge when the features' scales
	// differ.
	NoStandardize bool
	// Impute fills missing cells with their column's training mean (the
	// mean of each indicator for a categorical column), in the fit and at
	// prediction. Otherwise a missing cell is an error, in the fit and
	// at prediction (Model.CheckMissing).
	Impute bool
	// Text says how text columns become term counts, one weight per term
	// of a column's training vocabulary (package text: tokens of letters
	// and numbers, n-grams, stop words, document-frequency bounds, the
	// most frequent terms); the zero value counts every unigram, as
	// scikit-learn's CountVectorizer(token_pattern=r"(?u)[^\W_]+").
	Text text.VectorizerConfig
}

// lambda returns the effective λ.
func (c *Config) lambda() float64 {
	switch {
	case c.NoPenalty:
		return 0
	case c.L2 == 0:
		return 1
	}
	return c.L2
}

func (c *Config) tol(s Solver) float64 {
	tol := c.Tol
	if tol == 0 {
		tol = 1e-6
	}
	if c.lambda() == 0 && (s == Newton || s == LBFGS) {
		tol = min(tol, 1e-10)
	}
	return tol
}

func (c *Config) maxIter(s Solver) int {
	switch {
	case s == SGD && c.Epochs > 0:
		return c.Epochs
	case s == SGD:
		return 1000
	case c.MaxIter > 0:
		return c.MaxIter
	case s == GD:
		return 10000
	}
	return 1000
}

// designOptions are the options of the design matrix.
func (c *Config) designOptions() design.Options {
	return design.Options{Impute: c.Impute, NoStandardize: c.NoStandardize, Text: &c.Text}
}

// validate checks the values a caller set.
func (c *Config) validate() error {
	switch {
	case c.L2 < 0 || c.L2 != c.L2:
		return fmt.Errorf("logistic: L2 must be positive, got %v", c.L2)
	case c.MaxIter < 0, c.Epochs < 0:
		return fmt.Errorf("logistic: MaxIter and Epochs must not be negative")
	case c.Tol < 0 || c.Tol != c.Tol:
		return fmt.Errorf("logistic: Tol must be positive, got %v", c.Tol)
	case c.Step < 0 || c.Step != c.Step:
		return fmt.Errorf("logistic: Step must be positive, got %v", c.Step)
	}
	switch c.Solver {
	case Auto, GD, SGD, Newton, LBFGS:
	default:
		return fmt.Errorf("logistic: unknown solver %q (gd, sgd, newton, lbfgs)", c.Solver)
	}
	switch c.ClassWeight {
	case Unweighted, Balanced:
	default:
		return fmt.Errorf("logistic: unknown class weight %q (balanced)", c.ClassWeight)
	}
	if err := c.Text.Validate(); err != nil {
		return fmt.Errorf("logistic: %w", err)
	}
	return nil
}
