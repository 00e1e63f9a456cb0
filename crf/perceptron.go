package crf

import "math/rand/v2"

// fitPerceptron trains the weights of fs on e by the averaged perceptron
// (Collins 2002), as CRFsuite's "ap" trainer: epochs over the sequences in
// an order shuffled afresh each epoch by a generator seeded with seed; for
// a sequence whose Viterbi labels ŷ differ from its labels y, w += F(x, y)
// − F(x, ŷ) (a bigram of ŷ without a feature is skipped). The weights
// returned are the average of w over every step, computed with the running
// sum u of c·Δw at step c: w̄ = w − u/c. It stops after epochs, or after an
// epoch without a mistake, and returns the weights and the epochs run.
func fitPerceptron(fs *features, e *encoded, epochs int, seed uint64) ([]float64, int) {
	L := len(fs.labels)
	w, u := make([]float64, fs.nFeatures), make([]float64, fs.nFeatures)
	ws := &workspace{}
	ws.grow(e.maxLen(), L)
	path := make([]int32, e.maxLen())
	order := make([]int, e.numSeqs())
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(seed, 0x637266))
	c := 1.0
	update := func(f int, d float64) {
		w[f] += d
		u[f] += c * d
	}
	addFeatures := func(t int, y int32, d float64) {
		for k := e.itemStart[t]; k < e.itemStart[t+1]; k++ {
			if f := fs.stateFeature(e.attr[k], y); f >= 0 {
				update(f, d*e.val[k])
			}
		}
	}
	run := 0
	for run < epochs {
		run++
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		mistakes := 0
		tr := fs.transitions(w)
		for _, i := range order {
			b, end := e.seqStart[i], e.seqStart[i+1]
			T := end - b
			fs.stateScores(ws, e, b, end, w)
			viterbi(path[:T], ws, T, L, tr)
			wrong := false
			for t := range T {
				gold, pred := e.labels[b+t], path[t]
				if gold != pred {
					wrong = true
					addFeatures(b+t, gold, 1)
					addFeatures(b+t, pred, -1)
				}
				if t > 0 {
					gp, pp := e.labels[b+t-1], path[t-1]
					if gp != pp || gold != pred {
						if f := fs.trans[int(gp)*L+int(gold)]; f >= 0 {
							update(int(f), 1)
						}
						if f := fs.trans[int(pp)*L+int(pred)]; f >= 0 {
							update(int(f), -1)
						}
					}
				}
			}
			if wrong {
				mistakes++
				tr = fs.transitions(w)
			}
			c++
		}
		if mistakes == 0 {
			break
		}
	}
	for f := range w {
		w[f] -= u[f] / c
	}
	return w, run
}
