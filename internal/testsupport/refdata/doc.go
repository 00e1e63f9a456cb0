// Package refdata is test support: it reads the reference values that the
// scripts of a package's testdata wrote (scikit-learn's results, say) for
// its tests.
package refdata
