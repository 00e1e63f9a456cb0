package linear_test

import (
	"fmt"

	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/linear"
)

// Ordinary least squares: the alcohol content of the wines from their
// other measurements.
func Example() {
	r, err := datasets.Open("wine")
	if err != nil {
		panic(err)
	}
	defer r.Close()
	d, err := dataio.Read(r, "wine", dataio.Options{Target: "alcohol", NumericTarget: true, Ignore: []string{"class"}})
	if err != nil {
		panic(err)
	}
	m, err := linear.Config{}.Fit(d)
	if err != nil {
		panic(err)
	}
	w, b := m.OriginalCoefficients()
	fmt.Printf("R² %.4f  σ² %.4f  log-likelihood %.2f\n", m.R2(), m.Sigma2(), m.LogLikelihood())
	fmt.Printf("alcohol = %.3f", b)
	for j, name := range m.Terms()[:3] {
		fmt.Printf(" %+.4f·%s", w[j], name)
	}
	fmt.Println(" …")
	fmt.Printf("first wine: %.2f predicted, %.2f measured\n", m.Predict(nil, d.Subset([]int{0}))[0], d.Y[0])
	// Output:
	// R² 0.5936  σ² 0.2664  log-likelihood -134.83
	// alcohol = 11.072 +0.1316·malic_acid +0.1379·ash -0.0378·alcalinity_of_ash …
	// first wine: 13.67 predicted, 14.23 measured
}
