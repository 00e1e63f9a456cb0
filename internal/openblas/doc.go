// Package openblas switches gonum's BLAS to OpenBLAS when the program is
// built with the openblas build tag:
//
//	go build -tags openblas ./cmd/gendisc
//
// Importing the package (for its side effect, with a blank import in a file
// guarded by the same tag) calls
//
//	blas64.Use(netlib.Implementation{})
//
// so that every blas64 call, and gonum's mat and LAPACK routines built on
// them, run in the C library (gonum.org/v1/netlib's cgo binding, linked
// with -lopenblas: Debian's libopenblas-dev). It needs cgo and a C
// compiler. LAPACK stays gonum's pure-Go implementation: the latest
// gonum.org/v1/netlib (v0.0.0-20190313105609-8cb42192e0e0) does not
// implement gonum v0.17's lapack.Float64 interface (it lacks Dlapmr), but
// gonum's LAPACK spends its time in the BLAS it calls.
//
// Without the tag the package is empty and the default build is pure Go.
package openblas
