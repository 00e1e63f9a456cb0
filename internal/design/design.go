package design

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/mathx"
	"github.com/gendisc/gendisc/internal/parallel"
	"github.com/gendisc/gendisc/stats"
	"github.com/gendisc/gendisc/text"
)

// ErrMissing is wrapped in the error Fit returns for a missing cell when
// imputation is off (a *data.MissingError).
var ErrMissing = data.ErrMissing

// minBlock is the smallest block of rows worth a goroutine.
const minBlock = 4096

// Options tune Fit. The zero value standardises numeric columns, one-hot
// encodes every level of a categorical column, and refuses missing cells.
type Options struct {
	// Impute fills missing training cells with the mean of their design
	// columns instead of returning an error.
	Impute bool
	// DropFirst leaves out the indicator of each categorical feature's
	// first level (dummy coding), so that the indicators and an intercept
	// are not collinear; needed by an unpenalised least-squares fit.
	DropFirst bool
	// Text, when set, encodes each text column as term counts under
	// these settings (package text: tokens, n-grams, stop words,
	// pruning), sparse columns after the dense ones, one per term of the
	// column's training vocabulary; when nil a text column is an error.
	Text *text.VectorizerConfig
	// NoStandardize keeps numeric columns in their own units (Center 0,
	// Scale 1); a missing cell is then filled with the column's mean.
	NoStandardize bool
}

// Term is one column of the design matrix.
type Term struct {
	// Feature is the index of the source column in the schema's features.
	Feature int
	// Level is the categorical level this indicator column stands for, or
	// -1 for a numeric column.
	Level int
	// Center and Scale standardise a numeric column, z = (x − Center)/Scale;
	// an indicator column has Center 0 and Scale 1.
	Center, Scale float64
	// Fill is the design value of a missing cell: the training mean of the
	// column on the design scale (0 for a standardised numeric column, the
	// level's frequency for an indicator).
	Fill float64
}

// Encoder maps rows of a schema to rows of the design matrix. It is
// immutable and safe for concurrent use.
type Encoder struct {
	schema *data.Schema
	terms  []Term
	text   []textColumn
	// dense is set when every feature is numeric, so design column t is
	// feature t and a row encodes as (x − center) / scale with vector
	// kernels.
	dense         bool
	center, scale []float64
	// complete is set by Fit when the data it saw had no missing cell.
	complete bool
}

// setDense caches the fast path of an all-numeric schema.
func (e *Encoder) setDense() {
	e.dense = len(e.terms) == len(e.schema.Features)
	e.center, e.scale = make([]float64, len(e.terms)), make([]float64, len(e.terms))
	for t, term := range e.terms {
		e.dense = e.dense && term.Level < 0 && term.Feature == t
		e.center[t], e.scale[t] = term.Center, term.Scale
	}
}

// Matrix is an encoded data set: Dense holds the N × P dense columns, row
// major; Sparse the N × V term-count columns that follow them (nil when
// there are no text features).
type Matrix struct {
	N, P   int
	Dense  []float64
	Sparse *text.CSR
}

// Row returns row i of the dense part, a view.
func (m *Matrix) Row(i int) []float64 { return m.Dense[i*m.P : (i+1)*m.P : (i+1)*m.P] }

// Densify returns the matrix with its sparse columns written out after
// the dense ones, N × (P+V) and no sparse part, for kernels that need
// whole rows (a Newton step's Hessian); m itself when it has no sparse
// part.
func (m *Matrix) Densify() *Matrix {
	if m.Sparse == nil {
		return m
	}
	out := &Matrix{N: m.N, P: m.P + m.Sparse.Cols}
	out.Dense = make([]float64, out.N*out.P)
	for i := range m.N {
		row := out.Row(i)
		copy(row, m.Row(i))
		idx, val := m.Sparse.Row(i)
		for e, j := range idx {
			row[m.P+int(j)] = val[e]
		}
	}
	return out
}

// Fit computes the encoding of d's features: the weighted mean and
// population standard deviation of each numeric column over its observed
// cells, the weighted level frequencies of each categorical column, the
// vocabulary of each text column (unweighted, as CountVectorizer's). It
// returns an error for a text column when opt.Text is nil or its
// vocabulary is empty, for a missing cell when opt.Impute is false
// (positioned at the row's source line), and for weights that are
// negative, not finite or sum to zero.
func Fit(d *data.Dataset, opt Options) (*Encoder, error) {
	if err := CheckWeights(d); err != nil {
		return nil, err
	}
	e := &Encoder{schema: d.Schema}
	D := d.D()
	for j, c := range d.Schema.Features {
		switch c.Kind {
		case data.Text:
			if opt.Text == nil {
				return nil, textError(d, c)
			}
			tc, err := fitText(d, j, *opt.Text, e.V())
			if err != nil {
				return nil, err
			}
			e.text = append(e.text, tc)
		case data.Numeric:
			e.terms = append(e.terms, Term{Feature: j, Level: -1, Scale: 1})
		case data.Categorical:
			for l := range c.Levels {
				if l == 0 && opt.DropFirst {
					continue
				}
				e.terms = append(e.terms, Term{Feature: j, Level: l, Scale: 1})
			}
		}
	}
	// One pass over the rows, on all cores: the weighted moments of every
	// column over its observed cells (stats.Moments of one class; those of
	// text and categorical columns are not used, except their observed
	// weights).
	mom := stats.NewMoments(1, D)
	if D > 0 {
		mom.Add(d.X, nil, d.Weight)
	}
	anyMissing := missingCells(d, mom)
	if anyMissing && !opt.Impute {
		return nil, missingError(d)
	}
	for t := range e.terms {
		term := &e.terms[t]
		a := mom.At(0, term.Feature)
		if a.W == 0 {
			return nil, fmt.Errorf("%s: column %q has no observed value", d.Source, d.Schema.Features[term.Feature].Name)
		}
		if term.Level < 0 {
			standardize(term, a, opt.NoStandardize)
			if err := term.check(); err != nil {
				return nil, &data.ParseError{File: d.Source.Name, ColumnName: d.Schema.Features[term.Feature].Name,
					Err: fmt.Errorf("values too large or too small for the model: the column's %w; rescale it", err)}
			}
		}
	}
	e.complete = !anyMissing
	levelFrequencies(d, e.terms, mom)
	e.setDense()
	return e, nil
}

// textError is Fit's error for text column c of d without Options.Text: a
// data.KindError in a data.ParseError naming the source and column.
func textError(d *data.Dataset, c data.Column) error {
	return &data.ParseError{File: d.Source.Name, ColumnName: c.Name, Err: &data.KindError{Column: c.Name, Kind: c.Kind,
		Model: "this model", Takes: "numeric and categorical features only (leave the column out: dataio.Options.Ignore)", Err: data.ErrFeatureKind}}
}

// CheckComplete returns the error Fit gives without Options.Impute for
// the first missing cell of d outside the text columns, nil when there is
// none: a model fitted on complete rows checks with it the rows it is
// asked to predict. A categorical column in which d holds categories the
// schema lacks (d.Unseen, read as missing) is not checked: its missing
// cells take the training frequencies, as unseen categories do.
func CheckComplete(d *data.Dataset) error {
	for i := range d.N {
		for j, v := range d.Row(i) {
			c := &d.Schema.Features[j]
			if v == v || c.Kind == data.Text || c.Kind == data.Categorical && j < len(d.Source.Unseen) && d.Source.Unseen[j] > 0 {
				continue
			}
			return MissingCellError(d, i, j)
		}
	}
	return nil
}

// missingError is Fit's error for the first missing cell of d outside the
// text columns (there must be one).
func missingError(d *data.Dataset) error {
	i, j := firstMissing(d)
	return MissingCellError(d, i, j)
}

// MissingCellError is Fit's error for the missing cell of row i and
// feature j of d when imputation is off: a data.MissingError in a
// data.ParseError at the row's source line.
func MissingCellError(d *data.Dataset, i, j int) error {
	name := d.Schema.Features[j].Name
	return &data.ParseError{File: d.Source.Name, Line: d.Line(i), ColumnName: name, Err: &data.MissingError{Column: name, Row: i}}
}

// standardize sets the numeric term t from the moments a of its column's
// observed cells: its centre and scale to the weighted mean and population
// standard deviation,
//
//	Center = M,  Scale = √(S/W)  (1 when 0),
//
// or, with noStandardize, its fill to the mean (centre 0, scale 1).
func standardize(t *Term, a stats.Moment, noStandardize bool) {
	if noStandardize {
		t.Fill = a.M
		return
	}
	t.Center = a.M
	if s := math.Sqrt(a.Var()); s > 0 {
		t.Scale = s
	}
}

// missingCells reports whether a feature column of d that is not text has
// a missing cell, given the moments m of d's columns (Moments.Add of its
// rows). A column's observed weight W_j is the class weight bit for bit
// when the column has no missing cell (Moments.Add sums the same weights
// in the same order), and falls short of it by at least w_i − 2(n−1)u·W
// (u = 2⁻⁵³, the rounding of two sums of n non-negative terms) when the
// cell of row i is missing. So only the rows of weight at most n·2⁻⁵¹·W
// (weight 0 included: Moments.Add skips them) are read again.
func missingCells(d *data.Dataset, m *stats.Moments) bool {
	total := 0.0
	if m.K() > 0 {
		total = m.ClassWeight[0]
	}
	for j, c := range d.Schema.Features {
		if c.Kind != data.Text && m.At(0, j).W != total {
			return true
		}
	}
	if d.Weight == nil {
		return false
	}
	tiny := float64(d.N) * 0x1p-51 * total
	for i, w := range d.Weight {
		if w <= tiny && missingColumn(d, i) >= 0 {
			return true
		}
	}
	return false
}

// missingColumn returns the first feature column of row i of d that is
// not text and is missing, or -1.
func missingColumn(d *data.Dataset, i int) int {
	for j, v := range d.Row(i) {
		if v != v && d.Schema.Features[j].Kind != data.Text {
			return j
		}
	}
	return -1
}

// firstMissing returns the first row of d with a missing cell in a column
// that is not text, and that column; (-1, -1) if there is none.
func firstMissing(d *data.Dataset) (row, col int) {
	for i := range d.N {
		if j := missingColumn(d, i); j >= 0 {
			return i, j
		}
	}
	return -1, -1
}

// levelFrequencies sets the Fill of the indicator terms to the weighted
// frequency of their level among the observed cells of their feature,
//
//	Fill = Σ_i w_i [x_ij = l] / W_j,
//
// W_j being the observed weight of the moments m, in one pass over the
// rows on all cores when there are indicator terms.
func levelFrequencies(d *data.Dataset, terms []Term, m *stats.Moments) {
	var ind []Term // the indicator terms
	var at []int   // their indices in terms
	for t, term := range terms {
		if term.Level >= 0 {
			ind, at = append(ind, term), append(at, t)
		}
	}
	for a, w := range levelWeights(d, ind) {
		terms[at[a]].Fill = w / m.At(0, ind[a].Feature).W
	}
}

// levelWeights returns the weight of the rows of d at each indicator term
// (feature j, level l) of ind,
//
//	Σ_i w_i [x_ij = l],
//
// in one pass over the rows on all cores (none when ind is empty). The sum
// of each term depends on the rows only, not on the other terms.
func levelWeights(d *data.Dataset, ind []Term) []float64 {
	if len(ind) == 0 {
		return nil
	}
	nb := parallel.Blocks(d.N, minBlock)
	parts := make([][]float64, nb)
	parallel.For(d.N, minBlock, func(b, lo, hi int) {
		count := make([]float64, len(ind))
		parts[b] = count
		for i := lo; i < hi; i++ {
			x, w := d.Row(i), weight(d, i)
			for a := range ind {
				if v := x[ind[a].Feature]; v == v && int(v) == ind[a].Level {
					count[a] += w
				}
			}
		}
	})
	count := make([]float64, len(ind))
	for _, p := range parts {
		floats.Add(count, p)
	}
	return count
}

// CheckWeights returns an error unless d's weights are finite,
// non-negative and have a positive sum.
func CheckWeights(d *data.Dataset) error {
	if d.N == 0 {
		return fmt.Errorf("%s: no rows", d.Source)
	}
	if d.Weight == nil {
		return nil
	}
	total := 0.0
	for i, w := range d.Weight {
		if !data.ValidWeight(w) {
			return d.RowError(i, "%w: %v", data.ErrWeight, w)
		}
		total += w
	}
	if !(total > 0) || math.IsInf(total, 0) {
		return fmt.Errorf("%s: the weights sum to %v", d.Source, total)
	}
	return nil
}

func weight(d *data.Dataset, i int) float64 {
	if d.Weight == nil {
		return 1
	}
	return d.Weight[i]
}

// P is the number of dense design columns (numeric and indicator); the
// V sparse ones follow.
func (e *Encoder) P() int { return len(e.terms) }

// Terms returns a copy of the design columns.
func (e *Encoder) Terms() []Term { return append([]Term(nil), e.terms...) }

// Standardized reports whether some numeric design column is not in its
// own units (Center ≠ 0 or Scale ≠ 1): false for an encoder fitted with
// Options.NoStandardize, and for one without numeric columns, whose
// coefficients are then the same on the design scale and per unit.
func (e *Encoder) Standardized() bool {
	for _, t := range e.terms {
		if t.Level < 0 && (t.Center != 0 || t.Scale != 1) {
			return true
		}
	}
	return false
}

// Name returns the name of design column t < P+V: the feature's name,
// "feature=level" for an indicator, "feature:term" for a term count.
func (e *Encoder) Name(t int) string {
	if t >= len(e.terms) {
		return e.textName(t - len(e.terms))
	}
	term := e.terms[t]
	c := &e.schema.Features[term.Feature]
	if term.Level < 0 {
		return c.Name
	}
	return c.Name + "=" + c.Levels[term.Level]
}

// EncodeRow writes the design row of the feature row x (len D) to dst
// (len P) and returns dst. Missing cells take Fill.
//
// EncodeRow panics if dst or x have the wrong length.
func (e *Encoder) EncodeRow(dst, x []float64) []float64 {
	if len(dst) != len(e.terms) || len(x) != len(e.schema.Features) {
		panic("design: EncodeRow length mismatch")
	}
	for t, term := range e.terms {
		v := x[term.Feature]
		switch {
		case v != v:
			dst[t] = term.Fill
		case term.Level < 0:
			dst[t] = (v - term.Center) / term.Scale
		case int(v) == term.Level:
			dst[t] = 1
		case v < 0 || int(v) >= len(e.schema.Features[term.Feature].Levels):
			dst[t] = term.Fill // an index outside the levels counts as missing
		default:
			dst[t] = 0
		}
	}
	return dst
}

// EncodeRowScaled is EncodeRow for a row far out, of scale s
// (mathx.RowScale): it writes the design row as s.C·scaled + whole, a
// numeric cell's (x − Center)/Scale split by s.Split(x, Center) into
// x̃/Scale and d/Scale, so that neither part overflows where EncodeRow's
// would; the other columns go to whole as EncodeRow writes them, with
// scaled 0. Both have length P().
func (e *Encoder) EncodeRowScaled(scaled, whole, x []float64, s mathx.Scale) {
	e.EncodeRow(whole, x)
	for t, term := range e.terms {
		scaled[t] = 0
		if v := x[term.Feature]; term.Level < 0 && v == v {
			u, d := s.Split(v, term.Center)
			scaled[t], whole[t] = u/term.Scale, d/term.Scale
		}
	}
}

// Encode returns the design matrix of d, encoding row blocks on all cores.
// d must have the encoder's schema layout; Encode panics if its number of
// features differs.
func (e *Encoder) Encode(d *data.Dataset) *Matrix {
	if d.D() != len(e.schema.Features) {
		panic("design: Encode: dataset has a different number of features")
	}
	P := len(e.terms)
	m := &Matrix{N: d.N, P: P, Dense: make([]float64, d.N*P)}
	parallel.For(d.N, minBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			dst, x := m.Row(i), d.Row(i)
			if e.dense {
				// (x − center)/scale exactly as EncodeRow computes it.
				floats.Div(floats.SubTo(dst, x, e.center), e.scale)
				if !mathx.HasNaN(dst) {
					continue
				}
			}
			e.EncodeRow(dst, x)
		}
	})
	m.Sparse = e.EncodeText(d)
	return m
}

// termJSON is the model-file form of a Term: columns by name.
type termJSON struct {
	Feature string  `json:"feature"`
	Level   *string `json:"level,omitempty"`
	Center  float64 `json:"center"`
	Scale   float64 `json:"scale"`
	Fill    float64 `json:"fill"`
	// Vocabulary marks a text feature's term counts: its
	// text.Vocabulary (settings and terms).
	Vocabulary json.RawMessage `json:"vocabulary,omitempty"`
}

// textJSON is the model-file form of a text feature's term counts.
type textJSON struct {
	Feature    string           `json:"feature"`
	Vocabulary *text.Vocabulary `json:"vocabulary"`
}

// MarshalJSON writes the design columns as a list of
// {feature, level, center, scale, fill} objects, then one
// {feature, vocabulary} object per text feature, the vocabulary as
// text.Vocabulary writes it ({config, terms}).
func (e *Encoder) MarshalJSON() ([]byte, error) {
	out := make([]any, 0, len(e.terms)+len(e.text))
	for _, term := range e.terms {
		c := &e.schema.Features[term.Feature]
		tj := termJSON{Feature: c.Name, Center: term.Center, Scale: term.Scale, Fill: term.Fill}
		if term.Level >= 0 {
			tj.Level = &c.Levels[term.Level]
		}
		out = append(out, tj)
	}
	for _, tc := range e.text {
		out = append(out, textJSON{Feature: e.schema.Features[tc.feature].Name, Vocabulary: tc.vocab})
	}
	return json.Marshal(out)
}

// Unmarshal reads an encoder written by MarshalJSON for schema s, checking
// that every column names a feature and level of s, that the centres and
// fills lie within ±Bound and the scales in [1/Bound, Bound], and that
// every text feature has one valid vocabulary (text.UnmarshalVocabulary),
// after the dense columns.
func Unmarshal(s *data.Schema, b []byte) (*Encoder, error) {
	var in []termJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return nil, fmt.Errorf("design: %w", err)
	}
	e := &Encoder{schema: s}
	for t, tj := range in {
		j := s.Feature(tj.Feature)
		if j < 0 {
			return nil, fmt.Errorf("design: column %d: no feature %q in the schema", t, tj.Feature)
		}
		c := &s.Features[j]
		if (c.Kind == data.Text) != (tj.Vocabulary != nil) {
			return nil, fmt.Errorf("design: column %d: vocabulary given or missing for %s feature %q", t, c.Kind, c.Name)
		}
		if c.Kind == data.Text {
			if slices.ContainsFunc(e.text, func(tc textColumn) bool { return tc.feature == j }) {
				return nil, fmt.Errorf("design: column %d: second vocabulary for %q", t, c.Name)
			}
			v, err := text.UnmarshalVocabulary(tj.Vocabulary)
			if err != nil {
				return nil, fmt.Errorf("design: column %d (%s): %w", t, c.Name, err)
			}
			e.text = append(e.text, textColumn{feature: j, vocab: v, offset: e.V()})
			continue
		}
		if len(e.text) > 0 {
			return nil, fmt.Errorf("design: column %d: dense column %q after the text columns", t, c.Name)
		}
		term := Term{Feature: j, Level: -1, Center: tj.Center, Scale: tj.Scale, Fill: tj.Fill}
		switch {
		case (tj.Level != nil) != (c.Kind == data.Categorical):
			return nil, fmt.Errorf("design: column %d: level given or missing for %s feature %q", t, c.Kind, c.Name)
		case tj.Level != nil:
			if term.Level = c.Level(*tj.Level); term.Level < 0 {
				return nil, fmt.Errorf("design: column %d: feature %q has no level %q", t, c.Name, *tj.Level)
			}
		}
		if err := term.check(); err != nil {
			return nil, fmt.Errorf("design: column %d (%s): %w", t, c.Name, err)
		}
		e.terms = append(e.terms, term)
	}
	e.setDense()
	return e, nil
}

// maxShift bounds max_j |Center_j|/Scale_j for Raw: beyond it, recovering
// standardised sums from raw ones, Σ r (x − m)/s = (Σ r x − m Σ r)/s,
// would cancel more than three digits.
const maxShift = 1e3

// Raw returns d's feature matrix itself, with the centers and scales that
// standardise it, when the encoder is all-numeric, the data Fit saw had no
// missing cell and no column's mean lies more than maxShift standard
// deviations from zero; ok is false otherwise. d must be the data set the
// encoder was fitted on: Raw relies on Fit's pass over it for missing
// cells rather than reading it again. A model can then work on the raw rows x
// with the affine map z = (x − center)/scale folded into its parameters,
// without materialising the design matrix. The slices must not be
// modified.
func (e *Encoder) Raw(d *data.Dataset) (x, center, scale []float64, ok bool) {
	if !e.dense || !e.complete || d.D() != len(e.terms) {
		return nil, nil, nil, false
	}
	for t := range e.terms {
		if math.Abs(e.center[t]) > maxShift*e.scale[t] {
			return nil, nil, nil, false
		}
	}
	return d.X, e.center, e.scale, true
}
