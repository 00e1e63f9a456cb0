package metrics

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLogLossBitForBit: Classification's log-loss, whose logarithms are
// taken a chunk of rows at a time, is bit for bit the sum in row order of
// −w_i log(clip(p_i,y_i) / Σ_k clip(p_ik)), one math.Log at a time, over
// more rows than a chunk, with weights and probabilities down to 0.
func TestLogLossBitForBit(t *testing.T) {
	const n, K = 3*logChunk + 17, 3
	rng := rand.New(rand.NewPCG(2, 9))
	y := make([]int, n)
	proba, weight := make([]float64, n*K), make([]float64, n)
	for i := range n {
		y[i], weight[i] = rng.IntN(K), 0.25+rng.Float64()
		p := proba[i*K : (i+1)*K]
		p[0], p[1] = rng.Float64()*0.5, rng.Float64()*0.5
		if i%7 == 0 {
			p[y[i]] = 0
		}
		p[2] = 1 - p[0] - p[1]
	}
	for _, w := range [][]float64{nil, weight} {
		r, err := Classification([]string{"a", "b", "c"}, y, proba, w)
		if err != nil {
			t.Fatal(err)
		}
		var sum, total float64
		for i, yi := range y {
			p := proba[i*K : (i+1)*K]
			clipped := 0.0
			for _, pk := range p {
				clipped += clip(pk)
			}
			wi := weightOf(w, i)
			sum -= wi * math.Log(clip(p[yi])/clipped)
			total += wi
		}
		if want := sum / total; r.LogLoss != want {
			t.Errorf("weights %v: log-loss %.17g, want %.17g", w != nil, r.LogLoss, want)
		}
	}
}
