package mixture

import (
	"math"

	"github.com/gendisc/gendisc/internal/parallel"
)

// layout orders the rows of a row-major N×D matrix by their pattern of
// missing (NaN) cells, so that the rows sharing a pattern are consecutive
// and the marginal of each component over that pattern's observed
// coordinates is computed once per pass.
type layout struct {
	x     []float64 // N×D, row-major
	w     []float64 // row weights; nil means ones
	n, d  int
	order []int     // row indices, grouped by pattern
	segs  []segment // the runs of order that share a pattern
	// complete reports that no cell is missing.
	complete bool
	// xt, once transposeBlocks has made it, holds the rows in order
	// transposed by blocks of blockRows (see transposeBlock): block b at
	// b·D·blockRows, zeros past the last row. EM reads every row once an
	// iteration; transposing them once saves doing it every time, for a
	// copy of the data.
	xt []float64
}

// transposeBlocks makes lay.xt.
func (lay *layout) transposeBlocks() {
	size := lay.d * blockRows
	blocks := (lay.n + blockRows - 1) / blockRows
	lay.xt = make([]float64, blocks*size)
	parallel.For(blocks, 64, func(_, lo, hi int) {
		for b := lo; b < hi; b++ {
			lay.transposeBlock(lay.xt[b*size:(b+1)*size], lay.order[b*blockRows:min((b+1)*blockRows, lay.n)])
		}
	})
}

// transposeBlock writes the cells of rows to xt, x_ij at j·blockRows + i.
func (lay *layout) transposeBlock(xt []float64, rows []int) {
	d := lay.d
	for i, r := range rows {
		for j, v := range lay.x[r*d : (r+1)*d] {
			xt[j*blockRows+i] = v
		}
	}
}

// block returns the cells of the rows order[lo:lo+len(rows)] (lo a
// multiple of blockRows) transposed as transposeBlock writes them: a view
// of lay.xt when transposeBlocks made it, else written to xt.
func (lay *layout) block(xt []float64, lo int, rows []int) []float64 {
	if lay.xt != nil {
		size := lay.d * blockRows
		return lay.xt[lo/blockRows*size:][:size]
	}
	lay.transposeBlock(xt, rows)
	return xt
}

// segment is a run order[lo:hi] of rows with the observed coordinates obs
// and the missing ones mis (nil for complete rows).
type segment struct {
	lo, hi   int
	obs, mis []int
}

// newLayout groups the rows of x: complete rows first, then one segment
// per missing pattern in order of first appearance.
func newLayout(x, w []float64, n, d int) *layout {
	lay := &layout{x: x, w: w, n: n, d: d, order: make([]int, n)}
	pat := make([]int32, n) // pattern of each row; 0 is complete
	ids := map[string]int32{}
	var keys [][]byte
	key := make([]byte, d)
	counts := []int{0}
	for i := range n {
		row := x[i*d : (i+1)*d]
		if finiteRow(row) {
			counts[0]++
			continue
		}
		missing := false
		for j, v := range row {
			key[j] = 0
			if math.IsNaN(v) {
				key[j], missing = 1, true
			}
		}
		if !missing {
			counts[0]++
			continue
		}
		id, ok := ids[string(key)]
		if !ok {
			id = int32(len(counts))
			ids[string(key)] = id
			keys = append(keys, append([]byte(nil), key...))
			counts = append(counts, 0)
		}
		pat[i] = id
		counts[id]++
	}
	lay.complete = counts[0] == n
	start := make([]int, len(counts))
	for p := 1; p < len(counts); p++ {
		start[p] = start[p-1] + counts[p-1]
	}
	all := make([]int, d)
	for j := range all {
		all[j] = j
	}
	for p, c := range counts {
		if c == 0 {
			continue
		}
		seg := segment{lo: start[p], hi: start[p] + c, obs: all}
		if p > 0 {
			seg.obs, seg.mis = nil, []int{}
			for j, b := range keys[p-1] {
				if b == 0 {
					seg.obs = append(seg.obs, j)
				} else {
					seg.mis = append(seg.mis, j)
				}
			}
		}
		lay.segs = append(lay.segs, seg)
	}
	next := start
	for i, p := range pat {
		lay.order[next[p]] = i
		next[p]++
	}
	return lay
}

// finiteRow reports whether every cell of row is finite: Σ_j 0·x_j is 0
// then, and NaN when a cell is NaN or infinite. One multiply-add a cell
// and no branch, for the complete rows that are most of the data.
func finiteRow(row []float64) bool {
	s := 0.0
	for _, v := range row {
		s += 0 * v
	}
	return s == 0
}

// weight returns the weight of row i.
func (lay *layout) weight(i int) float64 {
	if lay.w == nil {
		return 1
	}
	return lay.w[i]
}

// totalWeight returns Σ_i w_i.
func (lay *layout) totalWeight() float64 {
	if lay.w == nil {
		return float64(lay.n)
	}
	s := 0.0
	for _, v := range lay.w {
		s += v
	}
	return s
}
