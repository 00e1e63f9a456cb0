// Package bundled is test support: it reads the data sets of package
// datasets for the tests of the other packages.
package bundled
