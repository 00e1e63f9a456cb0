// Package linear fits linear regression as the maximum-likelihood estimate
// under Gaussian noise,
//
//	y_i = θᵀz̃_i + ε_i,  ε_i ~ N(0, σ²),  z̃_i = (z_i, 1),
//
// whose log-likelihood Σ_i v_i log N(y_i; θᵀz̃_i, σ²) is maximised over θ by
// weighted least squares and over σ² by the mean squared residual (divide
// by n, the MLE). z is the design row of the features (package
// internal/design): numeric columns standardised, categorical columns as
// indicators of every level but the first (dummy coding, so that they are
// not collinear with the intercept).
//
// The least-squares problem is solved by a QR factorisation of the
// weighted design matrix (never the normal equations, which square its
// condition number), gathered in parts: an Accumulator keeps the R factor
// of the rows it has seen, adds rows by factorising R stacked on top of
// them and merges another accumulator by factorising the two R stacked
// (TSQR), so that shards of the rows fitted apart (in other processes:
// the accumulator encodes itself) and merged give the fit on all the rows
// up to rounding. Fit is one accumulator's pass over the rows. A model
// keeps its accumulator, in its file too, so that it can be updated with
// new rows or merged with a model fitted on others (gendisc.Mergeable).
// An optional ridge penalty (λ/2)‖w‖² on the
// standardised weights (the intercept is not penalised) is a Gaussian
// prior on the weights, solved the same way by appending √λ I rows:
//
//	min_θ ‖√V (y − Z̃θ)‖² + λ‖w‖² = min_θ ‖ [√V Z̃; √λ I 0] θ − [√V y; 0] ‖²
package linear
