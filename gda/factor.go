package gda

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// maxCond is the largest condition number of a correlation matrix that
// counts as non-singular: beyond it, log-densities would lose more than
// about four of the sixteen digits of float64.
const maxCond = 1e12

// factor is the Cholesky factorisation Σ = UᵀU of a covariance matrix (or
// of its principal submatrix over some features), U upper triangular.
type factor struct {
	u      blas64.Triangular
	logDet float64 // log |Σ|
}

// factorize factors the principal submatrix Σ[idx, idx] of the p×p matrix
// cov (idx nil: all of it). It factors the correlation matrix
// R = D⁻¹ Σ D⁻¹, D = diag(√Σ_jj), and scales back, U = V·D for R = VᵀV,
// so that the condition check is on R and does not depend on the units of
// the features:
//
//	log |Σ| = log |R| + 2 Σ_j log D_j
//
// It returns the index (into idx) of a feature of zero variance, or -1
// and ok = false when Σ is not positive definite or, with check set, R's
// condition number (1-norm, LAPACK's estimate) exceeds maxCond.
func factorize(cov []float64, p int, idx []int, check bool) (f *factor, zero int, ok bool) {
	if idx == nil {
		idx = make([]int, p)
		for j := range idx {
			idx[j] = j
		}
	}
	m := len(idx)
	s := make([]float64, m)
	for a, j := range idx {
		v := cov[j*p+j]
		if !(v > 0) {
			return nil, a, false
		}
		s[a] = math.Sqrt(v)
	}
	u := blas64.Triangular{N: m, Stride: m, Uplo: blas.Upper, Diag: blas.NonUnit, Data: make([]float64, m*m)}
	for a, j := range idx {
		for b := a; b < m; b++ {
			u.Data[a*m+b] = cov[j*p+idx[b]] / (s[a] * s[b])
		}
	}
	r := blas64.Symmetric{N: m, Stride: m, Uplo: blas.Upper, Data: u.Data}
	var anorm float64
	if check {
		anorm = lapack64.Lansy(lapack.MaxColumnSum, r, make([]float64, m))
	}
	if _, ok := lapack64.Potrf(r); !ok {
		return nil, -1, false
	}
	if check {
		rcond := lapack64.Pocon(r, anorm, make([]float64, 3*m), make([]int, m))
		if !(rcond*maxCond >= 1) {
			return nil, -1, false
		}
	}
	f = &factor{u: u}
	for a := range m {
		row := u.Data[a*m : a*m+m]
		f.logDet += 2 * math.Log(row[a]*s[a])
		for b := a; b < m; b++ {
			row[b] *= s[b]
		}
	}
	return f, -1, true
}

// solve replaces x by U⁻ᵀx.
func (f *factor) solve(x []float64) {
	blas64.Trsv(blas.Trans, f.u, blas64.Vector{N: len(x), Inc: 1, Data: x})
}

// solveLeft replaces the p×c matrix b (stride c) by U⁻ᵀb.
func (f *factor) solveLeft(b []float64, c int) {
	blas64.Trsm(blas.Left, blas.Trans, 1, f.u, blas64.General{Rows: f.u.N, Cols: c, Stride: c, Data: b})
}

// solveSym replaces the p×c matrix b (stride c) by Σ⁻¹b = U⁻¹U⁻ᵀb.
func (f *factor) solveSym(b []float64, c int) {
	f.solveLeft(b, c)
	blas64.Trsm(blas.Left, blas.NoTrans, 1, f.u, blas64.General{Rows: f.u.N, Cols: c, Stride: c, Data: b})
}

// sumSq returns Σ_j x_j².
func sumSq(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return s
}
