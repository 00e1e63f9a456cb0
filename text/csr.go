package text

import (
	"fmt"
	"math"
	"slices"

	"github.com/gendisc/gendisc/internal/parallel"
)

// CSR is a sparse matrix in compressed sparse row form: the entries of row
// i are Indices[Indptr[i]:Indptr[i+1]] (column indices) with values
// Data[same range]. Memory is proportional to the number of stored entries
// (nonzero counts), not to Rows × Cols. A document-term matrix holds term
// counts as float64; the columns of a row are distinct, in order of first
// occurrence in the document rather than sorted (sorting them would cost
// a sizeable part of the tokenizing, and no product here needs it).
type CSR struct {
	Rows, Cols int
	Indptr     []int
	Indices    []int32
	Data       []float64
}

// newCSR returns an empty matrix ready to receive rows rows.
func newCSR(rows int) *CSR {
	m := &CSR{Rows: rows, Indptr: make([]int, 1, rows+1)}
	return m
}

// NNZ is the number of stored entries.
func (m *CSR) NNZ() int { return len(m.Indices) }

// Row returns the column indices and values of row i, views into m.
func (m *CSR) Row(i int) ([]int32, []float64) {
	lo, hi := m.Indptr[i], m.Indptr[i+1]
	return m.Indices[lo:hi:hi], m.Data[lo:hi:hi]
}

// Binarize returns the matrix with every stored value replaced by 1 (a
// count > 0 becomes "present"), for Bernoulli naive Bayes; Indptr and
// Indices are shared with m.
func (m *CSR) Binarize() *CSR {
	b := *m
	b.Data = make([]float64, len(m.Data))
	for k := range b.Data {
		b.Data[k] = 1
	}
	return &b
}

// ColumnSums adds to dst (length Cols, allocated when nil) the weighted
// column sums
//
//	dst[j] += Σ_i w_i · X_ij
//
// with w nil meaning all ones, and returns dst. Rows are added in order, so
// the result does not depend on the number of cores. It panics when dst or
// w has the wrong length.
func (m *CSR) ColumnSums(dst, w []float64) []float64 {
	dst = m.dst(dst, m.Cols, "ColumnSums")
	m.checkWeights(w)
	for i := range m.Rows {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		m.addRow(dst, i, wi)
	}
	return dst
}

// ClassColumnSums adds to dst (k × Cols, row-major, allocated when nil)
// the weighted column sums of the rows of each class,
//
//	dst[c·Cols + j] += Σ_{i: y_i = c} w_i · X_ij,
//
// the sufficient statistics of multinomial and (after Binarize) Bernoulli
// naive Bayes; y holds class indices as float64 (data.Dataset.Y), rows
// with y NaN are skipped, w nil means all ones. Rows are added in order.
// It panics when a lengths is wrong or a class index is outside [0, k).
func (m *CSR) ClassColumnSums(dst []float64, y []float64, k int, w []float64) []float64 {
	dst = m.dst(dst, k*m.Cols, "ClassColumnSums")
	m.checkWeights(w)
	if len(y) != m.Rows {
		panic(fmt.Sprintf("text: ClassColumnSums: %d labels for %d rows", len(y), m.Rows))
	}
	for i, c := range y {
		if math.IsNaN(c) {
			continue
		}
		if c < 0 || c >= float64(k) || c != math.Trunc(c) {
			panic(fmt.Sprintf("text: ClassColumnSums: class %v of row %d is not in [0, %d)", c, i, k))
		}
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		m.addRow(dst[int(c)*m.Cols:(int(c)+1)*m.Cols], i, wi)
	}
	return dst
}

// addRow adds w times row i to dst.
func (m *CSR) addRow(dst []float64, i int, w float64) {
	idx, val := m.Row(i)
	for k, j := range idx {
		dst[j] += w * val[k]
	}
}

// MulTo sets dst (Rows × k, row-major, allocated when nil) to the product
// of m and the transpose of the dense k × Cols matrix w (row-major: one row
// of weights per class, the layout of scikit-learn's feature_log_prob_ and
// coef_),
//
//	dst[i·k + c] = Σ_j X_ij · w[c·Cols + j],
//
// each sum taken by dotSparse, the rows split across the cores (the result
// does not depend on their number): with w
// the log-probabilities of multinomial naive Bayes this is the words' part
// of the joint log-likelihood, with w a weight matrix the logits of
// logistic regression. It panics when a length is wrong.
func (m *CSR) MulTo(dst, w []float64, k int) []float64 {
	if len(w) != k*m.Cols {
		panic(fmt.Sprintf("text: MulTo: w has %d values, want %d×%d", len(w), k, m.Cols))
	}
	dst = m.dst(dst, m.Rows*k, "MulTo")
	parallel.For(m.Rows, 1024, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			idx, val := m.Row(i)
			for c := range k {
				dst[i*k+c] = dotSparse(idx, val, w[c*m.Cols:(c+1)*m.Cols])
			}
		}
	})
	return dst
}

// dotSparse returns Σ_e val[e]·w[idx[e]], summed in four interleaved
// partial sums (entries e ≡ 0, 1, 2, 3 mod 4, then (s0+s1)+(s2+s3), then
// the remaining entries in order) so that the additions do not wait on one
// another.
func dotSparse(idx []int32, val, w []float64) float64 {
	var s0, s1, s2, s3 float64
	e := 0
	for ; e+4 <= len(idx); e += 4 {
		i, v := idx[e:e+4:e+4], val[e:e+4:e+4]
		s0 += v[0] * w[i[0]]
		s1 += v[1] * w[i[1]]
		s2 += v[2] * w[i[2]]
		s3 += v[3] * w[i[3]]
	}
	s := (s0 + s1) + (s2 + s3)
	for ; e < len(idx); e++ {
		s += val[e] * w[idx[e]]
	}
	return s
}

// TMulTo adds to dst (Cols × k, row-major, allocated when nil) the product
// of the transpose of m and the dense Rows × k matrix r (row-major),
//
//	dst[j·k + c] += Σ_i X_ij · r[i·k + c],
//
// rows taken in order (the gradient of logistic regression with r the
// residuals). It panics when a length is wrong.
func (m *CSR) TMulTo(dst, r []float64, k int) []float64 {
	if len(r) != m.Rows*k {
		panic(fmt.Sprintf("text: TMulTo: r has %d values, want %d×%d", len(r), m.Rows, k))
	}
	dst = m.dst(dst, m.Cols*k, "TMulTo")
	for i := range m.Rows {
		ri := r[i*k : (i+1)*k]
		idx, val := m.Row(i)
		for e, j := range idx {
			x := val[e]
			out := dst[int(j)*k : (int(j)+1)*k]
			for c, rc := range ri {
				out[c] += x * rc
			}
		}
	}
	return dst
}

// SelectRows returns a new matrix of the rows rows[0], rows[1], … of m,
// in that order. It panics when a row is outside [0, m.Rows).
func (m *CSR) SelectRows(rows []int) *CSR {
	nnz := 0
	for _, i := range rows {
		if i < 0 || i >= m.Rows {
			panic(fmt.Sprintf("text: SelectRows: row %d outside %d rows", i, m.Rows))
		}
		nnz += m.Indptr[i+1] - m.Indptr[i]
	}
	out := &CSR{Rows: len(rows), Cols: m.Cols, Indptr: make([]int, 1, len(rows)+1),
		Indices: make([]int32, 0, nnz), Data: make([]float64, 0, nnz)}
	for _, i := range rows {
		idx, val := m.Row(i)
		out.Indices = append(out.Indices, idx...)
		out.Data = append(out.Data, val...)
		out.Indptr = append(out.Indptr, len(out.Indices))
	}
	return out
}

// MapColumns returns a new matrix with cols columns in which the entry of
// column j of m moves to column to[j], or is dropped when to[j] < 0: the
// change from the term ids of a Counter to the columns of its Vocabulary.
// It panics when len(to) is not m.Cols, a target is ≥ cols, or two
// columns have the same target.
func (m *CSR) MapColumns(to []int32, cols int) *CSR {
	if len(to) != m.Cols {
		panic(fmt.Sprintf("text: MapColumns: %d targets for %d columns", len(to), m.Cols))
	}
	seen := make([]bool, cols)
	for j, t := range to {
		if t < 0 {
			continue
		}
		if t >= int32(cols) || seen[t] {
			panic(fmt.Sprintf("text: MapColumns: column %d mapped to %d, outside %d columns or taken", j, t, cols))
		}
		seen[t] = true
	}
	out := &CSR{Rows: m.Rows, Cols: cols, Indptr: slices.Clone(m.Indptr),
		Indices: slices.Clone(m.Indices), Data: slices.Clone(m.Data)}
	out.mapInPlace(to)
	return out
}

// mapInPlace renames the columns of m through the one-to-one mapping to,
// dropping the entries of columns mapped below 0 and compacting m.
func (m *CSR) mapInPlace(to []int32) {
	w, lo := 0, 0
	for i := range m.Rows {
		hi := m.Indptr[i+1]
		for k := lo; k < hi; k++ {
			if t := to[m.Indices[k]]; t >= 0 {
				m.Indices[w], m.Data[w] = t, m.Data[k]
				w++
			}
		}
		m.Indptr[i+1] = w
		lo = hi
	}
	m.Indices, m.Data = m.Indices[:w], m.Data[:w]
}

// dst checks or allocates a destination of length n.
func (m *CSR) dst(dst []float64, n int, op string) []float64 {
	if dst == nil {
		return make([]float64, n)
	}
	if len(dst) != n {
		panic(fmt.Sprintf("text: %s: dst has length %d, want %d", op, len(dst), n))
	}
	return dst
}

func (m *CSR) checkWeights(w []float64) {
	if w != nil && len(w) != m.Rows {
		panic(fmt.Sprintf("text: %d weights for %d rows", len(w), m.Rows))
	}
}

// concat stacks the rows of parts, which have cols columns, into one
// matrix (parts[0] itself when there is one).
func concat(parts []*CSR, cols int) *CSR {
	if len(parts) == 1 {
		parts[0].Cols = cols
		return parts[0]
	}
	rows, nnz := 0, 0
	for _, p := range parts {
		rows += p.Rows
		nnz += p.NNZ()
	}
	m := &CSR{Rows: rows, Cols: cols, Indptr: make([]int, 1, rows+1),
		Indices: make([]int32, 0, nnz), Data: make([]float64, 0, nnz)}
	for _, p := range parts {
		base := len(m.Indices)
		for _, e := range p.Indptr[1:] {
			m.Indptr = append(m.Indptr, base+e)
		}
		m.Indices = append(m.Indices, p.Indices...)
		m.Data = append(m.Data, p.Data...)
	}
	return m
}
