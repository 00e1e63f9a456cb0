// Package covstats accumulates mergeable full-covariance sufficient
// statistics: per class, the weighted count, mean vector and scatter matrix
// (centred sum of outer products) of the rows, and optionally the central
// third and fourth cross-moments that the Ledoit–Wolf shrinkage needs.
//
// Statistics of disjoint sets of rows merge exactly (up to rounding) by the
// matrix form of Chan, Golub and LeVeque's pairwise formula,
//
//	W = Wa + Wb,  δ = Mb − Ma,  M = Ma + δ·Wb/W,
//	S = Sa + Sb + (Wa·Wb/W)·δδᵀ,
//
// so the same code serves a parallel fit (one set of statistics per segment
// of rows), a streaming fit (one per chunk), the update of a saved model,
// and weighted rows. Blocks of rows are summarised with BLAS rank-k updates
// (Syrk) of their centred values rather than one outer product per row.
//
// Rows with a missing (NaN) feature are not accumulated: Add returns them,
// so that a caller can estimate their contribution by EM and add the
// conditional expectations (Add for the completed rows, AddConditional for
// the conditional covariance of their missing block).
//
// Package internal/stats holds the diagonal counterpart (per-feature
// moments with missing cells skipped one by one) used by naive Bayes.
//
// Reference: T. F. Chan, G. H. Golub, R. J. LeVeque, "Updating formulae and
// a pairwise algorithm for computing sample variances", 1979; P. Pébay,
// "Formulas for robust, one-pass parallel computation of covariances and
// arbitrary-order statistical moments", Sandia report SAND2008-6212.
package covstats
