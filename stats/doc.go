// Package stats is the sufficient-statistics core of the model families:
// mergeable, weighted statistics of rows, per class.
//
//   - Moments: per class and per feature, the weighted count, mean and
//     centred sum of squares of the observed (non-NaN) cells (the diagonal
//     Gaussians of naive Bayes, the standardisation of a design matrix).
//   - Scatter and Classes: per class, the weighted count, mean vector and
//     scatter matrix (centred sum of outer products) of the complete rows,
//     and optionally the central third and fourth cross-moments that the
//     Ledoit–Wolf shrinkage needs (LDA and QDA, the M-step of a Gaussian
//     mixture).
//
// Statistics of disjoint sets of rows merge exactly (up to rounding) by
// Chan, Golub and LeVeque's pairwise formula, in its matrix form for the
// scatter and Pébay's for the higher moments:
//
//	W = Wa + Wb,  δ = Mb − Ma,  M = Ma + δ·Wb/W,
//	S = Sa + Sb + (Wa·Wb/W)·δδᵀ,
//
// so the same code serves a parallel fit (one set of statistics per segment
// of rows, merged in order, so that the result does not depend on the
// number of cores), a streaming fit (one per chunk), the update of a saved
// model, a fit distributed over processes (the statistics encode
// themselves bit for bit with MarshalBinary, and Remap renumbers the
// classes of a shard into those of the union of the shards' schemas), and
// weighted rows.
//
// Rows are given as a row-major matrix x of D columns, the labels y
// (float64 class indices, NaN for an unlabelled row, which is skipped) and
// the weights w (nil for 1 each; rows of weight 0 are skipped). Moments
// leaves a missing (NaN) cell out of its feature's statistics; Classes
// leaves a row with a missing cell out and returns it, so that a caller
// can estimate its contribution by EM (Add of the completed row, then
// AddConditional of the conditional covariance of its missing block).
//
// References: T. F. Chan, G. H. Golub, R. J. LeVeque, "Updating formulae
// and a pairwise algorithm for computing sample variances", Stanford
// report STAN-CS-79-773, 1979; P. Pébay, "Formulas for robust, one-pass
// parallel computation of covariances and arbitrary-order statistical
// moments", Sandia report SAND2008-6212, 2008.
package stats
