package gda_test

import (
	"fmt"
	"log"
	"math"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/gda"
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

// accuracy returns the share of rows whose most probable class is their
// label.
func accuracy(logProba []float64, d *data.Dataset, k int) float64 {
	correct := 0
	for i := range d.N {
		best := 0
		for c := range k {
			if logProba[i*k+c] > logProba[i*k+best] {
				best = c
			}
		}
		if best == int(d.Y[i]) {
			correct++
		}
	}
	return float64(correct) / float64(d.N)
}

// Fit LDA to Fisher's iris data and classify the training rows.
func ExampleLDAConfig_Fit() {
	iris := readBundled("iris")
	m, err := gda.LDAConfig{}.Fit(iris)
	if err != nil {
		log.Fatal(err)
	}
	cov := m.Covariance()
	fmt.Printf("pooled variance of petal length: %.4f\n", cov[2*4+2])
	for k, class := range m.Classes() {
		fmt.Printf("%-15s petal length mean %.3f\n", class, m.Means()[k][2])
	}
	fmt.Printf("training accuracy %.3f\n", accuracy(m.LogProba(nil, iris), iris, 3))
	// Output:
	// pooled variance of petal length: 0.1815
	// Iris-setosa     petal length mean 1.464
	// Iris-versicolor petal length mean 4.260
	// Iris-virginica  petal length mean 5.552
	// training accuracy 0.980
}

// QDA with scikit-learn's unbiased covariances on the wine data; a
// singular covariance matrix would be an error suggesting shrinkage.
func ExampleQDAConfig_Fit() {
	wine := readBundled("wine")
	m, err := gda.QDAConfig{Estimator: gda.Unbiased}.Fit(wine)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("training accuracy %.3f\n", accuracy(m.LogProba(nil, wine), wine, 3))
	// Output:
	// training accuracy 0.994
}

// The logistic form of a two-class LDA: P(malignant | x) = σ(wᵀx + w0).
func ExampleLDA_LogisticForm() {
	wdbc := readBundled("breast_cancer_wdbc")
	m, err := gda.LDAConfig{}.Fit(wdbc)
	if err != nil {
		log.Fatal(err)
	}
	w, w0, _ := m.LogisticForm()
	z := w0
	for j, x := range wdbc.Row(0) {
		z += w[j] * x
	}
	lp := m.LogProba(nil, wdbc.Subset([]int{0}))
	fmt.Printf("σ(wᵀx + w0) = %.6f\n", 1/(1+math.Exp(-z)))
	fmt.Printf("posterior    = %.6f\n", math.Exp(lp[1]))
	// Output:
	// σ(wᵀx + w0) = 0.999969
	// posterior    = 0.999969
}

// The discriminant coordinates of the iris rows, for a plot.
func ExampleLDA_Transform() {
	iris := readBundled("iris")
	m, err := gda.LDAConfig{}.Fit(iris)
	if err != nil {
		log.Fatal(err)
	}
	t := m.Transform(nil, iris, 2)
	fmt.Printf("explained variance ratio %.4f\n", m.ExplainedVarianceRatio())
	fmt.Printf("row 1: (%.3f, %.3f)\n", t[0], t[1])
	// Output:
	// explained variance ratio [0.9915 0.0085]
	// row 1: (-6.027, 7.039)
}

// A missing feature at prediction is marginalised.
func ExampleLDA_LogProba_missing() {
	iris := readBundled("iris")
	m, err := gda.LDAConfig{}.Fit(iris)
	if err != nil {
		log.Fatal(err)
	}
	// Row 51, a versicolor, with its petal length unknown.
	row := iris.Subset([]int{50})
	row.X[2] = math.NaN()
	for k, lp := range m.LogProba(nil, row) {
		fmt.Printf("%-15s %.4f\n", m.Classes()[k], math.Exp(lp))
	}
	// Output:
	// Iris-setosa     0.0000
	// Iris-versicolor 0.9976
	// Iris-virginica  0.0024
}
