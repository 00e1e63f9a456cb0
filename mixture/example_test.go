package mixture_test

import (
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/mixture"
)

// threeClusters returns 300 rows of three well separated clusters in the
// plane.
func threeClusters() *data.Dataset {
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 0, 600)
	for i := range 300 {
		c := float64(i % 3)
		x = append(x, 10*c+rng.NormFloat64(), 5*c*c+rng.NormFloat64())
	}
	return data.FromMatrix([]string{"a", "b"}, x, nil, nil)
}

func Example() {
	d := threeClusters()
	g, err := mixture.Config{Components: 3, Restarts: 3}.Fit(d, rand.New(rand.NewPCG(7, 7)))
	if err != nil {
		log.Fatal(err)
	}
	tr := g.LogLikelihoodTrace()
	fmt.Printf("%d components, %d EM iterations, converged %v\n", g.Components(), g.Iterations(), g.Converged())
	fmt.Printf("log-likelihood never decreased: %v\n", tr[len(tr)-1] >= tr[0])
	resp := g.Predict(nil, d)
	lab := g.Clusters(nil, resp)
	fmt.Printf("rows 0, 3, 6 in one cluster: %v\n", lab[0] == lab[3] && lab[3] == lab[6])
	fmt.Printf("rows 0, 1, 2 in three: %v\n", lab[0] != lab[1] && lab[1] != lab[2] && lab[0] != lab[2])
	// Output:
	// 3 components, 2 EM iterations, converged true
	// log-likelihood never decreased: true
	// rows 0, 3, 6 in one cluster: true
	// rows 0, 1, 2 in three: true
}

func ExampleSelectK() {
	d := threeClusters()
	g, cands, err := mixture.SelectK(d, rand.New(rand.NewPCG(7, 7)), mixture.Config{Covariance: mixture.Diag, Restarts: 2}, 1, 5)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range cands {
		fmt.Printf("K=%d BIC %.0f\n", c.K, c.BIC)
	}
	fmt.Println("chosen:", g.Components())
	// Output:
	// K=1 BIC 4267
	// K=2 BIC 3115
	// K=3 BIC 2403
	// K=4 BIC 2423
	// K=5 BIC 2443
	// chosen: 3
}

func ExampleMDAConfig_Fit() {
	// Two interleaved classes along a line: class "x" around u = 0 and
	// u = 12, class "y" around u = 6 and u = 18. One Gaussian per class
	// (QDA) sees two nearly equal wide densities; two components per
	// class find the four clusters.
	rng := rand.New(rand.NewPCG(3, 3))
	var x []float64
	var y []int
	for i := range 400 {
		x = append(x, float64(6*(i%4))+rng.NormFloat64(), rng.NormFloat64())
		y = append(y, i%2)
	}
	d := data.FromMatrix([]string{"u", "v"}, x, []string{"x", "y"}, y)
	for _, k := range []int{1, 2} {
		m, err := mixture.MDAConfig{ComponentsPerClass: k}.Fit(d, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			log.Fatal(err)
		}
		lp := m.LogProba(nil, d)
		right := 0
		for i := range d.N {
			if (lp[2*i+1] > lp[2*i]) == (y[i] == 1) {
				right++
			}
		}
		fmt.Printf("%d component(s) per class: %d of %d training rows right\n", k, right, d.N)
	}
	// Output:
	// 1 component(s) per class: 200 of 400 training rows right
	// 2 component(s) per class: 400 of 400 training rows right
}
