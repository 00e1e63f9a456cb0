package crf

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// maxChunkMemory bounds the memory of the chunks' gradient buffers
// (8 bytes a feature a chunk): fewer chunks when the features are many.
const maxChunkMemory = 256 << 20

// maxChunks is the number of chunks of the gradient pass when memory
// allows: enough to keep every core busy on sequences of unequal length.
const maxChunks = 16

// problem is the training objective of a feature set on labelled
// sequences, f(w) = Σ_i (log Z(x_i) − w·F(x_i, y_i)) + c2 ‖w‖² (the L1
// term of OWL-QN is the optimiser's), evaluated in parallel.
type problem struct {
	fs   *features
	data *encoded
	obs  []float64 // E_data, Σ_i F(x_i, y_i)
	c2   float64
	jobs int

	chunks  []int       // sequences of chunk k: chunks[k] ≤ i < chunks[k+1]
	buffers [][]float64 // the gradient buffer of each chunk
	logZ    []float64   // Σ log Z of each chunk
	logFall atomic.Int64
}

func newProblem(fs *features, data *encoded, c2 float64, jobs int) *problem {
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	n := data.numSeqs()
	k := max(1, min(maxChunks, n, maxChunkMemory/(8*max(1, fs.nFeatures))))
	p := &problem{fs: fs, data: data, obs: fs.observed(data), c2: c2, jobs: jobs,
		chunks: make([]int, k+1), buffers: make([][]float64, k), logZ: make([]float64, k)}
	// Chunks of about equal numbers of items, cut at sequence boundaries.
	items := data.seqStart[n]
	for c, i := 1, 0; c <= k; c++ {
		for i < n && data.seqStart[i] < items*c/k {
			i++
		}
		p.chunks[c] = i
	}
	p.chunks[k] = n
	for c := range p.buffers {
		p.buffers[c] = make([]float64, fs.nFeatures)
	}
	return p
}

// eval returns f(w) and writes ∇f(w) to g:
// ∇f = Σ_i (E_{p(y|x_i)} F(x_i, y) − F(x_i, y_i)) + 2 c2 w.
func (p *problem) eval(w, g []float64) float64 {
	tr := p.fs.transitions(w)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(p.jobs, len(p.buffers)) {
		wg.Go(func() {
			ws := &workspace{}
			ws.grow(p.data.maxLen(), len(p.fs.labels))
			for {
				c := int(next.Add(1)) - 1
				if c >= len(p.buffers) {
					return
				}
				p.logZ[c] = p.chunk(ws, c, w, tr)
			}
		})
	}
	wg.Wait()
	// The reduction: chunk by chunk in order, the features split among
	// the workers (each feature's sum has the same order whatever jobs).
	n := len(g)
	parts := min(p.jobs, max(1, n/4096))
	for part := range parts {
		wg.Go(func() {
			lo, hi := n*part/parts, n*(part+1)/parts
			gp := g[lo:hi]
			copy(gp, p.buffers[0][lo:hi])
			for _, b := range p.buffers[1:] {
				for j, v := range b[lo:hi] {
					gp[j] += v
				}
			}
			c22 := 2 * p.c2
			for j := range gp {
				gp[j] += c22*w[lo+j] - p.obs[lo+j]
			}
		})
	}
	wg.Wait()
	f := 0.0
	for _, z := range p.logZ {
		f += z
	}
	norm := 0.0
	for j, v := range w {
		f -= v * p.obs[j]
		norm += v * v
	}
	return f + p.c2*norm
}

// chunk adds E_{p(y|x_i)} F(x_i, y) of the sequences of chunk c to its
// buffer (cleared first) and returns Σ log Z(x_i).
func (p *problem) chunk(ws *workspace, c int, w []float64, tr *transitions) float64 {
	fs, e := p.fs, p.data
	L := len(fs.labels)
	buf := p.buffers[c]
	clear(buf)
	acc := newPairAcc(L)
	sum := 0.0
	for i := p.chunks[c]; i < p.chunks[c+1]; i++ {
		b, end := e.seqStart[i], e.seqStart[i+1]
		T := end - b
		fs.stateScores(ws, e, b, end, w)
		logZ, logSpace := forwardBackward(ws, T, L, tr, acc)
		if logSpace {
			p.logFall.Add(1)
		}
		sum += logZ
		for t := b; t < end; t++ {
			marg := ws.marg[(t-b)*L : (t-b+1)*L]
			for k := e.itemStart[t]; k < e.itemStart[t+1]; k++ {
				a, v := e.attr[k], e.val[k]
				lo, hi := fs.start[a], fs.start[a+1]
				out, labels := buf[lo:hi], fs.label[lo:hi]
				out = out[:len(labels)]
				if v == 1 {
					for j, y := range labels {
						out[j] += marg[y]
					}
				} else {
					for j, y := range labels {
						out[j] += v * marg[y]
					}
				}
			}
		}
	}
	pairs := acc.pairMarginals(tr)
	for i, f := range fs.trans {
		if f >= 0 {
			buf[f] += pairs[i]
		}
	}
	return sum
}
