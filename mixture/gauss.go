package mixture

import (
	"errors"
	"math"

	"github.com/gendisc/gendisc/gauss"
)

// errNotPD is returned when a covariance matrix is not positive definite.
var errNotPD = errors.New("covariance matrix not positive definite")

// model holds the parameters of a mixture of K Gaussians in D dimensions
// with every covariance expanded to a full D×D matrix (diagonal for the
// diagonal types, one matrix repeated for Tied), so that the marginal of
// any subset of coordinates is read the same way whatever the type.
type model struct {
	cov     Covariance
	k, d    int
	weights []float64 // K
	means   []float64 // K×D
	sigma   []float64 // K×D×D
}

func newModel(cov Covariance, k, d int) *model {
	return &model{cov: cov, k: k, d: d,
		weights: make([]float64, k), means: make([]float64, k*d), sigma: make([]float64, k*d*d)}
}

func (m *model) mean(k int) []float64 { return m.means[k*m.d : (k+1)*m.d] }

func (m *model) cov1(k int) []float64 { return m.sigma[k*m.d*m.d : (k+1)*m.d*m.d] }

// marginal is component k's Gaussian restricted to the observed
// coordinates O of a row's pattern:
//
//	log π_k + log N(x_O; μ_O, Σ_OO) = logc − ½ c_Oᵀ Σ_OO⁻¹ c_O,  c = x − μ
//	logc = log π_k − ½ log|Σ_OO| − ½ |O| log 2π
//
// and, through pat, what the E-step and the imputations need about the
// missing ones M (gauss.Pattern: E[x_M | x_O] = μ_M + A c_O, and
// Cov[x_M | x_O] = C). The quadratic form is that of the completed row
// ĉ = (c_O, A c_O) under the full Σ,
//
//	c_Oᵀ Σ_OO⁻¹ c_O = ĉᵀ Σ⁻¹ ĉ = ‖L⁻¹ ĉ‖²,  Σ = L Lᵀ,
//
// so every row, whatever its missing cells, is evaluated with the factor
// L⁻¹ of the component's gauss.Cov once its missing coordinates are filled
// in. For a diagonal Σ, A = 0 and C = diag(Σ_MM).
type marginal struct {
	logc float64
	pat  *gauss.Pattern // nil over all coordinates
}

// gaussCov returns component k's covariance matrix in the Gaussian core:
// gauss.NewDiag for the diagonal types, gauss.New otherwise. Components of
// a Tied model share the first one's. It returns errNotPD when Σ_k is not
// numerically positive definite.
func (m *model) gaussCov(k int, covs []*gauss.Cov) (*gauss.Cov, error) {
	if m.cov == Tied && k > 0 && len(covs) > 0 && covs[0] != nil {
		return covs[0], nil
	}
	d, s := m.d, m.cov1(k)
	var (
		c   *gauss.Cov
		err error
	)
	if m.cov.diagonal() {
		v := make([]float64, d)
		for j := range d {
			v[j] = s[j*d+j]
		}
		c, err = gauss.NewDiag(v)
	} else {
		c, err = gauss.New(s, d, 0)
	}
	if err != nil {
		return nil, errNotPD
	}
	return c, nil
}

// logc returns log π_k − ½ logDet − ½ n log 2π, the constant of component
// k's marginal over n coordinates whose covariance has log-determinant
// logDet.
func (m *model) logc(k int, logDet float64, n int) float64 {
	return math.Log(m.weights[k]) - 0.5*logDet - 0.5*float64(n)*gauss.Log2Pi
}
