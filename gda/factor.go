package gda

import (
	"errors"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/gendisc/gendisc/gauss"
)

// maxCond is the largest condition number of a correlation matrix that
// counts as non-singular: beyond it, log-densities would lose more than
// about four of the sixteen digits of float64.
const maxCond = 1e12

// factor is a model's covariance matrix Σ as the Gaussian core holds it
// (gauss.Cov: Σ = L Lᵀ, the patterns of missing cells), with U = Lᵀ, upper
// triangular, as the blas64 solves of the complete rows take it:
// Σ = UᵀU, U⁻ᵀ = L⁻¹.
type factor struct {
	g      *gauss.Cov
	u      blas64.Triangular
	logDet float64 // log |Σ|
}

// factorize factors the p×p covariance matrix cov (gauss.New, with the
// condition check of maxCond when check is set). It returns the index of a
// feature of zero variance, or -1, and ok = false when Σ is not positive
// definite or too ill-conditioned.
func factorize(cov []float64, p int, check bool) (f *factor, zero int, ok bool) {
	limit := 0.0
	if check {
		limit = maxCond
	}
	g, err := gauss.New(cov, p, limit)
	if err != nil {
		if ve := (*gauss.VarianceError)(nil); errors.As(err, &ve) {
			return nil, ve.Dim, false
		}
		return nil, -1, false
	}
	u := blas64.Triangular{N: p, Stride: p, Uplo: blas.Upper, Diag: blas.NonUnit, Data: make([]float64, p*p)}
	l := g.L()
	for a := range p {
		for b := a; b < p; b++ {
			u.Data[a*p+b] = l[b*p+a]
		}
	}
	return &factor{g: g, u: u, logDet: g.LogDet()}, -1, true
}

// solve replaces x by U⁻ᵀx = L⁻¹x.
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
