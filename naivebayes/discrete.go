package naivebayes

import (
	"errors"
	"fmt"
	"iter"
	"maps"
	"math"
	"slices"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/enum"
	"github.com/gendisc/gendisc/internal/kernel"
	"github.com/gendisc/gendisc/internal/mathx"
	"github.com/gendisc/gendisc/text"
)

// Family selects the naive Bayes variant of a Config: which distribution
// each column gets given the class.
type Family int

const (
	// Mixed (kind "nb", the default) gives each column the family of its
	// type: numeric → Gaussian, categorical → categorical, text →
	// multinomial word counts (or Bernoulli presence, Config.TextModel).
	Mixed Family = iota
	// Bernoulli (kind "bernoulli-nb"): binary features, present or
	// absent. A numeric x_j is present when x_j > Config.Binarize; a
	// categorical column of at most two levels is present at its second
	// level; a text column's terms are present when they occur.
	Bernoulli
	// Multinomial (kind "multinomial-nb"): non-negative counts. The
	// numeric columns form one bag of counts; each text column is a bag
	// of words of its own.
	Multinomial
	// Complement (kind "complement-nb"): the complement naive Bayes of
	// Rennie et al. (2003) on the counts of Multinomial.
	Complement
	// Categorical (kind "categorical-nb"): every feature categorical.
	Categorical
)

// The kinds of the package: Gaussian naive Bayes (GaussianConfig) and
// the families of Config.
const (
	KindGaussian    = "gaussian-nb"
	KindMixed       = "nb"
	KindBernoulli   = "bernoulli-nb"
	KindMultinomial = "multinomial-nb"
	KindComplement  = "complement-nb"
	KindCategorical = "categorical-nb"
)

var familyKinds = &enum.Names[Family]{Type: "Family", What: "naive Bayes kind", Prefix: "naivebayes: ", List: []string{
	Mixed:       KindMixed,
	Bernoulli:   KindBernoulli,
	Multinomial: KindMultinomial,
	Complement:  KindComplement,
	Categorical: KindCategorical,
}}

// String returns the family's kind: "nb", "bernoulli-nb",
// "multinomial-nb", "complement-nb" or "categorical-nb".
func (f Family) String() string { return familyKinds.String(f) }

// ParseFamily returns the family whose kind is s (see Family.String).
func ParseFamily(s string) (Family, error) { return familyKinds.Parse(s) }

// TextModel selects the family of the text columns of a Mixed model.
type TextModel int

const (
	// TextMultinomial models a document's word counts (the default).
	TextMultinomial TextModel = iota
	// TextBernoulli models which words a document contains.
	TextBernoulli
)

var textModelNames = &enum.Names[TextModel]{Type: "TextModel", What: "text model", Prefix: "naivebayes: ",
	List: []string{TextMultinomial: "multinomial", TextBernoulli: "bernoulli"}}

// String returns "multinomial" or "bernoulli".
func (t TextModel) String() string { return textModelNames.String(t) }

// MarshalText writes the text model's name.
func (t TextModel) MarshalText() ([]byte, error) { return textModelNames.MarshalText(t) }

// UnmarshalText reads "multinomial" or "bernoulli".
func (t *TextModel) UnmarshalText(b []byte) error { return textModelNames.UnmarshalText(t, b) }

// NoAlpha as Config.Alpha means α = 0: no smoothing, maximum likelihood.
const NoAlpha = -1

// maxSmoothing bounds Config.Alpha and the variance smoothing: the sums of
// counts and smoothing, or the smoothed variances, of larger values
// overflow float64, and no useful model smooths that much.
const maxSmoothing = 1e100

// Config holds the hyperparameters of the count-based naive Bayes
// variants (Bernoulli, multinomial, complement, categorical) and of mixed
// naive Bayes. The zero value is mixed naive Bayes with Laplace smoothing
// (α = 1) and maximum-likelihood class priors.
type Config struct {
	// Family selects the variant; the zero value is Mixed.
	Family Family
	// Alpha is the pseudo-count α added to every count: the MAP estimate
	// under a symmetric Beta/Dirichlet(α + 1) prior. 0 means 1 (Laplace
	// smoothing); NoAlpha means α = 0, maximum likelihood, under which a
	// value or word never seen with a class has probability 0 (−Inf in
	// log space) and can rule the class out. Complement needs α > 0.
	// At most 1e100.
	Alpha float64
	// Binarize is the threshold of Bernoulli numeric features: x_j is
	// present when x_j > Binarize (scikit-learn's binarize, default 0).
	Binarize float64
	// Norm normalises complement naive Bayes' weights (Rennie et al.'s
	// weight normalisation, scikit-learn's norm=True).
	Norm bool
	// TextModel is the family of the text columns of a Mixed model.
	TextModel TextModel
	// Text sets how the text columns become terms (tokens, n-grams, stop
	// words, min_df, max_features); the zero value keeps every term.
	Text text.VectorizerConfig
	// VarSmoothing is the Gaussian variance smoothing of the numeric
	// columns of a Mixed model, as GaussianConfig.VarSmoothing.
	VarSmoothing float64
	// Variance is the variance tying of the numeric columns of a Mixed
	// model, as GaussianConfig.Variance (FeatureVariance: linear log-odds
	// in those columns).
	Variance Variance
	// PriorAlpha, when positive, smooths the class prior (see
	// GaussianConfig.PriorAlpha).
	PriorAlpha float64
	// ClassPrior, when not nil, fixes the class prior (see
	// GaussianConfig.ClassPrior). Complement naive Bayes has no class
	// prior (its scores leave it out, as Rennie et al. and scikit-learn).
	ClassPrior map[string]float64
}

// params is a validated Config with its defaults applied.
type params struct {
	cfg   Config // Alpha and VarSmoothing resolved: the value in effect
	alpha float64
	prior classPrior
}

func (c Config) params() (params, error) {
	p := params{cfg: c, alpha: c.Alpha}
	switch {
	case !familyKinds.Valid(c.Family):
		return p, fmt.Errorf("naivebayes: unknown family %d", int(c.Family))
	case !textModelNames.Valid(c.TextModel):
		return p, fmt.Errorf("naivebayes: unknown text model %d", int(c.TextModel))
	case c.Alpha == 0:
		p.alpha = 1
	case c.Alpha == NoAlpha:
		p.alpha = 0
	case !(c.Alpha > 0 && c.Alpha <= maxSmoothing):
		return p, fmt.Errorf("naivebayes: alpha %v: want a number in [0, %g]", c.Alpha, maxSmoothing)
	}
	if c.Family == Complement && p.alpha == 0 {
		return p, errors.New("naivebayes: complement naive Bayes needs alpha > 0")
	}
	if math.IsNaN(c.Binarize) || math.IsInf(c.Binarize, 0) {
		return p, fmt.Errorf("naivebayes: binarize threshold %v: want a finite number", c.Binarize)
	}
	if err := c.Text.Validate(); err != nil {
		return p, err
	}
	if c.Text.AlternateSign {
		return p, errors.New("naivebayes: alternate signs make hashed word counts negative, and naive Bayes models counts or presence; hash without them")
	}
	g, err := GaussianConfig{VarSmoothing: c.VarSmoothing, Variance: c.Variance}.params()
	if err != nil {
		return p, err
	}
	p.cfg.Alpha, p.cfg.VarSmoothing = p.alpha, g.varSmoothing
	if p.alpha == 0 {
		p.cfg.Alpha = NoAlpha
	}
	if g.varSmoothing == 0 {
		p.cfg.VarSmoothing = NoVarSmoothing
	}
	p.prior, err = newClassPrior(c.PriorAlpha, c.ClassPrior)
	return p, err
}

// part is the share of a Model that covers some of its columns with one
// family of distributions. It keeps the sufficient statistics of its
// columns (weighted counts, which add exactly), from which fit derives the
// parameters of the family's log-likelihood terms.
type part interface {
	family
	// checkAdd returns the error of the first cell of the labelled rows
	// of d that the part cannot take, positioned at its row and column,
	// or nil.
	checkAdd(d *data.Dataset) error
	// add accumulates the labelled rows of d, checked, with k classes.
	add(d *data.Dataset, k int) error
	// merge adds the statistics of o, a part of the same type and columns
	// for rows of another schema, which r maps into s (of K classes), the
	// union schema (data.Schema.Extend). o is not changed.
	merge(o part, r *data.Remap, s *data.Schema) error
	// fit derives the parameters from the statistics, for the model's
	// schema; source names the data in errors.
	fit(p *params, schema *data.Schema, source string) error
	// clone returns a deep copy of the statistics, unfitted.
	clone() part
	persistentPart
}

// Model is a fitted naive Bayes model of a Config: Bernoulli,
// multinomial, complement, categorical, or mixed (a family per column
// type). Its joint log-likelihood is the class log-prior plus each
// family's terms over its observed columns,
//
//	log p(x, y = k) = log π_k + Σ_f Σ_{j ∈ f, x_j observed} log p(x_j | y = k)
//
// (complement naive Bayes scores without the prior). It keeps the
// sufficient statistics of its training data, so that it can be updated
// with more data (Update), merged with models of other rows (Accumulator)
// and saved (MarshalJSON). A Model is immutable and safe for concurrent
// use.
type Model struct {
	classifier
	params      params
	classWeight []float64
	parts       []part
}

// Fit fits the model of c to the rows of d. Rows whose label is missing
// are skipped; missing cells are left out of their column's statistics.
// Which columns the family takes is documented at Family; a column it
// cannot take is an error. Data problems are errors, most of them
// *data.ParseError values naming the source, line and column: a negative
// count for multinomial or complement naive Bayes, an infinite value,
// fewer than two classes, a bad label or weight.
func (c Config) Fit(d *data.Dataset) (*Model, error) {
	return c.FitStream(func(yield func(*data.Dataset, error) bool) { yield(d, nil) })
}

// FitStream fits the model to a sequence of chunks of rows as Fit fits
// their union, one chunk in memory at a time: the counts of each chunk are
// added to an accumulator (gendisc.AddChunks). Every chunk must have the
// features of the first; its classes and category levels may come in any
// order, those not seen before being appended (data.Schema.Extend). An
// error from the sequence is returned as is.
func (c Config) FitStream(chunks iter.Seq2[*data.Dataset, error]) (*Model, error) {
	a, err := c.NewAccumulator()
	if err != nil {
		return nil, err
	}
	if err := gendisc.AddChunks(a, chunks); err != nil {
		return nil, err
	}
	return a.finish(false)
}

// Update returns a new model fitted on the training data of m and the rows
// of d together, by adding their counts (m.Accumulator); m is unchanged.
// d's features must be m's; its classes and category levels may come in
// any order, those m lacks being appended. Counts add exactly, so Update
// of Fit(A) with B equals Fit of A ∪ B (to the last bit where the counts
// are whole numbers, as they are without weights).
func (m *Model) Update(d *data.Dataset) (*Model, error) {
	a := m.accumulator()
	if err := a.Add(d); err != nil {
		return nil, err
	}
	return a.finish(false)
}

// Accumulator is a partial fit of a Config (gendisc.Accumulator): the
// schema of the rows added so far, the class weights and the statistics
// of each part of the model (per class, the weighted counts of the values
// of each count or categorical column and of the terms of each text
// column with the text.Counter of its terms; the moments of the numeric
// columns of a Mixed model). Finish gives the model of Fit on all the rows
// added and merged: bit for bit where the counts are whole numbers (and
// the numeric columns' moments up to rounding).
type Accumulator struct {
	params      params
	schema      *data.Schema // nil before the first rows
	classWeight []float64
	parts       []part
	source      string // the latest rows' source, for errors
}

var _ gendisc.Accumulator = (*Accumulator)(nil)

// NewAccumulator returns an empty accumulator of the model of c, or the
// error of invalid settings.
func (c Config) NewAccumulator() (*Accumulator, error) {
	p, err := c.params()
	if err != nil {
		return nil, err
	}
	return &Accumulator{params: p}, nil
}

// Accumulator returns an accumulator holding the statistics and settings
// of m: adding rows and finishing updates m, merging another model's
// accumulator merges the models.
func (m *Model) Accumulator() gendisc.Accumulator { return m.accumulator() }

func (m *Model) accumulator() *Accumulator {
	return &Accumulator{params: m.params, schema: m.schema, classWeight: slices.Clone(m.classWeight), parts: cloneParts(m.parts)}
}

func cloneParts(parts []part) []part {
	out := make([]part, len(parts))
	for i, pt := range parts {
		out[i] = pt.clone()
	}
	return out
}

func (a *Accumulator) kind() string { return a.params.cfg.Family.String() }

// Add adds the statistics of the labelled rows of d. d's features must be
// the accumulator's; its classes, category levels and words may be new
// and come in any order: d is renumbered into the union schema
// (data.Schema.Extend, data.Remap.Apply) and its rows added to the
// counts. Data problems are errors, as for Fit; after one the accumulator
// is unchanged.
func (a *Accumulator) Add(d *data.Dataset) error {
	if err := checkRows(d); err != nil {
		return err
	}
	if d.D() == 0 {
		return &data.ParseError{File: d.Source.Name, Err: errors.New("no feature columns")}
	}
	schema, parts := a.schema, a.parts
	var r *data.Remap
	if schema == nil {
		var kerr *kindError
		if parts, kerr = assignParts(a.params, d.Schema); kerr != nil {
			return &data.ParseError{File: d.Source.Name, ColumnName: kerr.column, Err: kerr.err}
		}
		schema = d.Schema.Clone()
	} else {
		var err error
		if schema, r, err = a.extend(d.Schema, d.Source.Name); err != nil {
			return err
		}
	}
	for _, pt := range parts {
		if err := pt.checkAdd(d); err != nil {
			return err
		}
	}
	d = r.Apply(d, schema)
	a.schema, a.parts, a.source = schema, parts, d.Source.Name
	k := len(schema.Classes())
	a.classWeight = append(a.classWeight, make([]float64, k-len(a.classWeight))...)
	for i, y := range d.Y {
		if y == y {
			a.classWeight[int(y)] += rowWeight(d.Weight, i)
		}
	}
	for _, pt := range parts {
		if err := pt.add(d, k); err != nil {
			return err
		}
	}
	return nil
}

// extend returns the union of the accumulator's schema and t, with the
// map of t's indices into it (data.Schema.Extend): a *data.ParseError
// naming source when t has other features, or when the union has a column
// that the family cannot take (a Bernoulli column of three levels).
func (a *Accumulator) extend(t *data.Schema, source string) (*data.Schema, *data.Remap, error) {
	s, r, err := extend(a.schema, t, source)
	if err != nil {
		return nil, nil, err
	}
	if a.params.cfg.Family == Bernoulli {
		if _, kerr := assignParts(a.params, s); kerr != nil {
			return nil, nil, &data.ParseError{File: source, ColumnName: kerr.column, Err: kerr.err}
		}
	}
	return s, r, nil
}

// Merge adds the statistics of o, an *Accumulator with the same settings
// (a *gendisc.MergeError otherwise) whose schema has the accumulator's features
// (a *data.ParseError wrapping a *data.SchemaError otherwise). Classes,
// category levels and words that only o has are appended, o's indices
// renumbered. o is unchanged.
func (a *Accumulator) Merge(o gendisc.Accumulator) error {
	b, ok := o.(*Accumulator)
	if !ok || b.kind() != a.kind() {
		return mergeError(a.kind(), otherKind(o), "another kind of model")
	}
	if err := sameSettings(a.kind(), a.settings(), b.settings()); err != nil {
		return err
	}
	if b.schema == nil {
		return nil
	}
	if a.schema == nil {
		a.schema, a.classWeight, a.parts, a.source = b.schema, slices.Clone(b.classWeight), cloneParts(b.parts), b.source
		return nil
	}
	s, r, err := a.extend(b.schema, b.source)
	if err != nil {
		return err
	}
	a.schema = s
	a.classWeight = append(a.classWeight, make([]float64, len(s.Classes())-len(a.classWeight))...)
	for c, w := range b.classWeight {
		a.classWeight[remapped(r.Target, c)] += w
	}
	for i, pt := range a.parts {
		if err := pt.merge(b.parts[i], r, s); err != nil {
			return err
		}
	}
	return nil
}

// Model finishes the fit (Finish).
func (a *Accumulator) Model() (gendisc.Model, error) {
	m, err := a.Finish()
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Finish returns the model of the statistics added and merged so far,
// with the errors of Fit (data.ErrNoRows before any rows). The accumulator
// stays usable.
func (a *Accumulator) Finish() (*Model, error) { return a.finish(true) }

// finish returns the model of the statistics, a copy of them when keep is
// set; otherwise the model takes them and a must not be used again.
func (a *Accumulator) finish(keep bool) (*Model, error) {
	if a.schema == nil {
		return nil, &data.ParseError{File: a.source, Err: data.ErrNoRows}
	}
	m := &Model{params: a.params, classWeight: a.classWeight, parts: a.parts}
	if keep {
		m.classWeight, m.parts = slices.Clone(a.classWeight), cloneParts(a.parts)
	}
	m.schema = a.schema
	return m, m.fit(a.source)
}

// kindError is the reason a column cannot go to a family.
type kindError struct {
	column string
	err    error
}

// assignParts returns the parts that cover the features of s under the
// settings p: the columns of each family in schema order, one text part
// per text column.
func assignParts(p params, s *data.Schema) ([]part, *kindError) {
	var gauss, counts, cats []int
	var texts []part
	fam := p.cfg.Family
	for j, c := range s.Features {
		bad := func(hint string) *kindError {
			return &kindError{c.Name, &data.KindError{Column: c.Name, Kind: c.Kind, Model: fam.String(), Takes: hint, Err: ErrFeatureKind}}
		}
		switch {
		case c.Kind == data.Text && fam != Categorical:
			texts = append(texts, newTextPart(j, textFamily(fam, p.cfg.TextModel), p.cfg.Text))
		case c.Kind == data.Categorical && fam == Bernoulli:
			if len(c.Levels) > 2 {
				return nil, bad("categorical columns of at most two levels (binary), numeric and text columns")
			}
			counts = append(counts, j)
		case c.Kind == data.Categorical && (fam == Mixed || fam == Categorical):
			cats = append(cats, j)
		case c.Kind == data.Numeric && fam == Mixed:
			gauss = append(gauss, j)
		case c.Kind == data.Numeric && fam != Categorical:
			counts = append(counts, j)
		case fam == Categorical:
			return nil, bad("categorical columns only (read integer codes as categorical: dataio.Options.Categorical)")
		default:
			return nil, bad("numeric counts and text columns (use categorical-nb or nb for categorical columns)")
		}
	}
	var parts []part
	if len(gauss) > 0 {
		parts = append(parts, newGaussianPart(gauss, len(s.Classes())))
	}
	if len(counts) > 0 {
		parts = append(parts, newCountPart(counts, fam, s, p.cfg.Binarize))
	}
	if len(cats) > 0 {
		parts = append(parts, newCategoricalPart(cats))
	}
	return append(parts, texts...), nil
}

// fit derives the class prior and every part's parameters.
func (m *Model) fit(source string) error {
	if err := checkClasses(source, m.classWeight); err != nil {
		return err
	}
	prior, err := m.params.prior.priors(m.schema.Classes(), m.classWeight)
	if err != nil {
		return err
	}
	fams := make([]family, len(m.parts))
	for i, pt := range m.parts {
		if err := pt.fit(&m.params, m.schema, source); err != nil {
			return err
		}
		fams[i] = pt
	}
	m.classifier = newClassifier(m.schema, prior, fams...)
	if m.params.cfg.Family == Complement {
		clear(m.logPrior) // Rennie et al.'s scores have no prior
	}
	return nil
}

// rowWeight is w_i, 1 when w is nil.
func rowWeight(w []float64, i int) float64 {
	if w == nil {
		return 1
	}
	return w[i]
}

var _ gendisc.Generative = (*Model)(nil)

// Kind returns the kind of the model's family (Family.String).
func (m *Model) Kind() string { return m.params.cfg.Family.String() }

// Schema returns a copy of the schema of the training data.
func (m *Model) Schema() *data.Schema { return m.schema.Clone() }

// Classes returns the class names, in the order of the probability
// columns.
func (m *Model) Classes() []string { return slices.Clone(m.schema.Classes()) }

// Config returns the settings the model was fitted with, defaults
// applied: fitting the same data with them gives the same model.
func (m *Model) Config() Config {
	c := m.params.cfg
	c.ClassPrior = maps.Clone(c.ClassPrior)
	return c
}

// Priors returns the class priors π_k (for complement naive Bayes, the
// priors it would have; its scores do not use them).
func (m *Model) Priors() []float64 { return slices.Clone(m.prior) }

// ClassWeights returns the total weight of the labelled training rows of
// each class.
func (m *Model) ClassWeights() []float64 { return slices.Clone(m.classWeight) }

// LogProba writes log P(y = k | x_i) to dst[i·K + k] for every row i of d
// and returns dst (allocated when nil): the joint log-likelihood
// normalised by a stable log-sum-exp, missing cells marginalised. A row
// that no class can have produced (possible only with α = 0) gets −Inf for
// every class; Impossible reports such rows. It panics if d's features
// differ from the model's schema by name, kind or order (or a text
// feature's documents are not one per row; without them, d.Text nil, the
// documents are missing) or dst has a length other than d.N·K.
func (m *Model) LogProba(dst []float64, d *data.Dataset) []float64 {
	return m.scores(dst, nil, nil, d, kernel.NormalizeLogRowsBest, mathx.NormalizeLogScaled)
}

// logProbaRow normalises a row of joint log-likelihoods to
// log-probabilities, leaving a row that no class can produce (its largest
// value not above −Inf) as it is.
func logProbaRow(row []float64) {
	if slices.Max(row) > math.Inf(-1) {
		mathx.NormalizeLog(row)
	}
}

// JointLogLikelihood writes log p(x_i, y = k) to dst[i·K + k] for every row
// i of d and returns dst, with the conventions of LogProba. For complement
// naive Bayes these are Rennie et al.'s class scores, which leave out the
// prior and are not log-probabilities.
func (m *Model) JointLogLikelihood(dst []float64, d *data.Dataset) []float64 {
	return m.joint(dst, d, false)
}

// ScoreSamples writes log p(x_i) = log Σ_k p(x_i, y = k) for every row i
// of d to dst and returns it (allocated when nil): the density gendisc
// score reports, missing cells marginalised. Words of a text column that
// are not in its vocabulary take the probability of one more vocabulary
// slot that no training document filled (the smoothed unseen mass, see
// textPart.addUnseen for the formulas): a document of unseen words
// scores low, where JointLogLikelihood and LogProba leave such words out.
// The slot is a per-class term of the density only; the predictions, from
// LogProba, do not see it and are those of a model without it, bit for
// bit. An empty document is no observation, as a missing cell: under
// the multinomial model, which leaves a document's length out, the empty
// bag has probability 1 given its length 0. For complement naive Bayes,
// whose scores are not log-probabilities, it is the log-sum-exp of
// JointLogLikelihood. It panics as LogProba does, or if dst has a length
// other than d.N.
func (m *Model) ScoreSamples(dst []float64, d *data.Dataset) []float64 {
	jll := m.joint(nil, d, false)
	for _, pt := range m.parts {
		if t, ok := pt.(*textPart); ok {
			t.addUnseen(jll, d, m.params.alpha)
		}
	}
	if dst == nil {
		dst = make([]float64, d.N)
	}
	if len(dst) != d.N {
		panic(fmt.Sprintf("naivebayes: ScoreSamples: dst has length %d for %d rows", len(dst), d.N))
	}
	K := len(m.logPrior)
	for i := range dst {
		dst[i] = mathx.LogSumExp(jll[i*K : (i+1)*K])
	}
	return dst
}

// Proba writes P(y = k | x_i) to dst[i·K + k], bit for bit the
// exponential of what LogProba writes (gendisc.BatchProba), with its
// conventions: each chunk of rows is normalised and exponentiated by
// kernel.ProbaRows while it is in cache, and a row that no class can
// produce is all zeros.
func (m *Model) Proba(dst []float64, d *data.Dataset) []float64 {
	return m.scores(dst, nil, nil, d, kernel.ProbaRows, mathx.NormalizeLogScaled)
}

// probaRow turns a row of joint log-likelihoods into probabilities: the
// softmax, or the exponentials themselves (0, or NaN where a value is NaN)
// when the largest is not above −Inf, as exp(LogProba) gives.
func probaRow(row []float64) {
	if slices.Max(row) > math.Inf(-1) {
		mathx.Softmax(row)
		return
	}
	for i, v := range row {
		row[i] = math.Exp(v)
	}
}

// CheckCounts returns an error for the first cell of d that the model
// cannot score, or nil: for multinomial and complement naive Bayes a
// negative count (ErrNegativeCount), a *data.ParseError naming the source,
// line and column as Fit's does. LogProba does not check (a negative count
// gives a finite but meaningless score); call CheckCounts on data from
// outside first.
func (m *Model) CheckCounts(d *data.Dataset) error {
	m.checkFeatures(d)
	for _, pt := range m.parts {
		if c, ok := pt.(*countPart); ok {
			if err := c.check(d); err != nil {
				return err
			}
		}
	}
	return nil
}

// ErrImpossible: under the model every class has probability 0 for the
// row (a value or word never seen with any class, with α = 0).
var ErrImpossible = errors.New("no class can produce this row: every class has probability 0 (alpha 0 gives unseen values probability 0; set Config.Alpha > 0)")

// Impossible returns an error naming the first row of d (by its line when
// known) for which every class has probability 0, or nil. Only a model
// with α = 0 can have such rows.
func (m *Model) Impossible(d *data.Dataset) error {
	if m.params.alpha > 0 {
		return nil
	}
	jll := m.joint(nil, d, false)
	k := len(m.logPrior)
	for i := range d.N {
		if slices.Max(jll[i*k:(i+1)*k]) == math.Inf(-1) {
			return d.RowError(i, "%w", &ImpossibleError{Row: i})
		}
	}
	return nil
}

// SameStatistics reports whether the accumulators of o gather the
// statistics of c's: the same family, binarisation threshold, text model
// and text settings, which decide the counts; α, the complement weights'
// normalisation, the variance smoothing and tying and the class prior
// apply when the model is made of the counts (ModelFrom).
func (c Config) SameStatistics(o Config) bool {
	return c.Family == o.Family && c.Binarize == o.Binarize && c.TextModel == o.TextModel && c.Text == o.Text
}

// ModelFrom returns the model of c made of the statistics of a, an
// accumulator of a configuration with the same statistics
// (SameStatistics): the model of c fitted to a's rows. a is not changed.
func (c Config) ModelFrom(a *Accumulator) (*Model, error) {
	p, err := c.params()
	if err != nil {
		return nil, err
	}
	if !c.SameStatistics(a.params.cfg) {
		return nil, mergeError(c.Family.String(), a.kind(), "statistics of other settings")
	}
	b := *a
	b.params = p
	return b.finish(true)
}
