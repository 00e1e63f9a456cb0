package naivebayes_test

import (
	"fmt"
	"log"
	"math"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/naivebayes"
)

// readBundled reads a bundled data set; its last column is the class.
func readBundled(name string) *data.Dataset {
	r, err := datasets.Open(name)
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	d, err := dataio.Read(r, name, dataio.Options{})
	if err != nil {
		log.Fatal(err)
	}
	return d
}

// Fit Gaussian naive Bayes to Fisher's iris data, look at the fitted
// parameters and classify the training rows.
func ExampleGaussianConfig_Fit() {
	iris := readBundled("iris")
	m, err := naivebayes.GaussianConfig{}.Fit(iris)
	if err != nil {
		log.Fatal(err)
	}
	means, vars := m.Means(), m.Variances()
	for k, class := range m.Classes() {
		fmt.Printf("%-15s prior %.3f  petal length %.3f ± %.3f\n",
			class, m.Priors()[k], means[k][2], math.Sqrt(vars[k][2]))
	}

	p := m.Proba(nil, iris)
	K := len(m.Classes())
	correct := 0
	for i := range iris.N {
		best := 0
		for k := range K {
			if p[i*K+k] > p[i*K+best] {
				best = k
			}
		}
		if best == int(iris.Y[i]) {
			correct++
		}
	}
	fmt.Printf("training accuracy %d/%d\n", correct, iris.N)
	fmt.Printf("row 51: P(versicolor) = %.4f\n", p[50*K+1])
	// Output:
	// Iris-setosa     prior 0.333  petal length 1.464 ± 0.172
	// Iris-versicolor prior 0.333  petal length 4.260 ± 0.465
	// Iris-virginica  prior 0.333  petal length 5.552 ± 0.546
	// training accuracy 144/150
	// row 51: P(versicolor) = 0.8040
}

// A missing value (NaN) is left out: the class posterior is computed from
// the observed features only.
func ExampleGaussian_LogProba_missing() {
	iris := readBundled("iris")
	m, err := naivebayes.GaussianConfig{Variance: naivebayes.FeatureVariance}.Fit(iris)
	if err != nil {
		log.Fatal(err)
	}
	nan := math.NaN()
	// Only the petal length is known.
	row := iris.Subset([]int{0})
	copy(row.X, []float64{nan, nan, 4.8, nan})
	for k, lp := range m.LogProba(nil, row) {
		fmt.Printf("%s %.3f\n", m.Classes()[k], math.Exp(lp))
	}
	// Output:
	// Iris-setosa 0.000
	// Iris-versicolor 0.680
	// Iris-virginica 0.320
}
