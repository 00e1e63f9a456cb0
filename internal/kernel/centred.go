package kernel

// Centred holds k weight vectors w_0 … w_{k−1} of length n and a centre c
// for Dots: the scores of LDA's linear form,
//
//	out[r·k + j] = Σ_i (x_ri − c_i) w_ji
//
// for the rows x_r of a chunk, in one pass over each row (read from
// memory once, centred in registers) where the processor has AVX-512 or
// AVX2 and FMA: the classes four at a time (the last four overlapping the
// ones before when 4 does not divide k, their scores computed again to
// the same bits), eight features a vector (two of four in AVX2), one
// fused multiply-add per class into an accumulator of eight lanes summed
// across them at the end of the row. AVX-512 takes two rows at a time,
// loading each block of weights once for both and keeping eight chains
// of additions in flight. The weights are packed by groups of four
// classes and blocks of eight features (the 32 weights of a block
// together), padded with zeros, as is c; the last block of a row is
// loaded under a mask. The AVX-512 kernel asks for the lines 4 kB ahead
// of each pair of rows as it reads them (PREFETCHT0): the hardware
// prefetcher stops at every 4 kB page, and without it the kernel reads
// memory at about half the rate a plain sum does. Both kernels give the
// same bits, whatever a row's place in x.
type Centred struct {
	n, k  int
	c, wp []float64 // c: npad; wp: groups × npad/8 blocks × 32
}

// NewCentred packs the k×n row-major weights w and the centre c (length
// n).
func NewCentred(w []float64, k, n int, c []float64) *Centred {
	npad := (n + 7) &^ 7
	groups := (k + 3) / 4
	p := &Centred{n: n, k: k, c: make([]float64, npad), wp: make([]float64, groups*npad*4)}
	copy(p.c, c[:n])
	if k < 4 {
		return p
	}
	for g := range groups {
		base := min(4*g, k-4)
		for t := range 4 {
			for i := range n {
				p.wp[g*npad*4+(i/8)*32+t*8+i%8] = w[(base+t)*n+i]
			}
		}
	}
	return p
}

// Dots writes the scores of the rows of x (row-major, n columns) to out
// (rows·k values) and reports true, or does nothing and reports false
// where there is no such kernel (no AVX2 and FMA, or k < 4): the caller
// then centres the rows and scores them with DotRows2.
func (p *Centred) Dots(out, x []float64) bool {
	if !centredAsm || p.k < 4 {
		return false
	}
	rows := len(x) / p.n
	if rows == 0 {
		return true
	}
	_ = out[rows*p.k-1]
	centredDotsAsm(&out[0], &x[0], rows, p.n, &p.c[0], &p.wp[0], p.k, len(p.c))
	return true
}
