package logistic_test

import (
	"fmt"
	"math"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/logistic"
)

func readBundled(name string) *data.Dataset {
	r, err := datasets.Open(name)
	if err != nil {
		panic(err)
	}
	defer r.Close()
	d, err := dataio.Read(r, name, dataio.Options{})
	if err != nil {
		panic(err)
	}
	return d
}

// Softmax regression on iris with the default penalty λ = 1.
func Example() {
	d := readBundled("iris")
	m, err := logistic.Config{}.Fit(d)
	if err != nil {
		panic(err)
	}
	diag := m.Diagnostics()
	fmt.Println(m.Classes())
	fmt.Printf("solver %s, converged %v, objective %.4f\n", diag.Solver, diag.Converged, diag.Objective)
	lp := m.LogProba(nil, d.Subset([]int{0, 75, 149}))
	for i := range 3 {
		fmt.Printf("%.3f %.3f %.3f\n", math.Exp(lp[i*3]), math.Exp(lp[i*3+1]), math.Exp(lp[i*3+2]))
	}
	// Output:
	// [Iris-setosa Iris-versicolor Iris-virginica]
	// solver newton, converged true, objective -31.4040
	// 0.985 0.015 0.000
	// 0.007 0.884 0.109
	// 0.003 0.294 0.703
}

// Binary logistic regression on the Pima diabetes data: the weights in
// standardised units (what the penalty sees) and in the original units.
func ExampleModel_OriginalCoefficients() {
	d := readBundled("pima_indians_diabetes")
	m, err := logistic.Config{L2: 1, Solver: logistic.LBFGS}.Fit(d)
	if err != nil {
		panic(err)
	}
	ws, _ := m.Coefficients()
	wo, bo := m.OriginalCoefficients()
	fmt.Printf("P(%s | x) = σ(b + Σ w x), b = %.3f\n", m.Classes()[1], bo[0])
	for j, name := range m.Terms()[:3] {
		fmt.Printf("%-9s standardised %6.3f  original %7.4f\n", name, ws[0][j], wo[0][j])
	}
	// Output:
	// P(pos | x) = σ(b + Σ w x), b = -8.314
	// pregnant  standardised  0.409  original  0.1214
	// glucose   standardised  1.107  original  0.0346
	// pressure  standardised -0.251  original -0.0130
}
