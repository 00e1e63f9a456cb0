// Package gauss is the Gaussian core of the model families: a covariance
// matrix Σ with its Cholesky factor, and, for rows with missing cells, the
// marginal and conditional Gaussians of every pattern of observed cells.
//
// One convention throughout: Σ = L Lᵀ with L lower triangular, stored
// row-major. A Cov is built once from Σ (New, or NewDiag for a diagonal
// Σ) and holds L, L⁻¹, the precision matrix Λ = Σ⁻¹ = L⁻ᵀ L⁻¹ and
// log |Σ|. The mean is not part of a Cov: several means may share one
// covariance matrix (LDA, tied mixtures), so every method that needs μ
// takes it.
//
// For the observed cells o of a row and its missing cells m, Cov.Pattern
// returns what the row's Gaussian algebra needs, computed once per
// pattern and cached:
//
//	log N(x_o; μ_o, Σ_oo)           (the marginal density of the observed block)
//	E[x_m | x_o]   = μ_m + A (x_o − μ_o),   A = Σ_mo Σ_oo⁻¹
//	Cov[x_m | x_o] = C = Σ_mm − Σ_mo Σ_oo⁻¹ Σ_om
//
// and draws from the conditional distribution. A and C come from the
// precision matrix by the block inverse (no factorisation of Σ_oo), see
// Pattern.
//
// A Cov is safe for concurrent use once New returns: the pattern cache is
// guarded by a mutex, and everything else is read-only. The Patterns it
// returns are immutable.
package gauss
