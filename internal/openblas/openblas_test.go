//go:build openblas

package openblas

import (
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

// TestUse checks that the import installed OpenBLAS and that a product
// computed by it is right.
func TestUse(t *testing.T) {
	if _, ok := blas64.Implementation().(netlib.Implementation); !ok {
		t.Fatalf("blas64.Implementation() = %T, want netlib.Implementation", blas64.Implementation())
	}
	a := blas64.General{Rows: 2, Cols: 3, Stride: 3, Data: []float64{1, 2, 3, 4, 5, 6}}
	b := blas64.General{Rows: 3, Cols: 2, Stride: 2, Data: []float64{7, 8, 9, 10, 11, 12}}
	c := blas64.General{Rows: 2, Cols: 2, Stride: 2, Data: make([]float64, 4)}
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, a, b, 0, c)
	want := []float64{58, 64, 139, 154}
	for i, v := range c.Data {
		if v != want[i] {
			t.Fatalf("Gemm = %v, want %v", c.Data, want)
		}
	}
}
