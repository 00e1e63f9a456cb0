// Package gda is Gaussian discriminant analysis: generative classifiers
// whose class-conditional densities are multivariate normal,
//
//	p(x | y = k) = N(x; μ_k, Σ_k),   P(y = k | x) ∝ π_k N(x; μ_k, Σ_k)
//
// LDA (linear discriminant analysis) shares one covariance matrix among
// the classes, so the log-odds between classes are linear in x; QDA
// (quadratic discriminant analysis) gives every class its own. Both are
// fitted by maximum likelihood from per-class sufficient statistics
// (weighted count W_k, mean μ_k and scatter matrix S_k, package
// stats):
//
//	π_k = W_k / W,   Σ_LDA = Σ_k S_k / W,   Σ_k = S_k / W_k
//
// with options for the unbiased divisors, shrinkage (fixed or
// Ledoit–Wolf) and smoothed or fixed priors (Config). The statistics merge
// exactly, so Fit uses both cores, an Accumulator fits shards that merge
// into the fit on all their rows, Update adds data to a fitted model, and
// a saved model (MarshalJSON, UnmarshalLDA, UnmarshalQDA) holds just them,
// the rows with missing cells and the configuration.
//
// Numerics: each covariance matrix is factored by Cholesky in the Gaussian
// core (package gauss), Σ = L Lᵀ, after scaling to a correlation matrix
// (whose condition number decides whether Σ counts as singular, an error
// that suggests shrinkage); densities of complete rows use
// log|Σ| = 2 Σ_j log L_jj and triangular solves with U = Lᵀ. Prediction
// solves a block of rows at a time with the rows as the lanes of vector
// registers (kernel.SolveLanes: 32 rows, the features four at a time, in
// AVX-512 or AVX2/FMA assembly on amd64, in plain Go elsewhere), each row
// going through the same operations whatever the rows beside it: unlike
// OpenBLAS's Trsm it gives a row the same bits whichever rows it is
// predicted with.
//
// Missing values (NaN cells):
//   - at prediction, a missing feature is marginalised: the row's density is
//     the Gaussian over its observed coordinates, N(x_o; μ_o, Σ_oo), from
//     gauss.Pattern, computed once per pattern of missing cells;
//   - at fitting, rows with missing cells are kept and their statistics
//     estimated by EM: the E-step replaces the missing block by its
//     conditional mean given the observed cells and adds its conditional
//     covariance (the Schur complement Σ_mm − Σ_mo Σ_oo⁻¹ Σ_om) to the
//     scatter (gauss.Pattern too); the M-step re-estimates μ_k and Σ from the completed
//     statistics.
//
// For LDA, Linear and LogisticForm give the equivalent softmax and logistic
// weights (LogProba computes LDA's posteriors from the linear form), and
// Transform the discriminant coordinates (scikit-learn's solver='eigen').
// Both models fill missing cells with their conditional expectations
// (Impute) and draw synthetic rows (Sample, SampleClass).
//
// The reference values of the tests come from scikit-learn 1.2.1
// (testdata/gen_reference.py): LinearDiscriminantAnalysis with
// solver='lsqr' (MLE covariance, shrinkage), 'svd' (unbiased covariance)
// and 'eigen' (transform), and QuadraticDiscriminantAnalysis (unbiased).
package gda
