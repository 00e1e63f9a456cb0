package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/bench/internal/npy"
	"github.com/gendisc/gendisc/cv"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/registry"
)

// The tune workload (benchcv gen-tune, benchcv tune): logistic regression
// tuned over 13 penalties by 5-fold cross-validation, against
// scikit-learn's LogisticRegressionCV(Cs=13, cv=5).
//
// gen-tune writes tune_X.npy (N × 20, default N = 100,000) and tune_y.npy,
// and a test set of the same law, tune_test_X.npy and tune_test_y.npy
// (50,000 rows): features x_j ~ N(0, 1), independent, and the class 1
// with probability σ(b + Σ_j w_j x_j), w_j = 0.5·(−1)^j for j < 10 and 0
// for the other 10 (noise), b = 0.2.
//
// tune times gendisc's search (cv.Search) of logistic regression over
// l2 = 1e4, 1e3.33, …, 1e-4 (13 values, log-spaced: λ = 1/C for
// scikit-learn's Cs=13, C = 1e-4 … 1e4, since both minimise
// Σ_i −log P(y_i | x_i) + (λ/2)‖w‖² = (1/(2C))‖w‖², the intercept
// unpenalised; --no-standardize, so that λ applies to the weights in the
// features' own units as scikit-learn's does), scored by the error rate
// (LogisticRegressionCV's default scoring, the accuracy), on stratified
// 5-fold, and the refit of the chosen λ on all the rows; its answer is
// the chosen λ and the refit model's accuracy on the test set.
const (
	tuneFeatures = 20
	tuneTestRows = 50_000
)

// tuneGrid is the searched penalties, as the flag takes them.
const tuneGrid = "l2=1e-4..1e4:13"

// genTune is benchcv gen-tune.
func genTune(args []string) error {
	fs := flag.NewFlagSet("gen-tune", flag.ExitOnError)
	dir := fs.String("dir", "", "directory to write the data to")
	rows := fs.Int("rows", 100_000, "rows of the training set")
	fs.Parse(args)
	if *dir == "" || *rows < 20 {
		return fmt.Errorf("gen-tune needs -dir and -rows of at least 20")
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(20261128, 13))
	for _, s := range []struct {
		name string
		rows int
	}{{"tune", *rows}, {"tune_test", tuneTestRows}} {
		x, y := make([]float64, s.rows*tuneFeatures), make([]float64, s.rows)
		for i := range y {
			eta := 0.2
			for j := range tuneFeatures {
				v := rng.NormFloat64()
				x[i*tuneFeatures+j] = v
				if j < 10 {
					eta += 0.5 * float64(1-2*(j%2)) * v
				}
			}
			if rng.Float64() < 1/(1+math.Exp(-eta)) {
				y[i] = 1
			}
		}
		if err := npy.Write(filepath.Join(*dir, s.name+"_X.npy"), x, s.rows, tuneFeatures); err != nil {
			return err
		}
		if err := npy.Write(filepath.Join(*dir, s.name+"_y.npy"), y, s.rows); err != nil {
			return err
		}
	}
	return nil
}

// tune times the search and the refit, and records the chosen λ and the
// test accuracy.
func tune(dir string, reps int, res *result) error {
	d, err := load(dir, "tune")
	if err != nil {
		return err
	}
	test, err := load(dir, "tune_test")
	if err != nil {
		return err
	}
	k, err := registry.Lookup(logistic.Kind)
	if err != nil {
		return err
	}
	p, err := cv.ParseParam(tuneGrid)
	if err != nil {
		return err
	}
	m, err := cv.MetricNamed(k, "error")
	if err != nil {
		return err
	}
	s := &cv.Search{Kind: k, Base: cv.Setting{{Name: "no-standardize", Value: "true"}}, Params: []cv.Param{p}, Metric: m}
	var sr *cv.SearchResult
	var model gendisc.Model
	err = timed(res, "tune", reps, func() error {
		folds, err := cv.Stratified(d.Y, 5, 1)
		if err != nil {
			return err
		}
		if sr, err = s.Run(d, folds); err != nil {
			return err
		}
		model, err = s.Fit(sr, d)
		return err
	})
	if err != nil {
		return err
	}
	l2, _ := strconv.ParseFloat(sr.Trials[sr.Chosen].Setting[0].Value, 64)
	res.Answer["l2"] = l2
	res.Answer["cv_accuracy"] = 1 - sr.Trials[sr.Chosen].Mean
	lp := model.(gendisc.Classifier).LogProba(nil, test)
	correct := 0
	for i, y := range test.Y {
		if (lp[2*i+1] > lp[2*i]) == (y == 1) {
			correct++
		}
	}
	res.Answer["test_accuracy"] = float64(correct) / float64(test.N)
	return nil
}
