package kernel

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// syrkBLAS64 is Syrk by gonum's blas64.Syrk: pure Go, or OpenBLAS's
// dsyrk when package openblas is linked in (the openblas build, and the
// benchmark that compares them).
func syrkBLAS64(d, n int, a []float64, lda int, c []float64, ldc int) {
	blas64.Syrk(blas.NoTrans, 1, blas64.General{Rows: d, Cols: n, Stride: lda, Data: a}, 1,
		blas64.Symmetric{N: d, Stride: ldc, Uplo: blas.Upper, Data: c})
}
