// Package stats accumulates mergeable sufficient statistics: per class and
// per feature, the weighted count, mean and centred sum of squares of the
// observed (non-NaN) cells, combined with Chan, Golub and LeVeque's pairwise
// formula. The same statistics serve a parallel fit (one set per segment of
// rows, merged), a streaming fit (one set per chunk), an update of a saved
// model with new data (merge), and weighted rows.
//
// Reference: T. F. Chan, G. H. Golub, R. J. LeVeque, "Updating formulae and
// a pairwise algorithm for computing sample variances", Stanford CS report
// STAN-CS-79-773, 1979.
package stats
