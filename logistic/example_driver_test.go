package logistic_test

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/optimize"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/logistic"
)

// A fit run by a driver over shards of the rows that workers hold (here
// three subsets of iris, and the bytes they would send over the network):
// one setup pass, then one pass per evaluation of the objective, each
// worker's statistics encoded, sent and merged, minimised by gonum's
// L-BFGS. It reaches Fit's optimum.
func Example_driver() {
	d := readBundled("iris")
	var shards []*data.Dataset
	for s := range 3 {
		var rows []int
		for i := s; i < d.N; i += 3 {
			rows = append(rows, i)
		}
		shards = append(shards, d.Subset(rows))
	}
	cfg := logistic.Config{L2: 1}

	// The setup pass: standardisation, levels, vocabularies, classes.
	var setup logistic.SetupAccumulator
	for s, shard := range shards {
		part, err := cfg.NewSetup() // on the worker
		if err != nil {
			panic(err)
		}
		if err := part.Add(shard); err != nil {
			panic(err)
		}
		msg, err := part.MarshalBinary()
		if err != nil {
			panic(err)
		}
		var got logistic.SetupAccumulator // on the driver
		if err := got.UnmarshalBinary(msg); err != nil {
			panic(err)
		}
		if s == 0 {
			setup = got
		} else if err := setup.Merge(&got); err != nil {
			panic(err)
		}
	}
	p, err := setup.Problem()
	if err != nil {
		panic(err)
	}

	// One pass over the shards at θ, remembered for the gradient.
	var last *logistic.Pass
	at := func(theta []float64) *logistic.Pass {
		if last != nil && slices.Equal(last.Theta(), theta) {
			return last
		}
		last = p.NewPass(theta, false)
		for _, shard := range shards {
			part := p.NewPass(theta, false) // on the worker
			if err := part.Add(shard); err != nil {
				panic(err)
			}
			msg, _ := part.MarshalBinary()
			got := p.NewPass(theta, false) // on the driver
			if err := got.UnmarshalBinary(msg); err != nil {
				panic(err)
			}
			if err := last.Merge(got); err != nil {
				panic(err)
			}
		}
		return last
	}
	res, err := optimize.Minimize(optimize.Problem{
		Func: func(theta []float64) float64 { j, _, _ := at(theta).Objective(); return j },
		Grad: func(grad, theta []float64) { _, g, _ := at(theta).Objective(); copy(grad, g) },
	}, p.Start(), &optimize.Settings{GradientThreshold: 1e-6}, &optimize.LBFGS{})
	if err != nil {
		panic(err)
	}
	m, err := at(res.X).Model()
	if err != nil {
		panic(err)
	}
	fit, err := cfg.Fit(d)
	if err != nil {
		panic(err)
	}
	fmt.Printf("driver objective %.6f, Fit's %.6f\n", m.Diagnostics().Objective, fit.Diagnostics().Objective)
	w, _ := m.Coefficients()
	fw, _ := fit.Coefficients()
	diff := 0.0
	for c := range w {
		for j := range w[c] {
			diff = max(diff, math.Abs(w[c][j]-fw[c][j]))
		}
	}
	fmt.Println("coefficients within 1e-6 of Fit's:", diff < 1e-6)
	lp := m.LogProba(nil, d.Subset([]int{0, 75, 149}))
	for i := range 3 {
		fmt.Printf("%.3f %.3f %.3f\n", math.Exp(lp[i*3]), math.Exp(lp[i*3+1]), math.Exp(lp[i*3+2]))
	}
	// Output:
	// driver objective -31.404042, Fit's -31.404042
	// coefficients within 1e-6 of Fit's: true
	// 0.985 0.015 0.000
	// 0.007 0.884 0.109
	// 0.003 0.294 0.703
}
