// Package mixture fits Gaussian mixtures by expectation–maximisation (EM)
// and evaluates them: the density
//
//	p(x) = Σ_k π_k N(x; μ_k, Σ_k),
//
// its log (ScoreSamples, an anomaly score), the responsibilities
// P(k | x) (Predict), draws (Sample), and the BIC and AIC that choose the
// number of components (SelectK).
//
// Config holds the hyperparameters; its Fit returns an immutable *GMM.
// EM alternates
//
//	E-step:  r_ik = π_k N(x_i; μ_k, Σ_k) / Σ_l π_l N(x_i; μ_l, Σ_l)
//	M-step:  π_k = Σ_i r_ik / n,  μ_k = Σ_i r_ik x_i / Σ_i r_ik,
//	         Σ_k = Σ_i r_ik (x_i − μ_k)(x_i − μ_k)ᵀ / Σ_i r_ik
//
// and never decreases the log-likelihood Σ_i log p(x_i); every
// iteration's value is kept in the model (LogLikelihoodTrace). The
// covariance types restrict Σ_k: Full, Diag, Spherical, Tied (one Σ for
// all components) and Identity (Σ_k = I, only means and weights move).
//
// The E-step works in log space: log N(x; μ, Σ) = −½‖L⁻¹(x − μ)‖² −
// Σ_j log L_jj − ½ D log 2π with the Cholesky factor L of Σ, computed once
// per component and iteration, and the responsibilities are normalised by
// log-sum-exp. Rows are evaluated in blocks without allocating per row,
// the E-step's responsibilities and the M-step's statistics of a block
// computed while it is in cache (one pass over the data per iteration),
// in chunks of blocks that all cores take in turn; each chunk's statistics
// are its own and merged in chunk order, so that a fit's results do not
// depend on the number of cores.
//
// Rows with missing cells (NaN) are kept: their E-step uses the marginal
// density of the observed coordinates, and their M-step the conditional
// expectation and covariance of the missing ones given the observed ones,
// which is EM for the observed-data likelihood. The marginal of each
// missing pattern is computed once per iteration by the Gaussian core
// (gauss.Pattern), from the precision matrix Σ⁻¹ by Schur complements, at
// a cost that grows with the number of missing coordinates rather than the
// observed ones.
//
// RegCovar keeps the covariances positive definite; by default it is a
// floor on their eigenvalues (Floor), which keeps every M-step exact and
// the log-likelihood monotone at any scale of the data, and with Ridge it
// is added to their diagonal as scikit-learn's reg_covar.
//
// The fitted parameters, the log-likelihood trace and the warnings are
// saved with MarshalJSON and read back bit for bit with UnmarshalGMM.
//
// Mixture discriminant analysis (MDAConfig, MDA) fits a mixture to the
// rows of every class and classifies by Bayes' rule: a generative
// classifier (gendisc.Generative) whose class densities may have several
// modes, where QDA has one Gaussian per class.
package mixture
