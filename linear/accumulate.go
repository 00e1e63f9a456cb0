package linear

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/design"
	"github.com/gendisc/gendisc/internal/parallel"
)

// ErrNoStatistics is returned when rows are added to, or merged with, the
// accumulator of a model read from a file that holds no statistics
// (written before linear models kept them): the model predicts, but only
// a new fit can update it.
var ErrNoStatistics = errors.New("linear: the model holds no statistics to update or merge (it was saved without them): fit it again")

// role says what a column of the accumulated matrix holds.
type role uint8

const (
	roleIntercept role = iota // 1
	roleTarget                // y − shift
	roleValue                 // a numeric feature: x − shift, 0 when missing
	roleLevel                 // the indicator of a categorical feature's level
	roleMissing               // the indicator of a feature's missing cells
)

// column is a column of the accumulated matrix.
type column struct {
	role    role
	feature int     // roleValue, roleLevel, roleMissing
	level   int     // roleLevel
	shift   float64 // roleTarget, roleValue: the first value seen
}

// Accumulator is a partial fit of linear regression (a gendisc.Accumulator):
// the upper-triangular factor R of the QR factorisation of the weighted
// matrix of the rows added so far,
//
//	X̃ = √V [1  y−c_y  x_1−c_1 … x_D−c_D  indicators],  X̃ = QR,
//
// whose columns are the intercept, the target and, in the order they were
// first seen, each numeric feature (0 in a missing cell), the indicator
// of each level of each categorical feature (every level: the one dummy
// coding leaves out is chosen at the end) and, with Impute, the indicator
// of each feature's missing cells. The shifts c are the first value seen
// of the column, so that R keeps its precision for columns far from zero.
// RᵀR = X̃ᵀX̃ holds every weighted sum of squares and products of the
// columns, and R is computed by orthogonal transformations, never by
// forming X̃ᵀX̃ (which squares the condition number): rows are added by
// factorising R stacked on top of them, and two accumulators merge by
// factorising their R stacked (TSQR), after a change of the shifts and
// the columns of the other's levels.
//
// Model recovers from R the weighted means and standard deviations that
// standardise the numeric columns, and the level frequencies (the
// intercept column's row of R holds the weighted means; the rest of R is
// the factor of the centred columns), maps R to the design's columns
// (standardised, dummy-coded, with missing cells filled by the means)
// and solves the least-squares problem, the ridge rows appended, from
// that small matrix. The zero value is an empty accumulator of the zero
// Config (ordinary least squares).
type Accumulator struct {
	cfg    Config
	schema *data.Schema // nil before the first rows
	rows   int
	cols   []column
	r      []float64 // len(cols) × len(cols), upper triangular, row major
	err    error     // ErrNoStatistics for a model saved without them
}

var (
	_ gendisc.Accumulator = (*Accumulator)(nil)
	_ gendisc.Mergeable   = (*Model)(nil)
)

// NewAccumulator returns an empty accumulator for c, or an error for a
// negative or non-finite L2.
func (c Config) NewAccumulator() (*Accumulator, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	return &Accumulator{cfg: c}, nil
}

func (c Config) validate() error {
	if !(c.L2 >= 0) || math.IsInf(c.L2, 0) {
		return fmt.Errorf("linear: L2 must be a finite non-negative number, got %v", c.L2)
	}
	return nil
}

// Config returns the configuration of the accumulator.
func (a *Accumulator) Config() Config { return a.cfg }

// Rows returns the number of rows added and merged so far.
func (a *Accumulator) Rows() int { return a.rows }

// Add adds the rows of d, whose features must be those of the rows added
// before (categorical columns may bring new levels: data.Schema.Extend).
// It returns an error for a target that is not numeric or is missing, a
// missing feature cell (unless Impute is set), a text column (whose
// vocabulary would make the design grow with every shard), and bad
// weights, and then leaves the accumulator as it was.
func (a *Accumulator) Add(d *data.Dataset) error {
	if a.err != nil {
		return a.err
	}
	if err := check(d); err != nil {
		return err
	}
	s := d.Schema
	if a.schema != nil && a.schema != d.Schema {
		ext, remap, err := a.schema.Extend(d.Schema)
		if err != nil {
			return fmt.Errorf("linear: %s: %w", d.Source, err)
		}
		d, s = remap.Apply(d, ext), ext
	}
	missing, err := a.missingCells(d)
	if err != nil {
		return err
	}
	a.schema = s
	a.addColumns(d, missing)
	ns := len(a.cols)
	lay := a.layout()
	parts := make([][]float64, parallel.Blocks(d.N, qrBlock))
	parallel.For(d.N, qrBlock, func(b, lo, hi int) {
		parts[b] = factorRows(d, lo, hi, ns, lay)
	})
	a.r = stackQR(ns, append([][]float64{a.r}, parts...)...)
	a.rows += d.N
	return nil
}

// check returns an error unless d has a numeric target without missing
// values, valid weights and no text column.
func check(d *data.Dataset) error {
	t := d.Schema.Target
	if t == nil || d.Y == nil || t.Kind != data.Numeric {
		return fmt.Errorf("%s: linear regression needs a numeric target (read with a numeric target)", d.Source)
	}
	for i, y := range d.Y {
		if y != y {
			return &data.ParseError{File: d.Source.Name, Line: d.Line(i), ColumnName: t.Name, Err: data.ErrMissingTarget}
		}
	}
	for _, c := range d.Schema.Features {
		if c.Kind == data.Text {
			return &data.ParseError{File: d.Source.Name, ColumnName: c.Name, Err: &data.KindError{Column: c.Name, Kind: c.Kind,
				Model: "this model", Takes: "numeric and categorical features only (leave the column out: dataio.Options.Ignore)", Err: data.ErrFeatureKind}}
		}
	}
	return design.CheckWeights(d)
}

// missingCells reports which features of d have a missing cell, or
// returns the error for the first one when Impute is not set.
func (a *Accumulator) missingCells(d *data.Dataset) ([]bool, error) {
	D := d.D()
	missing := make([]bool, D)
	for i := range d.N {
		for j, v := range d.Row(i) {
			if v == v {
				continue
			}
			if !a.cfg.Impute {
				return nil, design.MissingCellError(d, i, j)
			}
			missing[j] = true
		}
	}
	return missing, nil
}

// find returns the index of the column of role r for feature j (and level
// l), or −1.
func (a *Accumulator) find(r role, j, l int) int {
	return slices.IndexFunc(a.cols, func(c column) bool {
		return c.role == r && (r == roleIntercept || r == roleTarget || c.feature == j && (r != roleLevel || c.level == l))
	})
}

// addColumns adds the columns that d's rows need and the accumulator does
// not have yet (all of them for the first rows: the intercept, the target
// and every feature; later, new levels and missing cells), each a zero
// column and row of R. A new column's shift is its first value in d.
func (a *Accumulator) addColumns(d *data.Dataset, missing []bool) {
	n0 := len(a.cols)
	if n0 == 0 {
		a.cols = append(a.cols, column{role: roleIntercept}, column{role: roleTarget, shift: d.Y[0]})
	}
	for j, c := range a.schema.Features {
		switch c.Kind {
		case data.Numeric:
			if a.find(roleValue, j, 0) < 0 {
				shift := 0.0
				for i := range d.N {
					if v := d.X[i*d.D()+j]; v == v {
						shift = v
						break
					}
				}
				a.cols = append(a.cols, column{role: roleValue, feature: j, shift: shift})
			}
		case data.Categorical:
			for l := range c.Levels {
				if a.find(roleLevel, j, l) < 0 {
					a.cols = append(a.cols, column{role: roleLevel, feature: j, level: l})
				}
			}
		}
		if missing[j] && a.find(roleMissing, j, 0) < 0 {
			a.cols = append(a.cols, column{role: roleMissing, feature: j})
		}
	}
	a.r = grow(a.r, n0, len(a.cols))
}

// grow returns the n × n matrix r padded with zeros to m × m.
func grow(r []float64, n, m int) []float64 {
	if n == m {
		return r
	}
	out := make([]float64, m*m)
	for i := range n {
		copy(out[i*m:i*m+n], r[i*n:(i+1)*n])
	}
	return out
}

// layout is where the cells of a row go among the columns.
type layout struct {
	value   []int   // per feature: its value column, −1 unless numeric
	levels  [][]int // per feature: the column of each level
	missing []int   // per feature: its missing-cell column, or −1
	shift   []float64
}

func (a *Accumulator) layout() *layout {
	D := len(a.schema.Features)
	lay := &layout{value: make([]int, D), levels: make([][]int, D), missing: make([]int, D), shift: make([]float64, len(a.cols))}
	for j, c := range a.schema.Features {
		lay.value[j], lay.missing[j] = -1, -1
		lay.levels[j] = make([]int, len(c.Levels))
	}
	for k, c := range a.cols {
		lay.shift[k] = c.shift
		switch c.role {
		case roleValue:
			lay.value[c.feature] = k
		case roleLevel:
			lay.levels[c.feature][c.level] = k
		case roleMissing:
			lay.missing[c.feature] = k
		}
	}
	return lay
}

// fill writes the row of the accumulated matrix for row i of d to dst.
func (lay *layout) fill(dst []float64, d *data.Dataset, i int) {
	clear(dst)
	s := 1.0
	if d.Weight != nil {
		s = math.Sqrt(d.Weight[i])
	}
	dst[0] = s
	dst[1] = s * (d.Y[i] - lay.shift[1])
	for j, v := range d.Row(i) {
		switch {
		case v != v:
			dst[lay.missing[j]] = s
		case lay.value[j] >= 0:
			k := lay.value[j]
			dst[k] = s * (v - lay.shift[k])
		default:
			dst[lay.levels[j][int(v)]] = s
		}
	}
}

// qrBlock is the smallest number of rows factorised at once under the R
// of the rows before them, and the smallest block of rows worth a
// goroutine.
const qrBlock = 256

// factorRows returns the R factor (ns × ns) of rows [lo, hi) of d: blocks
// of max(qrBlock, 2ns) rows are factorised under the R of the blocks
// before them, so that the ns rows of R add at most half to the work.
func factorRows(d *data.Dataset, lo, hi, ns int, lay *layout) []float64 {
	block := max(qrBlock, 2*ns)
	f := newFactorizer(ns+block, ns)
	for a := lo; a < hi; a += block {
		e := min(hi, a+block)
		for i := a; i < e; i++ {
			lay.fill(f.a[(ns+i-a)*ns:(ns+i-a+1)*ns], d, i)
		}
		f.factor(ns + e - a)
	}
	return f.r()
}

// stackQR returns the R factor (ns × ns) of the matrices blocks, each of
// ns columns and any number of rows, stacked.
func stackQR(ns int, blocks ...[]float64) []float64 {
	rows := 0
	for _, b := range blocks {
		rows += len(b) / max(ns, 1)
	}
	f := newFactorizer(ns+rows, ns)
	at := ns * ns
	for _, b := range blocks {
		at += copy(f.a[at:], b)
	}
	f.factor(ns + rows)
	return f.r()
}

// factorizer holds the matrix whose QR factorisation gives the running R:
// R in its top ns rows, the rows to add below.
type factorizer struct {
	ns        int
	a         []float64 // rows × ns, row major
	tau, work []float64
}

func newFactorizer(rows, ns int) *factorizer {
	f := &factorizer{ns: ns, a: make([]float64, rows*ns), tau: make([]float64, ns), work: make([]float64, 1)}
	lapack64.Geqrf(blas64.General{Rows: rows, Cols: ns, Stride: ns, Data: f.a}, f.tau, f.work, -1)
	f.work = make([]float64, int(f.work[0]))
	return f
}

// factor replaces the first m rows by their R factor: the top ns rows
// hold R, with zeros under its diagonal; the rows below are left to be
// overwritten.
func (f *factorizer) factor(m int) {
	ns := f.ns
	lapack64.Geqrf(blas64.General{Rows: m, Cols: ns, Stride: ns, Data: f.a[:m*ns]}, f.tau, f.work, len(f.work))
	for i := 1; i < ns; i++ {
		clear(f.a[i*ns : i*ns+i])
	}
}

// r returns a copy of R.
func (f *factorizer) r() []float64 { return slices.Clone(f.a[:f.ns*f.ns]) }
