// Package classprior estimates the class prior π_k of the generative
// classifiers (naive Bayes, Gaussian discriminant analysis) from the total
// training weight w_k of each class (W = Σ_k w_k, K classes), in one of
// three ways:
//
//	π_k = w_k / W                  maximum likelihood (α = 0)
//	π_k = (w_k + α) / (W + α·K)    MAP under a symmetric Dirichlet(α + 1) prior
//	π_k = p_k / Σ_l p_l            fixed priors p_k, normalised
//
// The setting is validated once, when a configuration is checked (Check),
// and applied when the model is fitted (Estimate). Errors carry no package
// prefix: the model package that returns them adds its own.
package classprior
