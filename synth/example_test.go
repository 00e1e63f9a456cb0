package synth_test

import (
	"fmt"
	"log"
	"math"
	"math/rand/v2"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/synth"
)

func irisQDA() (*data.Dataset, *gda.QDA) {
	r, err := datasets.Open("iris")
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	d, err := dataio.Read(r, "iris", dataio.Options{})
	if err != nil {
		log.Fatal(err)
	}
	m, err := gda.QDAConfig{}.Fit(d)
	if err != nil {
		log.Fatal(err)
	}
	return d, m
}

// Draw rows of one class from QDA fitted on iris.
func ExampleSample() {
	_, m := irisQDA()
	rng := rand.New(rand.NewPCG(1, 2))
	err := synth.Sample(m, 3, 0, nil, rng, func(r synth.Row) error {
		fmt.Printf("%.1f %s\n", r.X, m.Classes()[r.Y])
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// [5.1 3.5 1.5 0.2] Iris-setosa
	// [4.9 2.5 1.8 0.4] Iris-setosa
	// [5.0 3.2 1.5 0.3] Iris-setosa
}

// Fill a missing petal length by its conditional expectation given the
// other cells of the row and its class.
func ExampleImpute() {
	d, m := irisQDA()
	row := d.Subset([]int{0})
	fmt.Printf("observed: %.1f\n", row.X)
	row.X[2] = math.NaN()
	out, err := synth.Impute(row, m, 0, nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("imputed:  %.1f\n", out[0].X)
	// Output:
	// observed: [5.1 3.5 1.4 0.2]
	// imputed:  [5.1 3.5 1.5 0.2]
}
