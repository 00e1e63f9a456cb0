package cv_test

import (
	"fmt"
	"log"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/cv"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/linear"
	"github.com/gendisc/gendisc/naivebayes"
	"github.com/gendisc/gendisc/registry"
)

// read reads a bundled data set.
func read(name string, opt dataio.Options) *data.Dataset {
	r, err := datasets.Open(name)
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	d, err := dataio.Read(r, name, opt)
	if err != nil {
		log.Fatal(err)
	}
	return d
}

// Stratified 10-fold cross-validation of Gaussian naive Bayes on iris, in
// one pass over the rows: the fold models come from merged accumulators.
func ExampleRunner() {
	d := read("iris", dataio.Options{})
	folds, err := cv.Stratified(d.Y, 10, 1)
	if err != nil {
		log.Fatal(err)
	}
	cfg := naivebayes.GaussianConfig{}
	r := &cv.Runner{
		Fit: func(d *data.Dataset) (gendisc.Model, error) { return cfg.Fit(d) },
		NewAccumulator: func() (gendisc.Accumulator, error) {
			return cfg.NewAccumulator()
		},
	}
	res, err := r.Run(d, folds)
	if err != nil {
		log.Fatal(err)
	}
	acc, se, _ := res.Metric("accuracy")
	ll, llSE, _ := res.Metric("log_loss")
	fmt.Printf("%d folds of %d rows\n", len(res.Folds), res.Folds[0].Rows)
	fmt.Printf("accuracy %.3f ± %.3f\n", acc, se)
	fmt.Printf("log-loss %.3f ± %.3f\n", ll, llSE)
	// Output:
	// 10 folds of 15 rows
	// accuracy 0.960 ± 0.020
	// log-loss 0.134 ± 0.064
}

// Leave-one-out of least squares from one fit, by the hat-matrix
// identity: the error of every row predicted by the model of the others.
func ExampleLeaveOneOutLinear() {
	d := read("wine", dataio.Options{Target: "alcohol", NumericTarget: true, Ignore: []string{"class"}})
	pred, err := cv.LeaveOneOutLinear(linear.Config{}, d)
	if err != nil {
		log.Fatal(err)
	}
	sq := 0.0
	for i, y := range d.Y {
		sq += (y - pred[i]) * (y - pred[i])
	}
	fmt.Printf("leave-one-out MSE of alcohol over %d wines: %.4f\n", d.N, sq/float64(d.N))
	// Output:
	// leave-one-out MSE of alcohol over 178 wines: 0.3196
}

// A grid search of Gaussian naive Bayes's var-smoothing on iris, by the
// log-loss of stratified 5-fold cross-validation, and the refit of the
// best setting on all the rows.
func ExampleSearch() {
	d := read("iris", dataio.Options{})
	folds, err := cv.Stratified(d.Y, 5, 1)
	if err != nil {
		log.Fatal(err)
	}
	kind, err := registry.Lookup(naivebayes.KindGaussian)
	if err != nil {
		log.Fatal(err)
	}
	p, err := cv.ParseParam("var-smoothing=1e-9..1:4")
	if err != nil {
		log.Fatal(err)
	}
	metric, err := cv.MetricNamed(kind, "log-loss")
	if err != nil {
		log.Fatal(err)
	}
	s := &cv.Search{Kind: kind, Params: []cv.Param{p}, Metric: metric}
	res, err := s.Run(d, folds)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range res.Trials {
		fmt.Printf("%-20s %.4f ± %.4f\n", t.Setting, t.Mean, t.SE)
	}
	best, err := s.Fit(res, d)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("best:", res.Trials[res.Best].Setting, best.Kind())
	// Output:
	// var-smoothing=1e-9   0.1347 ± 0.0683
	// var-smoothing=1e-6   0.1347 ± 0.0683
	// var-smoothing=0.001  0.1322 ± 0.0645
	// var-smoothing=1      0.4780 ± 0.0083
	// best: var-smoothing=0.001 gaussian-nb
}
