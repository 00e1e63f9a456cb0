package stats_test

import (
	"fmt"
	"math"

	"github.com/gendisc/gendisc/stats"
)

// The moments of two shards of rows, accumulated apart (on two machines,
// say, the second's statistics sent as bytes) and merged, equal those of
// all the rows. The second shard names its classes in the other order, so
// its statistics are renumbered first.
func Example() {
	// Two features, two classes; NaN is a missing cell.
	x1 := []float64{1, 10, 2, 20, 3, math.NaN()}
	y1 := []float64{0, 0, 1}
	x2 := []float64{4, 40, 5, 50, 6, 60}
	y2 := []float64{0, 1, 1} // class 0 here is class 1 of the first shard

	a := stats.NewMoments(2, 2)
	a.Add(x1, y1, nil)
	b := stats.NewMoments(2, 2)
	b.Add(x2, y2, nil)
	b.Remap([]int{1, 0}, 2)
	wire, _ := b.MarshalBinary()
	var received stats.Moments
	if err := received.UnmarshalBinary(wire); err != nil {
		fmt.Println(err)
		return
	}
	a.Merge(&received)

	all := stats.NewMoments(2, 2)
	all.Add([]float64{1, 10, 2, 20, 3, math.NaN(), 4, 40, 5, 50, 6, 60}, []float64{0, 0, 1, 1, 0, 0}, nil)
	for k := range 2 {
		for j := range 2 {
			m, w := a.At(k, j), all.At(k, j)
			fmt.Printf("class %d feature %d: W %g mean %g variance %.4g | all rows: W %g mean %g variance %.4g\n",
				k, j, m.W, m.M, m.Var(), w.W, w.M, w.Var())
		}
	}
	// Output:
	// class 0 feature 0: W 4 mean 3.5 variance 4.25 | all rows: W 4 mean 3.5 variance 4.25
	// class 0 feature 1: W 4 mean 35 variance 425 | all rows: W 4 mean 35 variance 425
	// class 1 feature 0: W 2 mean 3.5 variance 0.25 | all rows: W 2 mean 3.5 variance 0.25
	// class 1 feature 1: W 1 mean 40 variance 0 | all rows: W 1 mean 40 variance 0
}
