package gauss_test

import (
	"fmt"
	"math"

	"github.com/gendisc/gendisc/gauss"
)

// A row of a bivariate Gaussian with its second cell missing: the density
// of the observed cell, and the conditional mean and variance of the
// missing one, μ_2 + ρσ_2/σ_1 (x_1 − μ_1) and σ_2²(1 − ρ²).
func Example() {
	sigma := []float64{
		4, 3,
		3, 9,
	}
	mu := []float64{1, 2}
	c, err := gauss.New(sigma, 2, 0)
	if err != nil {
		panic(err)
	}
	x := []float64{3, math.NaN()}
	pat, err := c.PatternOf(x)
	if err != nil {
		panic(err)
	}
	fmt.Printf("observed %v, missing %v\n", pat.Obs, pat.Mis)
	fmt.Printf("log N(x_1; 1, 4) = %.6f\n", pat.LogPdf(x, mu, nil))
	filled := []float64{3, 0}
	pat.CondMean(filled, x, mu)
	fmt.Printf("E[x_2 | x_1 = 3] = %.4f\n", filled[1])
	fmt.Printf("Var[x_2 | x_1] = %.4f\n", pat.CondVar()[0])
	// Output:
	// observed [0], missing [1]
	// log N(x_1; 1, 4) = -2.112086
	// E[x_2 | x_1 = 3] = 3.5000
	// Var[x_2 | x_1] = 6.7500
}
