package gda

import (
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/stats"
)

// Errors wrapped by the data errors of Fit and Update.
var (
	// ErrNotClassification: the data set has no categorical target
	// (data.ErrNotClassification).
	ErrNotClassification = data.ErrNotClassification
	// ErrOneClass: fewer than two classes have rows.
	ErrOneClass = errors.New("fewer than two classes have rows: discriminant analysis needs at least two")
	// ErrEmptyClass: a class of the schema has no training rows.
	ErrEmptyClass = errors.New("class without training rows")
	// ErrFeatureKind: a feature is not numeric.
	ErrFeatureKind = errors.New("unsuitable feature kind")
	// ErrNoFeatures: the data set has no feature column.
	ErrNoFeatures = errors.New("no feature columns")
	// ErrNotObserved: a feature has no observed value in the labelled rows.
	ErrNotObserved = errors.New("no observed value in the labelled rows")
	// ErrTooFewRows: too few rows to estimate a covariance matrix.
	ErrTooFewRows = errors.New("too few rows for a covariance matrix")
	// ErrSingular: a covariance matrix is singular or not positive
	// definite, or a feature has zero variance.
	ErrSingular = errors.New("singular covariance matrix")
	// ErrSchema: the data of an update does not match the model's schema.
	ErrSchema = errors.New("data does not match the model's schema")
)

// shrinkageAdvice ends the messages of ErrTooFewRows and ErrSingular.
const shrinkageAdvice = "use shrinkage (--shrinkage r in (0, 1], or --shrinkage auto)"

// checkRows checks what discriminant analysis needs of training rows:
// those of every classifier (data.Dataset.CheckClassRows), numeric
// features and no infinite cell.
func checkRows(d *data.Dataset) error {
	if err := d.CheckClassRows("gda"); err != nil {
		return err
	}
	s := d.Schema
	if len(s.Features) == 0 {
		return &data.ParseError{File: d.Source, Err: ErrNoFeatures}
	}
	for j, f := range s.Features {
		if f.Kind != data.Numeric {
			return &data.ParseError{File: d.Source, ColumnName: f.Name, Err: fmt.Errorf(
				"%w: the column is %v, discriminant analysis takes numeric features only", ErrFeatureKind, s.Features[j].Kind)}
		}
	}
	D := d.D()
	for i, v := range d.X {
		if math.IsInf(v, 0) {
			return &data.ParseError{File: d.Source, Line: d.Line(i / D), ColumnName: s.Features[i%D].Name, Err: data.ErrInfinite}
		}
	}
	return nil
}

// extendSchema returns the schema of a model fitted on data of schema old
// and then given data of schema upd: the same features; upd's classes
// begin with old's (new ones are appended) or are a prefix of them.
func extendSchema(old, upd *data.Schema) (*data.Schema, error) {
	if len(old.Features) != len(upd.Features) {
		return nil, fmt.Errorf("%w: %d features, the model has %d", ErrSchema, len(upd.Features), len(old.Features))
	}
	s := old.Clone()
	for j, f := range upd.Features {
		o := &s.Features[j]
		if f.Name != o.Name || f.Kind != o.Kind {
			return nil, fmt.Errorf("%w: feature %d is %q (%v), the model's is %q (%v)", ErrSchema, j+1, f.Name, f.Kind, o.Name, o.Kind)
		}
		o.Integral = o.Integral && f.Integral
	}
	if upd.Target == nil || upd.Target.Name != old.Target.Name || upd.Target.Kind != old.Target.Kind {
		return nil, fmt.Errorf("%w: the target must be %q", ErrSchema, old.Target.Name)
	}
	ol, ul := old.Target.Levels, upd.Target.Levels
	if n := min(len(ol), len(ul)); !slices.Equal(ul[:n], ol[:n]) {
		return nil, fmt.Errorf("%w: the classes must begin with %q or be a prefix of them", ErrSchema, ol)
	}
	if len(ul) > len(ol) {
		s.Target.Levels = append(s.Target.Levels, ul[len(ol):]...)
	}
	return s, nil
}

// accumulate adds the complete rows of d to the statistics s of data of
// the given schema and returns the schema extended with d's new classes,
// the statistics grown to match, and the indices of d's labelled rows with
// missing cells, left out. A nil schema starts from d's schema and empty
// statistics.
func accumulate(cfg Config, schema *data.Schema, s *stats.Classes, d *data.Dataset) (*data.Schema, *stats.Classes, []int, error) {
	if err := checkRows(d); err != nil {
		return nil, nil, nil, err
	}
	if schema == nil {
		schema, s = d.Schema.Clone(), stats.NewClasses(len(d.Schema.Classes()), d.D(), cfg.ShrinkageAuto)
	} else {
		var err error
		if schema, err = extendSchema(schema, d.Schema); err != nil {
			return nil, nil, nil, &data.ParseError{File: d.Source, Err: err}
		}
		s.Grow(len(schema.Classes()))
	}
	return schema, s, s.Add(d.X, d.Y, d.Weight), nil
}

// fit adds the rows of d to the statistics s of earlier data of the given
// schema (nil: none), estimates the contribution of rows with missing
// cells by EM, and derives the model.
func fit(kind string, cfg Config, schema *data.Schema, s *stats.Classes, d *data.Dataset) (*model, error) {
	schema, s, inc, err := accumulate(cfg, schema, s, d)
	if err != nil {
		return nil, err
	}
	return finish(kind, cfg, schema, s, d, inc)
}

// finish runs EM over the rows inc of d, which have missing cells, if
// there are any, and derives the model from the statistics.
func finish(kind string, cfg Config, schema *data.Schema, s *stats.Classes, d *data.Dataset, inc []int) (*model, error) {
	iters := 0
	if len(inc) > 0 {
		var err error
		if s, iters, err = em(kind, cfg, schema, s, d, inc); err != nil {
			return nil, err
		}
	}
	m, err := newModel(kind, cfg, schema, s, d.Source)
	if err != nil {
		return nil, err
	}
	m.iters = iters
	return m, nil
}

// fitStream fits a model to a sequence of chunks: the complete rows of each
// chunk are accumulated as they come; the rows with missing cells are
// kept (only they) and estimated by EM at the end, as fit does for the
// union of the chunks.
func fitStream(kind string, cfg Config, chunks iter.Seq2[*data.Dataset, error]) (*model, error) {
	var (
		schema  *data.Schema
		s       *stats.Classes
		pending = &data.Dataset{}
	)
	for d, err := range chunks {
		if err != nil {
			return nil, err
		}
		var inc []int
		if schema, s, inc, err = accumulate(cfg, schema, s, d); err != nil {
			return nil, err
		}
		pending.Source = d.Source
		if d.Weight != nil && pending.Weight == nil {
			pending.Weight = slices.Repeat([]float64{1}, pending.N)
		}
		for _, i := range inc {
			pending.X = append(pending.X, d.Row(i)...)
			pending.Y = append(pending.Y, d.Y[i])
			if pending.Weight != nil {
				w := 1.0
				if d.Weight != nil {
					w = d.Weight[i]
				}
				pending.Weight = append(pending.Weight, w)
			}
			pending.N++
		}
	}
	if schema == nil {
		return nil, &data.ParseError{Err: data.ErrNoRows}
	}
	pending.Schema = schema
	inc := make([]int, pending.N)
	for i := range inc {
		inc[i] = i
	}
	return finish(kind, cfg, schema, s, pending, inc)
}

// checkStats checks that the statistics can give a model: every class has
// rows, and the classes have enough rows for their covariance matrices.
func checkStats(kind string, cfg Config, schema *data.Schema, s *stats.Classes, source string) error {
	classes := schema.Classes()
	n, rows := 0, 0
	for k, c := range s.Class {
		if c.W > 0 {
			n++
			rows += c.N
		} else {
			return &data.ParseError{File: source, Err: fmt.Errorf("%w: %q", ErrEmptyClass, classes[k])}
		}
	}
	if n < 2 {
		return &data.ParseError{File: source, Err: ErrOneClass}
	}
	p := s.D
	shrunk := cfg.Shrinkage > 0 || cfg.ShrinkageAuto
	if kind == KindLDA {
		if need := p + n; rows < need && !shrunk {
			return &data.ParseError{File: source, Err: fmt.Errorf(
				"%w: lda with %d features and %d classes needs at least %d rows, have %d; %s",
				ErrTooFewRows, p, n, need, rows, shrinkageAdvice)}
		}
		return nil
	}
	for k, c := range s.Class {
		need := 2
		if !shrunk {
			need = p + 1
		}
		if c.N < need {
			return &data.ParseError{File: source, Err: fmt.Errorf(
				"%w: qda needs at least %d rows in every class, class %q has %d; %s",
				ErrTooFewRows, need, classes[k], c.N, shrinkageAdvice)}
		}
	}
	return nil
}

// covariances returns the covariance matrices of the model (one for LDA,
// one per class for QDA) from the statistics, as Config documents.
func covariances(kind string, cfg Config, s *stats.Classes) [][]float64 {
	p, K := s.D, s.K()
	shrunk := make([][]float64, K)
	for k, c := range s.Class {
		cov := make([]float64, p*p)
		for i, v := range c.S {
			cov[i] = v / c.W
		}
		shrink(cov, p, cfg, c)
		shrunk[k] = cov
	}
	if kind == KindQDA {
		if cfg.Estimator == Unbiased {
			for k, c := range s.Class {
				scale(shrunk[k], c.W/(c.W-1))
			}
		}
		return shrunk
	}
	w := 0.0
	for _, c := range s.Class {
		w += c.W
	}
	pooled := make([]float64, p*p)
	for k, c := range s.Class {
		for i, v := range shrunk[k] {
			pooled[i] += v * (c.W / w)
		}
	}
	if cfg.Estimator == Unbiased {
		scale(pooled, w/(w-float64(K)))
	}
	return [][]float64{pooled}
}

// shrink applies the shrinkage of cfg to the covariance cov of the class
// with statistics c, in place.
func shrink(cov []float64, p int, cfg Config, c *stats.Scatter) {
	r := cfg.Shrinkage
	if cfg.ShrinkageAuto {
		r = c.LedoitWolf()
	}
	if r == 0 {
		return
	}
	target := make([]float64, p) // the diagonal of the target
	if cfg.ShrinkageAuto {
		// μ_R = tr(R)/p on the standardised scale, σ_j = 1 for a
		// constant feature as in stats.Scatter.LedoitWolf.
		mu := 0.0
		for j := range p {
			if v := cov[j*p+j]; math.Sqrt(v) >= 10*0x1p-52 {
				mu++
			}
		}
		mu /= float64(p)
		for j := range p {
			target[j] = mu * cov[j*p+j]
			if math.Sqrt(cov[j*p+j]) < 10*0x1p-52 {
				target[j] = mu
			}
		}
	} else {
		tr := 0.0
		for j := range p {
			tr += cov[j*p+j]
		}
		for j := range p {
			target[j] = tr / float64(p)
		}
	}
	for i := range cov {
		cov[i] *= 1 - r
	}
	for j := range p {
		cov[j*p+j] += r * target[j]
	}
}

func scale(x []float64, a float64) {
	for i := range x {
		x[i] *= a
	}
}
