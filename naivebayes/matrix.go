package naivebayes

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/hugepage"
	"github.com/gendisc/gendisc/internal/parallel"
	"github.com/gendisc/gendisc/text"
)

// MatrixError is a data error about row Row of a term-count matrix, and
// about its entry in column Column unless Column is −1 (a label or
// weight); both count from 0.
type MatrixError struct {
	Row, Column int
	Err         error
}

func (e *MatrixError) Error() string {
	if e.Column < 0 {
		return fmt.Sprintf("row %d: %v", e.Row, e.Err)
	}
	return fmt.Sprintf("row %d, column %d: %v", e.Row, e.Column, e.Err)
}

func (e *MatrixError) Unwrap() error { return e.Err }

// MatrixModel is Bernoulli, multinomial or complement naive Bayes fitted to
// a term-count matrix (Config.FitMatrix): the model of a text column of
// Config.Fit, for counts that are already in a matrix. It keeps the
// per-class column sums of its training rows, so that Update can add more.
// A MatrixModel is immutable and safe for concurrent use.
type MatrixModel struct {
	params      params
	ck          countKind
	classes     []string
	classWeight []float64 // N_k
	s           []float64 // S_kt at k·V + t
	w           countWeights
	sc          countScorer
	prior       []float64 // π_k
	logPrior    []float64 // log π_k, 0 for complement
}

// FitMatrix fits naive Bayes to the term-count matrix x (one row per
// document, one column per term, as text.Vocabulary.Transform makes it),
// with the class index y_i ∈ [0, len(classes)) of each row and the row
// weights w (nil: all 1). c.Family is Bernoulli, Multinomial or
// Complement, or Mixed, which takes the matrix as a text column:
// multinomial, or Bernoulli when c.TextModel is TextBernoulli. Its
// statistics are the class weights N_k = Σ_{i: y_i = k} w_i and the
// per-class column sums
//
//	S_kt = Σ_{i: y_i = k} w_i · x_it            (multinomial, complement)
//	S_kt = Σ_{i: y_i = k, x_it > 0} w_i          (Bernoulli, with N_kt = N_k)
//
// from which the term weights are those of Config.Fit (fitCounts: with
// α, log θ_kt = log((S_kt + α) / (Σ_u S_ku + α·V)) for multinomial) and
// the class prior that of Config.PriorAlpha and ClassPrior over N_k
// (complement naive Bayes scores without it). Every row is a document: a
// row without entries is one without terms (under Bernoulli, every term
// absent). Binarize, Text, VarSmoothing and Variance do not apply.
//
// The column sums are taken over the stored entries in a fixed number of
// row blocks on all cores, added in block order, so that the model does
// not depend on the number of cores. Data problems are errors: a
// malformed matrix (Indptr, Indices and Data of lengths that disagree),
// lengths of y or w other than x.Rows, a label outside [0, len(classes)) or a weight
// that is not finite and ≥ 0 (a *MatrixError naming the row), a count that
// is negative (ErrNegativeCount), NaN or infinite, or a column outside
// [0, x.Cols) (a *MatrixError naming the row and column), fewer than two
// classes with rows of positive weight (ErrOneClass), duplicate class
// names.
func (c Config) FitMatrix(x *text.CSR, y []int, classes []string, w []float64) (*MatrixModel, error) {
	p, err := c.params()
	if err != nil {
		return nil, err
	}
	if c.Family == Categorical {
		return nil, errors.New("naivebayes: categorical-nb does not take a term-count matrix")
	}
	for k, name := range classes {
		if slices.Contains(classes[:k], name) {
			return nil, fmt.Errorf("naivebayes: class %q given twice", name)
		}
	}
	K := len(classes)
	m := &MatrixModel{params: p, ck: textFamily(c.Family, c.TextModel), classes: slices.Clone(classes),
		classWeight: make([]float64, K), s: make([]float64, K*x.Cols)}
	if err := m.add(x, y, w); err != nil {
		return nil, err
	}
	return m, nil
}

// Update returns a new model fitted on the training rows of m and the rows
// of x (with the classes of m and the conventions of FitMatrix) together,
// by adding their statistics; m is unchanged. Update of FitMatrix(A) with B
// equals FitMatrix of A and B stacked (to the last bit where the counts
// and weights are whole numbers). x must have m's columns.
func (m *MatrixModel) Update(x *text.CSR, y []int, w []float64) (*MatrixModel, error) {
	if x.Cols != m.w.v {
		return nil, fmt.Errorf("naivebayes: the matrix has %d columns, the model %d", x.Cols, m.w.v)
	}
	u := &MatrixModel{params: m.params, ck: m.ck, classes: m.classes,
		classWeight: slices.Clone(m.classWeight), s: slices.Clone(m.s)}
	if err := u.add(x, y, w); err != nil {
		return nil, err
	}
	return u, nil
}

// Merge returns a new model fitted on the training rows of m and of o
// together, by adding their statistics; m and o are unchanged. The
// classes are m's, then those of o that m lacks (o's renumbered by name).
// o must have m's settings (a *gendisc.MergeError otherwise) and columns: the same
// number (a *gendisc.MergeError otherwise), standing for the same terms in the
// same order, which the counts cannot tell. Merging the models of
// disjoint rows equals FitMatrix of all of them (to the last bit where the
// counts and weights are whole numbers).
func (m *MatrixModel) Merge(o *MatrixModel) (*MatrixModel, error) {
	kind := m.params.cfg.Family.String()
	if other := o.params.cfg.Family.String(); other != kind {
		return nil, mergeError(kind, other, "another kind of model")
	}
	if err := sameSettings(kind, modelSettings(m.params), modelSettings(o.params)); err != nil {
		return nil, err
	}
	V := m.w.v
	if o.w.v != V {
		return nil, mergeError(kind, kind, fmt.Sprintf("a matrix model of %d columns, want %d", o.w.v, V))
	}
	classes := slices.Clone(m.classes)
	for _, c := range o.classes {
		if !slices.Contains(classes, c) {
			classes = append(classes, c)
		}
	}
	K := len(classes)
	u := &MatrixModel{params: m.params, ck: m.ck, classes: classes, classWeight: make([]float64, K), s: make([]float64, K*V)}
	copy(u.classWeight, m.classWeight)
	copy(u.s, m.s)
	for c, name := range o.classes {
		k := slices.Index(classes, name)
		u.classWeight[k] += o.classWeight[c]
		for t, v := range o.s[c*V : (c+1)*V] {
			u.s[k*V+t] += v
		}
	}
	return u, u.fit()
}

// add checks the rows of x with labels y and weights w, adds their
// statistics and fits the model.
func (m *MatrixModel) add(x *text.CSR, y []int, w []float64) error {
	K := len(m.classes)
	if len(x.Indptr) != x.Rows+1 || len(x.Indices) != len(x.Data) || x.Indptr[x.Rows] != len(x.Data) {
		return fmt.Errorf("naivebayes: malformed matrix: %d rows, %d row pointers, %d indices, %d values",
			x.Rows, len(x.Indptr), len(x.Indices), len(x.Data))
	}
	if len(y) != x.Rows {
		return fmt.Errorf("naivebayes: %d labels for %d rows", len(y), x.Rows)
	}
	if w != nil && len(w) != x.Rows {
		return fmt.Errorf("naivebayes: %d weights for %d rows", len(w), x.Rows)
	}
	for i, c := range y {
		if c < 0 || c >= K {
			return &MatrixError{Row: i, Column: -1, Err: fmt.Errorf("class index %d out of range [0, %d)", c, K)}
		}
		wi := rowWeight(w, i)
		if !data.ValidWeight(wi) {
			return &MatrixError{Row: i, Column: -1, Err: fmt.Errorf("%w: %v", data.ErrWeight, wi)}
		}
		m.classWeight[c] += wi
	}
	sums, err := classSums(x, y, w, K, m.ck == countBernoulli)
	if err != nil {
		return err
	}
	for i, v := range sums {
		m.s[i] += v
	}
	return m.fit()
}

// fit derives the class prior and the term weights from the statistics.
func (m *MatrixModel) fit() error {
	if !twoClasses(m.classWeight) {
		return fmt.Errorf("naivebayes: %w", ErrOneClass)
	}
	K := len(m.classes)
	V := len(m.s) / K
	prior, err := m.params.prior.priors(m.classes, m.classWeight)
	if err != nil {
		return err
	}
	st := countStats{v: V, s: m.s}
	if m.ck == countBernoulli {
		st.n = make([]float64, K*V)
		for k, cw := range m.classWeight {
			for t := range V {
				st.n[k*V+t] = cw
			}
		}
	}
	m.w = fitCounts(m.ck, &st, K, m.params.alpha, m.params.cfg.Norm)
	m.sc = newCountScorer(m.ck, m.w)
	m.prior, m.logPrior = prior, make([]float64, K)
	if m.params.cfg.Family != Complement { // Rennie et al.'s scores have no prior
		for k, p := range prior {
			m.logPrior[k] = math.Log(p)
		}
	}
	return nil
}

// sumBlocks is the largest number of row blocks whose column sums
// classSums takes separately (on as many cores as there are).
const sumBlocks = 8

// classSums returns the per-class column sums of FitMatrix, K × x.Cols at
// k·V + t, of the rows of x with labels y and weights w, of the entries or
// (presence) of [x_it > 0]. The rows are split into a number of blocks
// that depends only on the sizes, at most sumBlocks and each with at
// least K·V entries, so that its sums, of K·V values, cost less than its
// entries; the blocks' sums are added in order. The first bad entry (a
// count not finite and ≥ 0, a column outside the matrix) is an error.
func classSums(x *text.CSR, y []int, w []float64, K int, presence bool) ([]float64, error) {
	V := x.Cols
	nb := min(sumBlocks, max(1, x.NNZ()/max(1, K*V)))
	sums := make([][]float64, nb)
	bad := make([]int, nb) // the first bad entry of each block, −1 for none
	parallel.For(nb, 1, func(_, lo, hi int) {
		for b := lo; b < hi; b++ {
			sums[b], bad[b] = make([]float64, K*V), -1
			s := sums[b]
		rows:
			for i := b * x.Rows / nb; i < (b+1)*x.Rows/nb; i++ {
				row, wi := s[y[i]*V:(y[i]+1)*V], rowWeight(w, i)
				idx, val := x.Row(i)
				for e, j := range idx {
					v := val[e]
					if !(v >= 0 && v <= math.MaxFloat64) || uint32(j) >= uint32(V) {
						bad[b] = x.Indptr[i] + e
						break rows
					}
					if presence {
						v = present(v)
					}
					row[j] += wi * v
				}
			}
		}
	})
	for _, e := range bad {
		if e >= 0 {
			return nil, badEntry(x, e)
		}
	}
	out := sums[0]
	parallel.For(len(out), 1<<14, func(_, lo, hi int) {
		for _, s := range sums[1:] {
			for t, v := range s[lo:hi] {
				out[lo+t] += v
			}
		}
	})
	return out, nil
}

// badEntry is the error of the stored entry e of x, a count that is not
// finite and ≥ 0 or a column outside the matrix.
func badEntry(x *text.CSR, e int) error {
	i := sort.Search(x.Rows, func(i int) bool { return x.Indptr[i+1] > e })
	j, v := x.Indices[e], x.Data[e]
	err := &MatrixError{Row: i, Column: int(j)}
	switch {
	case j < 0 || int(j) >= x.Cols:
		err.Err = fmt.Errorf("column outside the matrix's %d columns", x.Cols)
	case v != v:
		err.Err = fmt.Errorf("%w: count NaN", data.ErrNotNumber)
	case math.IsInf(v, 0):
		err.Err = fmt.Errorf("%w: count %v", data.ErrInfinite, v)
	default:
		err.Err = fmt.Errorf("%w %v", ErrNegativeCount, v)
	}
	return err
}

// Classes returns the class names, in the order of the probability
// columns.
func (m *MatrixModel) Classes() []string { return slices.Clone(m.classes) }

// Cols is the number of columns (terms) of the matrices the model takes.
func (m *MatrixModel) Cols() int { return m.w.v }

// Priors returns the class priors π_k (for complement naive Bayes, the
// priors it would have; its scores do not use them).
func (m *MatrixModel) Priors() []float64 { return slices.Clone(m.prior) }

// ClassWeights returns the total weight N_k of the training rows of each
// class.
func (m *MatrixModel) ClassWeights() []float64 { return slices.Clone(m.classWeight) }

// CountWeights returns the weights b_kt of the terms as [k][t], as
// Model.CountWeights: log θ_kt (multinomial; scikit-learn's
// feature_log_prob_), log p_kt (Bernoulli) or the complement weights.
func (m *MatrixModel) CountWeights() [][]float64 {
	w := make([][]float64, m.w.k)
	for k := range w {
		w[k] = slices.Clone(m.w.b[k*m.w.v : (k+1)*m.w.v])
	}
	return w
}

// JointLogLikelihood writes log p(x_i, y = k) to dst[i·K + k] for every
// row i of x and returns dst (allocated when nil):
//
//	log π_k + Σ_t x_it log θ_kt                                  (multinomial)
//	log π_k + Σ_t log p_kt or log(1 − p_kt) as x_it > 0 or not   (Bernoulli)
//
// and for complement naive Bayes Rennie et al.'s scores Σ_t x_it b_kt,
// which leave out the prior and are not log-probabilities. Counts are
// not checked (a negative one gives a finite but meaningless score). It
// panics if x has a number of columns other than the model's or dst has a
// length other than x.Rows·K.
func (m *MatrixModel) JointLogLikelihood(dst []float64, x *text.CSR) []float64 {
	return m.score(dst, x, nil)
}

// LogProba writes log P(y = k | x_i) to dst[i·K + k] for every row i of x
// and returns dst (allocated when nil): the joint log-likelihood normalised
// by a stable log-sum-exp. A row that no class can have produced (possible
// only with α = 0) gets −Inf for every class. It panics as
// JointLogLikelihood.
func (m *MatrixModel) LogProba(dst []float64, x *text.CSR) []float64 {
	return m.score(dst, x, logProbaRow)
}

// Proba writes P(y = k | x_i) to dst[i·K + k], the exponential of
// LogProba (up to rounding: mathx.Softmax), with its conventions.
func (m *MatrixModel) Proba(dst []float64, x *text.CSR) []float64 {
	return m.score(dst, x, probaRow)
}

// score writes the joint log-likelihoods of the rows of x into dst, one
// pass over each row on all cores, and calls finish (unless nil) on each
// row's K values once they are complete.
func (m *MatrixModel) score(dst []float64, x *text.CSR, finish func(row []float64)) []float64 {
	K := len(m.classes)
	if x.Cols != m.w.v {
		panic(fmt.Sprintf("naivebayes: the matrix has %d columns, the model %d", x.Cols, m.w.v))
	}
	if dst == nil {
		dst = hugepage.Make[float64](x.Rows*K, x.Rows*K)
	}
	if len(dst) != x.Rows*K {
		panic(fmt.Sprintf("naivebayes: dst has length %d, want %d rows × %d classes", len(dst), x.Rows, K))
	}
	parallel.For(x.Rows, 4*chunkRows, func(_, lo, hi int) {
		acc := make([]float64, m.sc.g)
		for i := lo; i < hi; i++ {
			row := dst[i*K : (i+1)*K]
			copy(row, m.logPrior)
			idx, val := x.Row(i)
			m.sc.addRow(row, acc, idx, val)
			if finish != nil {
				finish(row)
			}
		}
	})
	return dst
}
